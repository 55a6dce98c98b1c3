"""Requests to the floor: the dealer asks for a void, a correction or a rules change; a supervisor
decides at the floor (another writer at the same table) or at the desk; the desk carries out an
approved action between hands, exactly as approved, once; the chain and its signatures verify."""

from __future__ import annotations

from pathlib import Path

import pytest

from ofc_desk.reports.exports import replay_script
from ofc_desk.reports.loader import load_session_record
from ofc_desk.reports.record import AdjustmentKind
from ofc_desk.service import ActionRefused, TableService
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.oversight.floor_decisions import decide_at_the_floor
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.table.commands import (
    CorrectChips,
    DecideRequest,
    Request,
    Scripted,
    Settle,
    StartHand,
    VoidHand,
)
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage.account_changes import create_accounts, create_user
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, sign_in
from tests.helpers.table_helpers import (
    BOB_PLAIN,
    CY_PLAIN,
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    Plan,
    open_test_table,
    play_hand,
    play_streets,
)

THREE = [("Ann", 100), ("Bob", 100), ("Cy", 100)]
ANN_PLAIN = Plan("Qh Td 2c", "Ah Kh 9h 4h 2h", "7s 7d 7c 3s 3d")
VOID_1 = VoidHand(1, "misdeal")


def a_table_after_one_hand(database: Database) -> TableService:
    service = open_test_table(database, THREE, "Cy")
    play_hand(service, {"Ann": ANN_PLAIN, "Bob": BOB_PLAIN, "Cy": CY_PLAIN})
    return service


def test_a_void_requested_mid_hand_is_approved_at_the_floor_and_done_between_hands(
    database: Database,
) -> None:
    desk = a_table_after_one_hand(database)
    after_hand_1 = {seat.name: seat.stack for seat in desk.snapshot().seats}
    desk.do(StartHand())
    snapshot = desk.do(Request(VOID_1, "wrong cards in hand 1"))
    assert [(r.line, r.waiting) for r in snapshot.open_requests] == [
        ("#1 void hand 1 (wrong cards in hand 1) — waiting for the floor", True)
    ]

    said = decide_at_the_floor(
        database, desk.session_id, 1, True, SUPERVISOR, SUPERVISOR_PIN, "seen on camera"
    )
    assert said == "request #1 at Table 7 approved by Sue"
    # The desk deals on: every street goes into the chain after the floor's approval.
    play_streets(desk, {}, settle=False)
    assert desk.open_requests()[0].status() == "approved by Sue, to be done between hands"
    assert desk.carry_out_approved() == []  # the hand is not settled yet
    desk.do(Settle())
    hand_2 = desk.machine.hand_changes[2]

    assert desk.carry_out_approved() == ["request #1 done: void hand 1, approved by Sue"]
    assert desk.open_requests() == [] and desk.carry_out_approved() == []
    for name, stack in after_hand_1.items():
        expected = stack - desk.machine.hand_changes[1][name] + hand_2[name]
        assert desk.snapshot().seat(name).stack == expected
    verify_database(database)  # raises on any fault: hashes, re-scoring, signatures


def test_a_declined_request_changes_nothing_and_says_who_declined(database: Database) -> None:
    desk = a_table_after_one_hand(database)
    bob = desk.snapshot().seat("Bob").stack
    desk.do(Request(CorrectChips("Bob", 50, "miscount"), "Bob says"))
    decide_at_the_floor(database, desk.session_id, 1, False, SUPERVISOR, SUPERVISOR_PIN, "no evidence")
    desk.catch_up()
    assert desk.open_requests() == [] and desk.carry_out_approved() == []
    assert desk.machine.requests[1].status() == "declined by Sue: no evidence"
    assert desk.snapshot().seat("Bob").stack == bob
    verify_database(database)


