"""The session and table-close PDFs, rendered from hand-made records and read back with pypdf."""

from __future__ import annotations

import dataclasses
import io
import re
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pypdf import PdfReader

from ofc_desk.reports.record import ChipKind, ChipTransaction, HandRecord, SessionRecord
from ofc_desk.reports.session_pdf import write_session_report
from ofc_desk.reports.table_close_pdf import (
    table_close_figures,
    variance_words,
    write_table_close_report,
)


def pdf_pages(write: object, *args: object) -> list[str]:
    buffer = io.BytesIO()
    write(*args[:1], buffer, *args[1:])  # type: ignore[operator]
    return [page.extract_text() for page in PdfReader(io.BytesIO(buffer.getvalue())).pages]


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_header_names_the_session_rules_and_people(sample_record: SessionRecord) -> None:
    first = squeeze(pdf_pages(write_session_report, sample_record)[0])
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


def test_players_summary_carries_each_net_result(sample_record: SessionRecord) -> None:
    text = squeeze(pdf_pages(write_session_report, sample_record)[0])
    # name, buy-ins, rebuys, cash-outs, final stack, net, hands, fouls, FL hands, royalties
    assert "Ann 100 0 0 146 +46 3 0 1 64" in text
    assert "Bob 80 10 0 38 -52 3 1 0 0" in text
    assert "Cy 20 0 0 22 +2 3 0 0 10" in text
    assert "Total 200 10 0 206 -4" in text


def test_hands_show_rows_with_suits_and_ordered_transfers(sample_record: SessionRecord) -> None:
    text = squeeze(" ".join(pdf_pages(write_session_report, sample_record)))
    assert "Q♠ Q♦ 2♣" in text and "pair of queens +7" in text
    assert "FOUL" in text
    assert "1 Bob Ann 27 27 2 Cy Ann 1 1 3 Bob Cy 21 14 capped: Cy reached the win cap of 20" in text
    assert "Hand 2 · button Cy · Fantasyland: Ann (14 cards)" in text
    assert "VOIDED" in text
    assert "Rake 3 · jackpot drop 1" in text


def test_every_page_is_numbered_and_carries_the_fingerprint(sample_record: SessionRecord) -> None:
    pages = pdf_pages(write_session_report, sample_record)
    assert len(pages) >= 2
    for number, page in enumerate(pages, start=1):
        assert f"Page {number} of {len(pages)}" in page
        assert "fingerprint 9f2c4e8a9f2c4e8a" in page
    last = squeeze(pages[-1])
    assert sample_record.final_hash in last.replace(" ", "")
    assert "Dealer Dana Dealer" in last and "Floor supervisor Sam Floor" in last


def test_adjustments_name_who_approved(sample_record: SessionRecord) -> None:
    text = squeeze(" ".join(pdf_pages(write_session_report, sample_record)))
    assert "void 3 hand 3 voided: misdeal Dana Dealer Sam Floor" in text
    assert "undo 2 Bob's 5h to middle taken back Dana Dealer" in text


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
        assert sum(1 for page in pages if row.search(squeeze(page))) == 1, i
    pages_with_rows = [page for page in pages if "Player0" in page or "Player1" in page]
    assert len(pages_with_rows) >= 2
    for page in pages_with_rows:
        assert "Event Time After hand Player What Chips By Approved by" in squeeze(page)
    hand_headers = [squeeze(page).count("Player Front Middle Back") for page in pages]
    assert sum(hand_headers) == 40


def test_table_close_balances_or_flags_the_variance(sample_record: SessionRecord) -> None:
    figures = table_close_figures(sample_record, counted=205)
    assert (figures.opening_chips, figures.rebuys, figures.rake, figures.jackpot_drop) == (200, 10, 3, 1)
    assert figures.expected == 206 == figures.stacks_total
    assert figures.variance == -1 and variance_words(figures) == "SHORT by 1 chip"
    assert variance_words(table_close_figures(sample_record, 206)) == "BALANCED"
    assert variance_words(table_close_figures(sample_record, 208)) == "OVER by 2 chips"
    pages = pdf_pages(write_table_close_report, sample_record, 205)
    assert len(pages) == 1
    text = squeeze(pages[0])
    assert "= Expected chips on the table 206" in text
    assert "Counted chips (entered by the floor supervisor) 205" in text
    assert "-1 SHORT by 1 chip" in text
    assert "Page 1 of 1" in text


def test_table_close_without_a_count_leaves_it_to_fill_in(sample_record: SessionRecord) -> None:
    text = squeeze(pdf_pages(write_table_close_report, sample_record, None)[0])
    assert "Counted chips (entered by the floor supervisor) Variance" in text
    assert "SHORT" not in text and "BALANCED" not in text


def test_a_session_with_no_hands_still_reports(sample_record: SessionRecord) -> None:
    empty = dataclasses.replace(sample_record, hands=(), adjustments=())
    text = squeeze(" ".join(pdf_pages(write_session_report, empty)))
    assert "No hand was settled in this session." in text
    assert "None recorded." in text


def _render_first_page(pdf: Path, png_stem: Path) -> Path:
    if shutil.which("pdftoppm"):
        subprocess.run(
            ["pdftoppm", "-r", "110", "-f", "1", "-l", "1", "-png", "-singlefile", str(pdf), str(png_stem)],
            check=True,
            timeout=60,
        )
        return png_stem.with_suffix(".png")
    pdfium = pytest.importorskip(
        "pypdfium2", reason="neither pdftoppm (poppler-utils) nor pypdfium2 is installed"
    )
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
