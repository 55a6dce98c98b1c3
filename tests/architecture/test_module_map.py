"""docs/architecture.md names every module (issue 27): in its layer's section, by its path inside the
layer in backticks (`rule_pins`, `table/controller`, `actions.base`, or one of its names:
`outcome.Outcome`), or in a list item or table row that begins with its folder (`table/`). The
modules it leaves out today are listed in known.py, and the list only shrinks."""

from __future__ import annotations

from pathlib import Path

from tests.architecture.known import UNNAMED_MODULES
from tests.architecture.source import ROOT, plant, unnamed_modules

DOC = ROOT / "docs" / "architecture.md"


def test_every_module_but_the_known_ones_is_named() -> None:
    found = unnamed_modules(ROOT, DOC.read_text(encoding="utf-8"))
    new = sorted(found - UNNAMED_MODULES)
    gone = sorted(UNNAMED_MODULES - found)
    assert not new, f"modules docs/architecture.md does not name in their layer's section: {new}"
    assert not gone, f"named now: delete them from tests/architecture/known.py: {gone}"


def test_a_planted_module_is_named_only_where_its_layer_is(tmp_path: Path) -> None:
    names = (
        "service/__init__.py", "service/machine.py", "service/rule_pins.py", "service/outcome.py",
        "desk/__init__.py", "desk/table/__init__.py", "desk/table/controller.py", "desk/table/felt.py",
        "desk/refusals.py", "storage/migrations/versions/0001_initial.py",
    )  # fmt: skip
    plant(tmp_path, dict.fromkeys(names, ""))
    doc = (
        "# Architecture\n\n`ofc_desk.desk` and `rule_pins` named before any layer's section.\n\n"
        "## The session service (`ofc_desk.service`)\n\n- `machine`: the machine; see `outcome.Outcome`.\n"
        "- `refusals`: named in the wrong layer.\n\n"
        "## The desk (`ofc_desk.desk`)\n\n| room | what |\n|---|---|\n| `table/` | `controller` (keys in) |\n"
        "- `entry/`: `felt`, in another folder's item.\n"
    )
    assert unnamed_modules(tmp_path, doc) == {"service/rule_pins", "desk/refusals", "desk/table/felt"}
