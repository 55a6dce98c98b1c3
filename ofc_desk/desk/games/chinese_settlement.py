"""A Chinese poker hand's settlement as the panel shows it: each player's showdown (set rows, a
surrender, a declared special, a misset), the pairs (the transfers are drawn by `transfer_lines`)
and, for a hand paid by `pool` or `single-winner`, each row's winner or the deal's single winner and
what the preset says they collect.

The figures are the service's scored result (the core's `HandResult` of the hand) and the preset's
numbers as the Chinese game gives them (`service.table.games.chinese.game.payment_rules`); nothing here
adds or decides anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ofc_desk.core.chinese.payment import Payment, PaymentRules
from ofc_desk.core.chinese.schemes import PaymentOutcome
from ofc_desk.core.chinese.showdown import showdown_of
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
from ofc_desk.i18n import _, lazy_pgettext, ngettext, pgettext
from ofc_desk.reports.spoken import foul_words, hand_words

PAIR_COLUMNS = (
    (lazy_pgettext("settlement column", "specials"), "right"),
    (lazy_pgettext("settlement column", "rows"), "left"),
    (lazy_pgettext("settlement column", "rest"), "right"),
    (lazy_pgettext("settlement column", "unit"), "left"),
)


WHOLE_DEAL_COLUMNS = (
    (lazy_pgettext("settlement column", "result"), "right"),
    (lazy_pgettext("settlement column", "unit"), "left"),
)
"""A `pool` or `single-winner` pair: what it settles, from the deal's row winners or its winner;
the two players' own rows and a special pass drive no chips there."""


def chinese_details_html(result: HandResult, foul_word: str, foul_ink: str) -> str:
    """`foul_word`: the game's mark for a misset hand (`DeskGame.foul_word`)."""
    if result.payment is not None:  # no bonus is paid there: none is shown
        return _players_html(result.seats, foul_word, foul_ink) + _whole_deal_pairs_html(result.pairs)
    return (
        _players_html(result.seats, foul_word, foul_ink)
        + _unpaid_bonuses(result.seats)
        + _pairs_html(result.pairs)
    )


def _unpaid_bonuses(seats: Sequence[ResultSeat]) -> str:
    """The bonus rows a hand holds that paid nothing (the preset pays a bonus on a row won), so a
    dealer who sees a bonus hand without its (+n) reads why."""
    unpaid = [
        _("{player}'s {row} +{points}").format(player=seat.name, row=str(row.row.label), points=row.points)
        for seat in seats
        for row in seat.rows or ()
        if row.points and not row.paid
    ]
    if not unpaid:
        return ""
    said = _("Row bonuses are paid on rows won; not paid here: {rows}").format(rows=", ".join(unpaid))
    return f"<p><small>{escape(said)}</small></p>"


def _players_html(seats: Sequence[ResultSeat], foul_word: str, foul_ink: str) -> str:
    rows = []
    for seat in seats:
        showdown = showdown_of(seat)
        aces = showdown.aces if showdown else None
        aces_words = "" if aces is None else escape(_("aces {count}").format(count=aces))
        rows.append(
            f"<tr><td><b>{escape(seat.name)}</b>{GAP}</td>"
            f"<td>{_showdown(seat, foul_word, foul_ink)}{GAP}</td>"
            f"<td>{aces_words}{GAP}</td>"
            f"<td align='right'>{escape(points_words(seat.points))}{GAP}</td>"
            f"<td align='right'>{stacks_cell(seat)}</td></tr>"
        )
    return hands_table(rows)


def _showdown(seat: ResultSeat, foul_word: str, foul_ink: str) -> str:
    showdown = showdown_of(seat)
    if showdown is not None and showdown.surrendered:
        surrendered = escape(_("surrendered"))
        return f"<b>{surrendered}</b>"
    if showdown is not None and showdown.special is not None:
        declared = _("declared {special}").format(special=showdown.special.label)
        return f"<b>{escape(declared)}</b>"
    if seat.foul:
        reason = escape(_("{reason}: loses every row").format(reason=foul_words(seat.foul_reason or "")))
        return f"<b style='color:{foul_ink}'>{escape(foul_word)}</b> — {reason}"
    return " · ".join(
        escape(hand_words([str(card) for card in row.cards], row.hand))
        + (f" (+{row.points})" if row.points and row.paid else "")
        for row in seat.rows or ()
    )


