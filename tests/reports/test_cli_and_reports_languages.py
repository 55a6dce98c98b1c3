"""The command line speaks the language `--lang` names (else LANG's), refusals included, and writes
the reports in it; the table-close and shift reports name their language as the session report
does; storage's refusals come in the language spoken."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from ofc_desk.cli.main import main
from ofc_desk.i18n import Language, active_language, in_language, use_language
from ofc_desk.reports.record import SessionRecord
from ofc_desk.reports.shift import ShiftWindow, shift_report
from ofc_desk.reports.shift_pdf import write_shift_report
from ofc_desk.reports.table_close_pdf import write_table_close_report
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, SignInError, sign_in
from tests.helpers.pdf_text import squeezed_text
from tests.helpers.report_sessions import SUPERVISOR, SUPERVISOR_PIN

Capture = pytest.CaptureFixture[str]


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """`main` sets the process's language, as the command line does: set English back."""
    yield
    use_language(Language.EN)


@pytest.mark.parametrize(
    ("language", "refusal"),
    [
        (
            "ru",
            "ofc-desk report: делать нечего: укажите --out, --close-out, --csv-hands, --csv-transactions,"
            " --json или --fingerprint",
        ),
        (
            "zh_CN",
            "ofc-desk report：无事可做：请给出 --out、--close-out、--csv-hands、--csv-transactions、--json 或"
            " --fingerprint",
        ),
        (
            "en",
            "ofc-desk report: nothing to do: give --out, --close-out, --csv-hands, --csv-transactions, --json"
            " or --fingerprint",
        ),
    ],
)
def test_a_refusal_comes_in_the_language_lang_names(
    example_db: str, capsys: Capture, monkeypatch: pytest.MonkeyPatch, language: str, refusal: str
) -> None:
    monkeypatch.setenv("LANG", "vi_VN.UTF-8")  # --lang beats the environment
    status = main(["--lang", language, "report", "--db", example_db])
    captured = capsys.readouterr()
    assert (status, captured.out, captured.err) == (2, "", refusal + "\n")


def test_without_lang_the_command_line_speaks_langs_language(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "vi_VN.UTF-8")
    missing = tmp_path / "none.db"
    assert main(["verify", "--db", f"sqlite:///{missing}"]) == 2
    assert capsys.readouterr().err == f"cơ sở dữ liệu: không có cơ sở dữ liệu tại {missing}\n"


def test_the_report_commands_write_in_the_language_named(
    example_db: str, tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    close, shift = tmp_path / "close.pdf", tmp_path / "shift.pdf"
    room = tmp_path / "room.db"  # a copy: the count's PIN check is recorded
    shutil.copyfile(example_db.removeprefix("sqlite:///"), room)
    monkeypatch.setenv("OFC_DESK_PINS", json.dumps({SUPERVISOR: SUPERVISOR_PIN}))
    counted = ["--close-out", str(close), "--counted", "10", "--counted-by", SUPERVISOR]
    assert main(["--lang", "ru", "report", "--db", f"sqlite:///{room}", *counted]) == 0
    assert main(["--lang", "ru", "report", "--db", example_db, "--shift", "--out", str(shift)]) == 0
    assert capsys.readouterr().out == f"отчёт о смене: 1 стол -> {shift}\n"
    closing, shifting = squeezed_text(close), squeezed_text(shift)
    assert "Закрытие стола" in closing and "Язык отчёта Русский" in closing
    assert "НЕДОСТАЧА 247 фишек" in closing, "a variance of 247 chips takes Russian's third form"
    assert "Отчёт о смене" in shifting and "Язык отчёта Русский" in shifting
    assert "Итого по залу" in shifting and "Room total" not in shifting


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (Language.VI, ("Đóng bàn", "Ngôn ngữ báo cáo Tiếng Việt", "Chip dự kiến trên bàn", "THIẾU 1 chip")),
        (Language.ZH_CN, ("关桌", "报告语言 简体中文", "台面应有筹码", "短少 1 个筹码")),
    ],
)
def test_the_table_close_report_prints_in_the_language_chosen(
    example_record: SessionRecord, language: Language, words: tuple[str, ...]
) -> None:
    record = example_record
    out = io.BytesIO()
    write_table_close_report(record, out, record.final_stacks_total - 1, language)
    page = squeezed_text(out.getvalue())
    assert all(word in page for word in words)
    assert active_language() is Language.EN, "printing in another language leaves the process's alone"


def test_the_shift_report_prints_in_the_language_chosen(example_db: str) -> None:
    database = Database(example_db, migrate=False)
    try:
        report = shift_report(database, ShiftWindow())
    finally:
        database.dispose()
    out = io.BytesIO()
    write_shift_report(report, out, Language.ZH_CN)
    page = squeezed_text(out.getvalue())
    assert "班次报告" in page and "报告语言 简体中文" in page and "牌室合计" in page
    assert "Shift report" not in page


def test_a_sign_in_refusal_and_a_pin_too_short_come_in_the_language_spoken(tmp_path: Path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'room.db'}")
    try:
        create_accounts(database, [("Sam", Role.SUPERVISOR, "98769876")])
        with in_language(Language.VI), pytest.raises(SignInError, match=r"^sai tên hoặc mã PIN$"):
            sign_in(database, "Sam", "00000000")
        with in_language(Language.RU), pytest.raises(SignInError) as refused:
            create_accounts(database, [("Dee", Role.SUPERVISOR, "1234"), ("Eve", Role.DEALER, "12")])
        assert str(refused.value) == "в PIN супервайзера должно быть не меньше 8 символов"
        with pytest.raises(SignInError, match=r"^wrong name or PIN, or not a dealer$"):
            sign_in(database, "Sam", "98769876", Role.DEALER)
    finally:
        database.dispose()
