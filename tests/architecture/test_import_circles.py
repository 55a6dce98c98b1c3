"""No new import circle in `ofc_desk` (issue 27): modules that import each other through any chain,
at the top, under `TYPE_CHECKING` or inside a function. The circles there are today are listed in
known.py, and the list only shrinks."""

from __future__ import annotations

from pathlib import Path

from tests.architecture.known import IMPORT_CIRCLES
from tests.architecture.source import PACKAGE, ROOT, SOURCE_TREES, circles, import_graph, plant

pytestmark = SOURCE_TREES


def found_circles(root: Path) -> set[frozenset[str]]:
    prefix = f"{PACKAGE}."
    return {frozenset(name.removeprefix(prefix) for name in circle) for circle in circles(import_graph(root))}


def said(circle: frozenset[str]) -> str:
    return " ↔ ".join(sorted(circle))


def test_no_import_circle_but_the_known_ones() -> None:
    found = found_circles(ROOT)
    new = [said(circle) for circle in found - IMPORT_CIRCLES]
    gone = [said(circle) for circle in IMPORT_CIRCLES - found]
    assert not new, f"new import circles (a module takes what it needs instead of importing back): {new}"
    assert not gone, f"circles no longer there: delete them from tests/architecture/known.py: {gone}"


def test_a_planted_circle_is_found_however_it_imports(tmp_path: Path) -> None:
    root = plant(
        tmp_path,
        {
            "service/__init__.py": "",
            "service/machine.py": "from ofc_desk.service import view\n",
            "service/view.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from ofc_desk.service.machine import M\n"
            ),
            "desk/__init__.py": "",
            "desk/window.py": "def build():\n    from ofc_desk.desk import panel\n",
            "desk/panel.py": "from ofc_desk.desk.window import build\n",
            "core/__init__.py": "",
            "core/cards.py": "import ofc_desk.core.rows\n",
            "core/rows.py": "from ofc_desk.core import __name__ as core\n",
        },
    )
    assert found_circles(root) == {
        frozenset({"service.machine", "service.view"}),
        frozenset({"desk.window", "desk.panel"}),
    }


def test_a_relative_import_is_read_as_the_module_it_names(tmp_path: Path) -> None:
    root = plant(tmp_path, {"a.py": "from . import b\n", "b.py": "from .a import x\n"})
    assert found_circles(root) == {frozenset({"a", "b"})}
