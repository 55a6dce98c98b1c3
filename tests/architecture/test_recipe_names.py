"""Every name docs/architecture.md gives in backticks is real (issue 37): a module, a file or
folder, a name the code defines, imports or says, a word it stores or reads, an option of a command.
A recipe ("Where a change goes") that names `_RULES_WORDS` where the code says `STORED_RULE_WORDS`
sends a newcomer nowhere, and so does the map above the recipes.

A dotted name is looked up where it points (`session_pdf._house` in a module `session_pdf`,
`Signer.DEALER` in the class `Signer`); in the recipes, a test function a step names is in a test
file that step names, and names given in parentheses right after a module are in it; every numbered
step names the test that holds it, or says it has none."""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from tests.architecture.source import PACKAGE, ROOT, SOURCE_TREES, nodes, walk

pytestmark = SOURCE_TREES

DOC = ROOT / "docs" / "architecture.md"
RECIPES = "## Where a change goes"
PART = r"(?:[A-Za-z_]|<\w+>)(?:\w|<\w+>)*"
CODE_NAME = re.compile(rf"{PART}(?:\.{PART})*(?:\(.*\))?")
"""A span that reads as code: a name, a dotted one (`core.presets.PresetReader`), a call of one
(`preset_names(game)`, whose arguments are not checked), or a pattern of names (`check_<kind>`)."""
PATH = re.compile(r"[\w.<>*{},/-]*/[\w.<>*{},/-]*")
"""A span that reads as a path: it has a slash (`core/<game>/`, `resources/presets/*.json`)."""
KEYWORD = re.compile(r"(\w+)=[\w.'\"]+")
"""A keyword argument as a call gives it (`supervised=True`): its name is checked."""
ANNOTATED = re.compile(r"(\w+): ([\w\[\], |]+)")
"""A field and its type (`request: NotRequired[int]`): every name in it is checked."""
JSON_KEY = re.compile(r'"(\w+)": .*')
"""A key of stored or input JSON (`"game": "<game>"`): a word the code reads."""
COMMAND = re.compile(r"(ofc-desk|python -m|grep) ?(.*)")
"""A command to run: `ofc-desk` (the program), `ofc-desk X` (X a subcommand), `python -m M …` (M a
module), `grep …`."""
OPTION = re.compile(r"--\w[\w-]*")
"""A command's option (`--resume`): a word the command line says."""
FILE_SUFFIXES = frozenset({"json", "md", "po", "toml"})
"""A dotted span ending so is a file's name (`standard.json`), found under the package, resources
or docs."""
FOLDERS = ("", f"{PACKAGE}/", "tests/", f"{PACKAGE}/**/")
"""Where a path in the recipes may start: the repository, the package (`service/events.py`), the
tests, or a folder the sentence names (`chinese/play` in `service/games/`)."""
NO_TEST = ("no test", "the every-game test")
"""What a step names instead of a test file: none holds it, or test_every_game_is_a_part.py (which
the recipes' opening names)."""


def recipes(text: str) -> str:
    start = text.index(RECIPES)
    end = text.find("\n## ", start + len(RECIPES))
    return text[start : end if end >= 0 else len(text)]


def _file_names(tree_nodes: list[ast.AST], classes: list[ast.ClassDef]) -> set[str]:
    """Every name a module (its tree's nodes, `nodes`) defines or says: functions, classes, assigned
    names and attributes, keyword arguments, the packages it imports (`PySide6`), and short string
    constants (stored words, script keys, options). Its classes go to `classes`, found on the same
    walk. A node's kind is told by its exact class (the parser makes no subclasses), the commonest
    kinds first: a chain of isinstance calls for every node was most of the index's time."""
    names: set[str] = set()
    for node in tree_nodes:
        if type(node) is ast.Name:
            names.add(node.id)
        elif type(node) is ast.Attribute:
            names.add(node.attr)
        elif type(node) is ast.Constant:
            if isinstance(node.value, str) and len(node.value) < 40:
                names.add(node.value)
        elif type(node) is ast.arg or type(node) is ast.keyword:
            if node.arg is not None:
                names.add(node.arg)
        elif type(node) is ast.FunctionDef or type(node) is ast.AsyncFunctionDef:
            names.add(node.name)
        elif type(node) is ast.ClassDef:
            names.add(node.name)
            classes.append(node)
        elif type(node) is ast.Import:
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif type(node) is ast.ImportFrom and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def _members(cls: ast.ClassDef) -> set[str]:
    """A class's own names: its methods, fields, members and the attributes its methods set."""
    members = set()
    for node in walk(cls):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node is not cls:
            members.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            members.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            members.add(node.attr)
    return members