def test_the_desk_and_the_floor_deciding_at_once_one_wins_and_the_other_is_told(database: Database) -> None:
    desk = a_table_after_one_hand(database)
    desk.do(Request(VOID_1, "misdeal"))
    floor = create_user(
        database, "Flo", Role.SUPERVISOR, "24682468", approver=sign_in(database, SUPERVISOR, SUPERVISOR_PIN)
    )
    decide_at_the_floor(database, desk.session_id, 1, True, floor.name, "24682468")
    with pytest.raises(ActionRefused, match="request #1 was already approved by Flo"):
        desk.do(DecideRequest(1, False, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    with pytest.raises(ActionRefused, match="request #1 was already approved by Flo"):
        decide_at_the_floor(database, desk.session_id, 1, True, SUPERVISOR, SUPERVISOR_PIN)
    assert desk.carry_out_approved() == ["request #1 done: void hand 1, approved by Flo"]
    assert [kind for kind in desk._recorder.store.kinds_after(0)].count(EventKind.REQUEST_DECIDED) == 1
    verify_database(database)


@pytest.mark.parametrize(
    ("action", "details", "reason", "refusal"),
    [
        (EventKind.HAND_VOIDED, {"hand": 7, "reason": "x"}, "x", "there is no settled hand 7 to void"),
        (EventKind.HAND_VOIDED, {"hand": 1, "reason": "x"}, " ", "needs the dealer's reason"),
        (EventKind.CHIPS_CORRECTED, {"player": "Bob", "amount": 0, "reason": "x"}, "x", "not 0"),
        (EventKind.SESSION_CLOSED, {}, "x", "the floor is asked for one of"),
    ],
)
def test_a_request_the_table_could_not_carry_out_is_refused_and_stores_nothing(
    database: Database, action: EventKind, details: dict[str, object], reason: str, refusal: str
) -> None:
    desk = a_table_after_one_hand(database)
    head = desk._recorder.store.head_seq
    with pytest.raises(ActionRefused, match=refusal):
        desk.do(Request(Scripted(event=action, payload=details), reason))
    assert desk._recorder.store.head_seq == head
    # The desk offers a request when what it asks for could be done (the reason comes later).
    assert desk.can(Request(Scripted(event=action, payload=details), "a reason")) is (reason == " ")


def test_the_same_request_twice_is_refused_and_an_unapproved_one_cannot_be_carried_out(
    database: Database,
) -> None:
    desk = a_table_after_one_hand(database)
    desk.do(Request(VOID_1, "misdeal"))
    with pytest.raises(ActionRefused, match="that is request #1 already: waiting for the floor"):
        desk.do(Request(VOID_1, "misdeal again"))
    forged = {"hand": 1, "reason": "misdeal", "supervisor": SUPERVISOR, "request": 1}
    with pytest.raises(ActionRefused, match="request #1 is not approved: waiting for the floor"):
        desk.do(Scripted(event=EventKind.HAND_VOIDED, payload=forged))
    desk.do(DecideRequest(1, True, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    other = {"hand": 1, "reason": "something else", "supervisor": SUPERVISOR, "request": 1}
    with pytest.raises(ActionRefused, match="request #1 approved something else: void hand 1"):
        desk.do(Scripted(event=EventKind.HAND_VOIDED, payload=other))
    desk.carry_out_approved()
    with pytest.raises(ActionRefused, match="hand 1 is already voided"):
        desk.do(Scripted(event=EventKind.HAND_VOIDED, payload=forged))
    verify_database(database)


def test_a_session_with_requests_exports_to_a_script_that_replays_it_event_for_event(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    database = Database(url)
    create_accounts(
        database, [(SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN), (DEALER, Role.DEALER, DEALER_PIN)]
    )
    desk = a_table_after_one_hand(database)
    desk.do(StartHand())
    desk.do(Request(VOID_1, "misdeal"))  # asked mid-hand
    decide_at_the_floor(database, desk.session_id, 1, True, SUPERVISOR, SUPERVISOR_PIN)
    play_streets(desk, {})
    desk.carry_out_approved()
    desk.do(Request(CorrectChips("Cy", 5, "count"), "count"))
    desk.do(DecideRequest(2, False, "recount first", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    database.dispose()

    record = load_session_record(url)
    assert [(a.kind, a.description, a.actor, a.approver) for a in record.adjustments] == [
        (AdjustmentKind.REQUEST, f"{DEALER} asked the floor (request #1): void hand 1 — misdeal", DEALER, ""),
        (AdjustmentKind.REQUEST, f"{SUPERVISOR} approved request #1", SUPERVISOR, SUPERVISOR),
        (AdjustmentKind.VOID, f"{SUPERVISOR} voided hand 1: misdeal (request #1)", SUPERVISOR, SUPERVISOR),
        (
            AdjustmentKind.REQUEST,
            f"{DEALER} asked the floor (request #2): correct Cy's chips by +5 — count",
            DEALER,
            "",
        ),
        (AdjustmentKind.REQUEST, f"{SUPERVISOR} declined request #2: recount first", SUPERVISOR, SUPERVISOR),
    ]
    script = replay_script(record)
    hands = script["hands"]
    assert isinstance(hands, list)
    assert hands[1]["actions"][0] == {
        "op": "request",
        "request": 1,
        "action": "hand_voided",
        "details": {"hand": 1, "reason": "misdeal"},
        "reason": "misdeal",
    }
    again = Database(f"sqlite:///{tmp_path / 'again.db'}")
    run_replay(again, script, resume=False, pins={SUPERVISOR: SUPERVISOR_PIN}.get)
    replayed = load_session_record(again.url)
    original = load_session_record(url)
    assert replayed.event_count == original.event_count
    assert [(h.number, h.voided, h.stacks_after) for h in replayed.hands] == [
        (h.number, h.voided, h.stacks_after) for h in original.hands
    ]
    assert [(a.kind, a.description, a.actor) for a in replayed.adjustments] == [
        (a.kind, a.description, a.actor) for a in original.adjustments
    ]
    verify_database(again)
    again.dispose()


def test_a_rules_change_and_a_correction_approved_at_the_floor_apply_from_the_next_hand(
    database: Database,
) -> None:
    desk = a_table_after_one_hand(database)
    desk.do(StartHand())
    stakes = {"rules": desk.rules.to_json() | {"unit": 3}}
    desk.do(
        Request(
            Scripted(event=EventKind.RULES_CHANGED, payload=stakes), "the players asked for higher stakes"
        )
    )
    desk.do(Request(CorrectChips("Bob", 10, "found"), "a chip found"))
    for number in (1, 2):
        decide_at_the_floor(database, desk.session_id, number, True, SUPERVISOR, SUPERVISOR_PIN)
    play_streets(desk, {}, settle=False)
    desk.do(Settle())
    bob = desk.snapshot().seat("Bob").stack
    assert desk.rules.unit == 1  # hand 2 was played and settled at the old stakes
    assert desk.carry_out_approved() == [
        "request #1 done: change the rules and stakes, approved by Sue",
        "request #2 done: correct Bob's chips by +10, approved by Sue",
    ]
    assert desk.rules.unit == 3 and desk.snapshot().seat("Bob").stack == bob + 10
    verify_database(database)
