"""The session and table-close PDFs, rendered from hand-made records and read back with pdfium."""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import String
from reportlab.pdfbase.pdfmetrics import stringWidth

from ofc_desk.core.presets import Game
from ofc_desk.i18n import Language, _, in_language
from ofc_desk.reports.games import GAMES
from ofc_desk.reports.pdf_common import CELL_PADDING, CONTENT_WIDTH, grid_table, make_styles
from ofc_desk.reports.record import (
    Adjustment,
    AdjustmentKind,
    ChipKind,
    ChipTotal,
    ChipTransaction,
    HandRecord,
    PlayerSummary,
    SessionRecord,
)
from ofc_desk.reports.session_pdf import write_session_report
from ofc_desk.reports.stack_chart import stack_chart, stack_lines
from ofc_desk.reports.table_close_pdf import (
    table_close_figures,
    variance_words,
    write_table_close_report,
)
from tests.helpers.pdf_text import page_count, page_texts, squeezed


def pdf_pages(write: Callable[..., object], *args: object) -> list[str]:
    buffer = io.BytesIO()
    write(*args[:1], buffer, *args[1:])
    return page_texts(buffer.getvalue())


def test_header_names_the_session_rules_and_people(sample_report_pages: tuple[str, ...]) -> None:
    first = squeezed(sample_report_pages[0])
    for expected in (
        "Session report",
        "Riverside Card Room",
        "Table 7",
        "session 42",
        "2026-11-21 19:00 UTC",
        "2026-11-21 21:30 UTC",
        "Dana Dealer",
        "Sam Floor",
        "pineapple",
        "standard",
        "win-cap",
        "Ann–Bob: 5",
        "Foul penalty 6",
        "from the player left of the dealer",
    ):
        assert expected in first, expected


def test_players_summary_carries_each_net_result(sample_report_pages: tuple[str, ...]) -> None:
    text = squeezed(sample_report_pages[0])
    # name, buy-ins, rebuys, cash-outs, final stack, net, hands, fouls, FL hands, royalties
    assert "Ann 100 0 0 146 +46 3 0 1 64" in text
    assert "Bob 80 10 0 38 -52 3 1 0 0" in text
    assert "Cy 20 0 0 22 +2 3 0 0 10" in text
    assert "Total 200 10 0 206 -4" in text


def test_hands_show_rows_with_suits_and_ordered_transfers(sample_report_pages: tuple[str, ...]) -> None:
    text = squeezed(" ".join(sample_report_pages))
    assert "Q♠ Q♦ 2♣" in text and "pair of queens +7" in text
    assert "FOUL" in text
    assert (
        "1 Bob Ann 27 27 Ann won 27 points from Bob, 1 a point"
        " 2 Cy Ann 1 1 Ann won 1 point from Cy, 1 a point 3 Bob Cy 21 14 capped: Cy reached the win cap of 20"
    ) in text  # each OFC transfer says why: its pair's points (the sample has none for Bob and Cy)
    assert "Hand 2 · button Cy · Fantasyland: Ann (14 cards)" in text
    assert "VOIDED" in text
    assert "Rake 3 · jackpot drop 1" in text


def test_every_page_is_numbered_and_carries_the_fingerprint(
    sample_record: SessionRecord, sample_report_pages: tuple[str, ...]
) -> None:
    pages = sample_report_pages
    assert len(pages) >= 2
    for number, page in enumerate(pages, start=1):
        assert f"Page {number} of {len(pages)}" in page
        assert "fingerprint 9f2c4e8a9f2c4e8a" in page
    last = squeezed(pages[-1])
    assert sample_record.final_hash in last.replace(" ", "")
    assert "Dealer Dana Dealer" in last and "Floor supervisor Sam Floor" in last


def test_adjustments_name_who_approved(sample_report_pages: tuple[str, ...]) -> None:
    text = squeezed(" ".join(sample_report_pages))
    assert "void 3 hand 3 voided: misdeal Dana Dealer Sam Floor" in text
    assert "undo 2 Bob's 5h to middle taken back; entered again as Bob: 5h back Dana Dealer" in text


def _long_record(record: SessionRecord, hands: int, rebuys: int) -> SessionRecord:
    template = record.hands[1]
    long_hands = tuple(dataclasses.replace(template, number=n, voided=False) for n in range(1, hands + 1))
    moment = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
    extra = tuple(
        ChipTransaction(1000 + i, moment, ChipKind.REBUY, f"Player{i:03d}", 10 + i, i, "Dana")
        for i in range(rebuys)
    )
    return dataclasses.replace(record, hands=long_hands, chip_transactions=record.chip_transactions + extra)


