"""Any change to a stored row of the history is caught by `verify` and named.

The database refuses these rewrites itself (test_append_only.py), so each tamper here first drops
its triggers, as the owner of the database file or of the PostgreSQL schema could."""

from __future__ import annotations

import json
import os
from collections.abc import Callable

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from ofc_desk.cli.main import main
from ofc_desk.core.cards import FULL_DECK
from ofc_desk.service import resume_table
from ofc_desk.service.audit import side_check, verify_rows, verify_session
from ofc_desk.service.audit.verified_read import VerifiedSession, read_verified_session
from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.table.commands import Rebuy, Settle, Undo, VoidHand
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.storage import append_only
from ofc_desk.storage.audit import GENESIS_HASH, event_hash
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, HandRow, LedgerRow, Signature, TableSession, TransferRow
from tests.helpers.table_helpers import (
    ANN_QQ,
    BOB_PLAIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    DatabaseCopy,
    dealer,
    open_test_table,
    play_hand,
)

# Their history is played once a worker: one worker runs them all.
pytestmark = pytest.mark.xdist_group("tamper history")


def two_hands_a_rebuy_and_a_void(database: Database) -> None:
    """Every kind of derived row exists; the triggers are lifted."""
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    service.do(Rebuy("Bob", 40))
    play_hand(service, {})
    service.do(VoidHand(2, "misdeal", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    verify_database(database)
    with database.engine.begin() as connection:
        append_only.remove_all(connection)


@pytest.fixture
def history(database_copy: DatabaseCopy) -> Database:
    """Two settled hands, a rebuy and a void (played once a run): this test's copy to tamper with."""
    return database_copy(two_hands_a_rebuy_and_a_void)


def first_id(session: Session, model: type[Event | TransferRow | LedgerRow], **where: object) -> int:
    return session.scalars(select(model.id).filter_by(**where).order_by(model.id)).first() or 0


def placed_event(session: Session) -> int:
    return first_id(session, Event, kind="placed")


def rechain(session: Session) -> None:
    """What a careful forger does after editing an event: recompute every hash and the head."""
    previous = GENESIS_HASH
    events = session.scalars(select(Event).order_by(Event.seq)).all()
    for event in events:
        event.prev_hash = previous
        event.hash = event_hash(
            previous, event.session_id, event.seq, event.kind, event.actor, event.at, event.payload
        )
        previous = event.hash
    head = session.scalars(select(TableSession)).one()
    head.head_hash = previous


def alter_payload(session: Session) -> str:
    event_id = placed_event(session)
    session.execute(
        text("UPDATE events SET payload = REPLACE(payload, 'Qh', 'Qc') WHERE id = :id"),
        {"id": event_id},
    )
    return f"event {event_id} was altered"


def alter_actor(session: Session) -> str:
    event_id = placed_event(session)
    session.execute(text("UPDATE events SET actor = 'Mallory' WHERE id = :id"), {"id": event_id})
    return f"event {event_id} was altered"


def alter_and_rechain(session: Session) -> str:
    event = session.get(Event, placed_event(session))
    assert event is not None
    payload = json.loads(event.payload)
    payload["cards"][0] = "Qc"  # Ann's front: queens no more, a different hand
    event.payload = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    rechain(session)
    # The dealer's signature at the settlement holds over the old chain, which is gone: a signature
    # that holds is never set aside (test_signoffs.py: with the keys too, the re-scored hand still
    # gives it away).
    return "Dan's signature on event number 21 covers a chain that is no longer there"


def alter_result(session: Session) -> str:
    hand = session.scalars(select(HandRow).where(HandRow.number == 1)).one()
    hand.result = hand.result.replace('"stack_after":', '"stack_after":1', 1)
    return "hand 1: stored result differs from the rules"


def alter_royalties(session: Session) -> str:
    """A figure of the stored result that settling the hand does not read: only re-scoring sees it."""
    hand = session.scalars(select(HandRow).where(HandRow.number == 1)).one()
    hand.result = hand.result.replace('"royalties":', '"royalties":9', 1)
    return "hand 1: stored result differs from the rules"


def alter_transfer(session: Session) -> str:
    transfer = session.get(TransferRow, first_id(session, TransferRow))
    assert transfer is not None
    transfer.paid += 1
    return "hand 1: stored transfers differ from the rules"


def delete_transfer(session: Session) -> str:
    session.execute(text("DELETE FROM transfers WHERE id = :id"), {"id": first_id(session, TransferRow)})
    return "hand 1: stored transfers differ from the rules"


def alter_button(session: Session) -> str:
    session.execute(text("UPDATE hands SET button = 'Ann' WHERE number = 2"))
    return "hand 2: stored button differs from the events"


def alter_ledger(session: Session) -> str:
    row_id = first_id(session, LedgerRow, kind="rebuy")
    session.execute(text("UPDATE chip_ledger SET amount = 400 WHERE id = :id"), {"id": row_id})
    return f"chip ledger row {row_id} differs from the events"


def remove_last_event(session: Session) -> str:
    last = session.scalars(select(Event).order_by(Event.seq.desc())).first()
    assert last is not None and last.kind == "hand_voided"
    session.execute(text("DELETE FROM chip_ledger WHERE event_id = :id"), {"id": last.id})
    session.execute(text("DELETE FROM events WHERE id = :id"), {"id": last.id})
    return "events were removed or the session row altered"


def rename_table(session: Session) -> str:
    session.execute(text("UPDATE table_sessions SET table_name = 'Table 8'"))
    return "session 1: its table name or opening time was altered"


def add_empty_session(session: Session) -> str:
    """A session row with nothing in it: the service writes a row and its opening together."""
    session.add(
        TableSession(
            table_name="Table 8", opened_at="2026-11-21T16:00:00.000000Z", head_seq=0, head_hash=GENESIS_HASH
        )
    )
    session.flush()
    return "holds no events, not even its opening"


def swap_event_numbers(session: Session) -> str:
    """Event numbers are what people are shown: two swapped keep their hashes but not their order."""
    first, second = session.scalars(
        select(Event.id).where(Event.kind == "placed").order_by(Event.id).limit(2)
    )
    # Their entries' marks name them by id: the forger takes them out and puts them back swapped.
    pair = {"first": first, "second": second}
    marks = session.execute(
        text("SELECT session_id, event_id, seq, mark FROM entry_marks WHERE event_id IN (:first, :second)"),
        pair,
    ).all()
    session.execute(text("DELETE FROM entry_marks WHERE event_id IN (:first, :second)"), pair)
    session.execute(text("UPDATE events SET id = -1 WHERE id = :id"), {"id": first})
    session.execute(text("UPDATE events SET id = :new WHERE id = :old"), {"new": first, "old": second})
    session.execute(text("UPDATE events SET id = :new WHERE id = -1"), {"new": second})
    for session_id, event_id, seq, mark in marks:
        session.execute(
            text("INSERT INTO entry_marks (session_id, event_id, seq, mark) VALUES (:s, :e, :seq, :m)"),
            {"s": session_id, "e": second if event_id == first else first, "seq": seq, "m": mark},
        )
    return f"event {first} is numbered out of order"


def delete_ledger_row(session: Session) -> str:
    row = session.scalars(select(LedgerRow).where(LedgerRow.kind == "rebuy")).one()
    session.execute(text("DELETE FROM chip_ledger WHERE id = :id"), {"id": row.id})
    return f"the chip ledger is missing Bob's rebuy of event {row.event_id}"


TAMPERS: list[Callable[[Session], str]] = [
    add_empty_session,
    swap_event_numbers,
    delete_ledger_row,
    alter_payload,
    alter_actor,
    alter_and_rechain,
    alter_result,
    alter_royalties,
    alter_transfer,
    delete_transfer,
    alter_button,
    alter_ledger,
    remove_last_event,
    rename_table,
]


def check_beside(monkeypatch: pytest.MonkeyPatch) -> None:
    """Check the chain and signatures in a second process, as a long session's are."""
    if not hasattr(os, "fork"):
        pytest.skip("a second process is forked only where fork exists")
    monkeypatch.setattr(verify_session, "FORK_FROM_EVENTS", 0)
    monkeypatch.setattr(side_check, "can_fork", lambda: True)  # the runner's threads aside


@pytest.mark.parametrize("beside", [False, True], ids=["one process", "chain checked beside"])
@pytest.mark.parametrize("tamper", TAMPERS, ids=lambda tamper: tamper.__name__)
def test_verify_names_the_changed_row(
    history: Database, tamper: Callable[[Session], str], beside: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same fault is named whether the chain and signatures are checked in this process or in
    a second one (a long session's are), however far the rules' fold gets meanwhile."""
    if beside:
        check_beside(monkeypatch)
    with history.session() as session:
        expected = tamper(session)
        session.commit()
    with pytest.raises(VerifyFault) as fault:
        verify_database(history)
    assert expected in str(fault.value)


@pytest.mark.parametrize("beside", [False, True], ids=["one process", "chain checked beside"])
def test_of_two_breaks_in_the_chain_the_first_is_named(
    history: Database, beside: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chain's end is checked by the fold's process, the rest beside it: the earlier break is
    named, as in one process."""
    if beside:
        check_beside(monkeypatch)
    with history.session() as session:
        expected = alter_payload(session)  # the first street: in the part checked beside
        remove_last_event(session)  # the chain's end: in the part checked after the fold
        session.commit()
    with pytest.raises(VerifyFault, match=f"^{expected}$"):
        verify_database(history)


def test_a_hand_finished_undone_and_finished_again_verifies_beside(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its first finish was scored and then undone: only the finish that was settled is compared
    with the stored result, in a second process as in this one."""
    if not hasattr(os, "fork"):
        pytest.skip("a second process is forked only where fork exists")
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN}, settle=False)
    seen = {card for seat in service.snapshot().seats for row in seat.rows for card in row.cards}
    service.do(Undo())
    turn = service.snapshot().to_act
    assert turn is not None and turn.place == 1
    seat = next(seat for seat in service.snapshot().seats if seat.name == turn.player)
    open_row = next(row.row for row in seat.rows if len(row.cards) < row.size)
    service.do(Place(turn.player, [next(card for card in FULL_DECK if card not in seen)], [str(open_row)]))
    service.do(Settle())
    monkeypatch.setattr(verify_session, "FORK_FROM_EVENTS", 0)
    monkeypatch.setattr(side_check, "can_fork", lambda: True)
    assert verify_database(database).hands == 1


def test_one_snapshot_holds_while_another_desk_records(history: Database) -> None:
    """What verify reads through: a table recording meanwhile must not look like tampering."""
    with history.snapshot() as session:
        events_before = session.execute(select(func.count()).select_from(Event)).scalar_one()
        resume_table(history, 1, dealer(history)).do(Rebuy("Ann", 5))  # another desk, between the reads
        assert session.scalar(select(func.count()).select_from(Event)) == events_before
    verify_database(history)
    with history.session() as session:
        assert session.scalar(select(func.count()).select_from(Event)) == events_before + 1


def test_a_value_stored_with_another_type_is_named(history: Database) -> None:
    if history.engine.dialect.name != "sqlite":
        pytest.skip("PostgreSQL's typed columns refuse bytes in a text column: only SQLite stores them")
    with history.session() as session:
        event_id = placed_event(session)
        session.execute(
            text("UPDATE events SET payload = CAST(payload AS BLOB) WHERE id = :id"), {"id": event_id}
        )
        session.commit()
    with pytest.raises(VerifyFault, match=f"event {event_id} was altered"):
        verify_database(history)


# ----------------------------------------------------------------------------- rows set aside
# A database login may add rows (never change or delete one): a row no event gives, or a signature
# that does not hold, is set aside and named, and the session still verifies and prints (issue 25).
def add_ledger_row(session: Session) -> str:
    row = LedgerRow(
        session_id=1,
        event_id=first_id(session, Event),
        hand_number=None,
        player="Ann",
        kind="rebuy",
        amount=1000,
        note="",
    )
    session.add(row)
    session.flush()
    return f"session 1: chip ledger row {row.id} (Ann +1000, rebuy) is none the events give"


def add_copy_of_a_ledger_row(session: Session) -> str:
    """An exact copy of a real row (its event, amount, note): still one row more than the events give."""
    real = session.get(LedgerRow, first_id(session, LedgerRow, kind="rebuy"))
    assert real is not None
    copy = LedgerRow(**{key: getattr(real, key) for key in verify_rows.LEDGER_KEYS}, session_id=1)
    session.add(copy)
    session.flush()
    return f"session 1: chip ledger row {copy.id} (Bob +40, rebuy) is none the events give"


def add_transfer_row(session: Session) -> str:
    hand = session.scalars(select(HandRow).where(HandRow.number == 1)).one()
    row = TransferRow(
        hand_id=hand.id, ordinal=99, from_player="Ann", to_player="Bob", owed=500, paid=500, reason=""
    )
    session.add(row)
    session.flush()
    return f"session 1: transfer row {row.id} of hand 1 is none the rules give"


def add_hand_row(session: Session) -> str:
    """A hand row for a hand never settled (on PostgreSQL the desk's role may not add it: it would
    stop that hand's settlement, whose row number it takes; tests/room/test_bogus_rows.py)."""
    real = session.scalars(select(HandRow).where(HandRow.number == 1)).one()
    row = HandRow(
        session_id=1,
        event_id=real.event_id,
        number=7,
        button="Ann",
        fantasyland="{}",
        result=real.result,
        rake="{}",
        jackpot=0,
        settled_at=real.settled_at,
    )
    session.add(row)
    session.flush()
    return f"session 1: hand row {row.id} (hand 7) is of a hand never settled"


def add_bogus_signature(session: Session) -> str:
    """The supervisor's name on the void, with bytes that are no signature of anything."""
    void = session.scalars(select(Event).where(Event.kind == "hand_voided")).one()
    row = Signature(session_id=1, seq=void.seq, hash=void.hash, signer=SUPERVISOR, signature="00" * 64)
    session.add(row)
    session.flush()
    return (
        f"session 1: signature row {row.id} ({SUPERVISOR!r} on event number {void.seq}) does not hold:"
        " it proves nothing and is not counted"
    )


def add_signature_of_a_stranger(session: Session) -> str:
    """A signature by no account, over an event number the session does not hold."""
    row = Signature(session_id=1, seq=999, hash="ab" * 32, signer="Mallory", signature="11" * 64)
    session.add(row)
    session.flush()
    return (
        f"session 1: signature row {row.id} ('Mallory' on event number 999) does not hold:"
        " it proves nothing and is not counted"
    )


_UNTAMPERED: dict[str, VerifiedSession] = {}


@pytest.fixture
def untampered_report(history: Database) -> VerifiedSession:
    """The history's session as its report reads it before any row is added: read from the first
    test's copy of each backend, as every copy holds the same rows."""
    dialect = history.engine.dialect.name
    if dialect not in _UNTAMPERED:
        _UNTAMPERED[dialect] = read_verified_session(history, 1)
    return _UNTAMPERED[dialect]


ADDITIONS: list[Callable[[Session], str]] = [
    add_ledger_row,
    add_copy_of_a_ledger_row,
    add_transfer_row,
    add_hand_row,
    add_bogus_signature,
    add_signature_of_a_stranger,
]


@pytest.mark.parametrize("beside", [False, True], ids=["one process", "chain checked beside"])
@pytest.mark.parametrize("addition", ADDITIONS, ids=lambda addition: addition.__name__)
def test_a_row_added_beside_the_record_is_set_aside_and_named(
    history: Database,
    untampered_report: VerifiedSession,
    addition: Callable[[Session], str],
    beside: bool,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Before, any one of these made the session fail verify for good ("signature does not hold",
    "covers a chain that is no longer there", "chip ledger row 41 differs") and refused its reports."""
    if beside:
        check_beside(monkeypatch)
    printed = untampered_report
    with history.session() as session:
        expected = addition(session)
        session.commit()
    summary = verify_database(history)
    assert summary.set_aside == (expected,)
    assert summary.line().endswith("; 1 row set aside (below)")
    report = read_verified_session(history, 1)  # the report prints, from the verified chain
    assert (report.hands, report.ledger, report.set_aside) == (printed.hands, printed.ledger, (expected,))
    assert main(["verify", "--db", history.url]) == 0
    assert capsys.readouterr().out.splitlines()[1] == f"set aside: {expected}"
