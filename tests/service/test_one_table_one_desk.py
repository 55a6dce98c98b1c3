"""One table, one desk (issue 34): a table live at a desk is resumed elsewhere only through a floor
supervisor's takeover, recorded as a hand-over; the desk that held it is refused from then on and
says why; of two desks acting at once on one table, never both are accepted. On SQLite and on
PostgreSQL (the `database` fixture)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from sqlalchemy import func, select

from ofc_desk.service import SeatSetup, TableRules, TableService, TableSetup, list_open_tables
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.room.desk_holds import TableHeld, TakenElsewhere, ThisDesk
from ofc_desk.service.table.commands import StartHand
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage.account_changes import create_user
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import EntryMark, Event
from ofc_desk.storage.users import Role, sign_in
from tests.helpers.table_helpers import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN, open_test_table

PIT_1 = ThisDesk("PIT-1", "desk-one")
PIT_2 = ThisDesk("PIT-2", "desk-two")
ANN_FIRST = ("8s Kd 2c 3c 4c", "front back back back back")


def held_at_pit_1(database: Database) -> TableService:
    """A table opened at desk PIT-1, its first hand dealt."""
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    desk_one = TableService.resume(database, service.session_id, sign_in(database, DEALER, DEALER_PIN), PIT_1)
    desk_one.do(StartHand())
    return desk_one


def kinds(database: Database, session_id: int) -> list[str]:
    with database.session() as session:
        return list(
            session.scalars(select(Event.kind).where(Event.session_id == session_id).order_by(Event.seq))
        )


def held_at(database: Database) -> str | None:
    """The machine of the desk that holds the one open table."""
    holder = list_open_tables(database)[0].holder
    return None if holder is None else holder.machine


def test_a_table_live_at_a_desk_says_where_since_when_and_by_whom(database: Database) -> None:
    desk_one = held_at_pit_1(database)
    [listed] = list_open_tables(database)
    assert listed.holder is not None
    assert (listed.holder.machine, listed.holder.dealer) == ("PIT-1", DEALER)
    words = listed.holder.words()
    assert words.startswith("live at desk PIT-1 since 20") and words.endswith(f"UTC, dealer {DEALER}")
    with pytest.raises(TableHeld) as held:
        TableService.resume(database, desk_one.session_id, "Rex", PIT_2)
    assert str(held.value) == f"Table 7 is {words}: a floor supervisor takes it over to deal it here"
    assert kinds(database, desk_one.session_id)[-1] == EventKind.HAND_STARTED  # nothing recorded


def test_a_desk_opening_a_table_holds_it_from_its_opening_and_lets_it_go_when_closed(
    database: Database,
) -> None:
    seats = (SeatSetup("Ann", 100), SeatSetup("Bob", 100))
    dealer = sign_in(database, DEALER, DEALER_PIN)
    desk_one = TableService.open(database, TableSetup("Table 7", seats, "Bob", TableRules()), dealer, PIT_1)
    assert held_at(database) == "PIT-1"
    with pytest.raises(TableHeld):
        TableService.resume(database, desk_one.session_id, "Rex", PIT_2)
    desk_one.do(StartHand())
    desk_one.do(Place("Ann", ANN_FIRST[0], ANN_FIRST[1]))
    desk_one.release()  # the desk closed normally: the table may go anywhere
    assert list_open_tables(database)[0].holder is None
    desk_two = TableService.resume(database, desk_one.session_id, "Rex", PIT_2)
    assert held_at(database) == "PIT-2"
    turn = desk_two.snapshot().to_act
    assert turn is not None and turn.player == "Bob"


def test_the_same_machine_takes_its_own_table_back_and_the_old_window_goes_read_only(
    database: Database,
) -> None:
    desk_one = held_at_pit_1(database)
    restarted = TableService.resume(database, desk_one.session_id, DEALER, ThisDesk("PIT-1", "after-a-crash"))
    restarted.do(Place("Ann", ANN_FIRST[0], ANN_FIRST[1]))
    with pytest.raises(TakenElsewhere, match=r"^this table was taken over: it is now live at desk PIT-1"):
        desk_one.do(Place("Ann", ANN_FIRST[0], ANN_FIRST[1]))  # what it held: Ann to act
    said = desk_one.check_hold()
    assert said is not None and said.endswith("This desk is read-only: open another table")
    assert restarted.check_hold() is None


def test_a_window_whose_table_was_taken_back_at_its_own_head_writes_nothing(database: Database) -> None:
    """No event moved the head since the old window read it: its event, its mark and the rest go
    through until the head's UPDATE, which finds another desk holding the table; all rolled back,
    and the window told why."""
    desk_one = held_at_pit_1(database)
    TableService.resume(database, desk_one.session_id, DEALER, ThisDesk("PIT-1", "after-a-crash"))
    stored = kinds(database, desk_one.session_id), marks(database)
    assert stored[1] > 0  # the entries so far were marked: a refused one would add one
    with pytest.raises(TakenElsewhere, match=r"^this table was taken over: it is now live at desk PIT-1"):
        desk_one.do(Place("Ann", ANN_FIRST[0], ANN_FIRST[1]))
    assert (kinds(database, desk_one.session_id), marks(database)) == stored
    verify_database(database, fork=False)


def marks(database: Database) -> int:
    with database.session() as session:
        return session.scalar(select(func.count()).select_from(EntryMark)) or 0


def test_a_supervisor_takes_a_table_over_and_the_first_desk_is_refused_and_says_why(
    database: Database,
) -> None:
    desk_one = held_at_pit_1(database)
    desk_one.do(Place("Ann", ANN_FIRST[0], ANN_FIRST[1]))
    before = kinds(database, desk_one.session_id)
    with pytest.raises(ActionRefused, match="a floor supervisor must approve this"):
        TableService.take_over(database, desk_one.session_id, "Rex", PIT_2, SUPERVISOR, "wrong pin")
    with pytest.raises(ActionRefused, match="a floor supervisor must approve this"):
        TableService.take_over(database, desk_one.session_id, "Rex", PIT_2, DEALER, DEALER_PIN)
    assert kinds(database, desk_one.session_id) == before
    assert held_at(database) == "PIT-1"

    # Rex signs in at PIT-2: the entries of the desk that takes the table carry its marks.
    rex = create_user(
        database, "Rex", Role.DEALER, "8642", approver=sign_in(database, SUPERVISOR, SUPERVISOR_PIN)
    )
    desk_two = TableService.take_over(database, desk_one.session_id, rex, PIT_2, SUPERVISOR, SUPERVISOR_PIN)
    assert kinds(database, desk_one.session_id) == [*before, EventKind.TAKEN_OVER]
    holder = list_open_tables(database)[0].holder
    assert holder is not None and (holder.machine, holder.dealer) == ("PIT-2", "Rex")
    assert desk_two.snapshot().dealer == "Rex"

    # The first desk's next action is refused, whatever it held in memory, and it says why.
    with pytest.raises(TakenElsewhere) as refused:
        desk_one.do(Place("Bob", "Ks 5d 2d Jc Jd", "front front front middle middle"))
    assert str(refused.value) == (
        f"this table was taken over: it is now {holder.words()}. This desk is read-only: open another table"
    )
    assert desk_one.taken_elsewhere is None  # not read yet: the desk's watch reads it each second
    desk_one.catch_up()
    assert desk_one.taken_elsewhere == str(refused.value)
    assert desk_one.snapshot().dealer == "Rex"  # the table as stored, shown read-only
    desk_one.release()  # a desk that lost its table lets nothing go
    assert list_open_tables(database)[0].holder == holder

    desk_two.do(Place("Bob", "Ks 5d 2d Jc Jd", "front front front middle middle"))
    assert kinds(database, desk_one.session_id)[-1] == EventKind.PLACED
    verify_database(database, fork=False)


def test_a_takeover_and_an_action_at_once_are_never_both_accepted_after_it(database: Database) -> None:
    desk_one = held_at_pit_1(database)
    outcomes = race(
        lambda: desk_one.do(Place("Ann", ANN_FIRST[0], ANN_FIRST[1])),
        lambda: TableService.take_over(
            database, desk_one.session_id, "Rex", PIT_2, SUPERVISOR, SUPERVISOR_PIN
        ),
    )
    assert not isinstance(outcomes[1], BaseException), outcomes[1]
    stored = kinds(database, desk_one.session_id)
    if isinstance(outcomes[0], BaseException):  # the takeover came first: the action is refused
        assert isinstance(outcomes[0], TakenElsewhere)
        assert stored[-1] == EventKind.TAKEN_OVER
    else:  # the action came first: stored before the takeover, never after it
        assert stored[-2:] == [EventKind.PLACED, EventKind.TAKEN_OVER]
    verify_database(database, fork=False)


def test_two_desks_acting_at_once_on_one_head_are_never_both_accepted(database: Database) -> None:
    """Two stores at the same head (no hold between them: the chain's head decides)."""
    desk_one = held_at_pit_1(database)
    other = TableService.resume(database, desk_one.session_id, sign_in(database, DEALER, DEALER_PIN))
    outcomes = race(
        lambda: desk_one.do(Place("Ann", ANN_FIRST[0], ANN_FIRST[1])),
        lambda: other.do(Place("Ann", ANN_FIRST[0], ANN_FIRST[1])),
    )
    assert sum(not isinstance(outcome, BaseException) for outcome in outcomes) == 1, outcomes
    assert kinds(database, desk_one.session_id).count(EventKind.PLACED) == 1
    verify_database(database, fork=False)


def test_two_desks_claiming_one_free_table_at_once_are_never_both_given_it(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    outcomes = race(
        lambda: TableService.resume(database, service.session_id, DEALER, PIT_1),
        lambda: TableService.resume(database, service.session_id, "Rex", PIT_2),
    )
    given = [outcome for outcome in outcomes if isinstance(outcome, TableService)]
    assert len(given) == 1 and isinstance(next(o for o in outcomes if o not in given), TableHeld)


def race(*actions: Callable[[], object]) -> list[object]:
    """Each action on its own thread, let go at once; what each returned or raised."""
    start = threading.Barrier(len(actions))
    outcomes: list[object] = [None] * len(actions)

    def run(index: int, action: Callable[[], object]) -> None:
        start.wait()
        try:
            outcomes[index] = action()
        except Exception as error:
            outcomes[index] = error

    threads = [threading.Thread(target=run, args=item) for item in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes
