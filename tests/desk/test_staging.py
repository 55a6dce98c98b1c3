"""The staging model alone, without Qt: what a typed line stages, what the service refuses and
where the line stops, the seat a line names, taking cards back, and drafts. Every check is a real
`TableService`'s, on SQLite."""

from __future__ import annotations

from pathlib import Path

import pytest

from ofc_desk.core.chinese.deal import CHINESE
from ofc_desk.desk.entry.drafts import StagedDraft
from ofc_desk.desk.entry.staging import NO_HAND, Staging, seat_map
from ofc_desk.service import TableService, TableSetup
from ofc_desk.service.table.commands import StartHand
from ofc_desk.service.table.games.chinese.view_parts import ChineseTurn
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.setup import SeatSetup, TableRules
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account


@pytest.fixture
def dealt(database: Database, template_accounts: tuple[Path, Account]) -> TableService:
    """Ann, Bob and Cy at a regular table, hand 1 dealt: Ann's first street is next."""
    seats = tuple(SeatSetup(name, 100) for name in ("Ann", "Bob", "Cy"))
    service = TableService.open(
        database, TableSetup("Staged", seats, "Cy", TableRules()), template_accounts[1]
    )
    service.do(StartHand())
    return service


def refusal_of(service: TableService, player: str, cards: list[str], rows: list[str]) -> str:
    try:
        service.check_typing(Place(player, cards, rows))
    except ActionRefused as refusal:
        return str(refusal)
    raise AssertionError(f"the service takes {cards} for {player}")


def test_a_typed_street_is_staged_card_by_card_and_the_line_keeps_what_is_half_typed(
    dealt: TableService,
) -> None:
    staging, snapshot = Staging(), dealt.snapshot()
    read = staging.read("ks b kd b 7", snapshot, dealt)
    assert staging.lists() == (["Ks", "Kd"], ["back", "back"])
    assert (read.line, read.refusal, read.staged, read.notice) == ("7", "", True, "")
    assert staging.text(snapshot) == "This street: Ks→back  Kd→back"
    assert staging.draft(snapshot) == StagedDraft(snapshot.last_event_hash, "Ann", "Ks back Kd back")


def test_the_first_card_the_service_refuses_stops_the_line_there_in_its_words(dealt: TableService) -> None:
    staging, snapshot = Staging(), dealt.snapshot()
    refusal = refusal_of(dealt, "Ann", ["Qh", "Qd", "Qc", "2c"], ["front"] * 4)
    read = staging.read("qh f qd f qc f 2c f 3d m", snapshot, dealt)
    assert staging.lists()[0] == ["Qh", "Qd", "Qc"]
    assert (read.line, read.refusal, read.staged) == ("2c f 3d m", refusal, True)


def test_a_card_typed_again_while_staged_is_called_staged_not_a_duplicate(dealt: TableService) -> None:
    staging, snapshot = Staging(), dealt.snapshot()
    staging.read("ks b kd b", snapshot, dealt)
    read = staging.read("ks b", snapshot, dealt)
    assert read.refusal.startswith("Ks is staged already, not yet confirmed")
    assert "take back all 2 cards staged" in read.refusal and not read.staged
    assert staging.lists()[0] == ["Ks", "Kd"]


def test_a_syntax_problem_is_said_and_nothing_more_is_staged(dealt: TableService) -> None:
    staging = Staging()
    read = staging.read("ks q", dealt.snapshot(), dealt)
    assert read.refusal.startswith("'q' after Ks is not a row") and not staging.placements


def test_the_seat_a_line_names_is_checked_before_its_cards(dealt: TableService) -> None:
    staging, snapshot = Staging(), dealt.snapshot()
    assert staging.read("7: ks b", snapshot, dealt).refusal.startswith("there is no seat 7 at this table")
    refusal = refusal_of(dealt, "Bob", [], [])
    read = staging.read("bo: ks b", snapshot, dealt)
    assert (read.refusal, read.line, staging.placements) == (refusal, "bo: ks b", [])
    staging.read("1: ks b", snapshot, dealt)  # Ann's seat, named: her turn
    assert staging.lists()[0] == ["Ks"] and staging.addressed == "Ann" and staging.staged_for() == "Ann"
    assert seat_map(snapshot) == {1: "Ann", 2: "Bob", 3: "Cy"}


def test_cards_are_taken_back_one_or_all(dealt: TableService) -> None:
    staging, snapshot = Staging(), dealt.snapshot()
    assert not staging.unstage_last() and staging.clear() == 0
    staging.read("ks b kd b kc b", snapshot, dealt)
    assert staging.unstage_last() and staging.lists()[0] == ["Ks", "Kd"]
    assert staging.clear() == 2 and staging.placements == [] and staging.addressed is None
    assert staging.text(snapshot) == "" and staging.draft(snapshot) is None


def test_nothing_is_staged_without_a_hand_being_dealt(dealt: TableService) -> None:
    staging = Staging()
    assert staging.read("ks b", None, None).refusal == str(NO_HAND)
    assert staging.read("ks b", dealt.snapshot(), None).refusal == str(NO_HAND)
    assert staging.placements == []


def test_a_draft_comes_back_checked_again_only_while_nothing_was_recorded_since(dealt: TableService) -> None:
    typed, snapshot = Staging(), dealt.snapshot()
    typed.read("ks b kd b", snapshot, dealt)
    draft = typed.draft(snapshot)
    assert draft is not None
    restored = Staging()
    read = restored.restore(draft, snapshot, dealt)
    assert read is not None and read.line == "" and restored.restored
    assert restored.text(snapshot) == "Typed before the desk closed, not yet confirmed: Ks→back  Kd→back"
    assert Staging().restore(StagedDraft("another hash", "Ann", draft.text), snapshot, dealt) is None
    assert Staging().restore(StagedDraft(draft.event_hash, "Bob", draft.text), snapshot, dealt) is None
    dealt.do(Place("Ann", ["Ks", "Kd", "Kc", "7h", "7d"], ["back"] * 5))
    assert Staging().restore(draft, dealt.snapshot(), dealt) is None  # Ann's street was recorded


@pytest.fixture
def showdown(database: Database, template_accounts: tuple[Path, Account]) -> TableService:
    seats = tuple(SeatSetup(name, 100) for name in ("Ann", "Bob", "Cy"))
    rules = TableRules(preset="chinese-typical", variant=CHINESE)
    service = TableService.open(database, TableSetup("Chinese", seats, "Cy", rules), template_accounts[1])
    service.do(StartHand())
    return service


def test_at_a_chinese_showdown_a_seat_is_picked_and_s_asks_for_its_surrender(showdown: TableService) -> None:
    service, snapshot = showdown, showdown.snapshot()
    assert snapshot.to_act is not None and snapshot.to_act.kind is ChineseTurn.SHOWDOWN
    first = snapshot.to_act.player
    other = next(seat for seat in snapshot.seats if seat.name != first)
    staging = Staging()
    assert staging.player(snapshot) == first
    read = staging.read(f"{other.number}: s", snapshot, service)
    assert read.notice == f"Enter: {other.name} surrenders" and staging.addressed == other.name
    staging.read(f"{other.number}: ks f kd f", snapshot, service)
    assert staging.player(snapshot) == other.name and staging.text(snapshot).startswith(
        f"{other.name}'s hand: "
    )
    assert staging.line_for_seat_click("ks f", first, snapshot) == f"{snapshot.seat(first).number}: ks f"
    assert staging.line_for_seat_click("9: ks f", other.name, snapshot) == f"{other.number}: ks f"