def test_long_session_paginates_with_repeated_headers_and_whole_rows(
    sample_record: SessionRecord,
) -> None:
    record = _long_record(sample_record, hands=40, rebuys=120)
    pages = pdf_pages(write_session_report, record)
    assert len(pages) > 10
    for number, page in enumerate(pages, start=1):
        assert f"Page {number} of {len(pages)}" in page
    for i in range(120):
        # Each transaction row lies whole on one page: its event, player and chips together.
        row = re.compile(rf"{1000 + i} 2026-11-21 20:00 UTC {i} Player{i:03d} rebuy \+{10 + i}")
        assert sum(1 for page in pages if row.search(squeezed(page))) == 1, i
    pages_with_rows = [page for page in pages if "Player0" in page or "Player1" in page]
    assert len(pages_with_rows) >= 2
    for page in pages_with_rows:
        assert "Event Time After hand Player What Chips By Approved by" in squeezed(page)
    hand_headers = [squeezed(page).count("Player Front Middle Back") for page in pages]
    assert sum(hand_headers) == 40


def test_table_close_balances_or_flags_the_variance(sample_record: SessionRecord) -> None:
    figures = table_close_figures(sample_record, counted=205)
    assert (figures.chip_totals[ChipTotal.BUY_INS], figures.chip_totals[ChipTotal.REBUYS]) == (200, 10)
    assert (figures.rake, figures.jackpot_drop) == (3, 1)
    assert figures.expected == 206 == figures.stacks_total
    assert figures.variance == -1 and variance_words(figures) == "SHORT by 1 chip"
    assert variance_words(table_close_figures(sample_record, 206)) == "BALANCED"
    assert variance_words(table_close_figures(sample_record, 208)) == "OVER by 2 chips"
    pages = pdf_pages(write_table_close_report, sample_record, 205)
    assert len(pages) == 1
    text = squeezed(pages[0])
    assert "= Expected chips on the table 206" in text
    assert "Counted chips (entered by the floor supervisor) 205" in text
    assert "-1 SHORT by 1 chip" in text
    assert "Page 1 of 1" in text


def test_table_close_without_a_count_leaves_it_to_fill_in(
    sample_close_pages_uncounted: tuple[str, ...],
) -> None:
    text = squeezed(sample_close_pages_uncounted[0])
    assert "Counted chips (entered by the floor supervisor) Variance" in text
    assert "SHORT" not in text and "BALANCED" not in text


def test_a_session_with_no_hands_still_reports(sample_record: SessionRecord) -> None:
    empty = dataclasses.replace(sample_record, hands=(), adjustments=())
    text = squeezed(" ".join(pdf_pages(write_session_report, empty)))
    assert "No hand was settled in this session." in text
    assert "None recorded." in text


def _render_first_page(pdf: Path, png_stem: Path) -> Path:
    document = pdfium.PdfDocument(str(pdf))
    document[0].render(scale=110 / 72).to_pil().save(png_stem.with_suffix(".png"))
    return png_stem.with_suffix(".png")


def test_first_pages_render_to_png_for_people_to_look_at(
    sample_record: SessionRecord, reports_out: Path
) -> None:
    """No pixel assertions: the PNGs are for a person to look at (path printed with -s)."""
    session_pdf = reports_out / "session-report.pdf"
    close_pdf = reports_out / "table-close.pdf"
    write_session_report(sample_record, str(session_pdf))
    write_table_close_report(sample_record, str(close_pdf), counted=205)
    for pdf in (session_pdf, close_pdf):
        png = _render_first_page(pdf, pdf.with_suffix(""))
        assert png.stat().st_size > 10_000
        print(f"first page rendered: {png}")


def test_voided_hand_is_listed_but_not_counted(sample_record: SessionRecord) -> None:
    voided: HandRecord = sample_record.hands[2]
    assert voided.voided and voided not in sample_record.counted_hands
    assert sample_record.rake_total == 3 and sample_record.jackpot_total == 1