@dataclass
class Index:
    """What the package and its tests define: every name (not this folder's tests, which spell
    wrong names on purpose), each file's names, and each class's members; and each file's module
    as `modules` matches it, spelled once, not at each name looked up."""

    root: Path
    names: set[str] = field(default_factory=set)
    files: dict[Path, set[str]] = field(default_factory=dict)
    classes: dict[str, set[str]] = field(default_factory=dict)
    spelled: list[tuple[Path, str, str | None]] = field(default_factory=list)

    @classmethod
    def of(cls, root: Path) -> Index:
        index = cls(root)
        for path in sorted([*(root / PACKAGE).rglob("*.py"), *(root / "tests").rglob("*.py")]):
            classes: list[ast.ClassDef] = []
            relative = path.relative_to(root)
            index.files[relative] = _file_names(nodes(path), classes) | set(relative.with_suffix("").parts)
            if "architecture" not in relative.parts:
                index.names |= index.files[relative]
            for node in classes:
                index.classes.setdefault(node.name, set()).update(_members(node))
            package = f"/{relative.parent.as_posix()}" if path.name == "__init__.py" else None
            index.spelled.append((relative, f"/{relative.with_suffix('').as_posix()}", package))
        return index

    def modules(self, parts: list[str]) -> list[Path]:
        """The files of a module named by its last dotted parts (`session_pdf`, `core.presets`)."""
        tail = f"/{'/'.join(parts)}"
        return [
            path
            for path, module, package in self.spelled
            if module.endswith(tail) or (package is not None and package.endswith(tail))
        ]

    def has(self, name: str) -> bool:
        """A name the code has; `<…>` in it stands for any part of one (`check_<kind>`)."""
        if "<" not in name:
            return name in self.names
        pattern = re.compile(re.sub(r"<\w+>", r"\\w+", name))
        return any(pattern.fullmatch(known) for known in self.names)

    def in_file(self, path: Path, rest: list[str]) -> bool:
        """`rest[0]` is said in the file, and a further part is a member of that class."""
        if rest[0] not in self.files[path]:
            return False
        return len(rest) == 1 or rest[1] in self.classes.get(rest[0], set())

    def dotted(self, parts: list[str]) -> bool:
        """A module (`core.deal_input`), a name in one (`requests.mark_applied`), a class's member
        (`Signer.DEALER`), or a name the code has, unqualified."""
        if len(parts) == 1:
            return self.has(parts[0])
        for cut in range(len(parts), 0, -1):
            for path in self.modules(parts[:cut]):
                if cut == len(parts) or self.in_file(path, parts[cut:]):
                    return True
        return parts[1] in self.classes.get(parts[0], set())


def _globs(span: str) -> list[str]:
    """The span as glob patterns: `<game>` any name, `{ru,vi}` each of its choices."""
    pattern = re.sub(r"<[^>]*>", "*", span)
    choices = re.search(r"\{([^}]*)\}", pattern)
    if choices is None:
        return [pattern]
    return [
        pattern[: choices.start()] + choice + pattern[choices.end() :] for choice in choices[1].split(",")
    ]


def _found(root: Path, glob: str) -> bool:
    return any(any(root.glob(f"{folder}{glob}".rstrip("/"))) for folder in FOLDERS)


def path_exists(index: Index, span: str) -> bool:
    """A file or folder, a module without its `.py` (`reports/rules_words`), or a name in one
    (`desk/action_parts.FloorAsk`: said in that module)."""
    root = index.root
    globs = _globs(span)
    if all(_found(root, glob) for glob in globs) or all(_found(root, f"{glob}.py") for glob in globs):
        return True
    module, dot, name = span.rpartition(".")
    if not dot or "/" not in module:
        return False
    files = [path for glob in _globs(module) for f in FOLDERS for path in root.glob(f"{f}{glob}.py")]
    return any(name in index.files.get(path.relative_to(root), set()) for path in files)


def _file(root: Path, name: str) -> bool:
    return any(any((root / folder).rglob(name)) for folder in (PACKAGE, "resources", "docs"))


