"""One table, one desk at the keyboard (issue 34): a second desk's Open a table list says where a
table is live, since when and by whom; taking it over asks a floor supervisor's PIN; the first desk
becomes read-only and says why at its next key."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QLabel, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from ofc_desk.desk.actions import Command
from ofc_desk.desk.dialogs.attempt import AttemptDialog
from ofc_desk.desk.dialogs.text import ChooseTableDialog
from ofc_desk.service import list_open_tables
from ofc_desk.service.room.desk_holds import ThisDesk
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account
from tests.desk.conftest import DEALER, SUPERVISOR, Desk, make_desk, street_keys


def field(dialog: QWidget, name: str) -> QLineEdit:
    for line in dialog.findChildren(QLineEdit):
        if line.accessibleName() == name:
            return line
    raise LookupError(name)


def second_desk(qtbot: QtBot, tmp_path: Path, database: Database, dealer: Account) -> Desk:
    """Another desk on another machine, its dealer signed in."""
    other = make_desk(qtbot, tmp_path / "pit-2", database.url)
    other.session.database = database
    other.session.account = dealer
    other.session.desk = ThisDesk("PIT-2", "second-desk")
    return other


def choose_the_table(other: Desk) -> ChooseTableDialog:
    other.session.offer_tables()
    chooser = other.session.active_dialog
    assert isinstance(chooser, ChooseTableDialog)
    return chooser


def test_a_table_live_at_a_desk_is_taken_over_with_a_supervisors_pin_and_the_first_desk_says_why(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk, template_accounts: tuple[Path, Account]
) -> None:
    desk.open_table(("Ann", "Bob", "Cy"), button="Cy")
    desk.street(street_keys("Ks Kd Kc 7h 7d", "b"))
    assert not desk.session.controller.taken_guard.filtering  # no event passes through it meanwhile
    (tmp_path / "pit-2").mkdir()
    other = second_desk(qtbot, tmp_path, database, template_accounts[1])

    chooser = choose_the_table(other)
    label = chooser.tables.item(0).text()
    here = desk.session.desk.machine
    assert label.startswith("Test table — 0 hands settled, last action ")
    assert f"(live at desk {here} since " in label and label.endswith(
        f"UTC, dealer {DEALER[0]}: a floor supervisor takes it over)"
    )
    chooser.accept()
    dialog = other.session.active_dialog
    assert isinstance(dialog, AttemptDialog) and dialog.windowTitle() == "Take the table over"
    texts = [label.text() for label in dialog.findChildren(QLabel)]
    assert any(text.startswith(f"Test table is live at desk {here} since ") for text in texts), texts
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.keyClicks(field(dialog, "Supervisor"), SUPERVISOR[0])
    qtbot.keyClicks(field(dialog, "Supervisor PIN"), "not the pin")
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "a floor supervisor must approve this" in dialog.refusal.text(), timeout=10_000)
    assert other.session.controller.service is None and dialog.isVisible()
    field(dialog, "Supervisor PIN").clear()
    qtbot.keyClicks(field(dialog, "Supervisor PIN"), SUPERVISOR[1])
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: other.session.controller.service is not None, timeout=10_000)
    holder = list_open_tables(database)[0].holder
    assert holder is not None and holder.machine == "PIT-2"
    assert other.snapshot.to_act is not None and other.snapshot.to_act.player == "Bob"

    # The first desk, at its next key: read-only, and why.
    service = desk.session.controller.service
    assert service is not None
    qtbot.waitUntil(lambda: service.taken_elsewhere is not None, timeout=5_000)  # its watch reads it
    desk.type("a")
    said = (
        f"this table was taken over: it is now {holder.words()}. This desk is read-only: open another table"
    )
    assert desk.refusal() == said
    assert desk.window.entry.line.text() == "" and desk.window.entry.line.isReadOnly()
    assert desk.session.controller.taken_guard.filtering
    assert not desk.window.action(Command.UNDO).isEnabled()
    assert desk.window.action(Command.RESUME).isEnabled()  # another table, still
    other.street(street_keys("As Ac Jd Th 2d", "m"))
    assert other.refusal() == ""
    other.window.close()
    desk.window.close()


def test_a_desk_closed_normally_lets_its_table_go(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk, template_accounts: tuple[Path, Account]
) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    desk.window.close()
    (tmp_path / "pit-2").mkdir()
    other = second_desk(qtbot, tmp_path, database, template_accounts[1])
    chooser = choose_the_table(other)
    assert "live at desk" not in chooser.tables.item(0).text()
    chooser.accept()
    qtbot.waitUntil(lambda: other.session.controller.service is not None, timeout=10_000)
    other.window.close()