def test_signature_lines_print_names_as_typed(sample_record: SessionRecord) -> None:
    record = dataclasses.replace(sample_record, dealers=("Lee & Kim",), supervisors=("Ana <Floor>",))
    for write, args in ((write_session_report, ()), (write_table_close_report, (205,))):
        pages = pdf_pages(write, record, *args)
        last = squeezed(pages[-1])
        assert "Name (print)" in last
        assert "Dealer Lee & Kim" in last and "Floor supervisor Ana <Floor>" in last
        assert not any("&amp;" in page or "&lt;" in page for page in pages)


def _footer_chars(pdf: bytes, page_index: int) -> list[tuple[str, float, float]]:
    """(character, left, right) of the footer line, in the order drawn, from pdfium's layout."""
    text_page = pdfium.PdfDocument(pdf)[page_index].get_textpage()
    chars = []
    for index in range(text_page.count_chars()):
        left, _, right, top = text_page.get_charbox(index)
        character = text_page.get_text_range(index, 1)
        if top < 45 and character.strip():  # the footer sits below the 15 mm (42.5 pt) margin
            chars.append((character, left, right))
    return chars


@pytest.mark.parametrize("write", [write_session_report, write_table_close_report])
def test_page_number_stays_clear_of_a_long_room_and_table_name(
    sample_record: SessionRecord, write: Callable[[SessionRecord, io.BytesIO], object]
) -> None:
    record = dataclasses.replace(
        sample_record, room="Grand Casino Baden-Baden, Salle Privée", table="Salon des Grands Joueurs"
    )
    buffer = io.BytesIO()
    write(record, buffer)
    pages = page_count(buffer.getvalue())
    for page_index in range(pages):
        chars = _footer_chars(buffer.getvalue(), page_index)
        line = "".join(character for character, _, _ in chars)
        number = f"Page{page_index + 1}of{pages}"
        at = line.index(number)
        left_text = line[:at]
        assert left_text.endswith("GrandsJoueurs·session42") and "…" in left_text
        left_text_end = max(right for _, _, right in chars[:at])
        assert left_text_end < chars[at][1] - 5, "the left text runs into the page number"


def _with_players(record: SessionRecord, count: int) -> SessionRecord:
    brought = {ChipKind.OPENING: 50}
    players = tuple(PlayerSummary(f"Guest{i:02d}", brought, 50, 1, 0) for i in range(count))
    return dataclasses.replace(record, players=players)


@pytest.mark.parametrize("players", [16, 24, 70])
def test_table_close_keeps_the_signatures_with_the_last_stacks(
    sample_record: SessionRecord, players: int
) -> None:
    pages = [
        squeezed(page)
        for page in pdf_pages(write_table_close_report, _with_players(sample_record, players), 0)
    ]
    if players == 16:
        assert len(pages) == 1  # it fits, so it stays one page
    last = pages[-1]
    signatures = "Name (print) Signature Date and time Dealer Dana Dealer Floor supervisor Sam Floor"
    assert signatures in last
    assert not any("Name (print)" in page or "Audit fingerprint" in page for page in pages[:-1])
    # The signatures sign figures on their own page: the last players' stacks go with them.
    last_rows = [f"Guest{i:02d} 50 0 0" for i in range(players - 3, players)]
    assert all(row in last for row in last_rows)
    assert last.count("Player Stack Cashed out Net result") == 1


def test_table_close_counts_voided_hands_as_settled(sample_close_pages_uncounted: tuple[str, ...]) -> None:
    text = squeezed(sample_close_pages_uncounted[0])
    assert "Hands settled 3 (1 voided)" in text


def _rules_change(after_hand: int) -> Adjustment:
    moment = datetime(2026, 11, 21, 19, 30, tzinfo=UTC)
    return Adjustment(
        77,
        moment,
        AdjustmentKind.RULES_CHANGE,
        None,
        "rules now: Unit 2",
        "Dana Dealer",
        "Sam Floor",
        after_hand=after_hand,
    )


def test_header_gives_the_rules_as_at_the_opening_and_the_hand_they_changed_before(
    sample_record: SessionRecord,
) -> None:
    record = dataclasses.replace(sample_record, adjustments=(_rules_change(after_hand=1),))
    pages = [squeezed(page) for page in pdf_pages(write_session_report, record)]
    first, everything = pages[0], " ".join(pages)
    for expected in (
        "Unit (chips per point) 1 (at the opening)",
        "Settlement policy win-cap (at the opening)",
        "Per-pair units Ann–Bob: 5 (at the opening)",
        "Rules changed before hand 2: see the rules changes",
        "Rules in force: preset “standard” when the table opened (changed later, before hand 2:",
    ):
        assert expected in first, expected
    assert "77 2026-11-21 19:30 UTC rules change 2 rules now: Unit 2 Dana Dealer Sam Floor" in everything


