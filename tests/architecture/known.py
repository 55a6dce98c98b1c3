"""What the architecture checks find today, exactly: the ratchets of issue 27 (plan27 §3, S0.3).

Each check fails on an offender not listed here and on a listed one that is gone, so a list only
shrinks, and it shrinks in the commit that fixes what it lists. One line an offender, sorted by
path; each package of the refactor deletes only its own lines (P1 the service's circle, P2 the
game branches of core, service and cli, P3 and P4 the rest), and the last one leaves them empty.
"""

from __future__ import annotations

IMPORT_CIRCLES: frozenset[frozenset[str]] = frozenset()
"""Modules of `ofc_desk` that import each other, through any chain (`TYPE_CHECKING` and imports
inside functions included): test_import_circles.py. None now; a new one is broken where it is made."""

GAME_BRANCHES: dict[str, int] = {
    # The conditionals of each file outside the games' own packages that ask which game is played:
    # test_game_branches.py.
}

GENERIC_GAME_IMPORTS: frozenset[str] = frozenset()
"""Modules outside every game's package (and no registry of `source.REGISTRIES`) that import one
game's package, each with what it imports: test_game_imports.py. Issue 37 counted 19 (with
`cli.replay`, then in, and without the two `base` modules of the games' folders, which are generic);
the goal is none: a generic module asks a game's part through a registry."""

GAME_IMPORTS_OF_ANOTHER_GAME: frozenset[str] = frozenset()
"""A game's own modules that import another game's: test_game_imports.py. None now: a piece both
games share belongs in the core beside `rows` and `settlement` (as `settlement.ProposedSettlement`)."""

WIDE_GAME_BRANCHES: dict[str, int] = {}
"""The wider scan of issue 37 (test_game_branches.py): per file outside the games' packages, the
conditionals, boolean expressions and flags tested later that name a game or a word only one game
has (Fantasyland, a street, a royalty, the showdown, a special). None now (issue 37 counted 56
in 18 files): a new one is broken where it is made."""

UNNAMED_MODULES: frozenset[str] = frozenset()
"""Modules docs/architecture.md does not name in their layer's section (test_module_map.py): none
now; a new module is named there in the commit that adds it."""

GAME_NAMED_MEMBERS: frozenset[str] = frozenset()
"""Members of the generic protocols named after one game's concept (test_generic_protocols.py):
issue 37 point 1 wants none, and none is left: the street is OFC's table part (`OfcTableView`),
a row's worth its `points`; a new one is broken where it is made."""