def resolves(index: Index, span: str) -> bool:
    """The span names something there is (module, file, name, member, command, stored word)."""
    if PATH.fullmatch(span):
        return path_exists(index, span)
    if CODE_NAME.fullmatch(span):
        dotted = span.split("(", 1)[0]
        if dotted.rpartition(".")[2] in FILE_SUFFIXES:
            return _file(index.root, dotted)
        return index.dotted(dotted.split("."))
    if match := KEYWORD.fullmatch(span):
        return index.has(match[1])
    if ANNOTATED.fullmatch(span):
        return all(index.has(name) or hasattr(builtins, name) for name in re.findall(r"\w+", span))
    if match := JSON_KEY.fullmatch(span):
        return index.has(match[1])
    if OPTION.fullmatch(span):
        return index.has(span)
    if match := COMMAND.fullmatch(span):
        tool, words = match[1], match[2].split()
        if tool == "ofc-desk":
            return not words or index.has(words[0])
        if tool == "python -m":
            return bool(words) and bool(index.modules(words[0].split(".")))
        return True
    return False


@cache
def index_of(root: Path) -> Index:
    """Read once per tree: the checks below read the same one."""
    return Index.of(root)


def unresolved(root: Path, doc: str) -> list[str]:
    """The backticked spans of the whole file that name nothing there is."""
    index = index_of(root)
    spans = sorted(set(re.findall(r"`([^`\n]+)`", doc)))
    return [span for span in spans if not resolves(index, span)]


def blocks(section: str) -> Iterator[tuple[bool, str]]:
    """The recipes' paragraphs and numbered steps (a step's lines after its first are indented),
    each with whether it is a step."""
    lines: list[str] = []
    step = False
    for line in [*section.splitlines(), ""]:
        starts_step = re.match(r"\d+\. ", line) is not None
        if lines and (starts_step or not line.strip() or (step and not line.startswith(" "))):
            yield step, " ".join(text.strip() for text in lines)
            lines = []
        if line.strip():
            step = starts_step if not lines else step
            lines.append(line)


def misplaced_tests(root: Path, doc: str) -> list[str]:
    """Test names a block gives that are not in the test files it names: a `test_…` function."""
    index = index_of(root)
    wrong = []
    for _step, text in blocks(recipes(doc)):
        files = [Path(path) for path in re.findall(r"tests/[\w/]+\.py", text)]
        for name in re.findall(r"`(test_\w+)`", text):
            if not any(name in index.files.get(path, set()) for path in files):
                wrong.append(name)
    return sorted(set(wrong))


NAMED_WITH_FILE = re.compile(r"`?((?:tests/)?[\w/]+\.py)`? \(([^()]*)\)")
"""A module and, in the parentheses right after it, names it holds: `reports/shift.py` (`TableShift`,
`SUMMED`), tests/service/test_machine.py (`PAYLOAD_TYPES`)."""


def misplaced_names(root: Path, doc: str) -> list[str]:
    """Names given in the parentheses right after a module that the module does not say."""
    index = index_of(root)
    wrong = []
    for _step, text in blocks(recipes(doc)):
        for span, inside in NAMED_WITH_FILE.findall(text):
            paths = [path for f in FOLDERS for path in root.glob(f"{f}{span}")]
            said = set().union(*(index.files.get(path.relative_to(root), set()) for path in paths))
            for name in re.findall(rf"`({PART})[.(`]", inside):
                if not (said and _matches(name, said)):
                    wrong.append(f"{span}: {name}")
    return sorted(set(wrong))


def _matches(name: str, names: set[str]) -> bool:
    """`name` is one of `names`; `<…>` in it stands for any part of one (`check_<kind>`)."""
    pattern = re.compile(re.sub(r"<\w+>", r"\\w+", name))
    return any(pattern.fullmatch(known) for known in names)


def steps_without_a_test(doc: str) -> list[str]:
    """Numbered steps that name no test file and do not say they have none."""
    return [
        text[:60]
        for step, text in blocks(recipes(doc))
        if step and "tests/" not in text and not any(words in text for words in NO_TEST)
    ]


def test_every_name_in_the_file_is_real() -> None:
    missing = unresolved(ROOT, DOC.read_text(encoding="utf-8"))
    assert not missing, f"docs/architecture.md names what the code does not have: {missing}"


