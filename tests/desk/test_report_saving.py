"""Saving a report from its preview (issue 36, point 9): the file dialog proposes a name that says the
report, its table and the day, in the folder the last report went to (else Documents, never the
folder the desk started in), and the preview says where the file was written, in full."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot
from reportlab.pdfgen.canvas import Canvas

from ofc_desk.desk.records import report_folder
from ofc_desk.desk.records.report_actions import ReportPreview, report_file_name, show_preview


def one_page_pdf() -> bytes:
    out = io.BytesIO()
    page = Canvas(out)
    page.drawString(72, 720, "Session report")
    page.save()
    return out.getvalue()


def test_a_report_file_is_named_by_report_table_and_day() -> None:
    day = date(2026, 12, 6)
    assert report_file_name("Session report", "Jade 1", day) == "session-report-jade-1-2026-12-06.pdf"
    unsafe = report_file_name("Table close", "T7 / high: stakes", day)
    assert unsafe == "table-close-t7-high-stakes-2026-12-06.pdf"
    assert report_file_name("Session report", "", day) == "session-report-2026-12-06.pdf"


def test_the_save_proposes_documents_then_the_last_folder_and_says_the_full_path(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(report_folder, "_last_folder", [])
    monkeypatch.setattr(report_folder, "_kept_in", [])
    proposed: list[str] = []
    target = tmp_path / "kept" / "jade.pdf"
    target.parent.mkdir()

    def save_as(*args: Any) -> tuple[str, str]:
        proposed.append(str(args[2]))
        return str(target), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    preview = show_preview(None, one_page_pdf(), "Session report", refuse=lambda _said: None, table="Jade 1")
    assert isinstance(preview, ReportPreview)
    qtbot.addWidget(preview)
    documents = report_folder.report_folder()  # nothing saved yet in this run
    assert documents != Path.cwd()
    preview.ask_and_save()
    first = Path(proposed[0])
    assert first.name == report_file_name("Session report", "Jade 1", date.today())
    assert first.parent == documents
    assert target.read_bytes().startswith(b"%PDF")
    assert preview.notice.text() == f"Saved: {target.resolve()}"
    preview.ask_and_save()
    assert Path(proposed[1]).parent == target.parent  # the folder the last report went to
    preview.close()


def test_the_last_folder_is_kept_in_the_settings_for_the_next_run(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings_file = str(tmp_path / "desk.ini")
    monkeypatch.setattr(report_folder, "_last_folder", [])
    monkeypatch.setattr(report_folder, "_kept_in", [])
    report_folder.keep_report_folder_in(QSettings(settings_file, QSettings.Format.IniFormat))
    documents = report_folder.report_folder()
    target = tmp_path / "kept" / "jade.pdf"
    target.parent.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_args: (str(target), ""))
    preview = show_preview(None, one_page_pdf(), "Session report", refuse=lambda _said: None, table="Jade 1")
    assert isinstance(preview, ReportPreview)
    qtbot.addWidget(preview)
    preview.ask_and_save()
    preview.close()
    # The desk starts again: nothing in memory, its settings file read anew.
    monkeypatch.setattr(report_folder, "_last_folder", [])
    report_folder.keep_report_folder_in(QSettings(settings_file, QSettings.Format.IniFormat))
    assert report_folder.report_folder() == target.parent
    target.unlink()
    target.parent.rmdir()  # the folder is gone (a USB stick taken out): Documents again
    assert report_folder.report_folder() == documents
