"""No new place outside a game's own package asks which game is played (issue 27): a game is a part,
not a branch. The conditionals there are today are counted per file in known.py, and the counts
only go down. The wider scan of issue 37 counts the boolean expressions and flags tested later too,
and the words only one game has (Fantasyland, a street, a royalty, the showdown, a special): a
ceiling per file, in known.py too."""

from __future__ import annotations

from pathlib import Path

from tests.architecture.known import GAME_BRANCHES, WIDE_GAME_BRANCHES
from tests.architecture.source import PACKAGE, ROOT, SOURCE_TREES, game_branches, plant, wide_game_branches

pytestmark = SOURCE_TREES


def found_branches(root: Path) -> dict[str, int]:
    return {path.removeprefix(f"{PACKAGE}/"): count for path, count in game_branches(root).items()}


def found_wide(root: Path) -> dict[str, int]:
    return {path.removeprefix(f"{PACKAGE}/"): count for path, count in wide_game_branches(root).items()}


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
        "service/table/games/chinese.py": "def h(rules):\n    return 1 if rules.chinese else 2\n",
    }
    plant(tmp_path, planted)
    assert found_branches(tmp_path) == {"service/table.py": 7}


def test_the_wider_scan_finds_no_more_than_known() -> None:
    found = found_wide(ROOT)
    more = {path: count for path, count in found.items() if count > WIDE_GAME_BRANCHES.get(path, 0)}
    fewer = {path: count for path, count in WIDE_GAME_BRANCHES.items() if found.get(path, 0) < count}
    assert not more, f"new places outside the games' packages that ask after one game: {more}"
    assert not fewer, f"fewer than known.py's WIDE_GAME_BRANCHES: write the new counts there: {fewer}"


def test_the_wider_scan_counts_expressions_flags_and_one_games_words(tmp_path: Path) -> None:
    planted = {
        "service/table.py": (
            "def f(seat, snapshot, rules):\n"
            "    shown = seat.surrendered or seat.declared\n"  # 1: a boolean expression, once
            "    owed = seat.fantasyland_next\n"
            "    if owed:\n"  # 2: a flag tested later
            "        pass\n"
            "    if snapshot.street > 1 and rules.unit:\n"  # 3: a street, once for the whole test
            "        pass\n"
            "    return not is_showdown(snapshot)\n"  # 4: the showdown
            "def g(total, special):\n"
            "    if total > 0:\n"  # not a game's word
            "        pass\n"
            "    ok = special is None\n"  # 5: a special (and `ok` a flag, but tested nowhere)
            "    print('ofc-desk')\n"
            "    return 'ofc-desk' if total else ''\n"  # the program's name asks nothing
        ),
        "core/ofc/hand.py": "def h(seat):\n    return seat.fantasyland and seat.royalty\n",
    }
    plant(tmp_path, planted)
    assert found_wide(tmp_path) == {"service/table.py": 5}
