"""A room made by `ofc-desk replay --db FILE` into an empty file from a script without users holds
only the built-in replay dealer, whom nobody signs in as: the desk then offers the first accounts
as on an empty room, and the room with its replayed table verifies afterwards."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from ofc_desk.cli.main import main
from ofc_desk.desk.dialogs.attempt import AttemptDialog
from ofc_desk.desk.dialogs.text import ChooseTableDialog
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.storage.accounts import BUILTIN_REPLAY
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import list_users, nobody_signs_in
from tests.desk.conftest import make_desk
from tests.desk.test_start_and_resume import field
from tests.helpers.replay_helpers import load_example, write_script


def _replayed_room(folder: Path) -> str:
    """A file a replay without users made: one hand, dealt under the built-in key."""
    script = load_example()
    script.pop("users", None)
    script["dealer"] = "Dana"
    script["hands"] = script["hands"][:1]
    url = f"sqlite:///{folder / 'replayed.db'}"
    assert main(["replay", str(write_script(folder, script)), "--db", url]) == 0
    return url


def test_a_room_with_only_the_replay_dealer_is_set_up_at_the_desk(qtbot: QtBot, tmp_path: Path) -> None:
    url = _replayed_room(tmp_path)
    room = Database(url)
    assert [account.name for account in list_users(room)] == [BUILTIN_REPLAY]
    assert nobody_signs_in(room)
    desk = make_desk(qtbot, tmp_path, url)
    desk.session.start()
    qtbot.waitUntil(lambda: isinstance(desk.session.active_dialog, AttemptDialog))
    dialog = desk.session.active_dialog
    assert isinstance(dialog, AttemptDialog)
    for name, text in (
        ("Dealer", "Eve"),
        ("Dealer PIN", "1234"),
        ("Supervisor", "Floor"),
        ("Supervisor PIN", "99999999"),
    ):
        qtbot.keyClicks(field(dialog, name), text)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: isinstance(desk.session.active_dialog, ChooseTableDialog), timeout=10_000)
    assert desk.session.account is not None and desk.session.account.name == "Eve"
    assert sorted(account.name for account in list_users(room)) == ["Eve", "Floor", BUILTIN_REPLAY]
    assert not nobody_signs_in(room)
    verify_database(room)
    desk.window.close()
    room.dispose()
