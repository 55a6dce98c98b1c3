"""The desk in another language: its menus and status line, Qt's own buttons, and Settings →
Language kept per desk; the command line's language."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QTextLayout
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMenu, QWidget
from pytestqt.qtbot import QtBot

from ofc_desk.cli.main import main
from ofc_desk.desk.action_parts import Menu
from ofc_desk.desk.dialogs.chip_amount import ChipAmountEdit
from ofc_desk.desk.shell.language import DESK_KEY, install_language, start_language, stored_language
from ofc_desk.i18n import Language, active_language, use_language
from ofc_desk.i18n.formatting import group_separator
from tests.desk.conftest import make_desk
from tests.helpers.qt_languages import menu_titles


def test_a_vietnamese_desk_shows_its_menus_status_and_qt_buttons_in_vietnamese(
    qtbot: QtBot, tmp_path: Path, english_after: None
) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    install_language(app, Language.VI)
    desk = make_desk(qtbot, tmp_path, f"sqlite:///{tmp_path / 'desk.db'}")
    assert menu_titles(desk.window) == [
        "Tệp (&F)",
        "Sửa (&E)",
        "Bàn (&T)",
        "Xem (&V)",
        "Cài đặt (&S)",
        "Trợ giúp (&H)",
    ]
    assert desk.window.status_line.text() == "Đang mở cơ sở dữ liệu…"
    assert desk.window.between_hands.message.text().startswith("Chưa mở bàn: Tệp → Bàn mới (Ctrl+N)")
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    qtbot.addWidget(buttons)
    cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
    assert cancel is not None and cancel.text() == "Hủy", "Qt has no Vietnamese: our catalog gives its words"


def test_a_chinese_desk_draws_its_words_and_a_chinese_name_with_glyphs_not_empty_boxes(
    qtbot: QtBot, tmp_path: Path, english_after: None
) -> None:
    """Also on a machine with no CJK font of its own (this one): the desk offers Qt the shipped
    WenQuanYi Micro Hei. Glyph 0 is the font's "missing" box."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    install_language(app, Language.ZH_CN)
    desk = make_desk(qtbot, tmp_path, f"sqlite:///{tmp_path / 'desk.db'}")
    status = desk.window.status_line
    for text in (status.text(), "张伟 ♠A ♥K"):
        assert glyphs_drawn(text, status) == len(text.replace(" ", "")), text


def glyphs_drawn(text: str, widget: QWidget) -> int:
    """How many of `text`'s characters (spaces aside) `widget`'s font draws with a real glyph."""
    layout = QTextLayout(text.replace(" ", ""), widget.font())
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    return sum(index != 0 for run in layout.glyphRuns() for index in run.glyphIndexes())


TWELVE_THOUSAND_FIVE_HUNDRED = {
    Language.EN: "12,500",
    Language.RU: "12\u00a0500",
    Language.VI: "12.500",
    Language.ZH_CN: "12,500",
}
"""12,500 chips as each language groups every amount on screen (`i18n.formatting.number`)."""


@pytest.mark.usefixtures("english_after")
@pytest.mark.parametrize("language", list(TWELVE_THOUSAND_FIVE_HUNDRED))
def test_a_chip_field_shows_an_amount_as_the_language_groups_it_and_reads_it_back(
    qtbot: QtBot, language: Language
) -> None:
    use_language(language)
    field = ChipAmountEdit("Buy-in", 12500)
    qtbot.addWidget(field)
    assert field.text() == TWELVE_THOUSAND_FIVE_HUNDRED[language]
    assert field.problem() is None and field.value() == 12500
    typings = ((f"2{group_separator()}500", 2500), ("3,000", 3000), ("4 000", 4000), ("5_000", 5000))
    for typed, chips in typings:
        field.clear()
        qtbot.keyClicks(field, typed)
        assert (field.text(), field.value()) == (typed, chips)
    field.clear()
    qtbot.keyClicks(field, "7.5k")  # a point groups in Vietnamese only; a letter is never taken
    assert field.text() == ("7.5" if language is Language.VI else "75")


def test_settings_language_is_kept_for_the_next_start(qtbot: QtBot, tmp_path: Path) -> None:
    desk = make_desk(qtbot, tmp_path, f"sqlite:///{tmp_path / 'desk.db'}")
    settings = desk.session.store.settings
    language_menu = next(
        a.menu() for a in desk.window.menus[Menu.SETTINGS].actions() if a.text() == "&Language"
    )
    assert isinstance(language_menu, QMenu)
    russian = next(action for action in language_menu.actions() if action.text() == "Русский")
    russian.trigger()
    assert stored_language(settings, DESK_KEY) is Language.RU
    assert start_language(settings, DESK_KEY) is Language.RU
    assert "Русский, from the next start" in desk.window.between_hands.notice.text()
    assert active_language() is Language.EN, "the running desk keeps its language"


def test_a_stored_choice_beats_the_system_and_the_command_line_beats_both(
    tmp_path: Path, english_after: None
) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    settings.setValue(DESK_KEY, "zh_CN")
    assert start_language(settings, DESK_KEY) is Language.ZH_CN
    use_language(Language.VI, asked_for=True)
    assert start_language(settings, DESK_KEY) is Language.VI


def test_the_command_line_speaks_lang_or_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, english_after: None
) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "ru", "--help"])
    assert "записать отчёт о сессии в PDF, CSV или JSON" in capsys.readouterr().out
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "以 PDF、CSV 或 JSON 输出场次报告" in capsys.readouterr().out
