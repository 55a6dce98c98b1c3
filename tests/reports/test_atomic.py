"""Reports are written whole or not at all."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from ofc_desk.reports.atomic import write_atomically


def test_a_failed_write_leaves_the_old_report_and_no_part(tmp_path: Path) -> None:
    report = tmp_path / "report.pdf"
    report.write_bytes(b"the signed one")

    def half_then_full_disk(path: str) -> None:
        Path(path).write_bytes(b"%PDF-1.4 half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        write_atomically(report, half_then_full_disk)
    assert report.read_bytes() == b"the signed one"
    assert list(tmp_path.iterdir()) == [report]


def test_a_whole_write_replaces_the_report_readable_as_a_new_file(tmp_path: Path) -> None:
    report = tmp_path / "report.pdf"

    def whole(path: str) -> None:
        Path(path).write_bytes(b"%PDF whole")

    write_atomically(report, whole)
    assert report.read_bytes() == b"%PDF whole" and list(tmp_path.iterdir()) == [report]
    assert report.stat().st_mode & 0o044  # not mkstemp's owner-only 0600


def test_a_pipe_or_device_is_written_in_place_never_replaced(tmp_path: Path) -> None:
    pipe = tmp_path / "printer-spool"
    os.mkfifo(pipe)
    written: list[str] = []
    write_atomically(pipe, written.append)  # the writer only notes the path: nothing blocks
    assert written == [str(pipe)] and stat.S_ISFIFO(pipe.stat().st_mode)
    assert list(tmp_path.iterdir()) == [pipe]
