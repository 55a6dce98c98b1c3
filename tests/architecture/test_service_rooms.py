"""The session service is in rooms (issue 37): docs/architecture.md's table of the service's rooms
lists them in order, each with its purpose; every module of `ofc_desk/service` sits in one of them,
each room's `__init__` says what it is in the words of the table's purpose, and a module imports
only its own room and the rooms listed before it (the package's `__init__`, what the faces import,
may import any room)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.architecture.source import ROOT, SOURCE_TREES, import_graph, modules, parsed, plant

pytestmark = SOURCE_TREES

DOC = ROOT / "docs" / "architecture.md"
ROW = re.compile(r"^\| `(\w+)/` \| ([^|]+) \|.*$", re.MULTILINE)
"""A room's row: the room, its purpose, and whatever cells follow (its modules, its tests)."""


def room_purposes(doc: str) -> dict[str, str]:
    """The service's rooms in the doc's order, each with its purpose."""
    section = doc.split("## The session service", 1)[1].split("\n## ", 1)[0]
    return {room: purpose.strip() for room, purpose in ROW.findall(section)}


def room_table(doc: str) -> list[str]:
    """The service's rooms in the doc's order."""
    return list(room_purposes(doc))


def said_alike(docstring: str) -> str:
    return " ".join(docstring.split())


def room_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["ofc_desk", "service"] else None


def wrong_imports(root: Path, rooms: list[str]) -> list[str]:
    """Every import of a later room, or of a room the table does not list, as "module -> module"."""
    order = {room: position for position, room in enumerate(rooms)}
    found = []
    for module, imported in import_graph(root).items():
        room = room_of(module)
        if room is None:
            continue
        for other in imported:
            other_room = room_of(other)
            if other_room is None or other == "ofc_desk.service":
                continue
            if room not in order or other_room not in order or order[other_room] > order[room]:
                found.append(f"{module} -> {other}")
    return sorted(found)


def test_every_service_module_sits_in_a_listed_room() -> None:
    rooms = room_table(DOC.read_text(encoding="utf-8"))
    assert rooms, "docs/architecture.md has no table of the service's rooms"
    loose = [
        name
        for name in modules(ROOT)
        if name.count(".") == 2 and room_of(name) not in rooms and name.startswith("ofc_desk.service.")
    ]
    assert not loose, f"service modules outside the rooms the doc lists: {loose}"
    for room in rooms:
        init = ROOT / "ofc_desk" / "service" / room / "__init__.py"
        assert init.is_file() and init.read_text(encoding="utf-8").startswith('"""'), (
            f"the room {room} says what it is in its __init__"
        )


def test_each_rooms_purpose_is_its_init_docstring() -> None:
    purposes = room_purposes(DOC.read_text(encoding="utf-8"))
    for room, purpose in purposes.items():
        init = ROOT / "ofc_desk" / "service" / room / "__init__.py"
        docstring = ast.get_docstring(parsed(init)) or ""
        assert said_alike(docstring) == purpose, f"the room {room}: its __init__ and the doc's table disagree"


def test_a_room_imports_only_itself_and_the_rooms_before_it() -> None:
    rooms = room_table(DOC.read_text(encoding="utf-8"))
    assert wrong_imports(ROOT, rooms) == []


def test_a_planted_import_of_a_later_room_is_found(tmp_path: Path) -> None:
    plant(tmp_path, {
        "service/__init__.py": "from ofc_desk.service.front import api\n",
        "service/terms/__init__.py": '"""Words."""\n',
        "service/terms/words.py": "from ofc_desk.service.front import api\n",
        "service/front/__init__.py": '"""Faces."""\n',
        "service/front/api.py": "from ofc_desk.service.terms import words\n",
    })  # fmt: skip
    doc = (
        "## The session service\n\n| room | what | modules |\n|---|---|---|\n| `terms/` | words | `words` |\n"
        "| `front/` | faces |\n| `front/api/` | not a room |\n"
    )
    assert room_purposes(doc) == {"terms": "words", "front": "faces"}
    found = wrong_imports(tmp_path, room_table(doc))
    assert found == ["ofc_desk.service.terms.words -> ofc_desk.service.front.api"]
