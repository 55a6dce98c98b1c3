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

from ofc_desk.i18n import Language, _, active_language, in_language, lazy_gettext, pgettext
from ofc_desk.reports.corrections_pdf import corrections_section
from ofc_desk.reports.fonts import font_for
from ofc_desk.reports.formatting import (
    card_is_red,
    card_text,
    chips,
    hand_count,
    signed_chips,
    timestamp,
    total_chips,
)
from ofc_desk.reports.games import report_game
from ofc_desk.reports.games.base import ReportGame
from ofc_desk.reports.jackpot_section import hand_jackpot_lines, jackpot_section
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
    with_markup,
)
from ofc_desk.reports.record import (
    Adjustment,
    AdjustmentKind,
    ChipTotal,
    HandRecord,
    SeatResult,
    SessionRecord,
)
from ofc_desk.reports.record_words import dealers_words, kind_words, signing_roles
from ofc_desk.reports.spoken import data_words, hand_words
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
    yield from corrections_section(record, styles)
    yield from _chip_transactions(record, styles)
    yield from _house(record, styles)
    yield from jackpot_section(record, styles)
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
        (_("Dealer(s)"), dealers_words(record) or "–"),
        (_("Floor supervisor"), ", ".join(record.supervisors) or "–"),
        (_("Hands"), hand_count(len(record.hands), voided)),
        (_("Opening button"), record.opening_button or "–"),
        *([(_("Rules changed"), _("{when}: see the rules changes").format(when=changed))] if changed else []),
        (_("Variant"), data_words(record.variant) + held),
        (_("Rules preset"), record.preset_name + held),
        (_("Unit (chips per point)"), chips(record.unit) + held),
        (_("Per-pair units"), (pair_units or _("none")) + held),
        (_("Settlement policy"), data_words(record.settlement_policy) + held),
        (_("Settlement order"), (str(settle_from) if settle_from else record.settle_from) + held),
        (_("Report language"), active_language().native_name),
    ]
    yield key_value_table(pairs, styles)
    if record.rules:
        if changed:
            rules_in_force = _(
                "Rules in force: preset “{preset}” when the table opened (changed later, {when}: see "
                "the rules changes below)"
            ).format(preset=record.preset_name, when=changed)
        else:
            rules_in_force = _("Rules in force: preset “{preset}”").format(preset=record.preset_name)
        yield Paragraph(text(rules_in_force), styles.subheading)
        # The labels were marked where they are written (rules_text, the games' parts); the values
        # were said in the language the record was read in.
        yield key_value_table([(_said(r.label), _said(r.value)) for r in record.rules], styles, columns=2)


def _said(words: str) -> str:
    """Words marked where they were written, in the report's language; gettext would answer an
    empty string (a value left blank) with the catalog's header."""
    return _(words) if words else words


def _when_rules_changed(record: SessionRecord) -> str:
    """'' if the opening rules held all session, else e.g. 'before hand 6' or 'after the last hand'."""
    changes = [a for a in record.adjustments if a.kind is AdjustmentKind.RULES_CHANGE]
    whens = dict.fromkeys(_when_rules_change_applied(record, change) for change in changes)
    return _(", then ").join(whens)


def _when_rules_change_applied(record: SessionRecord, change: Adjustment) -> str:
    first_hand = _first_hand_under(record, change)
    return _("before hand {number}").format(number=first_hand) if first_hand else _("after the last hand")


def _first_hand_under(record: SessionRecord, change: Adjustment) -> int | None:
    """The hand new rules applied from: the first one dealt after the change (None: none was).

    Rules change between hands only, so that is the hand after the ones settled before it, if it
    was dealt (it may still be in play).
    """
    next_hand = change.after_hand + 1
    dealt = {hand.number for hand in record.hands} | {record.live_hand}
    return next_hand if next_hand in dealt else None


