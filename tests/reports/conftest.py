"""Hand-made session records, so the renderers are tested apart from storage."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ofc_desk.reports.games.ofc import OfcSeat, OfcSummary
from ofc_desk.reports.loader import load_session_record
from ofc_desk.reports.record import (
    Adjustment,
    AdjustmentKind,
    ChipKind,
    ChipTransaction,
    HandRecord,
    MatchupRecord,
    PlayerSummary,
    RowRecord,
    RuleSetting,
    SeatResult,
    SessionRecord,
    TransferRecord,
)
from ofc_desk.reports.session_pdf import write_session_report
from ofc_desk.reports.table_close_pdf import write_table_close_report
from ofc_desk.service.table.commands import (
    CloseSession,
    CorrectChips,
    Rebuy,
    Settle,
    StartHand,
    Undo,
    VoidHand,
)
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.service.terms.setup import PairUnit
from tests.helpers.migrated_files import MigratedTemplate, migrated_files, migrated_template  # noqa: F401 (fixtures)
from tests.helpers.pdf_text import page_texts
from tests.helpers.report_sessions import (
    SUPERVISOR,
    SUPERVISOR_PIN,
    example_script,
    new_database,
    play_script,
)
from tests.helpers.shared_compilations import shared_dialect, sqlite_engines_share_compilations  # noqa: F401 (fixtures)

REPORTS_OUT = Path(__file__).resolve().parents[2] / "reports-out"


def _seat(name: str, rows: tuple[str, str, str], before: int, after: int, **extra: object) -> SeatResult:
    names = extra.pop("names", ("pair of queens", "ace-high flush", "sevens full of threes"))
    royalties = extra.pop("row_royalties", (7, 8, 6))
    assert isinstance(names, tuple) and isinstance(royalties, tuple)
    front, middle, back = (
        RowRecord(tuple(cards.split()), hand, royalty)
        for cards, hand, royalty in zip(rows, names, royalties, strict=True)
    )
    return SeatResult(
        name=name,
        front=front,
        middle=middle,
        back=back,
        row_points=sum(royalties),
        stack_before=before,
        stack_after=after,
        **extra,  # type: ignore[arg-type]  # the seat's other fields, each of its own type
    )


def make_record() -> SessionRecord:
    """Three players, two hands (one capped transfer, one Fantasyland), a void, a rebuy."""
    t0 = datetime(2026, 11, 21, 19, 0, tzinfo=UTC)
    hand1 = HandRecord(
        number=1,
        button="Cy",
        started_at=t0,
        seats=(
            _seat(
                "Ann",
                ("Qs Qd 2c", "Ah Kh 9h 4h 2h", "7s 7d 7c 3s 3d"),
                100,
                128,
                foul=False,
                points=12,
                part=OfcSeat(fantasyland_next=14),
            ),
            _seat(
                "Bob",
                ("2s 3d 4c", "5h 6h 7h 8c Tc", "Ks Kd 9c 9d 2d"),
                80,
                39,
                foul=True,
                points=-27,
                names=("six-high", "ten-high", "kings and nines"),
                row_royalties=(0, 0, 0),
            ),
            _seat(
                "Cy",
                ("Jh Jd 5c", "As Ac 6s 6c 8d", "Td Jc Qc Kc Ah"),
                20,
                33,
                foul=False,
                points=15,
                names=("pair of jacks", "aces and sixes", "ace-high straight"),
                row_royalties=(6, 0, 2),
            ),
        ),
        matchups=(MatchupRecord(("Ann", "Bob"), 27), MatchupRecord(("Ann", "Cy"), 1)),
        transfers=(
            TransferRecord("Bob", "Ann", 27, 27, ""),
            TransferRecord("Cy", "Ann", 1, 1, ""),
            TransferRecord("Bob", "Cy", 21, 14, "capped: Cy reached the win cap of 20"),
        ),
        stacks_after=(("Ann", 128), ("Bob", 39), ("Cy", 33)),
    )
    hand2 = HandRecord(
        number=2,
        button="Cy",
        started_at=t0.replace(minute=9),
        rake=3,
        jackpot_drop=1,
        seats=(
            _seat(
                "Ann",
                ("Ks Kd Kc", "9s 9d 9h 5c 5d", "As Ad Ac Ah 2c"),
                128,
                146,
                foul=False,
                points=22,
                part=OfcSeat(fantasyland_cards=14, fantasyland_next=14),
                rake=4,
                names=("three kings", "nines full of fives", "four aces"),
                row_royalties=(21, 12, 10),
            ),
            _seat(
                "Bob",
                ("2s 3d 4c", "5h 6h 7h 8c Tc", "Ks Kd 9c 9d 2d"),
                49,
                38,
                foul=False,
                points=-11,
                names=("six-high", "ten-high", "kings and nines"),
                row_royalties=(0, 0, 0),
            ),
            _seat(
                "Cy",
                ("Jh 4d 5c", "6s 6c 8d 8h 2h", "Td Jc Qc Kc 9h"),
                33,
                22,
                foul=False,
                points=-11,
                names=("jack-high", "eights and sixes", "king-high straight"),
                row_royalties=(0, 0, 2),
            ),
        ),
        transfers=(
            TransferRecord("Bob", "Ann", 11, 11, ""),
            TransferRecord("Cy", "Ann", 11, 11, ""),
        ),
        stacks_after=(("Ann", 146), ("Bob", 38), ("Cy", 22)),
    )
    hand3 = HandRecord(
        number=3,
        button="Ann",
        voided=True,
        started_at=t0.replace(minute=18),
        seats=(
            dataclasses.replace(
                hand2.seats[0], stack_before=146, stack_after=146, rake=0, part=OfcSeat(fantasyland_cards=14)
            ),
            dataclasses.replace(hand2.seats[1], stack_before=38, stack_after=44),
            dataclasses.replace(hand2.seats[2], stack_before=22, stack_after=16),
        ),
        transfers=(TransferRecord("Cy", "Bob", 6, 6, ""),),
        stacks_after=(("Ann", 146), ("Bob", 44), ("Cy", 16)),
    )
    return SessionRecord(
        room="Riverside Card Room",
        table="Table 7",
        session_id=42,
        started_at=t0,
        ended_at=t0.replace(hour=21, minute=30),
        dealers=("Dana Dealer",),
        supervisors=("Sam Floor",),
        preset_name="standard",
        variant="pineapple",
        unit=1,
        rules=(
            RuleSetting("Scoring", "1-6"),
            RuleSetting("Foul penalty", "6"),
            RuleSetting("Progressive Fantasyland", "yes"),
            RuleSetting("Back trips", "0"),
        ),
        pair_units=(PairUnit(("Ann", "Bob"), 5),),
        settlement_policy="win-cap",
        settle_from="left-of-dealer",
        opening_button="Cy",
        players=(
            PlayerSummary("Ann", {ChipKind.OPENING: 100}, 146, 3, 0, 64, OfcSummary(1)),
            PlayerSummary("Bob", {ChipKind.OPENING: 80, ChipKind.REBUY: 10}, 38, 3, 1, 0, OfcSummary(0)),
            PlayerSummary("Cy", {ChipKind.OPENING: 20}, 22, 3, 0, 10, OfcSummary(0)),
        ),
        hands=(hand1, hand2, hand3),
        chip_transactions=(
            ChipTransaction(1, t0, ChipKind.OPENING, "Ann", 100, 0, "Dana Dealer"),
            ChipTransaction(2, t0, ChipKind.OPENING, "Bob", 80, 0, "Dana Dealer"),
            ChipTransaction(3, t0, ChipKind.OPENING, "Cy", 20, 0, "Dana Dealer"),
            ChipTransaction(40, t0.replace(minute=8), ChipKind.REBUY, "Bob", 10, 1, "Dana Dealer"),
        ),
        adjustments=(
            Adjustment(
                55,
                t0.replace(minute=12),
                AdjustmentKind.UNDO,
                2,
                "Bob's 5h to middle taken back",
                "Dana Dealer",
                reentered="Bob: 5h back",
            ),
            Adjustment(
                90,
                t0.replace(minute=25),
                AdjustmentKind.VOID,
                3,
                "hand 3 voided: misdeal",
                "Dana Dealer",
                "Sam Floor",
                after_hand=3,
            ),
        ),
        final_hash="9f2c4e8a" * 8,
        event_count=120,
    )


@pytest.fixture
def sample_record() -> SessionRecord:
    return make_record()


def _page_texts_of(write: Callable[[SessionRecord, io.BytesIO], object]) -> tuple[str, ...]:
    buffer = io.BytesIO()
    write(make_record(), buffer)
    return tuple(page_texts(buffer.getvalue()))


@pytest.fixture(scope="session")
def sample_report_pages() -> tuple[str, ...]:
    """The sample record's session report, rendered once: the tests given it only read its pages."""
    return _page_texts_of(write_session_report)