def test_every_test_the_file_names_is_there() -> None:
    """The tests the map and the checklists' steps name, backticked or not (tests/service/test_machine.py)."""
    doc = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"tests/[\w/]+\.py", doc))
    missing = sorted(path for path in named if not (ROOT / path).is_file())
    assert re.search(r"tests/[\w/]+\.py", recipes(doc)), "docs/architecture.md's recipes name no test"
    assert not missing, f"docs/architecture.md names tests that are not there: {missing}"


def test_a_test_function_is_named_with_its_file() -> None:
    wrong = misplaced_tests(ROOT, DOC.read_text(encoding="utf-8"))
    assert not wrong, f"docs/architecture.md's recipes name tests their step's test files lack: {wrong}"


def test_a_name_given_after_its_module_is_in_it() -> None:
    wrong = misplaced_names(ROOT, DOC.read_text(encoding="utf-8"))
    assert not wrong, f"docs/architecture.md's recipes name, after a module, what it does not say: {wrong}"


def test_every_step_names_the_test_that_holds_it() -> None:
    doc = DOC.read_text(encoding="utf-8")
    assert "tests/architecture/test_every_game_is_a_part.py" in recipes(doc)
    bare = steps_without_a_test(doc)
    assert not bare, f"docs/architecture.md's recipe steps name no test (say 'no test' if none): {bare}"


PLANTED = {
    f"{PACKAGE}/service/actions/words.py": (
        "STORED_RULE_WORDS = {'chinese': 1, 'game': 2}\ndef rules_words(rules): ...\n"
    ),
    f"{PACKAGE}/service/actions/spec.py": "class Signer:\n    DEALER = 1\n",
    f"{PACKAGE}/service/table_service.py": (
        "from PySide6.QtCore import Qt\nclass TableService:\n    def act_supervised(self, supervised): ...\n"
    ),
    f"{PACKAGE}/cli/replay.py": "ARGUMENT = '--resume'\n",
    "resources/presets/standard.json": "{}",
    "tests/test_words.py": "def test_words(): ...\n",
}


def _planted(root: Path) -> Path:
    for name, text in PLANTED.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_planted_recipe_name_is_checked(tmp_path: Path) -> None:
    doc = (
        "## Layers\n\n`_CHECKED_HERE_TOO`, `PySide6`, `PySide7`, `--resume`, `--restart`, `ofc-desk`\n\n"
        "## Where a change goes\n\n"
        "- `service/actions/words.py` (`STORED_RULE_WORDS`, `_RULES_WORDS`, `rules_words(r)`,\n"
        '  `actions.words.rules_words`, `"game": "chinese"`, `chinese`), `reports/<x>.py`,\n'
        "  `desk/actions.py`, `words.missing`, `actions/words`, `service/actions/words.rules_words`,\n"
        "  `actions/words.RULES`, `words.Signer`, `Signer.DEALER`, `Signer.PLAYER`, `check_<kind>`,\n"
        "  `rules_<x>`, `TableService.act_supervised`, `service.act_supervised`, `supervised=True`,\n"
        "  `standard.json`, `classic.json`, `ofc-desk rules`, `python -m actions.spec`, `grep -rn`,\n"
        "  `python -m words.nothing`, `rules: Signer[int]`, `make words`\n"
    )
    assert unresolved(_planted(tmp_path), doc) == [
        "--restart", "PySide7", "Signer.PLAYER", "_CHECKED_HERE_TOO", "_RULES_WORDS",
        "actions/words.RULES", "check_<kind>", "classic.json",
        "desk/actions.py", "make words", "python -m words.nothing", "reports/<x>.py",
        "service.act_supervised", "words.Signer", "words.missing",
    ]  # fmt: skip


def test_a_planted_step_without_its_test_is_found(tmp_path: Path) -> None:
    doc = (
        "## Where a change goes\n\n### A thing\n\n"
        "1. `service/actions/spec.py` (`Signer`, `Missing`) — tests/test_words.py (`test_words`).\n"
        "2. `spec.py`, held by\n   nothing.\n"
        "3. `spec.py` — no test.\n\n"
        "A paragraph naming `test_words` with no file, and tests/test_words.py (`test_other`).\n"
    )
    assert steps_without_a_test(doc) == ["2. `spec.py`, held by nothing."]
    assert misplaced_tests(_planted(tmp_path), doc) == ["test_other"]
    assert misplaced_names(tmp_path, doc) == [
        "service/actions/spec.py: Missing",
        "tests/test_words.py: test_other",
    ]
