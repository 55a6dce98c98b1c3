"""File → Session report… at the desk: built in the background, previewed, printed, saved."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from ofc_desk.desk.records import report_actions
from ofc_desk.desk.records.report_actions import (
    ReportPreview,
    build_session_report,
    build_table_close_report,
    open_session_report,
    open_table_close_report,
)
from ofc_desk.i18n import Language, active_language
from ofc_desk.reports.record import SessionRecord
from tests.helpers.pdf_text import page_count, page_texts


def _preview() -> ReportPreview | None:
    return next(
        (w for w in QApplication.topLevelWidgets() if isinstance(w, ReportPreview) and w.isVisible()), None
    )


def test_report_opens_in_a_print_preview_that_prints_and_saves(
    qtbot: QtBot, example_db: str, tmp_path: Path, reports_out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    refused: list[str] = []
    open_session_report(parent, example_db, None, refuse=refused.append)
    qtbot.waitUntil(lambda: _preview() is not None, timeout=20_000)
    preview = _preview()
    assert preview is not None
    qtbot.addWidget(preview)
    assert len(preview.pages) >= 2
    assert preview.save_action.text() == "Save as PDF… (Ctrl+S)"
    preview.resize(900, 1000)
    qtbot.wait(200)
    preview.grab().save(str(reports_out / "report-preview.png"))

    saved = tmp_path / "saved.pdf"
    preview.save_pdf(str(saved))
    assert saved.read_bytes() == preview.pdf
    # A file that cannot be written is said on the preview's own line, not in a box.
    nowhere = tmp_path / "no such folder" / "report.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_args: (str(nowhere), ""))
    preview.ask_and_save()
    assert preview.refusal.text().startswith(f"could not save {nowhere}")
    assert "T778" in page_texts(saved)[0]

    # What the print dialog's OK does: paint every page onto the chosen printer.
    printer = QPrinter(QPrinter.PrinterMode.ScreenResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printed = tmp_path / "printed.pdf"
    printer.setOutputFileName(str(printed))
    preview.paint_pages(printer)
    assert page_count(printed) == len(preview.pages)
    preview.close()
    assert refused == []


def test_a_report_that_cannot_be_built_says_why(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the desk's refusal line, never in a modal box."""
    boxes: list[str] = []
    for kind in ("warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, kind, lambda _parent, _title, text: boxes.append(text))
    shown: list[str] = []
    open_session_report(None, f"sqlite:///{tmp_path / 'missing.db'}", None, refuse=shown.append)
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    assert shown == [f"the report could not be built: no database at {tmp_path / 'missing.db'}"]
    assert boxes == []
    assert not report_actions._running


def test_built_report_is_the_pdf_of_the_stored_session(example_db: str) -> None:
    pdf = build_session_report(example_db, 1)
    assert pdf.startswith(b"%PDF")


def test_table_close_opens_in_its_own_preview(qtbot: QtBot, example_db: str) -> None:
    open_table_close_report(None, example_db, None, 250, room="Riverside", refuse=pytest.fail)
    qtbot.waitUntil(lambda: _preview() is not None, timeout=20_000)
    preview = _preview()
    assert preview is not None
    qtbot.addWidget(preview)
    assert preview.windowTitle() == "Table close" and len(preview.pages) == 1
    text = " ".join(page_texts(preview.pdf)[0].split())
    assert "Counted chips (entered by the floor supervisor) 250" in text
    assert "SHORT by 7 chips" in text and "Riverside" in text
    preview.close()


def test_a_session_that_does_not_verify_prints_no_report_at_the_desk(
    qtbot: QtBot, example_db: str, tmp_path: Path
) -> None:
    altered = tmp_path / "altered.db"
    shutil.copyfile(example_db.removeprefix("sqlite:///"), altered)
    with closing(sqlite3.connect(altered)) as connection:
        connection.execute("DROP TRIGGER ofc_refuse_update_chip_ledger")  # as the file's owner can
        connection.execute("UPDATE chip_ledger SET amount = amount + 1000 WHERE id = 1")
        connection.commit()
    shown: list[str] = []
    open_session_report(None, f"sqlite:///{altered}", 1, refuse=shown.append)
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    assert shown == [
        "the report could not be built: session 1 does not verify, so no report:"
        " chip ledger row 1 differs from the events"
    ]


def test_a_report_in_another_language_is_read_in_it(example_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loader says some words as it reads (an undo's entry, the rules page's values): a Chinese
    report printed at an English desk reads the record in Chinese, on the worker's thread too."""
    from ofc_desk.reports import loader

    read_in: list[Language] = []
    load = loader.load_session_record

    def load_and_note(*args: Any, **kwargs: Any) -> SessionRecord:
        read_in.append(active_language())
        return load(*args, **kwargs)

    monkeypatch.setattr(loader, "load_session_record", load_and_note)
    build_session_report(example_db, 1, language=Language.ZH_CN)
    build_table_close_report(example_db, 1, None, language=Language.RU)
    assert read_in == [Language.ZH_CN, Language.RU]
    assert active_language() is Language.EN
