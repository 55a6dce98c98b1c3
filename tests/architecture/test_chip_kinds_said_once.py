"""A new kind of chips on the reports (`ChipKind`) is said in service/terms/events.py, its words and its
total in `CHIP_KINDS_SAID`, and named by its action's spec in service/table/actions/ (docs/architecture.md,
"A chip operation"): no other module names a kind, so a new one touches no report."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.architecture.source import PACKAGE, ROOT, SOURCE_TREES, nodes, plant

pytestmark = SOURCE_TREES

SAID_IN = ("service/terms/events.py", "service/table/actions/")


def kinds_named(root: Path) -> dict[str, int]:
    """Each module that names a member (`ChipKind.REBUY`), with how many times, outside `SAID_IN`."""
    found: dict[str, int] = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        name = path.relative_to(root / PACKAGE).as_posix()
        if name.startswith(SAID_IN):
            continue
        count = sum(_names_a_kind(node) for node in nodes(path))
        if count:
            found[name] = count
    return found


def _names_a_kind(node: ast.AST) -> bool:
    """`ChipKind.REBUY`: a member named, an attribute of the bare name (the only node whose source
    is `ChipKind`; spelling every attribute's value back with `ast.unparse` was most of the check)."""
    return type(node) is ast.Attribute and type(node.value) is ast.Name and node.value.id == "ChipKind"


def test_no_module_but_the_kinds_own_names_a_chip_kind() -> None:
    assert kinds_named(ROOT) == {}, "read the kind's `said` (its words, total, seat) instead"


def test_a_planted_kind_is_found_outside_the_service_only(tmp_path: Path) -> None:
    planted = {
        "reports/shift.py": "x = [ChipKind.REBUY, ChipKind.CASH_OUT, kind.said.total]\n",
        "service/table/actions/chips.py": "spec = ChipKind.REBUY\n",
        "service/terms/events.py": "said = {ChipKind.REBUY: 1}\n",
    }
    plant(tmp_path, planted)
    assert kinds_named(tmp_path) == {"reports/shift.py": 2}
