"""Every kind of event in words, as the audit log and the reports print it."""

from __future__ import annotations

import re

from ofc_desk.service import SeatSetup, TableRules, TableService, TableSetup, audit_log
from ofc_desk.service.room.desk_holds import ThisDesk
from ofc_desk.service.store.records import AuditRecord
from ofc_desk.service.store.sentences import audit_sentence
from ofc_desk.service.table.commands import (
    CashOut,
    ChangeRules,
    CloseSession,
    CorrectChips,
    DecideRequest,
    HandOver,
    Join,
    Rebuy,
    Request,
    Scripted,
    SeedJackpot,
    SitIn,
    SitOut,
    StartHand,
    Undo,
    VoidHand,
)
from ofc_desk.service.table.games.chinese.commands import Show
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage.database import Database
from tests.helpers.corrections import swap_rows
from tests.helpers.table_helpers import (
    ANN_QQ,
    BOB_PLAIN,
    CY_PLAIN,
    DEALER,
    SUPERVISOR,
    SUPERVISOR_PIN,
    open_test_table,
    play_hand,
)


def sentences_of(database: Database, session_id: int) -> list[tuple[str, str]]:
    return [(record.kind, audit_sentence(record)) for record in audit_log(database, session_id)]


def test_every_kind_of_event_reads_as_a_sentence(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN, "Cy": CY_PLAIN})  # Ann to Fantasyland
    play_hand(service, {"Bob": BOB_PLAIN, "Cy": CY_PLAIN})  # Ann sets her Fantasyland hand
    service.do(VoidHand(2, "misdeal", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    bob_rows = swap_rows(service.machine.hand_traces[1].entries, "Bob")
    corrected = {"hand": 1, "entries": bob_rows, "reason": "rows"}
    service.do(
        Scripted(event=EventKind.HAND_CORRECTED, payload=corrected, approved=(SUPERVISOR, SUPERVISOR_PIN))
    )
    service.do(SitOut("Cy"))
    service.do(SitIn("Cy"))
    service.do(Rebuy("Bob", 20))
    service.do(CashOut("Cy"))
    service.do(Join("Dee", 50, seat=3))
    service.do(CorrectChips("Bob", -5, "miscounted rebuy", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    service.do(ChangeRules(TableRules(unit=2), supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    service.do(SeedJackpot(500, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    found = {"player": "Bob", "amount": 7, "reason": "chips found"}
    service.do(Request(Scripted(event=EventKind.CHIPS_CORRECTED, payload=found), "Bob's stack is short"))
    service.do(DecideRequest(1, True, "seen on camera", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    service.carry_out_approved()
    service.do(CloseSession(supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    second = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    second.do(StartHand())
    second.do(Place("Ann", "8s Kd 2c 3c 4c", "front back back back back"))
    second.do(Undo())
    second.do(HandOver("Rita"))
    pit_2 = ThisDesk("PIT-2", "t")
    TableService.take_over(database, second.session_id, "Rex", pit_2, SUPERVISOR, SUPERVISOR_PIN)
    seats = (SeatSetup("Ann", 20), SeatSetup("Bob", 20))
    rules = TableRules.from_json({"variant": "chinese", "rules": "chinese-typical"})
    chinese = TableService.open(database, TableSetup("Table 8", seats, "Bob", rules), DEALER)
    chinese.do(StartHand())
    chinese.do(Show("Bob", "Qs Qh 7d Js Jh Jd 2s 2h 5s 5h 5d 5c Ad", "f f f m m m m m b b b b b"))
    chinese.do(Undo())

    said = [
        *sentences_of(database, service.session_id),
        *sentences_of(database, second.session_id),
        *sentences_of(database, chinese.session_id),
    ]
    # rules_pinned is written by migration 0007 only: its sentence is tested in test_pinned_rules.py
    shown = {kind.value for kind in EventKind} - {EventKind.RULES_PINNED.value}
    assert {kind for kind, _ in said} == shown, "every kind is shown"
    for kind, sentence in said:
        assert sentence and "{" not in sentence and "does not read" not in sentence, (kind, sentence)
    by_kind: dict[str, list[str]] = {}
    for kind, sentence in said:
        by_kind.setdefault(kind, []).append(sentence)
    assert by_kind["table_opened"][0].startswith("Table Table 7 opened by Dan: Ann 100, Bob 100, Cy 100;")
    assert "Ann: 8s front, Kd back, 2c back, 3c back, 4c back" in by_kind["placed"]
    bob_shows = "Bob showed: front Qs Qh 7d · middle Js Jh Jd 2s 2h · back 5s 5h 5d 5c Ad"
    assert by_kind["shown"] == [bob_shows]
    assert by_kind["undone"] == [
        "Taken back: Ann: 8s front, Kd back, 2c back, 3c back, 4c back",
        f"Taken back: {bob_shows}",
    ]
    assert re.fullmatch(
        r"Ann revealed: front( \w\w){3} · middle( \w\w){5} · back( \w\w){5}( · discard( \S\S)+)?",
        by_kind["revealed"][0],
    ), by_kind["revealed"][0]
    assert by_kind["hand_voided"] == [f"{SUPERVISOR} voided hand 2: misdeal"]
    assert by_kind["chips_corrected"] == [
        f"{SUPERVISOR} corrected Bob's chips by -5: miscounted rebuy",
        f"{SUPERVISOR} corrected Bob's chips by +7: chips found (request #1)",
    ]
    assert by_kind["request_made"] == [
        "Dan asked the floor (request #1): correct Bob's chips by +7 — Bob's stack is short"
    ]
    assert by_kind["request_decided"] == [f"{SUPERVISOR} approved request #1: seen on camera"]
    assert by_kind["joined"] == ["Dee joined with 50 chips at seat 3, seated after Bob"]
    assert by_kind["handed_over"] == ["Dan handed the table over to Rita"]
    assert by_kind["taken_over"] == [f"{SUPERVISOR} handed the table over to Rex at desk PIT-2"]
    assert by_kind["rebought"] == ["Bob rebought 20 chips"]
    assert by_kind["sat_out"] == ["Cy sat out"] and by_kind["sat_in"] == ["Cy sat back in"]
    assert by_kind["hand_settled"] == ["Hand 1 settled", "Hand 2 settled"]
    assert by_kind["hand_corrected"][0].startswith(f"{SUPERVISOR} corrected hand 1: ")
    assert by_kind["session_closed"] == [f"{SUPERVISOR} closed the table"]
    assert by_kind["rules_changed"][0].startswith(f"{SUPERVISOR} changed the rules: ")
    assert "unit 2" in by_kind["rules_changed"][0]


def test_a_payload_that_does_not_read_is_said_not_raised() -> None:
    def record(kind: str, payload: dict[str, object]) -> AuditRecord:
        return AuditRecord(1, 1, 1, kind, "Dan", "t", payload, "0" * 64, "1" * 64)

    assert audit_sentence(record("hand_voided", {"hand": 3})) == (
        "hand voided: the payload does not read (see the raw payload)"
    )
    assert "unknown kind “dealt_twice”" in audit_sentence(record("dealt_twice", {}))
