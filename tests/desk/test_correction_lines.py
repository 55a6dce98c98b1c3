"""A settled hand's entries as the lines a supervisor edits (docs/rules.md §12): every stored entry
of either game reads back as itself; a line that cannot be read names itself. Qt-free."""

from __future__ import annotations

import pytest

from ofc_desk.desk.entry.correction_lines import entry_line, read_entry_lines
from tests.helpers.chinese_hands import ROWS, SEED_B

SEATS = {1: "Ann", 2: "Bob", 4: "Cy"}
WORDS = {"f": "front", "m": "middle", "b": "back"}


@pytest.mark.parametrize(
    "entry",
    [
        {"player": "Ann", "cards": ["Ah", None, "Td"], "rows": ["back", "discard", "front"]},
        {"player": "Bob", "cards": SEED_B.split(), "rows": [WORDS[r] for r in ROWS.split()]},
        {"player": "Cy", "surrender": True},
        {"player": "Bob", "cards": SEED_B.split(), "declare": "six-pairs"},
    ],
)
def test_every_entry_reads_back_as_itself(entry: dict[str, object]) -> None:
    assert read_entry_lines(entry_line(entry), SEATS) == [entry]


def test_a_stored_showdown_says_only_what_it_holds() -> None:
    stored: dict[str, object] = {
        "player": "Cy",
        "cards": [],
        "rows": None,
        "surrender": True,
        "declare": None,
    }
    assert entry_line(stored) == "Cy: surrender=true"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Ann: Ah b\nqh f", "line 2: name the player first"),
        ("\nAnn: Ah b\n4: qh f zz", "line 3: 'zz' is not a card"),
        ("Ann: Ah b\nZed: qh f", "line 2: no player's name starts with 'Zed'"),
        ("3: qh f", "line 1: there is no seat 3"),
    ],
)
def test_a_line_that_cannot_be_read_names_itself(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        read_entry_lines(text, SEATS)
