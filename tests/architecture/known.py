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

UNNAMED_MODULES: frozenset[str] = frozenset()
"""Modules docs/architecture.md does not name in their layer's section (test_module_map.py): none
now; a new module is named there in the commit that adds it."""
