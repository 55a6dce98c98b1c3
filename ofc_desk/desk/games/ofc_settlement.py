"""An OFC hand's settlement as the panel shows it: one line a player (royalties, points, stacks, a
foul and Fantasyland next) and one a pair (each row, the scoop, royalties, a foul's penalty).

The figures are the service's scored result (the core's `HandResult` of the hand); nothing here
adds or decides anything. The transfers are drawn by `transfer_lines`.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ofc_desk.core.results import HandResult, ResultPair, ResultSeat
from ofc_desk.core.rows import ROWS
from ofc_desk.desk.hand_end.transfer_lines import (
    GAP,
    hands_table,
    keep_cell,
    pairs_table,
    points_words,
    signed,
    stacks_cell,
)
from ofc_desk.desk.table.seatface import ROW_LETTERS
from ofc_desk.i18n import _, lazy_pgettext, ngettext, pgettext
from ofc_desk.reports.spoken import foul_words


def ofc_details_html(result: HandResult, foul_word: str, foul_ink: str) -> str:
    """The hands and the pairs; the transfers, with why one was capped, have their own view beside
    them. `foul_word`: the game's mark for a fouled hand (`DeskGame.foul_word`)."""
    return _players_html(result.seats, foul_word, foul_ink) + _matchups_html(result.pairs)


def _players_html(seats: Sequence[ResultSeat], foul_word: str, foul_ink: str) -> str:
    """One line a player: the felt above already shows each row's hand and royalty, so the line
    says what the felt does not (a foul's reason, the totals, the stacks) and four players are
    read without scrolling at 1366x768."""
    rows = []
    for seat in seats:
        name = escape(seat.name)
        foul = ""
        if seat.foul:
            reason = escape(foul_words(seat.foul_reason or ""))
            foul = f"<b style='color:{foul_ink}'>{escape(foul_word)}</b> — {reason}"
        count = seat.fantasyland_next
        going = ""
        if count:
            going = ngettext("→ Fantasyland ({count} card)", "→ Fantasyland ({count} cards)", count)
            going = going.format(count=count)
        royalties = _("royalties {points}").format(points=seat.royalties)
        points = points_words(seat.points)
        rows.append(
            f"<tr><td><b>{name}</b>{GAP}</td><td>{escape(royalties)}{GAP}</td>"
            f"<td align='right'>{escape(points)}{GAP}</td>"
            f"<td align='right'>{stacks_cell(seat)}{GAP}</td>"
            f"<td>{escape(going)}{foul}</td></tr>"
        )
    return hands_table(rows)


PAIR_COLUMNS = (
    # The rows by their keys, as the felt labels them: a longer language's words never widen the view.
    *ROW_LETTERS.values(),
    lazy_pgettext("settlement column", "scoop"),
    lazy_pgettext("settlement column", "royalties"),
    lazy_pgettext("settlement column", "foul"),
)


def _matchups_html(pairs: Sequence[ResultPair]) -> str:
    """One line a pair, in columns (each row won or lost, the scoop, royalties, a foul's penalty,
    and who wins how many points): six pairs are read at a glance."""
    heading = "".join(f"<th align='right'>&nbsp;{escape(str(column))}</th>" for column in PAIR_COLUMNS)
    pair_word, result_word = (
        escape(pgettext("settlement column", "pair")),
        escape(pgettext("settlement column", "result")),
    )
    rows = [
        f"<tr><th align='left'>{pair_word}</th>{heading}<th align='left'>&nbsp;&nbsp;{result_word}</th></tr>"
    ]
    for pair in pairs:
        first, second = escape(pair.first), escape(pair.second)
        points = pair.points
        summary = (
            _("{player} wins {points}").format(player=first, points=points) if points > 0
            else _("{player} wins {points}").format(player=second, points=-points) if points < 0
            else _("even")
        )  # fmt: skip
        figures: list[int | None] = [*(pair.rows or (None,) * len(ROWS))]
        figures += [pair.scoop, pair.royalties, pair.foul_penalty]
        cells = "".join(keep_cell(f"&nbsp;{signed(value) if value else ''}", "right") for value in figures)
        result = f"&nbsp;&nbsp;<b>{summary}</b> × {pair.unit}"
        rows.append(f"<tr>{keep_cell(f'<b>{first} – {second}</b>')}{cells}{keep_cell(result)}</tr>")
    return pairs_table(rows)
