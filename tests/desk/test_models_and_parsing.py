"""Table models read headlessly through index()/data(), and the typed-entry reader."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from ofc_desk.core.presets import Game
from ofc_desk.core.results import HandResult, ResultSeat, ResultTransfer
from ofc_desk.desk.actions import Command
from ofc_desk.desk.entry.key_syntax import read_keyed_text
from ofc_desk.desk.entry.keyboard_help import keyboard_keys
from ofc_desk.desk.games.ofc import FANTASYLAND_COLUMN
from ofc_desk.desk.records.models import (
    OBJECT_ROLE,
    SORT_ROLE,
    TRANSFERS_COLUMN,
    AuditModel,
    HandHistoryModel,
    LedgerModel,
    searchable_proxy,
    time_text,
)
from ofc_desk.service.store.records import AuditRecord, HandRecord, LedgerRecord
from ofc_desk.service.table.games.ofc.record import OfcRecord
from tests.desk.conftest import Desk
from tests.desk.test_entering_cards import ANN, BOB, enter_regular_streets
from tests.desk.test_record_views import history_column

DISPLAY = Qt.ItemDataRole.DisplayRole


def hand(number: int, transfers: list[tuple[str, str, int]], *, voided: bool = False) -> HandRecord:
    seats = tuple(ResultSeat(name, 0, 0, 0, False, None, None, 0, 0, None) for name in ("Ann", "Bob"))
    moved = tuple(ResultTransfer(payer, payee, paid, paid, "", None, "") for payer, payee, paid in transfers)
    result = HandResult(Game.OFC, None, seats, (), moved, None, None)
    return HandRecord(1, number, "Bob", OfcRecord({"Ann": 13} if number == 2 else {}), result, "", {}, 0,
                      f"2026-01-01T10:{number:02d}", voided, "misdeal" if voided else None)  # fmt: skip


def test_hand_history_model_columns_sort_role_and_object_role() -> None:
    records = [hand(10, [("Bob", "Ann", 17)]), hand(2, [], voided=True)]
    model = HandHistoryModel()
    model.set_records(records)
    assert (model.rowCount(), model.columnCount()) == (2, len(model.columns))
    assert model.headerData(HandHistoryModel.NUMBER, Qt.Orientation.Horizontal) == "Hand"
    first = model.index(0, model.columns.index(TRANSFERS_COLUMN))
    assert model.data(first, DISPLAY) == "Bob→Ann 17"
    assert model.data(model.index(1, HandHistoryModel.STATUS), DISPLAY) == "VOID: misdeal"
    assert model.data(model.index(1, model.columns.index(FANTASYLAND_COLUMN)), DISPLAY) == "Ann (13)"
    assert model.data(model.index(0, HandHistoryModel.NUMBER), SORT_ROLE) == 10
    assert model.data(first, OBJECT_ROLE) is records[0]
    proxy = searchable_proxy(model)
    proxy.sort(HandHistoryModel.NUMBER, Qt.SortOrder.AscendingOrder)
    assert proxy.data(proxy.index(0, HandHistoryModel.NUMBER), DISPLAY) == "2"  # 2 before 10: numbers
    proxy.setFilterFixedString("MISDEAL")
    assert proxy.rowCount() == 1


def test_ledger_and_audit_models() -> None:
    ledger = LedgerModel()
    ledger.set_records([LedgerRecord(7, 1, None, "Ann", "buy-in", 100, ""),
                        LedgerRecord(9, 1, 1, "Ann", "hand", -17, "hand 1")])  # fmt: skip
    assert ledger.data(ledger.index(1, LedgerModel.AMOUNT), DISPLAY) == "-17"
    assert ledger.data(ledger.index(0, LedgerModel.AMOUNT), DISPLAY) == "+100"
    assert ledger.data(ledger.index(0, LedgerModel.HAND), SORT_ROLE) == -1
    right = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    assert ledger.data(ledger.index(1, LedgerModel.AMOUNT), Qt.ItemDataRole.TextAlignmentRole) == right
    assert ledger.data(ledger.index(1, LedgerModel.PLAYER), Qt.ItemDataRole.TextAlignmentRole) is None
    audit = AuditModel()
    entry = {"player": "Ann", "cards": ["8s", "Kd"], "rows": ["front", "back"]}
    audit.set_records([AuditRecord(1, 1, 1, "placed", "Dana", "t", entry, "0" * 64, "ab" * 32)])
    assert audit.data(audit.index(0, AuditModel.SENTENCE), DISPLAY) == "Ann: 8s front, Kd back"
    assert audit.data(audit.index(0, AuditModel.AT), DISPLAY) == "t"  # not a time: shown as stored
    assert time_text("2026-11-23T22:26:09.123456Z") == "2026-11-23 22:26:09 UTC"


def test_the_history_browser_reads_the_real_hands_in_the_background(desk: Desk, qtbot: QtBot) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    enter_regular_streets(desk, ANN, BOB)
    desk.press_enter_on(desk.window.settlement.confirm_button)
    desk.window.action(Command.HISTORY).trigger()
    qtbot.waitUntil(lambda: "Hand history" in desk.session.records.browsers)
    browser = desk.session.records.browsers["Hand history"]
    qtbot.waitUntil(lambda: browser.model.rowCount() == 1)
    transfers = browser.proxy.index(0, history_column(browser, TRANSFERS_COLUMN))
    assert browser.proxy.data(transfers, DISPLAY) == "Bob→Ann 17"
    qtbot.keyClicks(browser.search, "nobody")
    assert browser.proxy.rowCount() == 0
    desk.window.action(Command.AUDIT).trigger()
    qtbot.waitUntil(lambda: "Audit log" in desk.session.records.browsers)
    qtbot.waitUntil(lambda: desk.session.records.browsers["Audit log"].model.rowCount() > 10)


@pytest.mark.parametrize(
    ("typed", "labels", "rows", "rest", "problem"),
    [
        ("qhf10d2", ["Qh", "Td"], ["front", "middle"], "", ""),
        ("Q♥ back 7c x ?", ["Qh", "7c", "??"], ["back", "discard", "discard"], "", ""),
        ("qh mid ks", ["Qh"], ["middle"], "ks", ""),
        ("10", [], [], "10", ""),
        ("qhz", [], [], "qhz", "'z' after Qh is not a row"),
        ("qh f zz", ["Qh"], ["front"], "zz", "'zz' is not a card"),
        ("zz", [], [], "zz", "'zz' is not a card"),
        ("bo: qh f", ["Qh"], ["front"], "", ""),
    ],
)
def test_keyed_text(typed: str, labels: list[str], rows: list[str], rest: str, problem: str) -> None:
    keyed = read_keyed_text(typed)
    assert [p.label for p in keyed.placements] == labels
    assert [p.placement for p in keyed.placements] == rows
    assert keyed.rest == rest
    assert keyed.problem.startswith(problem)


def test_docs_keyboard_reference_lists_every_key() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "keyboard.md").read_text(encoding="utf-8")
    for keys, meaning in keyboard_keys():
        assert f"| `{keys}` | {meaning} |" in text