@pytest.fixture(scope="session")
def sample_close_pages_uncounted() -> tuple[str, ...]:
    """The sample record's table-close report with no count entered, rendered once to be read."""
    return _page_texts_of(lambda record, out: write_table_close_report(record, out, None))


@pytest.fixture(scope="session")
def reports_out() -> Path:
    """A git-ignored folder for PDFs and PNGs people may want to look at after the tests."""
    REPORTS_OUT.mkdir(exist_ok=True)
    return REPORTS_OUT


@pytest.fixture(scope="session")
def example_db(tmp_path_factory: pytest.TempPathFactory, migrated_template: MigratedTemplate) -> str:  # noqa: F811
    """A database holding the twelve-hand example session; tests only read it. Played in a copy of
    the process's migrated file (`migrated_files` patches only each test's own opening)."""
    path = tmp_path_factory.mktemp("example") / "example.db"
    migrated_template.copy(path)
    url = f"sqlite:///{path}"
    database = new_database(url)
    play_script(database, example_script())
    database.dispose()
    return url


@pytest.fixture(scope="session")
def eventful_db(tmp_path_factory: pytest.TempPathFactory, migrated_template: MigratedTemplate) -> str:  # noqa: F811
    """Four example hands with an undo, a void, a chip correction and a close by the supervisor (in
    a copy of the process's migrated file, as `example_db`)."""
    path = tmp_path_factory.mktemp("eventful") / "eventful.db"
    migrated_template.copy(path)
    url = f"sqlite:///{path}"
    database = new_database(url)
    script = example_script()
    script["hands"] = script["hands"][:4]
    service = play_script(database, script)
    service.do(VoidHand(4, "misdeal: wrong deck", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    service.do(CorrectChips("Bob", -5, "chip fell on the floor", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    service.do(Rebuy("Cy", 40))
    service.do(StartHand())
    turn = service.snapshot().to_act
    assert turn is not None
    service.do(Place(turn.player, "2c 3c 4c 5c 6c", "back back back back back"))
    service.do(Undo())
    for action in example_script()["hands"][4]["actions"]:
        service.do(Place(action["player"], action["cards"], action["rows"]))
    service.do(Settle())
    service.do(CloseSession(supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    database.dispose()
    return url


@pytest.fixture(scope="session")
def example_record(example_db: str) -> SessionRecord:
    """The example session as the loader reads it, loaded once: the tests given it only read it."""
    return load_session_record(example_db)


@pytest.fixture(scope="session")
def eventful_record(eventful_db: str) -> SessionRecord:
    """The eventful session as the loader reads it, loaded once for the tests that only read it."""
    return load_session_record(eventful_db)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if REPORTS_OUT.is_dir() and any(REPORTS_OUT.glob("*.png")):
        terminalreporter.write_line(f"report PDFs and first-page PNGs: {REPORTS_OUT}")
