"""Each desk's entries at a table are bound to that desk (issue 35): a street, a showdown or an undo
appended to another table's live hand through the library carries no mark of the desk that holds
the table, and `verify` names it; the desk's own entries verify across a resume and a hand-over."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.table.commands import HandOver, StartHand, Undo
from ofc_desk.service.table.games.chinese.commands import Show
from ofc_desk.storage.account_changes import create_user
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import EntryMark, Event, Signature
from ofc_desk.storage.users import Role, sign_in
from tests.helpers.chinese_hands import ROWS
from tests.helpers.jackpot_awards import LOSER, WINNER, open_award_table
from tests.helpers.table_helpers import DEALER, SUPERVISOR, SUPERVISOR_PIN, dealer


@pytest.fixture
def live_hand(database: Database) -> TableService:
    """A Chinese table's desk, a hand dealt and Ann's hand shown."""
    service = open_award_table(database, "Jade 1")
    service.do(StartHand())
    service.do(Show("Ann", LOSER, ROWS))
    return service


def _another_login(service: TableService) -> TableService:
    """The table resumed through the library by someone at another desk's login, under the
    dealer's name (a bare name: no key of theirs)."""
    return TableService.resume(Database(service.database.url), service.session_id, DEALER)


def test_a_showdown_appended_at_another_desk_is_named(live_hand: TableService) -> None:
    verify_database(live_hand.database, fork=False)
    _another_login(live_hand).do(Show("Bob", WINNER, ROWS))
    with pytest.raises(VerifyFault) as fault:
        verify_database(live_hand.database, fork=False)
    assert str(fault.value) == (
        f"event 4: shown by {DEALER} carries no mark of the desk that holds the table: it was recorded"
        " at another desk's login"
    )


def test_an_undo_appended_at_another_desk_is_named(live_hand: TableService) -> None:
    _another_login(live_hand).do(Undo())
    with pytest.raises(VerifyFault, match="event 4: undone by Dan carries no mark of the desk"):
        verify_database(live_hand.database, fork=False)


def test_the_desk_s_entries_verify_across_a_resume_and_a_hand_over(live_hand: TableService) -> None:
    database = live_hand.database
    resumed = TableService.resume(Database(database.url), live_hand.session_id, dealer(database))
    resumed.do(Show("Bob", WINNER, ROWS))
    create_user(database, "Deb", Role.DEALER, "5678", approver=sign_in(database, SUPERVISOR, SUPERVISOR_PIN))
    resumed.do(HandOver(sign_in(database, "Deb", "5678")))
    resumed.do(Show("Cy", surrender=True))
    resumed.do(Undo())
    resumed.do(Show("Cy", surrender=True))
    assert verify_database(database, fork=False).set_aside == ()
    with database.session() as session:
        keys = session.scalars(select(Signature.signer).where(Signature.entries_key != "")).all()
        marked = session.scalar(select(EntryMark.id).order_by(EntryMark.id.desc()).limit(1))
    assert keys == [DEALER, DEALER, "Deb"]  # the opening's, the resumed desk's, the new dealer's
    assert marked == 6  # the hand dealt, Ann, Bob and Cy shown, an undo, Cy again


def test_a_mark_added_beside_an_entry_is_set_aside(live_hand: TableService) -> None:
    database = live_hand.database
    with database.session() as session:
        shown = session.scalars(select(Event).where(Event.kind == "shown")).one()
        session.add(EntryMark(session_id=shown.session_id, event_id=shown.id, seq=shown.seq, mark="ab" * 32))
        session.commit()
    assert verify_database(database, fork=False).set_aside == (
        "session 1: entry mark row 3 (event number 3) marks no entry: it is not counted",
    )


def test_a_desk_taking_the_table_tells_the_dealer_to_call_the_floor(live_hand: TableService) -> None:
    database = live_hand.database
    assert (
        TableService.resume(Database(database.url), live_hand.session_id, dealer(database)).entry_fault
        is None
    )
    _another_login(live_hand).do(Show("Bob", WINNER, ROWS))
    taken = TableService.resume(Database(database.url), live_hand.session_id, dealer(database))
    assert taken.entry_fault == (
        "this table holds an entry another desk's login recorded (event 4: shown by Dan carries no mark"
        " of the desk that holds the table: it was recorded at another desk's login): call the floor"
    )
