"""Exports of a session: CSV of hands, CSV of chip transactions, and the `ofc-desk replay` script.

The CSV files are for a card room's spreadsheet (one row per player per hand; one row per chip
movement). The JSON is the session as an `ofc-desk replay` script that replays to the same results.
"""

from __future__ import annotations

import copy
import csv
import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO

from ofc_desk.i18n import _
from ofc_desk.reports.games import report_game
from ofc_desk.reports.record import (
    Adjustment,
    AdjustmentKind,
    ChipTransaction,
    HandRecord,
    SessionRecord,
)
from ofc_desk.reports.script import supervisors_needing_pins

HAND_COLUMNS = (
    "session", "hand", "button", "voided", "player", "fantasyland_cards",
    "front", "front_hand", "front_royalty", "middle", "middle_hand", "middle_royalty",
    "back", "back_hand", "back_royalty", "foul", "royalties", "points",
    "stack_before", "stack_after", "chips_moved", "rake", "fantasyland_next", "showdown",
)  # fmt: skip

GAME_COLUMNS: dict[str, object] = {"fantasyland_cards": 0, "fantasyland_next": 0, "showdown": ""}
"""The hands CSV's columns a game fills for its players (`ReportGame.hand_columns`), at their value
where it does not: the CSV's columns are one list whatever the game (OFC's Fantasyland ones came
first, Chinese poker's showdown last), so a file read by one program is read the same for every game."""

TRANSACTION_COLUMNS = (
    "session", "event", "time", "hand", "kind", "player", "counterparty", "amount", "owed",
    "note", "by", "approved_by",
)  # fmt: skip


class ExportError(ValueError):
    """The export cannot be written; the message says why."""


def hand_rows(record: SessionRecord) -> Iterator[dict[str, object]]:
    game = report_game(record)
    for hand in record.hands:
        for seat in hand.seats:
            row: dict[str, object] = {
                "session": record.session_id,
                "hand": hand.number,
                "button": hand.button,
                "voided": "yes" if hand.voided else "no",
                "player": seat.name,
                **GAME_COLUMNS,
            }
            for label, cards in zip(("front", "middle", "back"), seat.rows, strict=True):
                row[label] = " ".join(cards.cards)
                row[f"{label}_hand"] = cards.hand
                row[f"{label}_royalty"] = cards.points  # the file's own column names, OFC's words
            row.update(
                {
                    "foul": "yes" if seat.foul else "no",
                    "royalties": seat.row_points,
                    "points": seat.points,
                    "stack_before": seat.stack_before,
                    "stack_after": seat.stack_after,
                    "chips_moved": seat.chips_moved,
                    "rake": seat.rake,
                }
            )
            row.update(game.hand_columns(seat))
            yield row


def transaction_rows(record: SessionRecord) -> Iterator[dict[str, object]]:
    """Every chip movement in the order it happened: buy-ins, rebuys, cash-outs, corrections and
    voids between hands, and each hand's transfers (payer to payee), rake, jackpot drop and jackpot
    award (the room's pool to each player)."""
    between: list[tuple[int, int, list[dict[str, object]]]] = [
        (t.after_hand, t.seq, [_between_row(record, t)]) for t in record.chip_transactions
    ]
    hands = {hand.number: hand for hand in record.hands}
    for adjustment in record.adjustments:
        if adjustment.kind is AdjustmentKind.VOID and adjustment.hand_number in hands:
            rows = list(_void_rows(record, adjustment, hands[adjustment.hand_number]))
            between.append((adjustment.after_hand, adjustment.seq, rows))
    between.sort(key=lambda item: item[:2])
    position = 0
    for hand in record.hands:
        while position < len(between) and between[position][0] < hand.number:
            yield from between[position][2]
            position += 1
        yield from _hand_transaction_rows(record, hand)
    for _number, _seq, rows in between[position:]:
        yield from rows


def _void_rows(record: SessionRecord, void: Adjustment, hand: HandRecord) -> Iterator[dict[str, object]]:
    """What a void gave back, where it happened: each player's transfers reversed, the rake
    returned by the house and the jackpot drop taken back out of the pool."""
    base = {
        "session": record.session_id,
        "event": void.seq,
        "time": void.at.isoformat() if void.at else "",
        "hand": hand.number,
        "owed": "",
        "by": void.actor,
        "approved_by": void.approver,
    }
    note = f"hand {hand.number} voided"
    award_chips = _award_chips(hand)
    awarded = dict(award_chips)
    for seat in hand.seats:
        # chips_moved is after rake and with the award: the transfers alone are what the void
        # reverses as such.
        transfers = seat.chips_moved + seat.rake - awarded.get(seat.name, 0)
        if transfers:
            yield {**base, "kind": "void reversal", "player": seat.name, "counterparty": "",
                   "amount": -transfers, "note": note}  # fmt: skip
        if seat.rake:
            yield {**base, "kind": "rake", "player": seat.name, "counterparty": "house",
                   "amount": -seat.rake, "note": f"returned: {note}"}  # fmt: skip
    if hand.jackpot_drop:
        yield {**base, "kind": "jackpot drop", "player": "", "counterparty": "jackpot",
               "amount": -hand.jackpot_drop, "note": f"taken back: {note}"}  # fmt: skip
    for name, chips in award_chips:
        yield {**base, "kind": "jackpot award", "player": name, "counterparty": "jackpot",
               "amount": -chips, "note": f"given back: {note}"}  # fmt: skip


