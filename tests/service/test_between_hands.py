"""Between hands: joins, rebuys, cash-outs, sit-outs, rake, and the supervisor's actions."""

from __future__ import annotations

import re

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from ofc_desk.service import (
    ActionRefused,
    SeatSetup,
    TableRules,
    TableService,
    TableSetup,
    audit_log,
    chip_ledger,
    hand_history,
    list_open_tables,
    resume_table,
)
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.table.commands import (
    CashOut,
    ChangeRules,
    CloseSession,
    CorrectChips,
    Join,
    Rebuy,
    Settle,
    SitIn,
    SitOut,
    StartHand,
    VoidHand,
)
from ofc_desk.storage.account_changes import change_pin, set_up_first_key
from ofc_desk.storage.database import Database
from ofc_desk.storage.pins import hash_pin
from ofc_desk.storage.schema_revision import MIGRATIONS
from ofc_desk.storage.users import sign_in
from tests.helpers.table_helpers import (
    ANN_QQ,
    BOB_PLAIN,
    CY_PLAIN,
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    open_test_table,
    play_hand,
)

FOUR = [("Ann", 100), ("Bob", 100), ("Cy", 100), ("Dee", 100)]


def stacks(service: TableService) -> dict[str, int]:
    return {seat.name: seat.stack for seat in service.snapshot().seats}


