"""The desk's dialogs in another language: the words are Chinese, the keys and what is stored are
the same (a table opened by keys keeps its English preset, variant and policy)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QFormLayout, QLabel
from pytestqt.qtbot import QtBot

from ofc_desk.core.settlement import SettleFrom
from ofc_desk.desk.dialogs.accounts import ROLE_WORDS
from ofc_desk.desk.dialogs.new_table import SETTLE_FROM_WORDS, NewTableDialog
from ofc_desk.desk.dialogs.settings import THEME_WORDS
from ofc_desk.desk.games.ofc import PROGRESSIVE
from ofc_desk.desk.shell.language import install_language
from ofc_desk.desk.shell.theme import ThemeName
from ofc_desk.i18n import Language
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account, Role
from tests.desk.conftest import make_desk
from tests.desk.test_keyboard_walk import new_table_dialog_by_keys, open_table_by_keys


def test_every_stored_value_a_dialog_offers_has_its_words() -> None:
    """The choices show these words alone: a value left out would not be offered at all."""
    assert set(ROLE_WORDS) == set(Role)
    assert set(THEME_WORDS) == set(ThemeName)
    assert set(SETTLE_FROM_WORDS) == set(SettleFrom)


def form_captions(dialog: NewTableDialog) -> list[str]:
    captions = []
    for row in range(dialog.form.rowCount()):
        item = dialog.form.itemAt(row, QFormLayout.ItemRole.LabelRole)
        label = item.widget() if item is not None else None
        if isinstance(label, QLabel) and label.text():
            captions.append(label.text())
    return captions


def test_the_new_table_dialog_in_chinese_opens_a_table_by_keys(
    qtbot: QtBot,
    tmp_path: Path,
    database: Database,
    template_accounts: tuple[Path, Account],
    english_after: None,
) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    install_language(app, Language.ZH_CN)
    desk = make_desk(qtbot, tmp_path, database.url)
    desk.session.database, desk.session.account = database, template_accounts[1]
    desk.window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is desk.window)

    dialog = new_table_dialog_by_keys(desk)
    assert dialog.windowTitle() == "新牌桌"
    captions = form_captions(dialog)
    assert captions[:6] == ["牌桌名称", "游戏", "规则预设", "每分筹码", "结算", "结算起点"]
    assert {"1 号座玩家", "1 号座买入", "庄位（庄家）"} <= set(captions)
    games = [dialog.rules.variant.itemText(index) for index in range(dialog.rules.variant.count())]
    assert games[0] == "开放式十三张（常规）" and games[-1] == "十三张"
    assert (dialog.rules.settlement.currentText(), dialog.rules.options[PROGRESSIVE].text()) == (
        "赢额封顶",
        "递进范特西",
    )
    assert dialog.ok_button.text() == "确定", "Qt's own button in Qt's Chinese"
    assert [player.accessibleName() for player, _buy_in in dialog.seats[:2]] == ["1 号座玩家", "2 号座玩家"]

    open_table_by_keys(desk, dialog, "T8")  # the proposed name ("牌桌 1") is selected: typing replaces it
    snapshot = desk.snapshot
    assert (snapshot.table, [seat.name for seat in snapshot.seats], snapshot.button) == (
        "T8",
        ["Ann", "Bob"],
        "Bob",
    )
    assert (snapshot.preset, snapshot.variant, snapshot.settlement) == ("standard", "regular", "win-cap")