def _award_chips(hand: HandRecord) -> list[tuple[str, int]]:
    """Each player's chips from the hand's jackpot award (none without one)."""
    award = hand.award
    return [(name, chips) for name, chips in award.chips if chips] if award is not None else []


def _between_row(record: SessionRecord, t: ChipTransaction) -> dict[str, object]:
    return {
        "session": record.session_id,
        "event": t.seq,
        "time": t.at.isoformat() if t.at else "",
        "hand": t.after_hand or "",
        "kind": str(t.kind),
        "player": t.player,
        "counterparty": "",
        "amount": t.amount,
        "owed": "",
        "note": t.note,
        "by": t.actor,
        "approved_by": t.approver,
    }


def _hand_transaction_rows(record: SessionRecord, hand: HandRecord) -> Iterator[dict[str, object]]:
    time = hand.settled_at.isoformat() if hand.settled_at else ""
    base = {
        "session": record.session_id,
        "event": "",
        "time": time,
        "hand": hand.number,
        "by": "",
        "approved_by": "",
    }
    game = report_game(record)
    for transfer in hand.transfers:
        yield {
            **base,
            "kind": "transfer",
            "player": transfer.payer,
            "counterparty": transfer.payee,
            "amount": transfer.paid,
            "owed": transfer.owed,
            "note": game.transfer_note(transfer),
        }
    for seat in hand.seats:
        if seat.rake:
            yield {
                **base,
                "kind": "rake",
                "player": seat.name,
                "counterparty": "house",
                "amount": seat.rake,
                "owed": "",
                "note": "",
            }
    if hand.jackpot_drop:
        yield {
            **base,
            "kind": "jackpot drop",
            "player": "",
            "counterparty": "jackpot",
            "amount": hand.jackpot_drop,
            "owed": "",
            "note": "part of the rake",
        }
    award = hand.award
    if award is not None:
        why = f"{award.loser} lost all three rows to {award.winner}"
        for name, chips in _award_chips(hand):
            yield {**base, "kind": "jackpot award", "player": name, "counterparty": "jackpot",
                   "amount": chips, "owed": "", "note": why}  # fmt: skip


def _write_csv(rows: Iterator[dict[str, object]], columns: tuple[str, ...], out: IO[str]) -> None:
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)


def write_hands_csv(record: SessionRecord, out: IO[str]) -> None:
    _write_csv(hand_rows(record), HAND_COLUMNS, out)


def write_transactions_csv(record: SessionRecord, out: IO[str]) -> None:
    _write_csv(transaction_rows(record), TRANSACTION_COLUMNS, out)


def replay_script(record: SessionRecord) -> dict[str, object]:
    """The session as an `ofc-desk replay` script that replays it event for event.

    It never holds a PIN: a session with supervisor operations (void, chip correction, rules
    change, close) lists those supervisors under `users` by name and role, and whoever replays it
    gives their PINs as for any replay (`--pin-file`, `OFC_DESK_PINS` or the prompt).
    """
    if record.replay_script is None:
        raise ExportError(_("session {session} has no events to export").format(session=record.session_id))
    if record.live_hand is not None:
        # A replay settles every complete hand and skips one with no entry: it cannot leave a
        # hand half played or awaiting the dealer's confirmation, as the table stands now.
        raise ExportError(
            _("hand {hand} of session {session} is not settled yet: export the session between hands").format(
                hand=record.live_hand, session=record.session_id
            )
        )
    script = copy.deepcopy(record.replay_script)
    needed = supervisors_needing_pins(script)
    if needed:
        script["users"] = [{"name": name, "role": "supervisor"} for name in needed]
    return script


def write_replay_json(record: SessionRecord, out: IO[str]) -> None:
    dump_json(replay_script(record), out)


def dump_json(script: Mapping[str, object], out: IO[str]) -> None:
    json.dump(script, out, indent=1, ensure_ascii=False)
    out.write("\n")


TextWriter = Callable[[SessionRecord, IO[str]], None]


def write_text_file(path: str | Path, writer: TextWriter, record: SessionRecord) -> None:
    """Open `path` for text (UTF-8, newline-safe for CSV) and run one of the writers above."""
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer(record, out)
