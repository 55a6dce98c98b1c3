"""A dealer hands the table over at the desk: the one taking over signs in with their own PIN,
the outgoing dealer's key signs the chain as it stands, and what follows is signed by the new one."""

from __future__ import annotations

from PySide6.QtCore import Qt
from sqlalchemy import select

from ofc_desk.desk.actions import Command
from ofc_desk.desk.dialogs.attempt import AttemptDialog
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.storage.account_changes import create_user
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, Signature
from ofc_desk.storage.users import Role, sign_in
from tests.desk.conftest import DEALER, SUPERVISOR, Desk
from tests.desk.test_entering_cards import ANN, BOB, enter_regular_streets
from tests.desk.test_start_and_resume import field


def hand_over(desk: Desk, name: str, pin: str) -> AttemptDialog:
    desk.window.action(Command.HAND_OVER).trigger()
    dialog = desk.session.active_dialog
    assert isinstance(dialog, AttemptDialog)
    field(dialog, "Dealer taking over").setText(name)
    field(dialog, "PIN").setText(pin)
    desk.qtbot.keyClick(field(dialog, "PIN"), Qt.Key.Key_Return)
    return dialog


def test_a_hand_over_at_the_desk_is_signed_by_both_dealers(desk: Desk, database: Database) -> None:
    supervisor = sign_in(database, *SUPERVISOR, Role.SUPERVISOR)
    create_user(database, "Yan", Role.DEALER, "5678", approver=supervisor)
    desk.open_table(("Ann", "Bob"), button="Bob")
    refused = hand_over(desk, DEALER[0], DEALER[1])
    desk.qtbot.waitUntil(lambda: "already has the table" in refused.refusal.text(), timeout=10_000)
    refused.reject()
    hand_over(desk, "Yan", "5678")
    desk.qtbot.waitUntil(lambda: desk.session.account is not None and desk.session.account.name == "Yan")
    assert desk.window.entry.notice.text() == f"Yan took over the table from {DEALER[0]}"
    enter_regular_streets(desk, ANN, BOB)
    desk.qtbot.keyClick(desk.window.settlement.confirm_button, Qt.Key.Key_Return)
    with database.session() as session:
        actors = session.scalars(select(Event.actor).order_by(Event.seq)).all()
        signers = set(session.scalars(select(Signature.signer)).all())
    assert actors[:2] == [DEALER[0], DEALER[0]] and actors[-1] == "Yan"  # opened and dealt by Dana
    assert {DEALER[0], "Yan"} <= signers
    verify_database(database)
