"""No new place outside a game's own package asks which game is played (issue 27): a game is a part,
not a branch. The conditionals there are today are counted per file in known.py, and the counts
only go down."""

from __future__ import annotations

from pathlib import Path

from tests.architecture.known import GAME_BRANCHES
from tests.architecture.source import PACKAGE, ROOT, game_branches, plant


def found_branches(root: Path) -> dict[str, int]:
    return {path.removeprefix(f"{PACKAGE}/"): count for path, count in game_branches(root).items()}


def test_no_game_branch_but_the_known_ones() -> None:
    found = found_branches(ROOT)
    more = {path: count for path, count in found.items() if count > GAME_BRANCHES.get(path, 0)}
    fewer = {path: count for path, count in GAME_BRANCHES.items() if found.get(path, 0) < count}
    assert not more, f"new branches on the game outside its package (ask the game instead): {more}"
    assert not fewer, f"fewer branches than known.py lists: write the new counts there: {fewer}"
    assert found == GAME_BRANCHES


def test_planted_branches_are_counted_and_the_games_own_are_not(tmp_path: Path) -> None:
    planted = {
        "service/table.py": (
            "def f(rules, seats, result):\n"
            "    if rules.variant == 'chinese':\n"  # 1: a short word compared
            "        pass\n"
            "    names = [s for s in seats if not s.surrendered]\n"  # 2: a comprehension's condition
            "    x = 1 if is_chinese(rules) else 2\n"  # 3: a conditional expression
            "    assert result.misset is False\n"  # 4: an assert
            "    match rules.game:\n"
            "        case Game.CHINESE:\n"  # 5: a match case
            "            pass\n"
            "    if rules.unit > 1:\n"  # not the game
            "        raise ValueError('a Chinese poker table takes no scoring system here')\n"
            "    if game is Game.OFC:\n"  # 6: the other game's member
            "        pass\n"
            "    if isinstance(result, DealResult):\n"  # 7: a game's result type
            "        pass\n"
            "    if len(seats) > 13:\n"
            "        raise ValueError('chinese')\n"  # a word in a raise, not in a condition
        ),
        "core/chinese/deal.py": "def g(entry):\n    if entry.surrender:\n        pass\n",
        "service/games/chinese.py": "def h(rules):\n    return 1 if rules.chinese else 2\n",
    }
    plant(tmp_path, planted)
    assert found_branches(tmp_path) == {"service/table.py": 7}