def _players_summary(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    """The session per player; the last three columns are the game's (`ReportGame.player_headings`)."""
    yield Paragraph(text(_("Players")), styles.heading)
    game = report_game(record)
    columns = [(total, total.said.column) for total in ChipTotal if total.said.column is not None]
    header: list[object] = [
        _("Player"),
        *(str(column) for _total, column in columns),
        _("Final stack"),
        _("Net result"),
        _("Hands"),
        *game.player_headings,
    ]
    rows: list[list[object]] = [header]
    for p in record.players:
        rows.append(
            [
                p.name,
                *(chips(p.chip_total(total)) for total, _column in columns),
                chips(p.final_stack),
                signed_chips(p.net),
                chips(p.hands_played),
                *(chips(figure) for figure in game.player_figures(p)),
            ]
        )
    players = record.players
    rows.append(
        [
            _("Total"),
            *(chips(sum(p.chip_total(total) for p in players)) for total, _column in columns),
            chips(sum(p.final_stack for p in players)),
            signed_chips(sum(p.net for p in players)),
            "",
            "",
            "",
            "",
        ]
    )
    # The game's headings are wider than their figures: its widths give them the room.
    first = game.player_widths
    widths = [*first, CONTENT_WIDTH - sum(first)]
    yield grid_table(rows, widths, styles, numeric_columns=range(1, len(header)), total_row=True)
    if record.jackpot_awards:
        adds_up = _(
            "The net results add up to the jackpot awards ({awards}) less the rake ({rake}) and the"
            " jackpot drop ({jackpot})."
        ).format(
            awards=chips(record.jackpot_awards),
            rake=chips(record.rake_total),
            jackpot=chips(record.jackpot_total),
        )
        yield Paragraph(text(adds_up), styles.small)
    elif record.rake_total or record.jackpot_total:
        yield Paragraph(
            text(
                _(
                    "The net results add up to minus the rake ({rake}) and the jackpot drop ({jackpot})."
                ).format(rake=chips(record.rake_total), jackpot=chips(record.jackpot_total))
            ),
            styles.small,
        )


def _chart(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    yield CondPageBreak(80 * mm)
    yield Paragraph(text(_("Stacks across the session")), styles.heading)
    # One font for the legend's words: the wide one if a player's name or "cashed out" needs it.
    lines = stack_lines(record)
    font = font_for(" ".join(line.label for line in lines), styles.regular)
    yield stack_chart(lines, CONTENT_WIDTH, font, voided_hand_numbers(record))


def _hands(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    heading = Paragraph(text(_("Hand by hand")), styles.heading)
    if not record.hands:
        yield heading
        yield Paragraph(text(_("No hand was settled in this session.")), styles.body)
        return
    game = report_game(record)
    blocks = [list(_hand_block(hand, game, styles)) for hand in record.hands]
    yield KeepTogether([heading, *blocks[0]])  # the heading goes over with the first hand
    for block in blocks[1:]:
        yield KeepTogether(block)


# "Stack before" and "Bonus" each need their heading's width, or the two read as one.
SEAT_WIDTHS = [24 * mm, 31 * mm, 36 * mm, 36 * mm, 18 * mm, 12 * mm, 11 * mm, CONTENT_WIDTH - 168 * mm]


def _hand_block(hand: HandRecord, game: ReportGame, styles: Styles) -> Iterator[Flowable]:
    parts = [_("button {player}").format(player=hand.button)]
    if hand.dealers:
        parts.append(_("dealt by {dealers}").format(dealers=_(", then ").join(hand.dealers)))
    parts += game.title_parts(hand)
    if hand.started_at:
        parts.append(timestamp(hand.started_at))
    title: list[Run] = [
        (_("Hand {number}").format(number=hand.number), styles.bold, 9.5, INK),
        (" · " + " · ".join(parts), styles.regular, 9.5, INK),
    ]
    if hand.voided:
        title.append((" · " + _("VOIDED: chips returned"), styles.bold, 9.5, ALERT))
    yield Spacer(1, 2 * mm)
    yield RunsCell([title], leading=1.45)
    # The stack each player sat down to the hand with: a capped payment is checked against it.
    header: list[object] = [
        _("Player"),
        pgettext("row", "Front"),
        pgettext("row", "Middle"),
        pgettext("row", "Back"),
        _("Stack before"),
        game.row_points_heading,
        _("Points"),
        _("Chips"),
    ]
    rows: list[list[object]] = [header] + [_seat_row(seat, game, styles) for seat in hand.seats]
    # A surrender or a declared special has no rows: its words run across the three row cells.
    spans = [
        ("SPAN", (1, r), (3, r)) for r, seat in enumerate(hand.seats, start=1) if game.in_place_of_rows(seat)
    ]
    yield grid_table(rows, SEAT_WIDTHS, styles, numeric_columns=(4, 5, 6, 7), extra=spans)
    if note := game.hand_note(hand):
        yield Paragraph(text(note), styles.small)
    if hand.matchups:
        label: Run = (_("Points by pair: "), styles.bold, 7, GREY)
        yield RunsCell([[label, (_pairs(hand, game), styles.regular, 7, GREY)]], 1.6)
    yield Spacer(1, 1.5 * mm)
    yield _transfers_table(hand, game, styles)
    if hand.rake or hand.jackpot_drop:
        yield Paragraph(
            text(
                _("Rake {rake} · jackpot drop {jackpot}").format(
                    rake=chips(hand.rake), jackpot=chips(hand.jackpot_drop)
                )
            ),
            styles.small,
        )
    for line in hand_jackpot_lines(hand):
        yield Paragraph(text(line), styles.small)
    yield Spacer(1, 3 * mm)


def _pairs(hand: HandRecord, game: ReportGame) -> str:
    """Each pair's points, and the chips a point where that is not 1, so that every transfer's owed
    amount can be checked on paper and each player's pairs add up to their Points: 'Ann v Bob +4 ×5
    · Ann v Cy -2'; the game's note after the points (`ReportGame.pair_note`: a Chinese special pass
    says so, 'Dee v Cy -4 special')."""
    return " · ".join(
        _("{first} v {second} {points}").format(
            first=first, second=second, points=signed_chips(matchup.points)
        )
        + game.pair_note(matchup)
        + _per_point(matchup.unit)
        for matchup in hand.matchups
        for first, second in [matchup.players]
    )


def _per_point(unit: int) -> str:
    return f" ×{chips(unit)}" if unit != 1 else ""


GREY = colors.HexColor("#444444")
RED = colors.HexColor("#b00020")


def _seat_row(seat: SeatResult, game: ReportGame, styles: Styles) -> list[object]:
    name_lines: list[list[Run]] = [[(seat.name, styles.bold, 8, INK)]]
    if seat.foul:
        name_lines.append([(game.flag, styles.bold, 8, ALERT)])
    if under_name := game.under_name(seat):
        name_lines.append([(under_name, styles.regular, 6.5, INK)])
    cells: list[object] = [RunsCell(name_lines)]
    in_place_of_rows = game.in_place_of_rows(seat)
    for row in seat.rows if not in_place_of_rows else ():
        card_runs: list[Run] = []
        for card in row.cards:
            colour = RED if card_is_red(card) else INK
            if card_runs and card_runs[-1][3] is colour:
                # Neighbouring cards of one colour share a run: fewer PDF text operations.
                card_runs[-1] = (card_runs[-1][0] + card_text(card) + " ", *card_runs[-1][1:])
            else:
                card_runs.append((card_text(card) + " ", styles.regular, 8, colour))
        scored = f" +{row.points}" if row.points else ""
        cells.append(
            RunsCell([card_runs, [(hand_words(row.cards, row.hand) + scored, styles.regular, 6.5, GREY)]])
        )
    if in_place_of_rows:
        cells += [RunsCell([[(in_place_of_rows, styles.bold, 8, ALERT)]]), "", ""]
    cells += [
        chips(seat.stack_before),
        chips(seat.row_points),
        signed_chips(seat.points),
        signed_chips(seat.chips_moved),
    ]
    return cells


TRANSFER_WIDTHS = [8 * mm, 26 * mm, 26 * mm, 15 * mm, 15 * mm, CONTENT_WIDTH - 90 * mm]


def _transfers_table(hand: HandRecord, game: ReportGame, styles: Styles) -> Flowable:
    if not hand.transfers:
        return Paragraph(text(_("No chips moved.")), styles.small)
    rows: list[list[object]] = [["#", _("From"), _("To"), _("Owed"), _("Paid"), game.why_heading]]
    capped_rows: list[int] = []
    for index, transfer in enumerate(hand.transfers, start=1):
        if transfer.capped:
            capped_rows.append(index)
        why = game.why(transfer, hand)
        rows.append(
            [
                str(index),
                transfer.payer,
                transfer.payee,
                chips(transfer.owed),
                chips(transfer.paid),
                Paragraph(text(why), styles.cell_small) if why is not None else "",
            ]
        )
    extra = [("TEXTCOLOR", (4, r), (4, r), ALERT) for r in capped_rows]
    return grid_table(rows, TRANSFER_WIDTHS, styles, numeric_columns=(0, 3, 4), extra=extra)


def _chip_transactions(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    yield CondPageBreak(40 * mm)
    yield Paragraph(text(_("Chip transactions")), styles.heading)
    if not record.chip_transactions:
        yield Paragraph(text(_("None recorded.")), styles.body)
        return
    words = (
        _("Event"),
        _("Time"),
        _("After hand"),
        _("Player"),
        _("What"),
        _("Chips"),
        _("By"),
        _("Approved by"),
    )
    rows: list[list[object]] = [list(words)]
    for t in record.chip_transactions:
        rows.append(
            [
                str(t.seq),
                timestamp(t.at),
                str(t.after_hand),
                t.player,
                kind_words(t.kind),
                signed_chips(t.amount),
                t.actor or "–",
                t.approver or "–",
            ]
        )
    widths = [16 * mm, 32 * mm, 17 * mm, 26 * mm, 25 * mm, 18 * mm, 24 * mm, CONTENT_WIDTH - 158 * mm]
    yield grid_table(rows, widths, styles, numeric_columns=(0, 2, 5))


def _house(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    raked_hands = sum(1 for h in record.counted_hands if h.rake or h.jackpot_drop)
    counted = len(record.counted_hands)
    pairs = [
        (_("Rake"), chips(record.rake_total)),
        (_("Jackpot drop"), chips(record.jackpot_total)),
        *([(_("Jackpot awards"), chips(record.jackpot_awards))] if record.jackpot_awards else []),
        (_("Hands raked"), _("{raked} of {hands}").format(raked=chips(raked_hands), hands=chips(counted))),
        *(
            (str(total.said.figure), total_chips(record.chip_total(total), total))
            for total in ChipTotal
            if record.hand_corrections or not total.said.won_in_play  # a line only where a hand was
        ),
        (_("Chips in play at the end"), chips(record.final_stacks_total)),
    ]
    yield KeepTogether(
        [Paragraph(text(_("Rake and jackpot")), styles.heading), key_value_table(pairs, styles, columns=2)]
    )


def _adjustments(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    yield CondPageBreak(40 * mm)
    yield Paragraph(text(_("Voids, corrections, undos, rules changes and floor requests")), styles.heading)
    if not record.adjustments:
        yield Paragraph(text(_("None recorded.")), styles.body)
        return
    words = (_("Event"), _("Time"), _("What"), _("Hand"), _("Details"), _("By"), _("Approved by"))
    rows: list[list[object]] = [list(words)]
    for a in record.adjustments:
        rows.append(
            [
                str(a.seq),
                timestamp(a.at),
                kind_words(a.kind),
                _adjustment_hand(record, a),
                Paragraph(text(_adjustment_details(a)), styles.cell),
                a.actor or "–",
                a.approver or "–",
            ]
        )
    widths = [16 * mm, 35 * mm, 24 * mm, 14 * mm, 46 * mm, 22 * mm, CONTENT_WIDTH - 157 * mm]
    yield grid_table(rows, widths, styles, numeric_columns=(0, 3))


def _adjustment_details(adjustment: Adjustment) -> str:
    """An undo says what was entered in place of what it took back, so the pair reads together;
    a rules change says every new setting after its sentence."""
    if adjustment.settings:
        settings = "; ".join(f"{_said(s.label)} {_said(s.value)}" for s in adjustment.settings)
        return f"{adjustment.description} — {settings}"
    if adjustment.kind is not AdjustmentKind.UNDO:
        return adjustment.description
    if adjustment.reentered:
        return _("{undone}; entered again as {entry}").format(
            undone=adjustment.description, entry=adjustment.reentered
        )
    return _("{undone}; nothing entered in its place").format(undone=adjustment.description)


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
        Paragraph(
            text(_("The room's head when this report was read (time, session, event, hash):")), styles.body
        ),
        Paragraph(text(record.room_head), styles.mono),
    ]


def _fingerprint_and_signatures(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    if record.event_count:
        final_hash = _("The final hash of the audit chain after event {event}.").format(
            event=record.event_count
        )
    else:
        final_hash = _("The final hash of the audit chain.")
    command = "<b>ofc-desk verify --db URL --fingerprints</b>"
    how = _(
        "To match this printed report to the database, run {command}: it verifies every chain and "
        "prints each session's final hash; session {session}'s must equal the one below."
    )
    block: list[Flowable] = [
        Paragraph(text(_("Audit fingerprint")), styles.heading),
        Paragraph(
            f"{text(final_hash)} {with_markup(how, command=command, session=str(record.session_id))}",
            styles.body,
        ),
        Spacer(1, 2 * mm),
        Paragraph(text(record.final_hash or _("no events recorded")), styles.mono),
        *_room_head(record, styles),
        Spacer(1, 6 * mm),
        Paragraph(text(_("Signatures")), styles.heading),
        Paragraph(text(_("We have checked this report against the table and agree with it.")), styles.body),
        Spacer(1, 2 * mm),
        signature_block(signing_roles(record), styles),
    ]
    yield KeepTogether(block)
