"""The room's jackpot pool (docs/rules.md §11, issue 28): one pool per database, fed by every
table's drop, filled by a supervisor's seed, emptied by awards paid after the hand's settlement and
rake; `verify` re-derives it, and two tables awarding at the same moment never pay the same chips."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import event, select, text
from sqlalchemy.exc import OperationalError

from ofc_desk.service import TableService
from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.store.pool_ledger import room_pool
from ofc_desk.service.store.record_reads import read_hands, read_ledger
from ofc_desk.service.table.commands import SeedJackpot, Settle, VoidHand
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.setup import SeatSetup, TableRules, TableSetup
from ofc_desk.storage import append_only
from ofc_desk.storage.append_locks import JACKPOT_LOCK
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import JackpotMove
from tests.fixtures.recorded_room.observe import load_dump
from tests.helpers.concurrent_calls import at_once
from tests.helpers.jackpot_awards import (
    HOUSE_AWARD,
    PLAYERS,
    award_replay_script,
    open_award_table,
    show_the_losing_hand,
)
from tests.helpers.replay_helpers import run_cli, write_script
from tests.helpers.room_logins import libpq
from tests.helpers.table_helpers import SUPERVISOR, SUPERVISOR_PIN

RECORDED_ROOM = Path(__file__).parents[1] / "fixtures" / "recorded_room" / "room.sql"
DROPPING = {"mode": "per-player", "amount": 2, "percent": 0, "cap": 8, "jackpot_percent": 50}
"""A rake of 2 chips a player, half of it dropped into the room's jackpot."""
LOCK_TIMEOUT = "SET lock_timeout = '2s'"


