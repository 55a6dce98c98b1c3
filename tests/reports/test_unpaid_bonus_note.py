"""A hand's note on the row bonuses it held that paid nothing (issue 36): the session report names
each one under the hand and says why (a bonus is paid on a row won; a pool table pays on the whole
deal), in every language; a hand whose bonuses were all paid has no note."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ofc_desk.i18n import Language, in_language
from ofc_desk.reports.games.chinese import unpaid_bonus_note
from ofc_desk.reports.loader import load_session_record
from ofc_desk.reports.record import SessionRecord
from ofc_desk.reports.session_pdf import write_session_report
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.storage.database import Database
from tests.core.test_bonus_paid import ANN, BOB
from tests.helpers.chinese_hands import ROWS
from tests.helpers.migrated_files import MigratedTemplate
from tests.helpers.pdf_text import squeezed_text

HOUSE_BONUSES = {
    "bonuses": {
        "front": {"trips": 3},
        "middle": {"full_house": 2, "quads": 8, "straight_flush": 10},
        "back": {"quads": 4, "straight_flush": 5},
    }
}
"""Hawaiian Gardens' row bonuses, laid by a house on a pool table (which pays none of them)."""

# Its two rooms are played once a worker (module scope): one worker runs them all.
pytestmark = pytest.mark.xdist_group("unpaid bonus rooms")


def _played(
    template: MigratedTemplate, path: Path, preset: str, house: dict[str, Any] | None = None
) -> SessionRecord:
    """Ann's bonus rows (a middle full house, back quads) lose every row to Bob's (a bigger full
    house, a straight flush), under `preset`; in a copy of the process's migrated file (the
    migrations are not what is checked here)."""
    hands = {"Ann": " ".join(ANN), "Bob": " ".join(BOB)}
    script: dict[str, Any] = {
        "table": "Jade 1",
        "variant": "chinese",
        "rules": preset,
        **({"house_options": house} if house else {}),
        "seats": [{"name": "Ann", "buy_in": 100}, {"name": "Bob", "buy_in": 100}],
        "button": "Bob",
        "hands": [
            {"actions": [{"player": name, "cards": cards, "rows": ROWS} for name, cards in hands.items()]}
        ],
    }
    template.copy(path)
    url = f"sqlite:///{path}"
    database = Database(url)
    run_replay(database, script, resume=False)
    database.dispose()
    return load_session_record(url)


@pytest.fixture(scope="module")
def won_only(tmp_path_factory: pytest.TempPathFactory, migrated_template: MigratedTemplate) -> SessionRecord:
    return _played(migrated_template, tmp_path_factory.mktemp("won") / "bonus.db", "hawaiian-gardens")


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory, migrated_template: MigratedTemplate) -> SessionRecord:
    return _played(migrated_template, tmp_path_factory.mktemp("pool") / "bonus.db", "pool", HOUSE_BONUSES)


def _page(record: SessionRecord, language: Language) -> str:
    out = io.BytesIO()
    write_session_report(record, out, language=language)
    return squeezed_text(out.getvalue())


def test_a_bonus_row_lost_is_named_with_why(won_only: SessionRecord) -> None:
    (hand,) = won_only.hands
    said = "Row bonuses are paid on rows won; not paid here: Ann's middle +2, Ann's back +4"
    assert unpaid_bonus_note(hand) == said
    assert said in _page(won_only, Language.EN)


def test_a_pool_table_names_every_bonus_held(pool: SessionRecord) -> None:
    (hand,) = pool.hands
    note = unpaid_bonus_note(hand)
    assert note.startswith("Row bonuses are not paid where the payment is decided by the whole deal")
    assert all(row in note for row in ("Ann's middle +2", "Ann's back +4", "Bob's back +"))


@pytest.mark.parametrize("language", [Language.RU, Language.VI, Language.ZH_CN], ids=lambda lang: lang.value)
def test_the_note_is_in_the_reports_language(
    won_only: SessionRecord, pool: SessionRecord, language: Language
) -> None:
    for record in (won_only, pool):
        (hand,) = record.hands
        with in_language(language):
            note = unpaid_bonus_note(hand)
        assert "Ann" in note and "+4" in note
        assert not ENGLISH.search(note), note
        assert note.replace(" ", "") in _page(record, language).replace(" ", "")


def test_a_hand_whose_bonuses_were_paid_has_no_note(won_only: SessionRecord) -> None:
    (hand,) = won_only.hands
    paid = replace(hand, seats=tuple(seat for seat in hand.seats if seat.name == "Bob"))
    assert unpaid_bonus_note(paid) == ""


ENGLISH = re.compile(r"bonus|paid|front|middle|back|won|deal", re.IGNORECASE)