def test_a_rules_change_after_the_last_hand_applied_to_none(sample_record: SessionRecord) -> None:
    record = dataclasses.replace(sample_record, adjustments=(_rules_change(after_hand=3),))
    everything = squeezed(" ".join(pdf_pages(write_session_report, record)))
    assert "Rules changed after the last hand" in everything
    assert "rules change – rules now: Unit 2" in everything
    in_play = dataclasses.replace(record, live_hand=4)
    assert "Rules changed before hand 4" in squeezed(pdf_pages(write_session_report, in_play)[0])


def test_opening_rules_without_a_change_are_not_qualified(sample_report_pages: tuple[str, ...]) -> None:
    first = squeezed(sample_report_pages[0])
    assert "at the opening" not in first and "Rules changed" not in first


def _cy_away_for_hand_2_and_bob_cashed_out(record: SessionRecord) -> SessionRecord:
    hand1, hand2, hand3 = record.hands
    without_cy = dataclasses.replace(hand2, stacks_after=(("Ann", 146), ("Bob", 38)))
    moment = datetime(2026, 11, 21, 21, 0, tzinfo=UTC)
    cash_out = ChipTransaction(100, moment, ChipKind.CASH_OUT, "Bob", -44, 3, "Dana Dealer")
    moved = {**record.players[1].chips_by_kind, ChipKind.CASH_OUT: -44}
    bob = dataclasses.replace(record.players[1], chips_by_kind=moved, final_stack=0)
    return dataclasses.replace(
        record,
        hands=(hand1, without_cy, hand3),
        chip_transactions=(*record.chip_transactions, cash_out),
        players=(record.players[0], bob, record.players[2]),
    )


def test_stack_chart_breaks_a_line_where_the_player_was_away(sample_record: SessionRecord) -> None:
    lines = stack_lines(_cy_away_for_hand_2_and_bob_cashed_out(sample_record))
    stretches = {line.label: line.stretches for line in lines}
    assert stretches["Cy (22)"] == (((0, 20), (1, 33)), ((3, 22),))
    assert stretches["Ann (146)"] == (((0, 100), (1, 128), (2, 146), (3, 146)),)
    # Drawn as separate series: nothing joins Cy's hand 1 to hand 3 across the hand away.
    drawing = stack_chart(lines, CONTENT_WIDTH, "Helvetica")
    plot = next(item for item in drawing.contents if isinstance(item, LinePlot))
    assert [(0, 20), (1, 33)] in plot.data and [(3, 22), (3, 22)] in plot.data
    assert not any((1, 33) in series and (3, 22) in series for series in plot.data)


def test_a_voided_hand_is_plotted_with_its_chips_returned_as_the_legend_says(
    sample_record: SessionRecord,
) -> None:
    # Hand 3 was voided: in it Cy lost 6 to Bob, and the void gave them back.
    lines = {line.label: line.stretches for line in stack_lines(sample_record)}
    assert lines["Cy (22)"] == (((0, 20), (1, 33), (2, 22), (3, 22)),)
    # Bob's rebuy of 10 after hand 1 is a step at hand 1, not a win in hand 2.
    assert lines["Bob (38)"] == (((0, 80), (1, 39), (1, 49), (2, 38), (3, 38)),)
    for label, stretches in lines.items():
        assert label.endswith(f"({stretches[-1][-1][1]})"), "the line ends where the legend says"
    drawing = stack_chart(tuple(stack_lines(sample_record)), CONTENT_WIDTH, "Helvetica", (3,))
    assert [item.text for item in drawing.contents if isinstance(item, String)].count("void") == 1


def test_a_hand_voided_after_later_hands_leaves_its_result_out_of_them(sample_record: SessionRecord) -> None:
    # Hand 1 voided once hand 2 was settled: the stored stacks after hand 2 still held hand 1's result.
    hand1, hand2, _ = sample_record.hands
    void = Adjustment(91, None, AdjustmentKind.VOID, 1, "hand 1 voided: misdeal", after_hand=2)
    record = dataclasses.replace(
        sample_record, hands=(dataclasses.replace(hand1, voided=True), hand2), adjustments=(void,)
    )
    lines = {line.label.split()[0]: line.stretches for line in stack_lines(record)}
    # Ann: +28 in the voided hand 1, +18 in hand 2.
    assert lines["Ann"] == (((0, 100), (1, 100), (2, 118)),)
    assert lines["Cy"] == (((0, 20), (1, 20), (2, 9)),)


