"""What the session and table-close reports print of the room's jackpot pool (docs/rules.md §11):
each hand's pool, drop and award with its shares, and the session's drops, seeds, awards and voids
with the room's pool after each, as the table saw it (the pool is the whole room's: other tables'
changes come between this table's)."""

from __future__ import annotations

from collections.abc import Iterator

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, Paragraph

from ofc_desk.i18n import _, lazy_gettext
from ofc_desk.reports.formatting import chips, signed_chips, timestamp
from ofc_desk.reports.pdf_common import CONTENT_WIDTH, Styles, grid_table, key_value_table, text
from ofc_desk.reports.record import HandRecord, JackpotAward, PoolMove, SessionRecord, pool_totals
from ofc_desk.service.room.room_pool import MoveKind

MOVE_WORDS = {
    MoveKind.DROP: lazy_gettext("jackpot drop"),
    MoveKind.SEED: lazy_gettext("seed (house chips)"),
    MoveKind.AWARD: lazy_gettext("jackpot award"),
    MoveKind.VOID: lazy_gettext("void"),
}
ROLE_WORDS = (lazy_gettext("loser"), lazy_gettext("winner"), lazy_gettext("table"))
SHARE_WORDS = (
    lazy_gettext("loser, {percent}%"),
    lazy_gettext("winner, {percent}%"),
    lazy_gettext("table, {percent}%"),
)
"""A player's part in an award, by the award's shares (loser, winner, table) in that order."""
MOVE_WIDTHS = [13 * mm, 33 * mm, 11 * mm, 27 * mm, 18 * mm, 20 * mm]


def shows_jackpot(record: SessionRecord) -> bool:
    """A session that never touched the room's pool prints nothing of it."""
    return bool(record.pool_moves) or any(hand.jackpot is not None for hand in record.hands)


def hand_jackpot_lines(hand: HandRecord) -> list[str]:
    """Under a hand: the pool before and after it, and its award with each player's chips."""
    jackpot = hand.jackpot
    if jackpot is None:
        return []
    lines = [
        _("Room's jackpot pool: {before} before the hand, {after} after it (drop {drop})").format(
            before=chips(jackpot.pool_before), after=chips(jackpot.pool_after), drop=chips(hand.jackpot_drop)
        )
    ]
    if jackpot.award is not None:
        lines.append(award_words(jackpot.award))
    return lines


def award_words(award: JackpotAward) -> str:
    """'Jackpot award: Ann lost all three rows to Bob; Ann (loser, 50%) 502 · Bob (winner, 25%)
    251 · Cy (table, 25%) 125 · Dee (table, 25%) 125; 1,003 in all'."""
    paid = " · ".join(
        _("{player} ({role}) {chips}").format(player=name, role=_role(name, award), chips=chips(amount))
        for name, amount in award.chips
    )
    return _("Jackpot award: {loser} lost all three rows to {winner}; {paid}; {total} in all").format(
        loser=award.loser, winner=award.winner, paid=paid, total=chips(award.total)
    )


def _role(name: str, award: JackpotAward) -> str:
    """'loser, 50%': who the player is to the award, with the share it gave them."""
    part = 0 if name == award.loser else 1 if name == award.winner else 2
    if award.shares is None:
        return str(ROLE_WORDS[part])
    return str(SHARE_WORDS[part]).format(percent=award.shares[part])


def jackpot_section(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    """The session's part in the room's pool: its totals, the pool before its first change and
    after its last, and every change with the pool after it; kept together on a page."""
    if not shows_jackpot(record):
        return
    yield CondPageBreak(50 * mm)
    yield from jackpot_body(record, styles, moves_table_when_empty=False)


def jackpot_body(
    record: SessionRecord, styles: Styles, *, moves_table_when_empty: bool
) -> Iterator[Flowable]:
    """The pool's heading, totals and moves table. The table-close report prints the moves table's
    header even when the session made no change to the pool; the session report leaves it out."""
    yield Paragraph(text(_("The room's jackpot pool")), styles.heading)
    yield key_value_table(pool_summary(record), styles, columns=2)
    if record.pool_moves or moves_table_when_empty:
        yield from pool_moves_table(record, styles)


def pool_moves_table(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    """Every change the session made to the room's pool, with the pool after it."""
    yield Paragraph(
        text(
            _(
                "Every change this table made to the room's pool, with the pool after it. The pool is"
                " the whole room's: other tables' drops, seeds and awards come between these."
            )
        ),
        styles.small,
    )
    words = (_("Event"), _("Time"), _("Hand"), _("What"), _("Chips"), _("Pool after"), _("Details"))
    rows: list[list[object]] = [list(words)]
    for move in record.pool_moves:
        rows.append(
            [
                str(move.seq),
                timestamp(move.at),
                str(move.hand_number) if move.hand_number else "–",
                # A longer language's words wrap rather than run into the chips.
                Paragraph(text(str(MOVE_WORDS[move.kind])), styles.cell),
                signed_chips(move.chips),
                chips(move.pool_after),
                Paragraph(text(_move_details(record, move)), styles.cell_small),
            ]
        )
    widths = [*MOVE_WIDTHS, CONTENT_WIDTH - sum(MOVE_WIDTHS)]
    yield grid_table(rows, widths, styles, numeric_columns=(0, 2, 4, 5))


def pool_summary(record: SessionRecord) -> list[tuple[str, str]]:
    moves = record.pool_moves
    totals = pool_totals(moves)
    lines = [
        (_("Jackpot drops"), chips(totals[MoveKind.DROP])),
        (_("Seeds (house chips)"), chips(totals[MoveKind.SEED])),
        (_("Awards paid"), chips(-totals[MoveKind.AWARD])),
        (_("Voids (given back)"), signed_chips(totals[MoveKind.VOID])),
    ]
    if moves:
        lines += [
            (_("Pool before this table's first change"), chips(moves[0].pool_after - moves[0].chips)),
            (_("Pool after this table's last change"), chips(moves[-1].pool_after)),
        ]
    return lines


def _move_details(record: SessionRecord, move: PoolMove) -> str:
    if move.kind is MoveKind.SEED:
        return _("signed by {supervisor}").format(supervisor=move.by or "–")
    hand = next((hand for hand in record.hands if hand.number == move.hand_number), None)
    award = hand.award if hand is not None else None
    if move.kind is MoveKind.AWARD and award is not None:
        return award_words(award)
    if move.kind is MoveKind.VOID:
        return _("hand {number} voided: its award back, its drop out").format(number=move.hand_number)
    return ""
