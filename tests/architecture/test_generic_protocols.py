"""The generic protocols name no concept of one game (issue 37, point 1): what every game gives a
layer (`TableGame`, `LiveHand`, `DeskGame`, `EntryForm`, `TurnEntry`, `ReportGame` …) and the
snapshot every table fills are members a third game implements without learning another game's
words. The ones left are listed in known.py, and the list only shrinks."""

from __future__ import annotations

from pathlib import Path

from tests.architecture.known import GAME_NAMED_MEMBERS
from tests.architecture.source import ROOT, SOURCE_TREES, game_named_members, plant

pytestmark = SOURCE_TREES


def test_no_generic_protocol_member_is_named_after_a_game_but_the_known_ones() -> None:
    found = game_named_members(ROOT)
    assert not found - GAME_NAMED_MEMBERS, (
        f"named after one game (say it in the game's part): {found - GAME_NAMED_MEMBERS}"
    )
    assert not GAME_NAMED_MEMBERS - found, f"gone: take them out of known.py: {GAME_NAMED_MEMBERS - found}"


def test_a_planted_member_named_after_a_game_is_found(tmp_path: Path) -> None:
    planted = {
        "desk/games/base.py": (
            "class TurnEntry(Protocol):\n"
            "    def confirm(self) -> None: ...\n"
            "    def surrender(self) -> None: ...\n"  # found: a Chinese surrender
            "class EntryForm(NamedTuple):\n"
            "    hint: str\n"
            "    showdown: bool = False\n"  # found: a Chinese showdown
            "def fantasyland_words() -> str: ...\n"  # found: OFC's Fantasyland
            "def entry_words() -> str: ...\n"
        )
    }
    assert game_named_members(plant(tmp_path, planted)) == {
        "desk/games/base.py: TurnEntry.surrender",
        "desk/games/base.py: EntryForm.showdown",
        "desk/games/base.py: fantasyland_words",
    }
