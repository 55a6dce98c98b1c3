"""The dealer on duty: a hand-over is an event of the chain, signed by the dealer leaving; the
snapshot names the dealer recording now; each hand's record names the dealers who dealt it, in a
session recorded before hand-overs were events too."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from ofc_desk.service import TableService, audit_log, hand_history, list_open_tables
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.store.sentences import audit_sentence
from ofc_desk.service.table.commands import CashOut, HandOver, Join, StartHand
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Signature
from ofc_desk.storage.users import sign_in
from tests.helpers.replay_helpers import load_example, run_cli, write_script
from tests.helpers.table_helpers import (
    ANN_QQ,
    BOB_PLAIN,
    CY_PLAIN,
    DEALER,
    SUPERVISOR,
    SUPERVISOR_PIN,
    open_test_table,
    play_hand,
    play_streets,
)


def test_a_hand_over_is_recorded_signed_and_named(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    assert service.snapshot().dealer == DEALER
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    sue = sign_in(database, SUPERVISOR, SUPERVISOR_PIN)
    service.do(StartHand())
    snapshot = service.do(HandOver(sue))  # within hand 2
    assert snapshot.dealer == SUPERVISOR
    play_streets(service, {"Bob": BOB_PLAIN})
    events = audit_log(database, service.session_id)
    over = next(event for event in events if event.kind == "handed_over")
    assert (over.actor, over.payload) == (DEALER, {"dealer": SUPERVISOR})
    assert audit_sentence(over) == f"{DEALER} handed the table over to {SUPERVISOR}"
    assert {event.actor for event in events if event.seq > over.seq} == {SUPERVISOR}
    with database.session() as session:
        signers = session.scalars(select(Signature.signer).where(Signature.seq == over.seq)).all()
    assert signers == [DEALER]
    assert [hand.dealers for hand in hand_history(database, service.session_id)] == [
        (DEALER,),
        (DEALER, SUPERVISOR),
    ]
    assert service.do(HandOver(sue)).dealer == SUPERVISOR  # the dealer on duty: nothing recorded
    assert len(audit_log(database, service.session_id)) == len(events)
    resumed = TableService.resume(database, service.session_id, sue)
    assert resumed.snapshot().dealer == SUPERVISOR
    verify_database(database)


def test_a_session_recorded_before_hand_overs_were_events_reads_by_its_actors(database: Database) -> None:
    """Today's main handed a table over by signing its head and recording the rest as the new
    dealer's; a desk resumed by another dealer still does. The hands name their dealers all the
    same, and the session verifies."""
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    play_hand(service, {"Bob": BOB_PLAIN, "Cy": CY_PLAIN})
    service.do(CashOut("Cy"))
    service.do(Join("Dee", 60, "Ann"))  # a join naming only the player before, as main recorded it
    sue = sign_in(database, SUPERVISOR, SUPERVISOR_PIN)
    taken_over = TableService.resume(database, service.session_id, sue)
    play_hand(taken_over, {"Bob": BOB_PLAIN})
    assert [(seat.name, seat.number) for seat in taken_over.snapshot().seats] == [
        ("Ann", 1),
        ("Dee", 3),
        ("Bob", 2),
    ]
    assert [hand.dealers for hand in hand_history(database, service.session_id)] == [(DEALER,), (SUPERVISOR,)]
    assert not any(event.kind == "handed_over" for event in audit_log(database, service.session_id))
    verify_database(database)


def test_a_replay_resumed_past_its_hand_over_matches_it_and_records_it_once(
    tmp_path: Path, migrated_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_example()
    script["hands"] = script["hands"][:2]
    script["hands"][1]["between"] = [{"op": "dealer", "name": "Yan"}]
    assert (
        run_cli(capsys, "replay", str(write_script(tmp_path, script)), "--db", migrated_database_url)[0] == 0
    )
    longer = {**script, "hands": [*script["hands"], load_example()["hands"][2]]}
    status, _, err = run_cli(
        capsys,
        "replay",
        str(write_script(tmp_path, longer, "longer.json")),
        "--db",
        migrated_database_url,
        "--resume",
    )
    assert (status, err) == (0, "")
    database = Database(migrated_database_url)
    [table] = list_open_tables(database)
    events = audit_log(database, table.session_id)
    hands = hand_history(database, table.session_id)
    database.dispose()
    assert [(event.actor, event.payload) for event in events if event.kind == "handed_over"] == [
        ("replay", {"dealer": "Yan"})
    ]
    assert [hand.dealers for hand in hands] == [("replay",), ("Yan",), ("Yan",)]
