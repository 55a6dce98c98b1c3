"""`ofc-desk report --close-out --counted N --counted-by NAME` (issue 36): the chip count is signed
as at the desk, by a floor supervisor's name and PIN (from --pin-file, OFC_DESK_PINS or the
terminal without echo); the page names them. A wrong or missing PIN writes nothing."""

from __future__ import annotations

import getpass
import json
import shutil
import sys
from pathlib import Path

import pytest

from ofc_desk.cli.main import main
from tests.helpers.pdf_text import page_texts, squeezed
from tests.helpers.report_sessions import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN

Capture = pytest.CaptureFixture[str]


@pytest.fixture
def room(example_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A copy of the example room (a PIN check is recorded in it), no PINs in the environment."""
    copy = tmp_path / "room.db"
    shutil.copyfile(example_db.removeprefix("sqlite:///"), copy)
    monkeypatch.delenv("OFC_DESK_PINS", raising=False)
    return f"sqlite:///{copy}"


def close_out(room: str, out: Path, *more: str) -> int:
    return main(["report", "--db", room, "--close-out", str(out), "--counted", "257", *more])


def pin_file(folder: Path, name: str, pin: str) -> str:
    path = folder / "pins.json"
    path.write_text(json.dumps({name: pin}), encoding="utf-8")
    return str(path)


def test_the_count_is_signed_by_the_supervisor_named(room: str, tmp_path: Path, capsys: Capture) -> None:
    out = tmp_path / "close.pdf"
    pins = pin_file(tmp_path, SUPERVISOR, SUPERVISOR_PIN)
    assert close_out(room, out, "--counted-by", SUPERVISOR, "--pin-file", pins) == 0
    assert capsys.readouterr().err == ""
    page = squeezed(page_texts(out)[0])
    assert f"Counted chips (entered by {SUPERVISOR}) 257" in page
    assert "entered by the floor supervisor" not in page
    assert f"Floor supervisor {SUPERVISOR}" in page


def test_the_pin_is_read_from_the_terminal_without_echo(
    room: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []

    def unechoed(prompt: str) -> str:
        asked.append(prompt)
        return SUPERVISOR_PIN

    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(getpass, "getpass", unechoed)
    out = tmp_path / "close.pdf"
    assert close_out(room, out, "--counted-by", SUPERVISOR) == 0
    assert asked == [f"PIN for {SUPERVISOR}: "]
    assert f"entered by {SUPERVISOR}" in squeezed(page_texts(out)[0])


@pytest.mark.parametrize(
    ("name", "pin", "said"),
    [
        (SUPERVISOR, "99999999", "ofc-desk report: --counted-by: "),
        (DEALER, DEALER_PIN, "ofc-desk report: --counted-by: "),
        (SUPERVISOR, None, "no PIN for the supervisor (give --pin-file or OFC_DESK_PINS"),
    ],
    ids=["wrong PIN", "a dealer", "no PIN"],
)
def test_a_count_not_signed_by_a_supervisor_writes_nothing(
    room: str, tmp_path: Path, capsys: Capture, name: str, pin: str | None, said: str
) -> None:
    out = tmp_path / "close.pdf"
    pins = ["--pin-file", pin_file(tmp_path, name, pin)] if pin else []
    assert close_out(room, out, "--counted-by", name, *pins) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1
    assert pin is None or pin not in err
    assert not out.exists()


@pytest.mark.parametrize(
    "arguments", [("--counted", "257"), ("--counted-by", SUPERVISOR)], ids=["no signer", "no count"]
)
def test_the_count_and_its_signer_go_together(
    room: str, tmp_path: Path, capsys: Capture, arguments: tuple[str, ...]
) -> None:
    out = tmp_path / "close.pdf"
    assert main(["report", "--db", room, "--close-out", str(out), *arguments]) == 2
    assert "--counted and --counted-by go together" in capsys.readouterr().err
    assert not out.exists()
