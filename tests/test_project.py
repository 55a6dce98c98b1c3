"""The promises the README makes about setting up, kept honest."""

import ast
import re
import subprocess
import sys
from pathlib import Path

from tests.architecture.source import SOURCE_TREES, imports

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.+?)\n```", readme)


def test_readme_has_exactly_two_setup_commands() -> None:
    commands = readme_commands()
    assert len(commands) == 2
    assert "ofc-desk" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci_script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert readme_commands()[1] in ci_script.splitlines()


def layer_table() -> list[tuple[str, set[str]]]:
    """docs/architecture.md's table of layers: (package folder, what it may import) in order."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| \d+[a-z]?\. [^|]+\| `ofc_desk\.(\w+)` \|([^|]+)\|$", text, re.MULTILINE)
    return [(package, set(re.findall(r"`([\w.]+)`", allowed))) for package, allowed in rows]


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function: `ofc_desk.X` by its layer,
    anything else by its top-level name. Its import statements as the architecture checks found
    them, once a process (`source.imports`), not from a walk of its tree of its own."""
    found: set[str] = set()
    for node, _ in imports(path):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            assert node.level == 0, f"{path}: a relative import hides which layer it reaches"
            names = [str(node.module)]
        for name in names:
            parts = name.split(".")
            found.add(".".join(parts[:2]) if parts[0] == "ofc_desk" else parts[0])
    return found


def test_the_layer_table_names_every_package_folder_in_order() -> None:
    table = layer_table()
    packages = [package for package, _ in table]
    assert packages[:4] == ["i18n", "core", "storage", "service"]
    folders = {path.parent.name for path in (ROOT / "ofc_desk").glob("*/__init__.py")}
    assert set(packages) == folders, "docs/architecture.md and the ofc_desk folders disagree"
    for position, (package, allowed) in enumerate(table):
        assert (ROOT / "ofc_desk" / package / "__init__.py").is_file(), f"layer folder {package} is missing"
        layers_named = allowed & set(packages)
        assert layers_named <= set(packages[:position]), f"{package} may import only layers before it"


@SOURCE_TREES
def test_every_module_imports_only_what_its_layer_may() -> None:
    table = layer_table()
    packages = {package for package, _ in table}
    standard = set(sys.stdlib_module_names) | {"__future__"}
    for package, allowed in table:
        may_import = standard | {"ofc_desk", f"ofc_desk.{package}"}
        may_import |= {f"ofc_desk.{name}" if name in packages else name for name in allowed}
        for path in (ROOT / "ofc_desk" / package).rglob("*.py"):
            stray = imported_modules(path) - may_import
            assert not stray, f"{path.relative_to(ROOT)} imports {sorted(stray)} (docs/architecture.md)"


def test_the_layer_check_catches_a_stray_import(tmp_path: Path) -> None:
    module = tmp_path / "stray.py"
    module.write_text("def f():\n    from ofc_desk.desk.app import run_desk\n    import sqlalchemy.orm\n")
    assert imported_modules(module) == {"ofc_desk.desk", "sqlalchemy"}


# Built in pieces so that this file, which names them, does not cite them itself.
OUTSIDE_CITATIONS = ("RULES" + ".md", ".." + "/shared")
RULES_CITATION = re.compile(r"docs/rules\.md (§\d+(?:\.\d+)?(?:\s*[–-]\s*§?\d+(?:\.\d+)?)?)")


def tracked_text_files() -> dict[str, str]:
    """Every file git tracks in the tree that reads as text, by its path in the repository."""
    listing = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True
    ).stdout.decode("utf-8")
    texts = {}
    for name in filter(None, listing.split("\0")):
        path = ROOT / name
        if not path.is_file():
            continue  # deleted in the work tree but not yet from the index
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            texts[name] = data.decode("utf-8")
        except UnicodeDecodeError:
            continue  # images and other binary files
    return texts


def outside_citations(text: str) -> list[str]:
    return [pattern for pattern in OUTSIDE_CITATIONS if pattern in text]


def cited_sections(text: str) -> set[str]:
    """The sections of docs/rules.md a text cites: `§8` gives 8, `§4–§7` gives 4 to 7, `§10.4` 10.4."""
    sections: set[str] = set()
    for citation in RULES_CITATION.findall(text):
        numbers = re.findall(r"\d+(?:\.\d+)?", citation)
        if len(numbers) == 2 and "." not in "".join(numbers):
            sections.update(str(number) for number in range(int(numbers[0]), int(numbers[1]) + 1))
        else:
            sections.update(numbers)
    return sections


def rules_sections() -> set[str]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r"^##+ (\d+(?:\.\d+)?)\.? ", text, re.MULTILINE))


def test_no_tracked_file_cites_a_file_outside_the_repository() -> None:
    files = tracked_text_files()
    assert "docs/rules.md" in files
    offenders = {name: found for name, text in files.items() if (found := outside_citations(text))}
    assert not offenders, f"cite docs/rules.md §N instead: {offenders}"


def test_every_cited_rules_section_exists() -> None:
    sections = rules_sections()
    assert {str(number) for number in range(1, 11)} <= sections
    missing = {
        name: sorted(cited - sections)
        for name, text in tracked_text_files().items()
        if (cited := cited_sections(text)) - sections
    }
    assert not missing, f"docs/rules.md has no such section: {missing}"


def test_the_citation_checks_catch_what_they_forbid() -> None:
    assert outside_citations("see ../" + "shared/" + "RULES" + ".md §8") == list(OUTSIDE_CITATIONS)
    assert outside_citations("see docs/rules.md §8") == []
    cite = "docs/rules" + ".md"  # in pieces: this file must not cite a section that does not exist
    cited = cited_sections(f"{cite} §4–§7, {cite} §10.4 and {cite} §99")
    assert cited == {"4", "5", "6", "7", "10.4", "99"}
    assert "99" not in rules_sections()