def _pairs_html(pairs: Sequence[ResultPair]) -> str:
    """One line a pair, in columns: the special pass, each row, the rest; six pairs at a glance."""
    heading = "".join(f"<th align='{align}'>&nbsp;{escape(str(title))}</th>" for title, align in PAIR_COLUMNS)
    pair_word = escape(pgettext("settlement column", "pair"))
    rows = [f"<tr><th align='left'>{pair_word}</th>{heading}</tr>"]
    for pair in pairs:
        first, second = escape(pair.first), escape(pair.second)
        by_row = ", ".join(signed(value) for value in pair.rows) if pair.rows else _("not compared")
        cells = (
            (f"<b>{first} – {second}</b>", "left"),
            (f"&nbsp;{signed(pair.special)}", "right"),
            (f"&nbsp;{escape(by_row)}", "left"),
            (f"&nbsp;{signed(pair.points)}", "right"),
            (f"&nbsp;× {pair.unit}", "left"),
        )
        rows.append("<tr>" + "".join(keep_cell(html, align) for html, align in cells) + "</tr>")
    return pairs_table(rows)


def _whole_deal_pairs_html(pairs: Sequence[ResultPair]) -> str:
    """One line a pair under a payment decided by the whole deal: its result and its unit."""
    heading = "".join(
        f"<th align='{align}'>&nbsp;{escape(str(title))}</th>" for title, align in WHOLE_DEAL_COLUMNS
    )
    pair_word = escape(pgettext("settlement column", "pair"))
    rows = [f"<tr><th align='left'>{pair_word}</th>{heading}</tr>"]
    for pair in pairs:
        cells = (
            (f"<b>{escape(pair.first)} – {escape(pair.second)}</b>", "left"),
            (f"&nbsp;{signed(pair.points)}", "right"),
            (f"&nbsp;× {pair.unit}", "left"),
        )
        rows.append("<tr>" + "".join(keep_cell(html, align) for html, align in cells) + "</tr>")
    return pairs_table(rows)


def payment_html(outcome: PaymentOutcome | None, rules: PaymentRules | None) -> str:
    """The pool's row winners or the single winner; nothing for a hand paid pair by pair."""
    if outcome is None:
        return ""
    if outcome.payment is Payment.POOL:
        return _pool_html(outcome, rules)
    heading = escape(_("Single winner"))
    if outcome.winner is None:
        line = escape(_("nobody beat everyone on two rows: no chips move"))
    else:
        stake = rules.stake if rules is not None else None
        line = escape(_("{player} beat everyone on two rows").format(player=outcome.winner))
        if stake is not None:
            line += " — " + escape(_collects(stake))
    return f"<p><b>{heading}</b>: <b>{line}</b></p>"


def _pool_html(outcome: PaymentOutcome, rules: PaymentRules | None) -> str:
    """One line of winners, one of what they collect: the hands and pairs below keep their room."""
    heading = escape(_("The pool's row winners"))
    winners = []
    for row, winner in zip(ROWS, outcome.row_winners, strict=True):
        title = escape(str(row.label))
        said = escape(_("nobody: the strongest hands tie")) if winner is None else f"<b>{escape(winner)}</b>"
        winners.append(f"{title}: {said}")
    terms = "" if rules is None else f"<br><small>{escape(rules.pool_terms())}</small>"
    return f"<p><b>{heading}</b>: {' · '.join(winners)}{terms}</p>"


def _collects(units: int) -> str:
    return ngettext(
        "collects {units} unit from each other player",
        "collects {units} units from each other player",
        units,
    ).format(units=units)
