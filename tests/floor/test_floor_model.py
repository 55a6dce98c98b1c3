"""The floor's table model, headless (no view): each column's text and detail through
index()/data(), computed here from the service's reading of real tables; live updates change rows
in place (a selection survives) and only a table opening or closing resets them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from pytestqt.qtbot import QtBot

from ofc_desk.desk.floor.columns import FLOOR_COLUMNS, column_index, settlement_text
from ofc_desk.desk.floor.model import FloorTableModel
from ofc_desk.desk.records.models import OBJECT_ROLE, LedgerModel
from ofc_desk.service import chip_ledger
from ofc_desk.service.oversight.floor import FloorReader, FloorTable, LastSettlement
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.table.games.ofc.view_parts import OfcSeatView, OfcTableView
from ofc_desk.storage.database import Database
from tests.helpers.floor_room import play_chinese_table, play_table
from tests.helpers.jackpot_awards import award_replay_script

DISPLAY, TOOLTIP = int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.ToolTipRole)


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> tuple[FloorTable, ...]:
    """The room's three tables as the floor reads them, played once for the module's tests, which
    only read them (frozen readings: a test's changed table is a `replace`d copy)."""
    database = Database(f"sqlite:///{tmp_path_factory.mktemp('floor-model') / 'room.db'}")
    play_table(database, "T10", 3, next_hand_actions=4)  # Ann plays Fantasyland in hand 4
    play_table(database, "T9", 5, sitting_out="Cy")
    play_table(database, "T11", 6)  # Bob goes to Fantasyland in hand 7
    room = FloorReader(database).read()
    database.dispose()
    return room.tables


def text(model: FloorTableModel, row: int, column: int, role: int = DISPLAY) -> object:
    return model.data(model.index(row, column), role)


def test_every_column_shows_the_tables_state(qtbot: QtBot, tables: tuple[FloorTable, ...]) -> None:
    model = FloorTableModel()
    model.set_tables(tables)
    assert model.rowCount() == 3 and model.columnCount() == len(FLOOR_COLUMNS) == 8
    assert [text(model, row, column_index("table")) for row in range(3)] == ["T9", "T10", "T11"]
    horizontal = Qt.Orientation.Horizontal
    assert [model.headerData(i, horizontal) for i in range(8)] == [str(c.header) for c in FLOOR_COLUMNS]
    for index, column in enumerate(FLOOR_COLUMNS):  # the model shows each column as the list says
        assert column_index(column.key) == index
        assert (text(model, 0, index, TOOLTIP) is not None) is (column.detail is not None), column.key
        font = text(model, 0, index, int(Qt.ItemDataRole.FontRole))
        assert (isinstance(font, QFont) and font.bold()) is column.bold, column.key
    for row, table in enumerate(tables):
        snapshot = table.snapshot
        assert text(model, row, column_index("game")) == f"{snapshot.variant} · {snapshot.preset}"
        assert text(model, row, column_index("requests")) == ""
        assert text(model, row, column_index("pace")) == "too early"  # open for seconds: no pace yet
        assert f"{table.hands_settled} hands settled" in str(text(model, row, column_index("pace"), TOOLTIP))
        assert model.data(model.index(row, column_index("players")), OBJECT_ROLE) is table
        players = str(text(model, row, column_index("players"))).replace("\u00a0", " ")
        assert players.split(" · ")[0].startswith(f"{snapshot.seats[0].name} {snapshot.seats[0].stack}")
        assert len(players.split(" · ")) == len(snapshot.seats)
        last = table.last_settlement
        assert last is not None and not last.voided
        settled = str(text(model, row, column_index("last_settlement"))).replace("\u00a0", " ")
        first = last.transfers[0]
        assert settled.startswith(f"hand {last.hand_number}: {first.payer}→{first.payee} {first.paid}")
    between, live, going = tables
    assert text(model, 0, column_index("hand")) == f"#{between.snapshot.hand_number} done · between hands"
    assert text(model, 0, column_index("to_act")) == "dealer: deal the next hand"
    out = between.snapshot.seat("Cy")
    assert out.sitting_out
    players = str(text(model, 0, column_index("players"))).replace("\u00a0", " ")
    assert f"Cy {out.stack} (sitting out)" in players
    assert f"Cy: {out.stack} chips (sitting out)" in str(text(model, 0, column_index("players"), TOOLTIP))
    assert live.snapshot.to_act is not None
    assert text(model, 1, column_index("hand")) == f"#4 · street {OfcTableView.of(live.snapshot).street}"
    assert text(model, 1, column_index("to_act")) == live.snapshot.to_act.player
    in_fantasyland = live.snapshot.seat("Ann")
    assert OfcSeatView.of(in_fantasyland).fantasyland_cards
    badge = f"Ann {in_fantasyland.stack} [FL {OfcSeatView.of(in_fantasyland).fantasyland_cards}]"
    assert badge in str(text(model, 1, column_index("players"))).replace("\u00a0", " ")
    assert "in Fantasyland this hand" in str(text(model, 1, column_index("players"), TOOLTIP))
    next_hand = going.snapshot.seat("Bob")
    assert OfcSeatView.of(next_hand).fantasyland_next
    badge = f"Bob {next_hand.stack} [FL {OfcSeatView.of(next_hand).fantasyland_next}]"
    assert badge in str(text(model, 2, column_index("players"))).replace("\u00a0", " ")
    assert "goes to Fantasyland next hand" in str(text(model, 2, column_index("players"), TOOLTIP))


def test_a_stack_in_the_thousands_is_grouped_as_every_other_amount(tables: tuple[FloorTable, ...]) -> None:
    """As the pool's line and the desk's seats say chips: "12,500", not "12500"."""
    between = tables[0]
    seats = tuple(replace(seat, stack=seat.stack * 1000 + 500) for seat in between.snapshot.seats)
    rich = replace(between, snapshot=replace(between.snapshot, seats=seats))
    model = FloorTableModel()
    model.set_tables([rich])
    players = str(text(model, 0, column_index("players"))).replace("\u00a0", " ")
    detail = str(text(model, 0, column_index("players"), TOOLTIP))
    for seat, was in zip(seats, between.snapshot.seats, strict=True):
        grouped = f"{was.stack},500"
        assert f"{seat.name} {grouped}" in players and f"{seat.name}: {grouped} chips" in detail, players


def test_a_short_paid_transfer_a_voided_hand_and_an_unreadable_table_say_so(
    qtbot: QtBot, tables: tuple[FloorTable, ...]
) -> None:
    table = tables[0]
    assert table.last_settlement is not None
    paid_in_full = table.last_settlement.transfers[0]
    short = paid_in_full._replace(owed=paid_in_full.paid + 4)
    voided = LastSettlement(7, (short,), voided=True)
    model = FloorTableModel()
    model.set_tables([replace(table, last_settlement=voided)])
    shown = str(text(model, 0, column_index("last_settlement"))).replace("\u00a0", " ")
    assert shown == f"hand 7: {short.payer}→{short.payee} {short.paid} of {short.owed} (voided)"
    fault = "event 9 (placed) cannot be read back: no player"
    model.set_tables([replace(table, fault=fault)])
    assert text(model, 0, column_index("table")) == f"{table.table}  ⚠"
    assert text(model, 0, column_index("table"), TOOLTIP) == fault


def test_updates_change_rows_in_place_and_opening_a_table_resets(
    qtbot: QtBot, tables: tuple[FloorTable, ...]
) -> None:
    model = FloorTableModel()
    model.set_tables(tables)
    resets: list[None] = []
    changed: list[tuple[int, int]] = []
    model.modelReset.connect(lambda: resets.append(None))
    model.dataChanged.connect(lambda first, last: changed.append((first.row(), last.row())))
    model.set_tables(tables)
    assert (resets, changed) == ([], [])  # the same reading: nothing to redraw
    later = replace(tables[1], hands_settled=tables[1].hands_settled + 1, hands_per_hour=40)
    model.set_tables([tables[0], later, tables[2]])
    assert (resets, changed) == ([], [(1, 1)])
    assert text(model, 1, column_index("pace")) == "40"
    model.set_tables([tables[1]])
    assert len(resets) == 1 and model.rowCount() == 1
    assert not model.flags(model.index(0, 0)) & Qt.ItemFlag.ItemIsEditable


def test_a_chinese_poker_table_shows_whose_showdown_is_next(qtbot: QtBot, tmp_path: Path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'room.db'}")
    desk = play_chinese_table(database, "Jade 1")
    (table,) = FloorReader(database).read().tables
    database.dispose()
    model = FloorTableModel()
    model.set_tables([table])
    assert table.snapshot == desk.snapshot()
    assert text(model, 0, column_index("game")) == f"chinese · {table.snapshot.preset}"
    assert text(model, 0, column_index("hand")) == "#2 · live"
    (next_up,) = [seat.name for seat in table.snapshot.seats if seat.to_act]
    assert text(model, 0, column_index("to_act")) == f"{next_up} (showdown)"
    assert table.last_settlement is not None and table.last_settlement.hand_number == 1
    assert table.last_settlement.transfers  # the two who surrendered paid Cy
    assert {transfer.payee for transfer in table.last_settlement.transfers} == {"Cy"}


def test_the_last_settlement_shows_the_jackpot_award_and_the_ledger_speaks_words(tmp_path: Path) -> None:
    """Issue 36, point 1: the floor sees the award a hand paid beside its transfers, and the chip
    ledger's kinds in words ("buy-in"), never as stored ("buy_in")."""
    database = Database(f"sqlite:///{tmp_path / 'room.db'}")
    run_replay(database, award_replay_script("Jade 2", seed=1000), resume=False)
    (table,) = FloorReader(database).read().tables
    ledger = chip_ledger(database, table.session_id)
    database.dispose()
    said = settlement_text(table.last_settlement)
    assert "room jackpot award: Ann\u00a0+502, Bob\u00a0+251, Cy\u00a0+125, Dee\u00a0+125" in said, said
    model = LedgerModel()
    model.set_records(ledger)
    kinds = {model.index(row, LedgerModel.KIND).data() for row in range(model.rowCount())}
    assert {"buy-in", "hand", "rake", "jackpot"} <= kinds and not any("_" in kind for kind in kinds)
