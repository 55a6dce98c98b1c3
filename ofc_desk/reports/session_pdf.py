"""The session report a dealer and a floor supervisor sign (reportlab platypus).

Everything printed comes from a `SessionRecord` (the stored events), never from the screen.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    Paragraph,
    Spacer,
)

from ofc_desk.i18n import Language, _, active_language, in_language, lazy_gettext
from ofc_desk.reports.chinese_section import (
    CHINESE_VARIANT,
    is_chinese_hand,
    seat_flag,
    seat_in_place_of_rows,
    transfer_why,
)
from ofc_desk.reports.fonts import font_for
from ofc_desk.reports.formatting import (
    card_is_red,
    card_text,
    chips,
    hand_count,
    signed_chips,
    timestamp,
)
from ofc_desk.reports.pdf_common import (
    ALERT,
    CONTENT_WIDTH,
    INK,
    PageFooter,
    Run,
    RunsCell,
    Styles,
    build_pdf,
    grid_table,
    key_value_table,
    make_styles,
    signature_block,
    text,
)
from ofc_desk.reports.record import (
    Adjustment,
    AdjustmentKind,
    ChipKind,
    HandRecord,
    SeatResult,
    SessionRecord,
    TransferRecord,
)
from ofc_desk.reports.stack_chart import stack_chart, stack_lines, voided_hand_numbers

SETTLE_FROM_WORDS = {
    "left-of-dealer": lazy_gettext("from the player left of the dealer, clockwise, dealer last"),
    "dealer": lazy_gettext("from the dealer, clockwise"),
}


def write_session_report(
    record: SessionRecord, out: str | IO[bytes], language: Language | None = None
) -> None:
    """Write the session report of `record` as a PDF to a path or a binary file, in `language`
    (default: the language spoken now), which the report names."""
    with in_language(language or active_language()):
        styles = make_styles()
        footer = PageFooter(left=_footer_left(record), fingerprint=record.final_hash)
        build_pdf(out, list(session_story(record, styles)), footer, _title(record), styles)


def _title(record: SessionRecord) -> str:
    return _("Session report · {table} · session {session}").format(
        table=record.table, session=record.session_id
    )


def _footer_left(record: SessionRecord) -> str:
    place = f"{record.room} · " if record.room else ""
    session = _("session {session}").format(session=record.session_id)
    return f"OFC Desk · {place}{record.table} · {session}"


def session_story(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    yield from _header(record, styles)
    yield from _players_summary(record, styles)
    yield from _chart(record, styles)
    yield from _hands(record, styles)
    yield from _chip_transactions(record, styles)
    yield from _house(record, styles)
    yield from _adjustments(record, styles)
    yield from _fingerprint_and_signatures(record, styles)


def _header(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    yield Paragraph(text(_("Session report")), styles.title)
    room = f"{text(record.room)} · " if record.room else ""
    session = text(_("session {session}").format(session=record.session_id))
    yield Paragraph(f"{room}<b>{text(record.table)}</b> · {session}", styles.subtitle)
    pair_units = ", ".join(f"{a}–{b}: {chips(p.unit)}" for p in record.pair_units for a, b in [p.players])
    voided = sum(1 for h in record.hands if h.voided)
    changed = _when_rules_changed(record)
    # Once the rules changed, the rules values here held at the opening only: each says so, and a
    # row says from which hand the new ones applied, so that none reads as the whole session's.
    held = _(" (at the opening)") if changed else ""
    settle_from = SETTLE_FROM_WORDS.get(record.settle_from)
    pairs = [
        (_("Session start"), timestamp(record.started_at)),
        (_("Session end"), timestamp(record.ended_at) if record.ended_at else _("still open")),
        (_("Dealer(s)"), ", ".join(record.dealers) or "–"),
        (_("Floor supervisor"), ", ".join(record.supervisors) or "–"),
        (_("Hands"), hand_count(len(record.hands), voided)),
        (_("Opening button"), record.opening_button or "–"),
        *([(_("Rules changed"), _("{when}: see the rules changes").format(when=changed))] if changed else []),
        (_("Variant"), record.variant + held),
        (_("Rules preset"), record.preset_name + held),
        (_("Unit (chips per point)"), chips(record.unit) + held),
        (_("Per-pair units"), (pair_units or _("none")) + held),
        (_("Settlement policy"), record.settlement_policy + held),
        (_("Settlement order"), (str(settle_from) if settle_from else record.settle_from) + held),
        (_("Report language"), active_language().native_name),
    ]
    yield key_value_table(pairs, styles)
    if record.rules:
        when = (
            f" when the table opened (changed later, {changed}: see the rules changes below)"
            if changed
            else ""
        )
        yield Paragraph(f"Rules in force: preset “{text(record.preset_name)}”{when}", styles.subheading)
        yield key_value_table([(r.label, r.value) for r in record.rules], styles, columns=2)


def _when_rules_changed(record: SessionRecord) -> str:
    """'' if the opening rules held all session, else e.g. 'before hand 6' or 'after the last hand'."""
    changes = [a for a in record.adjustments if a.kind is AdjustmentKind.RULES_CHANGE]
    whens = dict.fromkeys(_when_rules_change_applied(record, change) for change in changes)
    return ", then ".join(whens)


def _when_rules_change_applied(record: SessionRecord, change: Adjustment) -> str:
    first_hand = _first_hand_under(record, change)
    return f"before hand {first_hand}" if first_hand else "after the last hand"


def _first_hand_under(record: SessionRecord, change: Adjustment) -> int | None:
    """The hand new rules applied from: the first one dealt after the change (None: none was).

    Rules change between hands only, so that is the hand after the ones settled before it, if it
    was dealt (it may still be in play).
    """
    next_hand = change.after_hand + 1
    dealt = {hand.number for hand in record.hands} | {record.live_hand}
    return next_hand if next_hand in dealt else None


def _players_summary(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    """The session per player; the last three columns are the game's: fouls, Fantasyland hands and
    royalties at OFC; missets, surrenders and specials declared at Chinese poker."""
    yield Paragraph(text(_("Players")), styles.heading)
    chinese = record.variant == CHINESE_VARIANT
    game_columns = (
        [_("Missets"), _("Surrenders"), _("Specials")]
        if chinese
        else [_("Fouls"), _("FL hands"), _("Royalties")]
    )
    header: list[object] = [
        _("Player"),
        _("Buy-ins"),
        _("Rebuys"),
        _("Cash-outs"),
        _("Final stack"),
        _("Net result"),
        _("Hands"),
        *game_columns,
    ]
    rows: list[list[object]] = [header]
    for p in record.players:
        game = (
            [chips(p.fouls), chips(p.surrenders), chips(p.specials)]
            if chinese
            else [chips(p.fouls), chips(p.fantasyland_hands), chips(p.royalties)]
        )
        rows.append(
            [
                p.name,
                chips(p.bought_in),
                chips(p.rebuys),
                chips(p.cash_outs),
                chips(p.final_stack),
                signed_chips(p.net),
                chips(p.hands_played),
                *game,
            ]
        )
    players = record.players
    rows.append(
        [
            _("Total"),
            chips(sum(p.bought_in for p in players)),
            chips(sum(p.rebuys for p in players)),
            chips(sum(p.cash_outs for p in players)),
            chips(sum(p.final_stack for p in players)),
            signed_chips(sum(p.net for p in players)),
            "",
            "",
            "",
            "",
        ]
    )
    # The game's headings are wider than their figures: the player's column gives them the room,
    # so that "Fouls" and "FL hands" do not read as one heading.
    first = [26 * mm, 17 * mm, 16 * mm, 18 * mm, 19 * mm, 19 * mm, 12 * mm, 15 * mm, 19 * mm]
    if not chinese:
        first = [28 * mm, 17 * mm, 16 * mm, 18 * mm, 19 * mm, 19 * mm, 13 * mm, 12 * mm, 18 * mm]
    widths = [*first, CONTENT_WIDTH - sum(first)]
    yield grid_table(rows, widths, styles, numeric_columns=range(1, 10), total_row=True)
    if record.rake_total or record.jackpot_total:
        yield Paragraph(
            f"The net results add up to minus the rake ({chips(record.rake_total)}) and the "
            f"jackpot drop ({chips(record.jackpot_total)}).",
            styles.small,
        )


def _chart(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    yield CondPageBreak(80 * mm)
    yield Paragraph(text(_("Stacks across the session")), styles.heading)
    # One font for the chart's words: the wide one if a player's name needs it.
    font = font_for(" ".join(p.name for p in record.players), styles.regular)
    yield stack_chart(stack_lines(record), CONTENT_WIDTH, font, voided_hand_numbers(record))


def _hands(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    yield Paragraph(text(_("Hand by hand")), styles.heading)
    if not record.hands:
        yield Paragraph("No hand was settled in this session.", styles.body)
    for hand in record.hands:
        yield KeepTogether(list(_hand_block(hand, styles)))


SEAT_WIDTHS = [24 * mm, 31 * mm, 37 * mm, 37 * mm, 16 * mm, 10 * mm, 11 * mm, CONTENT_WIDTH - 166 * mm]


def _hand_block(hand: HandRecord, styles: Styles) -> Iterator[Flowable]:
    parts = [f"button {hand.button}"]
    if hand.fantasyland:
        players = ", ".join(f"{n} ({c} cards)" for n, c in hand.fantasyland)
        parts.append(f"Fantasyland: {players}")
    if hand.started_at:
        parts.append(timestamp(hand.started_at))
    title: list[Run] = [
        (f"Hand {hand.number}", styles.bold, 9.5, INK),
        (" · " + " · ".join(parts), styles.regular, 9.5, INK),
    ]
    if hand.voided:
        title.append((" · VOIDED: chips returned", styles.bold, 9.5, ALERT))
    yield Spacer(1, 2 * mm)
    yield RunsCell([title], leading=1.45)
    # The stack each player sat down to the hand with: a capped payment is checked against it.
    bonus = "Bonus" if is_chinese_hand(hand) else "Roy."
    header: list[object] = ["Player", "Front", "Middle", "Back", "Stack before", bonus, "Points", "Chips"]
    rows: list[list[object]] = [header] + [_seat_row(seat, styles) for seat in hand.seats]
    # A surrender or a declared special has no rows: its words run across the three row cells.
    spans = [
        ("SPAN", (1, r), (3, r)) for r, seat in enumerate(hand.seats, start=1) if seat_in_place_of_rows(seat)
    ]
    yield grid_table(rows, SEAT_WIDTHS, styles, numeric_columns=(4, 5, 6, 7), extra=spans)
    if hand.matchups:
        label: Run = ("Points by pair: ", styles.bold, 7, GREY)
        yield RunsCell([[label, (_pairs(hand), styles.regular, 7, GREY)]], 1.6)
    yield Spacer(1, 1.5 * mm)
    yield _transfers_table(hand, styles)
    if hand.rake or hand.jackpot_drop:
        yield Paragraph(f"Rake {chips(hand.rake)} · jackpot drop {chips(hand.jackpot_drop)}", styles.small)
    yield Spacer(1, 3 * mm)


def _pairs(hand: HandRecord) -> str:
    """Each pair's points, and the chips a point where that is not 1, so that every transfer's owed
    amount can be checked on paper: 'Ann v Bob +4 ×5 · Ann v Cy -2'."""
    return " · ".join(
        f"{first} v {second} {signed_chips(matchup.points)}" + _per_point(matchup.unit)
        for matchup in hand.matchups
        for first, second in [matchup.players]
    )


def _per_point(unit: int) -> str:
    return f" ×{chips(unit)}" if unit != 1 else ""


GREY = colors.HexColor("#444444")
RED = colors.HexColor("#b00020")


def _seat_row(seat: SeatResult, styles: Styles) -> list[object]:
    name_lines: list[list[Run]] = [[(seat.name, styles.bold, 8, INK)]]
    if seat.foul:
        name_lines.append([(seat_flag(seat), styles.bold, 8, ALERT)])
    if seat.fantasyland_next:
        name_lines.append([(f"→ Fantasyland ({seat.fantasyland_next})", styles.regular, 6.5, INK)])
    cells: list[object] = [RunsCell(name_lines)]
    in_place_of_rows = seat_in_place_of_rows(seat)
    for row in seat.rows if not in_place_of_rows else ():
        card_runs: list[Run] = []
        for card in row.cards:
            colour = RED if card_is_red(card) else INK
            if card_runs and card_runs[-1][3] is colour:
                # Neighbouring cards of one colour share a run: fewer PDF text operations.
                card_runs[-1] = (card_runs[-1][0] + card_text(card) + " ", *card_runs[-1][1:])
            else:
                card_runs.append((card_text(card) + " ", styles.regular, 8, colour))
        royalty = f" +{row.royalty}" if row.royalty else ""
        cells.append(RunsCell([card_runs, [(row.hand + royalty, styles.regular, 6.5, GREY)]]))
    if in_place_of_rows:
        cells += [RunsCell([[(in_place_of_rows, styles.bold, 8, ALERT)]]), "", ""]
    cells += [
        chips(seat.stack_before),
        chips(seat.royalties),
        signed_chips(seat.points),
        signed_chips(seat.chips_moved),
    ]
    return cells


TRANSFER_WIDTHS = [8 * mm, 26 * mm, 26 * mm, 15 * mm, 15 * mm, CONTENT_WIDTH - 90 * mm]


def _transfers_table(hand: HandRecord, styles: Styles) -> Flowable:
    if not hand.transfers:
        return Paragraph("No chips moved.", styles.small)
    chinese = is_chinese_hand(hand)
    rows: list[list[object]] = [["#", "From", "To", "Owed", "Paid", "Why" if chinese else "Why capped"]]
    capped_rows: list[int] = []
    for index, transfer in enumerate(hand.transfers, start=1):
        if transfer.capped:
            capped_rows.append(index)
        rows.append(
            [
                str(index),
                transfer.payer,
                transfer.payee,
                chips(transfer.owed),
                chips(transfer.paid),
                _why(transfer, chinese, styles),
            ]
        )
    extra = [("TEXTCOLOR", (4, r), (4, r), ALERT) for r in capped_rows]
    return grid_table(rows, TRANSFER_WIDTHS, styles, numeric_columns=(0, 3, 4), extra=extra)


def _why(transfer: TransferRecord, chinese: bool, styles: Styles) -> object:
    if chinese:
        return Paragraph(text(transfer_why(transfer)), styles.cell_small)
    return Paragraph(text(transfer.reason), styles.cell_small) if transfer.capped else ""


def _chip_transactions(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    yield CondPageBreak(40 * mm)
    yield Paragraph("Chip transactions", styles.heading)
    if not record.chip_transactions:
        yield Paragraph("None recorded.", styles.body)
        return
    rows: list[list[object]] = [
        ["Event", "Time", "After hand", "Player", "What", "Chips", "By", "Approved by"]
    ]
    for t in record.chip_transactions:
        rows.append(
            [
                str(t.seq),
                timestamp(t.at),
                str(t.after_hand),
                t.player,
                str(t.kind),
                signed_chips(t.amount),
                t.actor or "–",
                t.approver or "–",
            ]
        )
    widths = [13 * mm, 32 * mm, 17 * mm, 26 * mm, 25 * mm, 18 * mm, 24 * mm, CONTENT_WIDTH - 155 * mm]
    yield grid_table(rows, widths, styles, numeric_columns=(0, 2, 5))


def _house(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    raked_hands = sum(1 for h in record.counted_hands if h.rake or h.jackpot_drop)
    pairs = [
        ("Rake", chips(record.rake_total)),
        ("Jackpot drop", chips(record.jackpot_total)),
        ("Hands raked", f"{raked_hands} of {len(record.counted_hands)}"),
        ("Buy-ins (opening and later)", chips(record.bought_in)),
        ("Rebuys", chips(record.chip_total(ChipKind.REBUY))),
        ("Cash-outs", chips(record.chip_total(ChipKind.CASH_OUT))),
        ("Chip corrections", signed_chips(record.chip_total(ChipKind.CORRECTION))),
        ("Chips in play at the end", chips(record.final_stacks_total)),
    ]
    yield KeepTogether(
        [Paragraph("Rake and jackpot", styles.heading), key_value_table(pairs, styles, columns=2)]
    )


def _adjustments(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    yield CondPageBreak(40 * mm)
    yield Paragraph("Voids, corrections, undos, rules changes and floor requests", styles.heading)
    if not record.adjustments:
        yield Paragraph("None recorded.", styles.body)
        return
    rows: list[list[object]] = [["Event", "Time", "What", "Hand", "Details", "By", "Approved by"]]
    for a in record.adjustments:
        rows.append(
            [
                str(a.seq),
                timestamp(a.at),
                str(a.kind),
                _adjustment_hand(record, a),
                Paragraph(text(_adjustment_details(a)), styles.cell),
                a.actor or "–",
                a.approver or "–",
            ]
        )
    widths = [13 * mm, 35 * mm, 24 * mm, 11 * mm, 49 * mm, 22 * mm, CONTENT_WIDTH - 154 * mm]
    yield grid_table(rows, widths, styles, numeric_columns=(0, 3))


def _adjustment_details(adjustment: Adjustment) -> str:
    """An undo says what was entered in place of what it took back, so the pair reads together."""
    if adjustment.kind is not AdjustmentKind.UNDO:
        return adjustment.description
    if adjustment.reentered:
        return f"{adjustment.description}; entered again as {adjustment.reentered}"
    return f"{adjustment.description}; nothing entered in its place"


def _adjustment_hand(record: SessionRecord, adjustment: Adjustment) -> str:
    if adjustment.kind is AdjustmentKind.RULES_CHANGE:
        hand = _first_hand_under(record, adjustment)
    else:
        hand = adjustment.hand_number
    return str(hand) if hand else "–"


def _room_head(record: SessionRecord, styles: Styles) -> list[Flowable]:
    """The whole room's head as this report was read: every session links to the one before it,
    so an anchor file holding this line lets `verify --anchors` vouch for the whole record."""
    if not record.room_head:
        return []
    return [
        Spacer(1, 2 * mm),
        Paragraph("The room's head when this report was read (time, session, event, hash):", styles.body),
        Paragraph(text(record.room_head), styles.mono),
    ]


def _fingerprint_and_signatures(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    events = f" after event {record.event_count}" if record.event_count else ""
    block: list[Flowable] = [
        Paragraph("Audit fingerprint", styles.heading),
        Paragraph(
            f"The final hash of the audit chain{events}. To match this printed report to the "
            "database, run <b>ofc-desk verify --db URL --fingerprints</b>: it verifies every "
            f"chain and prints each session's final hash; session {record.session_id}'s must "
            "equal the one below.",
            styles.body,
        ),
        Spacer(1, 2 * mm),
        Paragraph(text(record.final_hash or "no events recorded"), styles.mono),
        *_room_head(record, styles),
        Spacer(1, 6 * mm),
        Paragraph("Signatures", styles.heading),
        Paragraph("We have checked this report against the table and agree with it.", styles.body),
        Spacer(1, 2 * mm),
        signature_block(
            [("Dealer", ", ".join(record.dealers)), ("Floor supervisor", ", ".join(record.supervisors))],
            styles,
        ),
    ]
    yield KeepTogether(block)
