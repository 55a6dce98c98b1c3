"""A closed Chinese poker session on paper (docs/rules.md §10): surrenders, declared specials and
misset hands are labelled rather than left as empty rows, each payment says its pass and what it is
for, the rules page prints the Chinese preset's numbers, and the JSON export replays to the same
results."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from ofc_desk.core.chinese.presets import load_chinese_preset
from ofc_desk.i18n import Language, in_language
from ofc_desk.reports.exports import hand_rows, transaction_rows, write_replay_json
from ofc_desk.reports.games.chinese import (
    ChinesePayment,
    ChineseSeat,
    ChineseSummary,
    chinese_preset_lines,
)
from ofc_desk.reports.loader import load_session_record
from ofc_desk.reports.record import SessionRecord
from ofc_desk.reports.session_pdf import write_session_report
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.storage.database import Database
from tests.core.test_bonus_paid import ANN as BONUS_ROWS_LOSING
from tests.core.test_bonus_paid import BOB as BONUS_ROWS_WINNING
from tests.helpers.chinese_hands import ROWS, SEED_A
from tests.helpers.pdf_text import squeezed_text

SIX_PAIRS = "2c 2d 3c 3d 7c 7s Tc Td Qc Qd Ac As 9c"
# Front trips over a middle of two pair: misset (§3 read for §10).
MISSET = ("6s 6h 6d 4s 4c 4d 9s 9h Kh Kd 8s 8h 2c", "f f f b b b m m m m b b m")
BOB_SET = "2h 3h 5h As Ks Qs 4h 7d 7c 8c 9c Tc Jc"
SCRIPT: dict[str, Any] = {
    "table": "Jade 1",
    "variant": "chinese",
    "rules": "chinese-typical",
    "seats": [{"name": "Ann", "buy_in": 50}, {"name": "Bob", "buy_in": 50}, {"name": "Cy", "buy_in": 50}],
    "button": "Cy",
    "hands": [
        {
            "actions": [
                {"player": "Cy", "declare": "six-pairs", "cards": SIX_PAIRS},
                {"player": "Ann", "cards": SEED_A, "rows": ROWS},
                {"player": "Bob", "surrender": True},
            ]
        },
        {
            "actions": [
                {"player": "Bob", "cards": BOB_SET, "rows": ROWS},
                {"player": "Cy", "cards": MISSET[0], "rows": MISSET[1]},
                {"player": "Ann", "surrender": True},
            ]
        },
    ],
}


def _played(path: Path, script: dict[str, Any]) -> SessionRecord:
    """Into a new, empty database: replay makes its accounts only there."""
    url = f"sqlite:///{path}"
    database = Database(url)
    run_replay(database, script, resume=False)
    database.dispose()
    return load_session_record(url)


def test_surrenders_specials_and_missets_are_labelled_on_the_record_and_the_page(tmp_path: Path) -> None:
    record = _played(tmp_path / "chinese.db", SCRIPT)
    first, second = record.hands
    by_name = {seat.name: seat.part for seat in first.seats}
    assert by_name == {
        "Ann": ChineseSeat(),
        "Bob": ChineseSeat(surrendered=True),
        "Cy": ChineseSeat(declared="six-pairs"),
    }
    cy = next(seat for seat in second.seats if seat.name == "Cy")
    assert cy.foul and cy.part == ChineseSeat(misset_reason="the middle is weaker than the front")
    assert [t.part for t in first.transfers] == [
        ChinesePayment("Cy's six pairs (3 units)", "special"),
        ChinesePayment("Bob surrendered", "rest"),
        ChinesePayment("Bob surrendered", "rest"),
    ]
    out = io.BytesIO()
    write_session_report(record, out)
    page = squeezed_text(out.getvalue())
    assert "surrendered: no hand shown" in page
    assert "declared six pairs: paid as a special" in page
    assert "MISSET" in page and "FOUL" not in page
    assert "special pass: Cy's six pairs (3 units)" in page
    assert "rest pass: Bob surrendered" in page  # hand 1 settled in both passes
    assert "Points by pair: Ann v Bob +1 · Ann v Cy -3 special · Bob v Cy -1" in page
    assert "Ann surrendered" in page and "rest pass: Ann surrendered" not in page  # hand 2 in one
    # The players' table counts the game's own events, never Fantasyland or royalties.
    assert "Missets Surrenders Specials" in page and "FL hands" not in page
    assert [(p.fouls, p.part) for p in record.players] == [
        (0, ChineseSummary(surrenders=1)),
        (0, ChineseSummary(surrenders=1)),
        (1, ChineseSummary(specials=1)),
    ]


def test_the_csv_exports_say_each_showdown_and_what_each_payment_is_for(tmp_path: Path) -> None:
    record = _played(tmp_path / "csv.db", SCRIPT)
    showdowns = [(row["hand"], row["player"], row["showdown"]) for row in hand_rows(record)]
    assert showdowns == [
        (1, "Ann", "set"),
        (1, "Bob", "surrendered"),
        (1, "Cy", "declared six-pairs"),
        (2, "Bob", "set"),
        (2, "Cy", "misset: the middle is weaker than the front"),
        (2, "Ann", "surrendered"),
    ]
    notes = [row["note"] for row in transaction_rows(record) if row["kind"] == "transfer"]
    assert notes[:2] == ["special pass: Cy's six pairs (3 units)", "rest pass: Bob surrendered"]


def test_the_rules_page_prints_the_chinese_presets_numbers(tmp_path: Path) -> None:
    script = {**SCRIPT, "house_options": {"aces": True}}
    settings = {s.label: s.value for s in _played(tmp_path / "rules.db", script).rules}
    assert settings["Scoring scheme"] == "rows"
    assert settings["Bonus mode"] == "instead"
    assert settings["Row bonuses paid"].startswith("only a row won")  # why a lost bonus row counts 0
    assert settings["Row bonuses (units)"].startswith("front: trips 3; middle: full house 2")
    assert settings["Specials (units)"] == "six-pairs 3, three-straights 3, three-flushes 3, dragon 13"
    assert settings["Special against special"] == "higher"
    assert (settings["Surrender (units)"], settings["Bank"], settings["Aces"]) == ("1", "no", "yes")
    assert (settings["Scoop multiplier"], settings["Scoop-all multiplier"]) == ("1", "1")
    assert "Progressive Fantasyland" not in settings and "Preset data" not in settings


def test_the_json_export_of_a_chinese_session_replays_to_the_same_results(tmp_path: Path) -> None:
    first = _played(tmp_path / "first.db", SCRIPT)
    out = io.StringIO()
    write_replay_json(first, out)
    exported = json.loads(out.getvalue())
    assert exported["hands"][0]["actions"][2] == {"player": "Bob", "surrender": True}
    second = _played(tmp_path / "second.db", exported)
    assert [(h.seats, h.transfers, h.stacks_after) for h in second.hands] == [
        (h.seats, h.transfers, h.stacks_after) for h in first.hands
    ]


def test_the_rules_page_prints_the_house_variants_in_words(tmp_path: Path) -> None:
    """§13: each option the preset sets, in words; the two multipliers it replaces left out."""
    settings = {
        s.label: s.value for s in _played(tmp_path / "variants.db", {**SCRIPT, "rules": "taiwanese"}).rules
    }
    assert settings["Wheel (A-2-3-4-5)"] == (
        "A-2-3-4-5 ranks second, below the ace-high straight (and the royal flush)"
    )
    assert settings["Row bonuses by rank (units)"] == (
        "front trips 3: 6 · middle quads 4: 16 · back quads 4: 8 · middle straight flush A: 14, 5: 12 · "
        "back straight flush A: 7, 5: 6"
    )
    assert settings["Scoop multipliers by scoop count"] == "1 scoop ×2 · 2 scoops ×3 · 3 scoops or more ×4"
    assert settings["Specials declared only in their exact form"] == (
        "six pairs, five pairs and trips, four trips, three flushes"
    )
    assert "Scoop multiplier" not in settings and "Scoop-all multiplier" not in settings


@pytest.mark.parametrize(
    ("language", "multipliers", "strict"),
    [
        (Language.RU, "1 скуп ×2 · 2 скупа ×3 · 3 скупа и больше ×4", "шесть пар, пять пар и тройка"),
        (Language.VI, "1 lần sập hầm ×2 · 2 lần sập hầm ×3 · 3 lần sập hầm trở lên ×4", "lục phé bôn"),
        (Language.ZH_CN, "打枪 1 家 ×2 · 打枪 2 家 ×3 · 打枪 3 家及以上 ×4", "六对半, 五对三条"),
    ],
)
def test_the_house_variants_are_said_in_each_language(
    language: Language, multipliers: str, strict: str
) -> None:
    with in_language(language):
        lines = dict(chinese_preset_lines(load_chinese_preset("taiwanese").to_dict()))
    assert lines["Scoop multipliers by scoop count"] == multipliers
    assert lines["Specials declared only in their exact form"].startswith(strict)
    assert "A-2-3-4-5" in lines["Wheel (A-2-3-4-5)"] and lines["Wheel (A-2-3-4-5)"] != (
        "A-2-3-4-5 ranks second, below the ace-high straight (and the royal flush)"
    )


def test_a_row_bonus_not_paid_is_no_bonus_on_the_record(tmp_path: Path) -> None:
    """Issue 36, point 5: under Hawaiian Gardens' `extra`, Ann's bonus rows lose every row to Bob's,
    so her Bonus is 0 and her rows show none; Bob's rows won are counted (2 + 5)."""
    hands = {"Ann": " ".join(BONUS_ROWS_LOSING), "Bob": " ".join(BONUS_ROWS_WINNING)}
    script = {
        **SCRIPT,
        "rules": "hawaiian-gardens-jackpot",
        "seats": [{"name": "Ann", "buy_in": 100}, {"name": "Bob", "buy_in": 100}],
        "button": "Bob",
        "hands": [
            {"actions": [{"player": name, "cards": cards, "rows": ROWS} for name, cards in hands.items()]}
        ],
    }
    record = _played(tmp_path / "bonus.db", script)
    (hand,) = record.hands
    by_name = {seat.name: seat for seat in hand.seats}
    assert by_name["Ann"].row_points == 0 and [
        row.points for row in (by_name["Ann"].front, by_name["Ann"].middle, by_name["Ann"].back)
    ] == [0, 0, 0]
    assert by_name["Bob"].row_points == 7
    out = io.BytesIO()
    write_session_report(record, out)
    page = squeezed_text(out.getvalue())  # the award's rule row by row, then its shares by rank
    assert "front pair · middle trips · back straight flush · loser 50 % · winner 25 % · table 25 %" in page
