"""Every name docs/architecture.md's recipes ("Where a change goes") give in backticks is real
(issue 37): a module, a file or folder, a name the code defines, or a word it stores or reads. A
recipe that names `_RULES_WORDS` where the code says `STORED_RULE_WORDS` sends a newcomer nowhere."""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

from tests.architecture.source import PACKAGE, ROOT

DOC = ROOT / "docs" / "architecture.md"
RECIPES = "## Where a change goes"
CODE_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?:\(.*\))?")
"""A span that reads as code: a name, a dotted one (`core.presets.PresetReader`), or a call of one
(`preset_names(game)`, whose arguments are not checked)."""
PATH = re.compile(r"[\w.<>*{},/-]*/[\w.<>*{},/-]*")
"""A span that reads as a path: it has a slash (`core/<game>/`, `resources/presets/*.json`)."""
FOLDERS = ("", f"{PACKAGE}/", "tests/", f"{PACKAGE}/**/")
"""Where a path in the recipes may start: the repository, the package (`service/events.py`), the
tests, or a folder the sentence names (`chinese/play` in `service/games/`)."""


def recipes(text: str) -> str:
    start = text.index(RECIPES)
    end = text.find("\n## ", start + len(RECIPES))
    return text[start : end if end >= 0 else len(text)]


def known_names(root: Path) -> set[str]:
    """Every name the package and its tests define or say: modules and folders, functions, classes,
    assigned names and attributes, keyword arguments, and short string constants (stored words,
    script keys). Not this folder's tests, which spell wrong names on purpose."""
    names: set[str] = set()
    tests = (path for path in (root / "tests").rglob("*.py") if "architecture" not in path.parts)
    for path in itertools.chain((root / PACKAGE).rglob("*.py"), tests):
        names.update(path.relative_to(root).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.arg | ast.keyword) and node.arg is not None:
                names.add(node.arg)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 40:
                names.add(node.value)
    return names


def _globs(span: str) -> list[str]:
    """The span as glob patterns: `<game>` any name, `{ru,vi}` each of its choices."""
    pattern = re.sub(r"<[^>]*>", "*", span)
    choices = re.search(r"\{([^}]*)\}", pattern)
    if choices is None:
        return [pattern]
    return [
        pattern[: choices.start()] + choice + pattern[choices.end() :] for choice in choices[1].split(",")
    ]


def path_exists(root: Path, span: str, names: set[str]) -> bool:
    """A file or folder, a module without its `.py` (`reports/rules_words`), or a name in one
    (`desk/action_parts.FloorAsk`)."""
    globs = [pattern for glob in _globs(span) for pattern in (glob, f"{glob}.py")]
    if all(any(any(root.glob(f"{folder}{glob}".rstrip("/"))) for folder in FOLDERS) for glob in globs[::2]):
        return True
    if any(any(root.glob(f"{folder}{glob}")) for folder in FOLDERS for glob in globs[1::2]):
        return True
    module, dot, name = span.rpartition(".")
    return bool(dot) and name in names and "/" in module and path_exists(root, module, names)


def unresolved(root: Path, doc: str) -> list[str]:
    """The backticked spans of the recipes that name nothing there is."""
    names = known_names(root)
    missing = []
    for span in sorted(set(re.findall(r"`([^`\n]+)`", recipes(doc)))):
        if PATH.fullmatch(span):
            if not path_exists(root, span, names):
                missing.append(span)
        elif CODE_NAME.fullmatch(span):
            dotted = span.split("(", 1)[0]
            if not all(part in names for part in dotted.split(".")):
                missing.append(span)
    return missing


def test_every_name_in_the_recipes_is_real() -> None:
    missing = unresolved(ROOT, DOC.read_text(encoding="utf-8"))
    assert not missing, f"docs/architecture.md's recipes name what the code does not have: {missing}"


def test_every_test_the_recipes_name_is_there() -> None:
    """The tests a checklist's steps name, backticked or not (tests/service/test_machine.py)."""
    named = set(re.findall(r"tests/[\w/]+\.py", recipes(DOC.read_text(encoding="utf-8"))))
    missing = sorted(path for path in named if not (ROOT / path).is_file())
    assert named and not missing, f"docs/architecture.md's recipes name tests that are not there: {missing}"


def test_a_planted_recipe_name_is_checked(tmp_path: Path) -> None:
    (tmp_path / PACKAGE / "service" / "actions").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    (tmp_path / PACKAGE / "service" / "actions" / "words.py").write_text(
        "STORED_RULE_WORDS = {'chinese': 1}\ndef rules_words(rules): ...\n", encoding="utf-8"
    )
    doc = (
        "## Layers\n\n`_NOT_CHECKED_HERE`\n\n## Where a change goes\n\n"
        "- `service/actions/words.py` (`STORED_RULE_WORDS`, `_RULES_WORDS`, `rules_words(r)`,\n"
        '  `actions.words.rules_words`, `"game": "chinese"`, `chinese`), `service/<x>.py`,\n'
        "  `desk/actions.py`, `words.missing`, `actions/words`, `service/actions/words.rules_words`,\n"
        "  `actions/words.RULES`\n"
    )
    assert unresolved(tmp_path, doc) == [
        "_RULES_WORDS", "actions/words.RULES", "desk/actions.py", "service/<x>.py", "words.missing"
    ]  # fmt: skip
