"""Every kind of action a table records, each set up at a table of its own just before it, for the
fault tests (tests/room/faults): an action is tried while the database fails, then again once it
is back. `attempt` tries it as a desk or the floor does and says what the dealer would read;
`stored_events` and `check_recorded_once` say what the database kept."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from ofc_desk.service import ActionRefused, SeatSetup, TableRules, TableService, TableSetup
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.oversight.floor_decisions import decide_at_the_floor, seed_at_the_floor
from ofc_desk.service.store.unrecorded import unrecorded_sentence
from ofc_desk.service.table.commands import (
    CorrectChips,
    HandOver,
    Rebuy,
    Request,
    Scripted,
    SeedJackpot,
    Settle,
    StartHand,
)
from ofc_desk.service.table.games.chinese.commands import Show
from ofc_desk.service.table.games.ofc.commands import Place, Reveal
from ofc_desk.service.table.games.ofc.view_parts import OfcTurn
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.snapshot import TableSnapshot
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event
from ofc_desk.storage.users import Role
from tests.helpers.chinese_hands import ROWS, SEED_A, SEED_B
from tests.helpers.corrections import swap_rows
from tests.helpers.jackpot_awards import HOUSE_AWARD, open_award_table, show_the_losing_hand
from tests.helpers.table_helpers import (
    ANN_QQ,
    BOB_PLAIN,
    CY_PLAIN,
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    dealer,
    filler_plans,
    play_hand,
)

FAILURES = (ActionRefused, SQLAlchemyError, OSError)
"""What a face catches from an action (the desk's `SERVICE_FAILURES`)."""
_tables = itertools.count(1)


@dataclass
class Prepared:
    """A table just before the action: the desk holding it, and the action itself."""

    desk: TableService
    act: Callable[[], object]
    dealer: str = DEALER
    """Who deals there once the action is done."""


@dataclass(frozen=True)
class Scenario:
    name: str
    kind: EventKind
    """The event the action records."""
    prepare: Callable[[Database], Prepared]

    def __str__(self) -> str:
        return self.name


def with_accounts(database: Database) -> None:
    accounts = [(SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN), (DEALER, Role.DEALER, DEALER_PIN)]
    create_accounts(database, accounts)


def _open(database: Database, seats: list[tuple[str, int]], button: str, **rules: object) -> TableService:
    """A table of its own name: the scenarios of a module share one database."""
    setup = TableSetup(
        f"T{next(_tables)}",
        tuple(SeatSetup(name, chips) for name, chips in seats),
        button,
        TableRules.from_json(rules),
    )
    return TableService.open(database, setup, dealer(database))


def _ofc_table(database: Database) -> TableService:
    return _open(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")


def _entry(database: Database) -> Prepared:
    desk = _ofc_table(database)
    desk.do(StartHand())
    return Prepared(desk, lambda: desk.do(Place("Ann", "Qh Qd 2c Ah Kh", "f f f m m")))


def _street_confirmed(database: Database) -> Prepared:
    """The dealer's seat enters last: its entry completes the street."""
    desk = _ofc_table(database)
    desk.do(StartHand())
    desk.do(Place("Ann", "Qh Qd 2c Ah Kh", "f f f m m"))
    desk.do(Place("Bob", "Ks 5d 2d Jc Jd", "f f f m m"))
    return Prepared(desk, lambda: desk.do(Place("Cy", "6s 5s 4s Ac Ad", "f f f m m")))


def _fantasyland_set(database: Database) -> Prepared:
    desk = _ofc_table(database)
    play_hand(desk, {"Ann": ANN_QQ, "Bob": BOB_PLAIN, "Cy": CY_PLAIN})
    desk.do(StartHand())
    plans = filler_plans(desk, {})
    queues = {name: plan.placements() for name, plan in plans.items()}
    # Everyone else's streets first: the Fantasyland set is entered last.
    while (turn := desk.snapshot().to_act) is not None and turn.kind is not OfcTurn.FANTASYLAND_SET:
        placed = [queues[turn.player].pop(0) for _ in range(turn.place)]
        desk.do(Place(turn.player, [card for card, _row in placed], [str(row) for _card, row in placed]))
    assert turn is not None and turn.player == "Ann"
    cards = [card for card, _row in queues["Ann"]]
    rows = [str(row) for _card, row in queues["Ann"]]
    return Prepared(desk, lambda: desk.do(Reveal("Ann", cards, rows)))


def _showdown(database: Database) -> Prepared:
    desk = _open(database, [("Ann", 20), ("Bob", 20)], "Bob", variant="chinese", rules="chinese-typical")
    desk.do(StartHand())
    desk.do(Show("Bob", SEED_B, ROWS))
    return Prepared(desk, lambda: desk.do(Show("Ann", SEED_A, ROWS)))


def _settlement(database: Database) -> Prepared:
    desk = _ofc_table(database)
    play_hand(desk, {"Ann": ANN_QQ, "Bob": BOB_PLAIN, "Cy": CY_PLAIN}, settle=False)
    return Prepared(desk, lambda: desk.do(Settle()))


def _award_settlement(database: Database) -> Prepared:
    """A closed game's settlement that pays the room's jackpot award out of the pool it finds."""
    desk = open_award_table(database, f"T{next(_tables)}", **HOUSE_AWARD)
    desk.do(
        SeedJackpot(80, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN)
    )  # an award to pay, the pool's found in the event
    show_the_losing_hand(desk)
    return Prepared(desk, lambda: desk.do(Settle()))


def _chip_operation(database: Database) -> Prepared:
    desk = _ofc_table(database)
    return Prepared(desk, lambda: desk.do(Rebuy("Ann", 40)))


def _supervised(database: Database) -> Prepared:
    desk = _ofc_table(database)
    return Prepared(
        desk, lambda: desk.do(CorrectChips("Bob", 5, "miscount", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    )


def _hand_correction(database: Database) -> Prepared:
    """A settled hand corrected (docs/rules.md §12): the machine changes the hand's trace and the
    stacks, all of which a failed transaction must leave as stored."""
    desk = _ofc_table(database)
    play_hand(desk, {"Ann": ANN_QQ, "Bob": BOB_PLAIN, "Cy": CY_PLAIN})
    raw = {"hand": 1, "entries": swap_rows(desk.machine.hand_traces[1].entries, "Bob"), "reason": "rows"}
    return Prepared(
        desk,
        lambda: desk.do(
            Scripted(event=EventKind.HAND_CORRECTED, payload=raw, approved=(SUPERVISOR, SUPERVISOR_PIN))
        ),
    )


def _hand_over(database: Database) -> Prepared:
    desk = _ofc_table(database)
    desk.do(StartHand())
    return Prepared(desk, lambda: desk.do(HandOver("Eve")), dealer="Eve")


def _floor_decision(database: Database) -> Prepared:
    desk = _ofc_table(database)
    desk.do(Request(CorrectChips("Ann", 3, "r"), "count"))
    session_id = desk.session_id

    def decide() -> str:
        return decide_at_the_floor(database, session_id, 1, True, SUPERVISOR, SUPERVISOR_PIN)

    return Prepared(desk, decide)


def _floor_seed(database: Database) -> Prepared:
    desk = _ofc_table(database)
    session_id = desk.session_id
    return Prepared(desk, lambda: seed_at_the_floor(database, session_id, 25, SUPERVISOR, SUPERVISOR_PIN))


SCENARIOS = [
    Scenario("entry", EventKind.PLACED, _entry),
    Scenario("street confirmed", EventKind.PLACED, _street_confirmed),
    Scenario("Fantasyland set", EventKind.REVEALED, _fantasyland_set),
    Scenario("showdown", EventKind.SHOWN, _showdown),
    Scenario("settlement", EventKind.HAND_SETTLED, _settlement),
    Scenario("award settlement", EventKind.HAND_SETTLED, _award_settlement),
    Scenario("chip operation", EventKind.REBOUGHT, _chip_operation),
    Scenario("supervised action", EventKind.CHIPS_CORRECTED, _supervised),
    Scenario("hand correction", EventKind.HAND_CORRECTED, _hand_correction),
    Scenario("hand-over", EventKind.HANDED_OVER, _hand_over),
    Scenario("floor decision", EventKind.REQUEST_DECIDED, _floor_decision),
    Scenario("floor seed", EventKind.JACKPOT_SEEDED, _floor_seed),
]


def attempt(act: Callable[[], object]) -> str | None:
    """None when the action was accepted; else what the dealer (or the floor) reads."""
    try:
        act()
    except FAILURES as failure:
        return str(failure) if isinstance(failure, ActionRefused) else unrecorded_sentence(failure)
    return None


def stored_events(database: Database, session_id: int) -> list[tuple[int, str, str, str]]:
    """The session's events as stored: seq, kind, actor, payload."""
    with database.session() as session:
        rows = session.execute(
            select(Event.seq, Event.kind, Event.actor, Event.payload)
            .where(Event.session_id == session_id)
            .order_by(Event.seq)
        ).all()
    return [(row.seq, row.kind, row.actor, row.payload) for row in rows]


def refused_as_stored(prepared: Prepared, before: TableSnapshot) -> str:
    """Try the action while the fault lasts: refused, in words that say nothing was recorded, and
    the desk holds the table as stored; the sentence."""
    said = attempt(prepared.act)
    assert said is not None and "nothing was recorded" in said, said
    assert prepared.desk.snapshot() == before
    return said


def check_recorded_once(
    database: Database, prepared: Prepared, scenario: Scenario, before: list[tuple[int, str, str, str]]
) -> None:
    """After the fault: the action is accepted, stored once after what was there, nothing else;
    the desk shows what is stored; `verify` passes."""
    assert attempt(prepared.act) is None
    prepared.desk.catch_up()  # the floor's decision, as the desk's watch folds it in
    after = stored_events(database, prepared.desk.session_id)
    assert after[: len(before)] == before
    assert [(seq, kind) for seq, kind, _actor, _payload in after[len(before) :]] == [
        (len(before) + 1, scenario.kind.value)
    ]
    resumed = TableService.resume(database, prepared.desk.session_id, prepared.dealer)
    assert resumed.snapshot() == prepared.desk.snapshot()
    verify_database(database)