def test_stack_chart_legend_gives_final_stacks_or_cashed_out(
    sample_record: SessionRecord, sample_report_pages: tuple[str, ...]
) -> None:
    # The voided last hand left Cy at 16 in its stacks; the void gave back the 6, so Cy ends on 22.
    text = squeezed(" ".join(sample_report_pages))
    assert "Ann (146) Bob (38) Cy (22)" in text
    record = _cy_away_for_hand_2_and_bob_cashed_out(sample_record)
    text = squeezed(" ".join(pdf_pages(write_session_report, record)))
    assert "Ann (146) Bob (cashed out) Cy (22)" in text


def test_each_pair_shows_its_chips_a_point_where_that_is_not_one(sample_record: SessionRecord) -> None:
    first = sample_record.hands[0]
    ann_bob, ann_cy = first.matchups
    hand = dataclasses.replace(first, matchups=(dataclasses.replace(ann_bob, unit=5), ann_cy))
    record = dataclasses.replace(sample_record, hands=(hand, *sample_record.hands[1:]))
    text = squeezed(" ".join(pdf_pages(write_session_report, record)))
    assert "Points by pair: Ann v Bob +27 ×5 · Ann v Cy +1" in text


def test_each_hand_prints_every_players_stack_before_it(
    sample_record: SessionRecord, sample_report_pages: tuple[str, ...]
) -> None:
    """So a capped payment can be checked on paper against the stack the payer sat down with."""
    text = squeezed(" ".join(sample_report_pages))
    assert text.count("Player Front Middle Back Stack before Roy. Points Chips") == len(sample_record.hands)
    for hand in sample_record.hands:
        block = text[text.index(f"Hand {hand.number} ·") :]
        for seat in hand.seats:
            back = seat.back.hand + (f" +{seat.back.points}" if seat.back.points else "")
            figures = f"{seat.stack_before} {seat.row_points} {seat.points:+d} {seat.chips_moved:+d}"
            figures = figures.replace("+0", "0")
            assert f"{back} {figures}" in block, (hand.number, seat.name)


@pytest.mark.parametrize("language", [Language.EN, Language.RU, Language.VI, Language.ZH_CN])
@pytest.mark.parametrize("game", list(Game))
def test_no_two_column_headings_touch(game: Game, language: Language) -> None:
    """Issue 36, point 9 ("Missets Surrenders"): a heading stays inside its column's padding; one
    that would not wraps, in letters small enough for its longest word."""
    part, styles = GAMES[game], make_styles()
    with in_language(language):
        totals = [str(total.said.column) for total in ChipTotal if total.said.column is not None]
        words = [_("Player"), *totals, _("Final stack"), _("Net result"), _("Hands")]
        header = [*words, *part.player_headings]
        widths = [*part.player_widths, CONTENT_WIDTH - sum(part.player_widths)]
        numbers = range(1, len(header))
        table = grid_table([header, ["x"] * len(header)], widths, styles, numeric_columns=numbers)
    for cell, width in zip(table._cellvalues[0], widths, strict=True):
        room = width - CELL_PADDING
        if isinstance(cell, str):
            assert stringWidth(cell, styles.bold, 8) <= room, (cell, language)
        else:
            cell.wrap(room, 1000)
            assert max(cell.getActualLineWidths0()) <= room + 0.01, (cell.text, language)


@pytest.mark.parametrize("extra_players", range(0, 24, 3))
def test_hand_by_hand_is_never_left_alone_at_a_page_bottom(
    sample_record: SessionRecord, extra_players: int
) -> None:
    """Issue 36, point 9: however long the players' table before it, the heading "Hand by hand"
    is on the page of the first hand."""
    extra = tuple(
        dataclasses.replace(sample_record.players[0], name=f"Guest {n}") for n in range(extra_players)
    )
    record = dataclasses.replace(sample_record, players=(*sample_record.players, *extra))
    out = io.BytesIO()
    write_session_report(record, out)
    pages = [page for page in page_texts(out.getvalue()) if "Hand by hand" in page]
    assert len(pages) == 1 and "Hand 1" in pages[0].split("Hand by hand", 1)[1], extra_players