def test_join_takes_the_seat_after_the_named_player(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    service.do(Join("Eve", 60, after="Ann"))
    assert [seat.name for seat in service.snapshot().seats] == ["Ann", "Eve", "Bob", "Cy"]
    with pytest.raises(ActionRefused, match="the table is full: regular seats at most 4"):
        service.do(Join("Fay", 60))
    service.do(CashOut("Bob"))
    with pytest.raises(ActionRefused, match="there is already a player called Eve"):
        service.do(Join("Eve", 10))
    service.do(StartHand())
    turn = service.snapshot().to_act
    assert turn is not None and turn.player == "Ann"


def test_a_table_everyone_left_takes_new_players(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    service.do(CashOut("Ann"))
    service.do(CashOut("Bob"))
    service.do(Join("Cy", 50))
    service.do(Join("Dee", 50))
    assert [seat.name for seat in service.snapshot().seats] == ["Cy", "Dee"]
    play_hand(service, {})
    verify_database(database)


def test_sitting_out_player_is_not_dealt_and_the_button_skips_them(database: Database) -> None:
    service = open_test_table(database, FOUR, "Dee")
    service.do(SitOut("Bob"))
    play_hand(service, {})
    snapshot = service.snapshot()
    assert not snapshot.seat("Bob").in_hand
    assert snapshot.button == "Ann"
    service.do(SitIn("Bob"))
    service.do(StartHand())
    assert service.snapshot().seat("Bob").in_hand
    turn = service.snapshot().to_act
    assert turn is not None and turn.player == "Bob"


def test_rebuy_and_cash_out_are_in_the_ledger(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    service.do(Rebuy("Ann", 50))
    service.do(CashOut("Cy"))
    assert stacks(service) == {"Ann": 150, "Bob": 100}
    assert service.snapshot().button == "Ann"
    ledger = [(row.player, row.kind, row.amount) for row in chip_ledger(database, service.session_id)]
    assert ledger == [
        ("Ann", "buy_in", 100),
        ("Bob", "buy_in", 100),
        ("Cy", "buy_in", 100),
        ("Ann", "rebuy", 50),
        ("Cy", "cash_out", -100),
    ]


def test_per_player_rake_and_jackpot_drop(database: Database) -> None:
    rake = {"rake": {"mode": "per-player", "amount": 2, "jackpot_percent": 50}}
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy", house_options=rake)
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN, "Cy": CY_PLAIN})
    snapshot = service.snapshot()
    assert snapshot.rake is not None
    assert (snapshot.rake.total, snapshot.rake.jackpot, snapshot.jackpot_pool) == (6, 3, 3)
    result = hand_history(database, service.session_id)[0].result
    after = {seat.name: seat.stack_after - 2 for seat in result.seats}
    assert stacks(service) == after
    assert sum(after.values()) == 294


def test_percent_rake_is_taken_from_the_winner_only(database: Database) -> None:
    rake = {"rake": {"mode": "percent-of-win", "percent": 10, "cap": 5}}
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob", house_options=rake)
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    result = hand_history(database, service.session_id)[0]
    won = result.result.seats[0].stack_after - 100
    assert result.rake == {"Ann": min(won * 10 // 100, 5)}


def test_void_reverses_the_hand_with_a_new_event(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    assert stacks(service) != {"Ann": 100, "Bob": 100}
    with pytest.raises(ActionRefused, match="a floor supervisor must approve this"):
        service.do(VoidHand(1, supervisor=SUPERVISOR, pin="9999"))
    with pytest.raises(ActionRefused, match="wrong name or PIN, or not a supervisor"):
        service.do(VoidHand(1, supervisor=DEALER, pin=DEALER_PIN))
    service.do(VoidHand(1, "misdeal", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    assert stacks(service) == {"Ann": 100, "Bob": 100}
    [hand] = hand_history(database, service.session_id)
    assert (hand.voided, hand.void_reason) == (True, "misdeal")
    last = audit_log(database, service.session_id)[-1]
    assert (last.kind, last.actor, last.payload["supervisor"]) == ("hand_voided", "Sue", "Sue")
    with pytest.raises(ActionRefused, match="hand 1 is already voided"):
        service.do(VoidHand(1, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))


def test_chip_correction_needs_a_supervisor_and_a_reason(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    with pytest.raises(ActionRefused, match="a chip correction needs a reason"):
        service.do(CorrectChips("Ann", 5, "", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    with pytest.raises(ActionRefused, match="supervisor"):
        service.check(CorrectChips("Ann", 5, "miscount", supervisor=SUPERVISOR, pin="0000"))
    service.do(CorrectChips("Ann", -5, "miscount", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    assert stacks(service)["Ann"] == 95


def test_amounts_beyond_a_trillion_chips_are_refused_and_nothing_is_stored(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    events = len(audit_log(database, service.session_id))
    with pytest.raises(ActionRefused, match="a rebuy is a whole number of chips from 1 to 1,000,000,000,000"):
        service.do(Rebuy("Ann", 10**12 + 1))
    with pytest.raises(ActionRefused, match="up to 1,000,000,000,000 each way"):
        service.do(CorrectChips("Ann", -(10**13), "miscount", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    with pytest.raises(ActionRefused, match="a unit must be a whole number of chips from 1 to"):
        service.do(ChangeRules(TableRules(unit=2**70), supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    assert len(audit_log(database, service.session_id)) == events
    service.do(Rebuy("Ann", 10**12))
    assert stacks(service)["Ann"] == 10**12 + 100


def test_rules_change_only_between_hands_with_a_supervisor(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    pineapple = TableRules(variant="pineapple", unit=2)
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN}, settle=False)
    expected = "rules and stakes change only between hands: hand 1 is awaiting settlement"
    with pytest.raises(ActionRefused, match=expected):
        service.do(ChangeRules(pineapple, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    service.do(Settle())
    with pytest.raises(ActionRefused, match="a floor supervisor must approve this"):
        service.do(ChangeRules(pineapple, supervisor=SUPERVISOR, pin="1111"))
    # Ann earned Fantasyland at regular OFC and plays it so; the stakes may change meanwhile.
    owed = r"variant stay until the Fantasyland hands owed are played: Ann \(13 cards\)"
    with pytest.raises(ActionRefused, match=owed):
        service.do(ChangeRules(pineapple, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    service.do(ChangeRules(TableRules(unit=2), supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    play_hand(service, {})
    assert hand_history(database, service.session_id)[1].result.pairs[0].unit == 2
    service.do(ChangeRules(pineapple, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    assert (service.snapshot().variant, service.snapshot().unit) == ("pineapple", 2)
    play_hand(service, {})
    assert hand_history(database, service.session_id)[2].result.pairs[0].unit == 2


@pytest.mark.parametrize(
    ("pairs", "problem"),
    [
        ([{"players": ["Ann", "Ann"], "unit": 2}], "pair_units[0].players[1]: 'Ann' is named twice"),
        (
            [{"players": ["Ann", "Bob"], "unit": 2}, {"players": ["Bob", "Ann"], "unit": 3}],
            "pair_units[1].players: Bob and Ann already have a unit",
        ),
    ],
)
def test_pair_units_are_checked_when_the_table_opens_not_when_a_hand_ends(
    database: Database, pairs: list[dict[str, object]], problem: str
) -> None:
    with pytest.raises(ActionRefused, match=re.escape(f"rules: {problem}")):
        open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob", pair_units=pairs)
    assert list_open_tables(database) == []


def test_a_table_has_one_open_session_at_a_time(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    again = rf"Table 7 already has an open session \({service.session_id}\): resume it, or close it first"
    with pytest.raises(ActionRefused, match=again):
        open_test_table(database, [("Cy", 100), ("Dee", 100)], "Dee")
    # What the index does when two desks race past that look.
    forged = (
        "INSERT INTO table_sessions (table_name, opened_at, head_seq, head_hash)"
        " VALUES ('Table 7', '', 0, '')"
    )
    with database.engine.begin() as connection, pytest.raises(IntegrityError):
        connection.execute(text(forged))
    service.do(CloseSession(supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    assert open_test_table(database, [("Cy", 100), ("Dee", 100)], "Dee").session_id != service.session_id


def test_closing_needs_a_supervisor_and_ends_the_session(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    assert [t.session_id for t in list_open_tables(database)] == [service.session_id]
    with pytest.raises(ActionRefused):
        service.do(CloseSession(supervisor=DEALER, pin=DEALER_PIN))
    service.do(CloseSession(supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    assert list_open_tables(database) == []
    with pytest.raises(ActionRefused, match="the session at Table 7 is closed"):
        service.do(StartHand())


def test_a_database_of_the_first_schema_is_migrated_and_then_takes_a_trillion_chips(
    database_url: str,
) -> None:
    first_release = Database(database_url, migrate=False)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with first_release.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        for name, role, pin in ((SUPERVISOR, "supervisor", SUPERVISOR_PIN), (DEALER, "dealer", DEALER_PIN)):
            connection.execute(
                text("INSERT INTO users (name, role, pin_hash, created_at) VALUES (:n, :r, :h, :at)"),
                {"n": name, "r": role, "h": hash_pin(pin), "at": "2026-11-20T10:00:00.000000Z"},
            )
    setup = TableSetup("Table 7", (SeatSetup("Ann", 100), SeatSetup("Bob", 100)), "Bob")
    session_id = TableService.open(first_release, setup, DEALER).session_id  # no keys yet: unsigned
    first_release.dispose()
    database = Database(database_url)  # what every start does: migrate to the newest schema
    # The accounts were imported without keys: the room's set-up gives its supervisor one, and
    # she approves the dealer's.
    sue = set_up_first_key(database, SUPERVISOR, SUPERVISOR_PIN, SUPERVISOR_PIN)
    change_pin(database, DEALER, DEALER_PIN, DEALER_PIN, sue)
    service = resume_table(database, session_id, sign_in(database, DEALER, DEALER_PIN))
    service.do(Rebuy("Ann", 10**12))
    assert [(entry.player, entry.amount) for entry in chip_ledger(database, session_id)][-1] == (
        "Ann",
        10**12,
    )
    assert verify_database(database).chips_on_tables == 10**12 + 200
    database.dispose()
