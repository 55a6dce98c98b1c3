"""Each desk's entries at a table are bound to that desk (issue 35): a street, a showdown or an undo
appended to another table's live hand through the library carries no mark of the desk that holds
the table, and `verify` names it; the desk's own entries verify across a resume and a hand-over."""

from __future__ import annotations

from collections import Counter

import pytest
from sqlalchemy import select, update

from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.store import signoffs
from ofc_desk.service.store.entry_marks import foreign_entry
from ofc_desk.service.table.commands import HandOver, StartHand, Undo
from ofc_desk.service.table.games.chinese.commands import Show
from ofc_desk.storage import append_only
from ofc_desk.storage.account_changes import create_user
from ofc_desk.storage.database import Database
from ofc_desk.storage.keys import signature_holds
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


def _resumed_and_handed_over(service: TableService) -> Database:
    """The table resumed at a desk of its own (which publishes a new key), Bob shown, the table
    handed over to Deb (another key) and Cy shown by her desk."""
    database = service.database
    resumed = TableService.resume(Database(database.url), service.session_id, dealer(database))
    resumed.do(Show("Bob", WINNER, ROWS))
    create_user(database, "Deb", Role.DEALER, "5678", approver=sign_in(database, SUPERVISOR, SUPERVISOR_PIN))
    resumed.do(HandOver(sign_in(database, "Deb", "5678")))
    resumed.do(Show("Cy", surrender=True))
    return database


def _break_the_key_signature(database: Database, number: int) -> None:
    """The `number`th signature publishing a key no longer its signer's: its first digit changed
    (by the file's owner, the append-only triggers lifted)."""
    with database.engine.begin() as connection:
        append_only.remove_all(connection)
        keyed = select(Signature.id, Signature.signature).where(Signature.entries_key != "")
        broken, signature = connection.execute(keyed.order_by(Signature.id)).all()[number]
        changed = ("1" if signature[0] == "0" else "0") + signature[1:]
        connection.execute(update(Signature).where(Signature.id == broken).values(signature=changed))


def test_a_key_whose_signature_does_not_hold_marks_nothing(live_hand: TableService) -> None:
    """The resumed desk's key signs no entry of its own: the sign-offs set its signature aside, and
    the entries it marks are named as another desk's though the sign-offs checked it first."""
    database = _resumed_and_handed_over(live_hand)
    _break_the_key_signature(database, 1)
    with pytest.raises(VerifyFault, match="event 4: shown by Dan carries no mark of the desk"):
        verify_database(database, fork=False)
    entries_alone = foreign_entry(database, live_hand.session_id)
    assert entries_alone is not None and "event 4: shown by Dan carries no mark" in entries_alone


def test_an_opening_whose_key_signature_does_not_hold_is_named(live_hand: TableService) -> None:
    """The opening's signature, checked once for the sign-offs and the entries' keys, still fails
    the opening: its dealer never signed it."""
    _break_the_key_signature(live_hand.database, 0)
    with pytest.raises(VerifyFault, match="event 1: no signature of its dealer Dan"):
        verify_database(live_hand.database, fork=False)


def test_verify_checks_each_signature_once(live_hand: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    database = _resumed_and_handed_over(live_hand)
    checked: Counter[str] = Counter()

    def counted(public: str, message: str, signature: str) -> bool:
        checked[message] += 1
        return signature_holds(public, message, signature)

    monkeypatch.setattr(signoffs, "signature_holds", counted)
    verify_database(database, fork=False)
    with database.session() as session:
        rows = len(session.scalars(select(Signature.id)).all())
    assert len(checked) == rows and set(checked.values()) == {1}