def test_a_seeded_pool_of_1000_pays_500_250_125_125(database: Database) -> None:
    """The issue's worked example: a jackpot of 1,000 at 50/25/25 with two others at the table."""
    service = open_award_table(database, "Jade 1", **HOUSE_AWARD)
    service.do(SeedJackpot(1000, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    assert room_pool(service.database) == 1000
    show_the_losing_hand(service)
    before = {seat.name: seat.stack for seat in service.snapshot().seats}
    service.do(Settle())
    (hand,) = read_hands(database, service.session_id)
    stored = json.loads(hand.result_text)
    chips = {"Ann": 500, "Bob": 250, "Cy": 125, "Dee": 125}
    assert stored["jackpot"] == {
        "pool_before": 1000,
        "pool_after": 0,
        "award": {"loser": "Ann", "winner": "Bob", "chips": chips},
    }
    # The award comes after the hand's own transfers, straight onto the stacks, as ledger lines.
    moved = {name: sum(t["paid"] for t in stored["transfers"] if t["to"] == name) for name in PLAYERS}
    paid = {name: sum(t["paid"] for t in stored["transfers"] if t["from"] == name) for name in PLAYERS}
    after = {seat.name: seat.stack for seat in service.snapshot().seats}
    assert after == {name: before[name] + moved[name] - paid[name] + chips[name] for name in PLAYERS}
    jackpot_lines = [
        (e.player, e.amount) for e in read_ledger(database, service.session_id) if e.kind == "jackpot"
    ]
    assert jackpot_lines == list(chips.items())
    assert room_pool(service.database) == 0
    assert verify_database(database, fork=False).hands == 1


def test_a_table_without_an_award_leaves_its_settlement_as_before(database: Database) -> None:
    """A drop alone stores no new key: the settlement's payload and result are today's."""
    rake = {"mode": "per-player", "amount": 2, "percent": 0, "cap": 8, "jackpot_percent": 50}
    service = open_award_table(database, "Jade 2", rake=rake)
    show_the_losing_hand(service)
    service.do(Settle())
    (hand,) = read_hands(database, service.session_id)
    assert "jackpot" not in json.loads(hand.result_text) and hand.jackpot == 4
    with database.session() as session:
        payload = session.scalar(text("SELECT payload FROM events WHERE kind = 'hand_settled'"))
        moves = session.execute(select(JackpotMove.kind, JackpotMove.chips, JackpotMove.pool_after)).all()
    assert payload == '{"number":1}'
    assert [tuple(move) for move in moves] == [("drop", 4, 4)]


def test_a_void_gives_the_award_back_and_is_refused_when_the_pool_cannot_return_a_drop(
    database: Database,
) -> None:
    service = open_award_table(database, "Jade 3", **HOUSE_AWARD)
    service.do(SeedJackpot(1000, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    show_the_losing_hand(service)
    service.do(Settle())
    service.do(VoidHand(1, "misdeal", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    assert room_pool(service.database) == 1000
    assert {seat.name: seat.stack for seat in service.snapshot().seats} == dict.fromkeys(PLAYERS, 100)
    # A drop paid out since cannot be taken back: the pool never goes below 0.
    rake = {"mode": "per-player", "amount": 5, "percent": 0, "cap": 20, "jackpot_percent": 100}
    dropping = open_award_table(database, "Jade 4", rake=rake)
    show_the_losing_hand(dropping)
    dropping.do(Settle())
    assert dropping.can(VoidHand(1))  # the pool holds its drop still
    show_the_losing_hand(service)
    service.do(Settle())  # 1,000 and the other table's drop of 20 paid out, but for 1 chip
    assert room_pool(service.database) == 1
    assert not dropping.can(VoidHand(1))  # the desk offers no void the store would refuse
    with pytest.raises(ActionRefused, match="room's jackpot pool"):
        dropping.do(VoidHand(1, "misdeal", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    verify_database(database, fork=False)


def test_an_award_at_a_2_7_pineapple_table_is_refused_when_the_table_opens(database: Database) -> None:
    rules = TableRules.from_json({"variant": "2-7-pineapple", "house_options": HOUSE_AWARD})
    setup = TableSetup("Low 1", (SeatSetup("Ann", 100), SeatSetup("Bob", 100)), "Bob", rules)
    with pytest.raises(ActionRefused, match="pays no jackpot award"):
        TableService.verify_open(setup)


def test_a_tampered_award_is_caught(database: Database) -> None:
    service = open_award_table(database, "Jade 5", **HOUSE_AWARD)
    service.do(SeedJackpot(1000, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    show_the_losing_hand(service)
    service.do(Settle())
    verify_database(database, fork=False)
    with database.engine.begin() as connection:
        append_only.remove_all(connection)
        connection.execute(
            text("UPDATE jackpot_moves SET chips = chips + 100, pool_after = 100 WHERE kind = 'award'")
        )
    with pytest.raises(VerifyFault, match=r"jackpot pool row \d+ differs from the events"):
        verify_database(database, fork=False)
    with database.engine.begin() as connection:
        connection.execute(
            text("UPDATE jackpot_moves SET chips = chips - 100, pool_after = 0 WHERE kind = 'award'")
        )
        connection.execute(
            text("UPDATE hands SET result = replace(result, :paid, :forged)"),
            {"paid": '"Ann":500', "forged": '"Ann":600'},
        )
    with pytest.raises(VerifyFault, match="hand 1: stored result differs from the rules"):
        verify_database(database, fork=False)


def test_two_tables_replayed_into_one_database_share_the_pool(
    tmp_path: Path, migrated_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A seed at the first table, an award at each; the second pays from what the first left."""
    jackpots = []
    for table, seed in (("Jade 1", 1000), ("Jade 2", None)):
        script = write_script(tmp_path, award_replay_script(table, seed=seed), f"{table}.json")
        status, out, err = run_cli(capsys, "replay", str(script), "--db", migrated_database_url)
        assert (status, err) == (0, "")
        jackpots.append(json.loads(out)["hands"][0]["result"]["jackpot"])
    # P is the pool before the deal plus the hand's drop of 4: 1,004 pays 502, 251, 125, 125.
    assert jackpots == [
        {
            "pool_before": 1000,
            "pool_after": 1,
            "award": {
                "loser": "Ann",
                "winner": "Bob",
                "chips": {"Ann": 502, "Bob": 251, "Cy": 125, "Dee": 125},
            },
        },
        {
            "pool_before": 1,
            "pool_after": 2,
            "award": {"loser": "Ann", "winner": "Bob", "chips": {"Ann": 2, "Bob": 1, "Cy": 0, "Dee": 0}},
        },
    ]
    status, out, err = run_cli(capsys, "verify", "--db", migrated_database_url)
    assert (status, err) == (0, "") and "2 sessions" in out


def test_tables_awarding_at_once_never_pay_the_same_chips(database: Database) -> None:
    """Four desks settle at the same moment on one pool: one finds 1,000 and pays it all, the others
    find what is left; the pool never pays more than it holds and never goes below 0."""
    tables = [open_award_table(database, f"Jade {n}", **HOUSE_AWARD) for n in (1, 2, 3, 4)]
    tables[0].do(SeedJackpot(1000, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    for table in tables:
        show_the_losing_hand(table)
    outcomes = at_once([partial(table.do, Settle()) for table in tables])
    assert not [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
    jackpots = [
        json.loads(read_hands(database, table.session_id)[0].result_text)["jackpot"] for table in tables
    ]
    found = sorted(jackpot["pool_before"] for jackpot in jackpots)
    paid = sum(sum(jackpot["award"]["chips"].values()) for jackpot in jackpots)
    assert found == [0, 0, 0, 1000] and paid == 1000 and room_pool(database) == 0
    with database.session() as session:
        pools = session.scalars(select(JackpotMove.pool_after).order_by(JackpotMove.id)).all()
    assert pools == [1000, 0, 0, 0, 0]
    verify_database(database, fork=False)


def test_a_settlement_that_cannot_move_the_pool_does_not_wait_for_its_lock(database: Database) -> None:
    """The pool's lock is the whole room's: a table whose rake drops nothing into the jackpot and
    whose preset pays no award settles while another transaction holds it (24 desks at a dealer's
    pace queued every settlement behind it); a table that drops still waits for it, and settles once
    it is free."""
    if database.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: the pool has no lock of its own to hold")
    plain = open_award_table(database, "Jade 5", rake={**DROPPING, "jackpot_percent": 0})
    dropping = open_award_table(database, "Jade 6", rake=DROPPING)
    show_the_losing_hand(plain)
    show_the_losing_hand(dropping)
    # A wait for a lock fails after 2 s instead of hanging the test.
    event.listen(database.engine, "connect", lambda connection, _record: connection.execute(LOCK_TIMEOUT))
    database.engine.dispose()
    with psycopg.connect(libpq(database.url)) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", (JACKPOT_LOCK,))
        plain.do(Settle())
        with pytest.raises(OperationalError, match="lock timeout"):
            dropping.do(Settle())
        holder.execute("SELECT pg_advisory_unlock(%s)", (JACKPOT_LOCK,))
    dropping.do(Settle())
    assert [len(read_hands(database, table.session_id)) for table in (plain, dropping)] == [1, 1]
    assert room_pool(database) == 4
    verify_database(database, fork=False)


def test_the_upgrade_makes_every_earlier_drop_the_rooms_pool(tmp_path: Path) -> None:
    """Migration 0009 derives the rows of the drops stored before it (a void takes its drop back),
    in the order of their events: the recorded room's session 3 dropped 1 chip a hand."""
    path = tmp_path / "room.db"
    load_dump(RECORDED_ROOM, path)
    database = Database(f"sqlite:///{path}")
    with database.session() as session:
        rows = session.execute(
            select(
                JackpotMove.session_id,
                JackpotMove.hand_number,
                JackpotMove.kind,
                JackpotMove.chips,
                JackpotMove.pool_after,
            ).order_by(JackpotMove.id)
        ).all()
    assert [tuple(row) for row in rows] == [
        (3, 2, "drop", 1, 1),
        (3, 3, "drop", 1, 2),
        (3, 3, "void", -1, 1),
        (3, 5, "drop", 1, 2),
    ]
    assert room_pool(database) == 2
    database.dispose()
