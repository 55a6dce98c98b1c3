"""Reading the source tree for the architecture checks: every module of a package, every import
between them (at the top, under `TYPE_CHECKING` and inside functions), the import circles, the
conditionals that ask which game is played, and the modules docs/architecture.md leaves unnamed.

Each function takes the folder that holds the package, so a test can plant a file in a copy.
"""

from __future__ import annotations

import ast
import functools
import gc
import re
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "ofc_desk"

SOURCE_TREES = pytest.mark.xdist_group("source trees")
"""The mark of every test that reads the whole package's (or the tests') syntax trees: they run on
one worker, which parses each file once for all of them (`parsed`)."""

ImportKind = str
"""How a module imports another: "top", "tc" (under `if TYPE_CHECKING:`) or "lazy" (in a function)."""


def parsed(path: Path) -> ast.Module:
    """A file's syntax tree, parsed once a test process while the file stays as it was (its size
    and modification time): the checks read the same few hundred files, and parsing them was most
    of their time. A tree handed out is shared, so no check may change it.

    The trees kept (the package's and the tests', some 850,000 objects the collector tracks) are
    made with the garbage collector paused and then left out of its passes (`gc.freeze`): they
    hold no cycle and live as long as the process, yet the collector walked them while they were
    made, at each full collection after and at the process's exit (about 3 s), more CPU than the
    parsing itself."""
    status = path.stat()
    return _parsed(path.resolve(), status.st_mtime_ns, status.st_size)


@functools.lru_cache(maxsize=2048)
def _parsed(path: Path, _mtime_ns: int, _size: int) -> ast.Module:
    text = path.read_text(encoding="utf-8")
    _collect_once()
    gc.disable()
    try:
        return ast.parse(text)
    finally:
        gc.freeze()
        gc.enable()


@functools.cache
def _collect_once() -> None:
    """A collection before the process's first freeze, so that no garbage of the tests before is
    frozen with the trees (a freeze keeps whatever the collector tracks at that moment)."""
    gc.collect()


def children(node: ast.AST) -> list[ast.AST]:
    """`ast.iter_child_nodes(node)` as a list, in its order, without a generator's step per child."""
    found: list[ast.AST] = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            found.append(value)
        elif isinstance(value, list):
            found.extend(item for item in value if isinstance(item, ast.AST))
    return found


def walk(node: ast.AST) -> list[ast.AST]:
    """`ast.walk(node)` as a list, in its order (breadth first, each node's children in order)."""
    found = [node]
    for current in found:  # the list grows as it is read: each node's children join the end
        found.extend(children(current))
    return found


def nodes(path: Path) -> list[ast.AST]:
    """Every node of a file's syntax tree in `ast.walk`'s order, listed once a test process as the
    tree is parsed once (`parsed`): several checks walk every file of the package. Shared too."""
    status = path.stat()
    return _nodes(path.resolve(), status.st_mtime_ns, status.st_size)


@functools.lru_cache(maxsize=2048)
def _nodes(path: Path, mtime_ns: int, size: int) -> list[ast.AST]:
    return walk(_parsed(path, mtime_ns, size))


def modules(root: Path, package: str = PACKAGE) -> dict[str, Path]:
    """Every module of `package` under `root` by its dotted name (a package by its folder's)."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        found[".".join(parts[:-1] if path.name == "__init__.py" else parts)] = path
    return found


def _imported_names(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:  # relative: from the module's own package upwards
        anchor = module.split(".") if is_package else module.split(".")[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    return [f"{base}.{alias.name}" for alias in node.names]


def _inner_kind(node: ast.AST, kind: ImportKind) -> ImportKind:
    """How an import inside `node` is made, when `node` is inside `kind`: the outermost
    `if TYPE_CHECKING:` or function around an import decides."""
    if kind != "top":
        return kind
    if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
        return "tc"
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return "lazy"
    return "top"


def imports(path: Path) -> list[tuple[ast.Import | ast.ImportFrom, ImportKind]]:
    """A file's import statements with how each is made, in the order `import_graph` meets them,
    found once a test process like its tree (`parsed`): four checks read the import graph."""
    status = path.stat()
    return _imports(path.resolve(), status.st_mtime_ns, status.st_size)


@functools.lru_cache(maxsize=2048)
def _imports(path: Path, mtime_ns: int, size: int) -> list[tuple[ast.Import | ast.ImportFrom, ImportKind]]:
    found: list[tuple[ast.Import | ast.ImportFrom, ImportKind]] = []
    stack: list[tuple[ast.AST, ImportKind]] = [(_parsed(path, mtime_ns, size), "top")]
    while stack:
        node, kind = stack.pop()
        inner = _inner_kind(node, kind)
        stack.extend((child, inner) for child in children(node))
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append((node, kind))
    return found


def import_graph(root: Path, package: str = PACKAGE) -> dict[str, dict[str, ImportKind]]:
    """Each module's imports of the package's other modules, with how it imports each (the first
    way found when it imports one twice: "top" before the others)."""
    mods = modules(root, package)

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, dict[str, ImportKind]] = {module: {} for module in mods}
    for module, path in mods.items():
        for node, kind in imports(path):
            for name in _imported_names(node, module, path.name == "__init__.py"):
                target = resolve(name)
                if target is None or target in (module, package) or edges[module].get(target) == "top":
                    continue
                edges[module][target] = kind
    return edges


def circles(graph: Mapping[str, Mapping[str, ImportKind]]) -> set[frozenset[str]]:
    """The import circles: every strongly connected set of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def visit(start: str) -> None:
        work: list[tuple[str, Iterator[str]]] = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph[target])))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.add(frozenset(component))

    for module in graph:
        if module not in index:
            visit(module)
    return found


GAME_WORDS = re.compile(r"chinese|surrender|declare|misset|bonus|\bofc\b|DealResult", re.IGNORECASE)
"""Words that tell the games apart: the games' names (`Game.OFC`, `Game.CHINESE`, "chinese"), their
result types (`DealResult`, `ChineseDealResult`) and what only the closed game has. What a seat or
hand may hold in one game only (a Fantasyland count, a royalty, a street) is read where it is
shown, as data another game leaves empty; asking which game is played is not."""
SHORT_TEXT = 40
"""A string constant this long or shorter is a word a condition compares with ("chinese"); a longer
one is a sentence (a refusal's), which names the game without asking which is played."""
GAME_PACKAGES = (
    "ofc_desk/core/ofc/",
    "ofc_desk/core/chinese/",
    "ofc_desk/service/table/games/",
    "ofc_desk/desk/games/",
    "ofc_desk/reports/games/",
    "ofc_desk/storage/migrations/",
)
"""Where asking which game is played belongs: inside a game's own package (migrations are frozen)."""


def _names_a_game(test: ast.AST | None) -> bool:
    if test is None:
        return False
    for node in walk(test):
        if isinstance(node, ast.Name) and GAME_WORDS.search(node.id):
            return True
        if isinstance(node, ast.Attribute) and GAME_WORDS.search(node.attr):
            return True
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and len(node.value) <= SHORT_TEXT
            and GAME_WORDS.search(node.value)
        ):
            return True
        if isinstance(node, ast.MatchValue | ast.MatchClass | ast.MatchAs) and GAME_WORDS.search(
            ast.unparse(node)
        ):
            return True
    return False


def _conditions(node: ast.AST) -> list[ast.AST | None]:
    if isinstance(node, ast.If | ast.IfExp | ast.While | ast.Assert):
        return [node.test]
    if isinstance(node, ast.comprehension):
        return list(node.ifs)
    if isinstance(node, ast.match_case):
        return [node.pattern, node.guard]
    return []


def game_branches(root: Path, package: str = PACKAGE) -> dict[str, int]:
    """How many conditionals in each file outside the games' packages ask which game is played:
    `if`, conditional expressions, `while`, `assert`, comprehension conditions and `match` cases
    whose test names a game word."""
    counts: dict[str, int] = {}
    for path in sorted((root / package).rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if relative.startswith(GAME_PACKAGES):
            continue
        found = sum(1 for node in nodes(path) for test in _conditions(node) if _names_a_game(test))
        if found:
            counts[relative] = found
    return counts


MIGRATION_REVISIONS = "storage/migrations/versions/"


def documented_modules(root: Path, package: str = PACKAGE) -> list[tuple[str, str]]:
    """The modules docs/architecture.md should name: (layer, path inside the layer without .py),
    every one but the packages' `__init__` files and the migration revisions."""
    found = []
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root / package).with_suffix("").parts
        inside = "/".join(parts)
        if path.name == "__init__.py" or len(parts) < 2 or f"{inside}/".startswith(MIGRATION_REVISIONS):
            continue
        found.append((parts[0], "/".join(parts[1:])))
    return found


def layer_sections(text: str, layers: set[str], package: str = PACKAGE) -> dict[str, str]:
    """Each layer's part of docs/architecture.md: the `## ` section whose heading names the layer
    (`ofc_desk.core`), or else the first one whose text does (the faces share one section)."""
    sections = [part for part in re.split(r"^(?=## )", text, flags=re.MULTILINE) if part.startswith("## ")]
    found = {}
    for layer in layers:
        named = f"`{package}.{layer}`"
        by_heading = [section for section in sections if named in section.split("\n", 1)[0]]
        by_text = [section for section in sections if named in section]
        chosen = by_heading or by_text[:1]
        if chosen:
            found[layer] = chosen[0]
    return found


def _spans(text: str) -> set[str]:
    return set(re.findall(r"`([^`\n]+)`", text))


def _items(section: str) -> Iterator[str]:
    """A section's list items (with their continuation lines), table rows and other lines."""
    item: list[str] = []
    for line in section.splitlines():
        if item and line.startswith((" ", "\t")):
            item.append(line)
            continue
        if item:
            yield "\n".join(item)
        item = [line]
    if item:
        yield "\n".join(item)


def is_named(module: str, section: str) -> bool:
    """Whether a layer's section names a module by its path inside the layer in backticks
    (`rule_pins`, `table/controller`, `actions.base`) or with one of its names (`outcome.Outcome`),
    or in a list item or table row that begins with its folder (`table/` … `controller`)."""
    dotted = module.replace("/", ".")
    with_a_name = re.compile(rf"{re.escape(dotted)}\.\w+")
    if any(span in (module, dotted) or with_a_name.fullmatch(span) for span in _spans(section)):
        return True
    folder, _, name = module.rpartition("/")
    if not folder:
        return False
    for item in _items(section):
        first = re.search(r"`([^`\n]+)`", item)
        if first and first.group(1) == f"{folder}/" and name in _spans(item):
            return True
    return False


def unnamed_modules(root: Path, doc: str, package: str = PACKAGE) -> set[str]:
    """The modules of `package` (as `layer/path`) that their layer's section of `doc` does not name."""
    wanted = documented_modules(root, package)
    sections = layer_sections(doc, {layer for layer, _ in wanted}, package)
    return {f"{layer}/{module}" for layer, module in wanted if not is_named(module, sections.get(layer, ""))}


def plant(root: Path, files: Mapping[str, str], package: str = PACKAGE) -> Path:
    """A package of these files (paths inside it, with their text) under `root`, for a check's
    own test to read: what it must find, and what it must not."""
    for name, text in {"__init__.py": "", **files}.items():
        path = root / package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


GAME_FOLDERS = ("core", "service.table.games", "desk.games", "reports.games")
"""The folders that hold each game's own package (`core.ofc`, `service.table.games.chinese`) or module
(`desk.games.chinese_controls`, `reports.games.ofc`), named after a `Game` member's word."""
REGISTRIES = frozenset(
    {"core.games", "core.stored_results", "service.table.games.choose", "desk.games", "reports.games"}
)
"""The lookups from a game to its part, whose work is to import every game's part: its variant words
(`core.games`), its result's reader (`core.stored_results.READERS`), its table, desk and report parts."""


def game_of_module(module: str, games: Collection[str], package: str = PACKAGE) -> str | None:
    """The game whose own package or module `module` is in (its word), or None for a generic one."""
    inside = module.removeprefix(f"{package}.")
    for folder in GAME_FOLDERS:
        rest = inside.removeprefix(f"{folder}.")
        if rest == inside:
            continue
        for game in games:
            if re.fullmatch(rf"{game}(?:[._]\w*)*", rest):
                return game
    return None


def game_imports(root: Path, games: Collection[str], package: str = PACKAGE) -> dict[str, set[str]]:
    """Each module that imports a game's package while not in it (a generic module, or another
    game's), with the game modules it imports; the registries are left out."""
    found: dict[str, set[str]] = {}
    for module, targets in import_graph(root, package).items():
        own = game_of_module(module, games, package)
        if module.removeprefix(f"{package}.") in REGISTRIES:
            continue
        imported = {
            target.removeprefix(f"{package}.")
            for target in targets
            if game_of_module(target, games, package) not in (None, own)
        }
        if imported:
            found[module.removeprefix(f"{package}.")] = imported
    return found


WIDE_GAME_WORDS = re.compile(
    rf"{GAME_WORDS.pattern}|fantasyland|showdown|special|street|royalt", re.IGNORECASE
)
"""The narrow scan's words, and what one game alone has: Fantasyland, streets and royalties (OFC),
the showdown and its specials (closed Chinese poker)."""


PRODUCT = re.compile(r"ofc[-_ ]desk", re.IGNORECASE)
"""The program's own name ("ofc-desk", "OFC Desk"), which holds a game's word but asks nothing."""


def _names_a_word(node: ast.AST, words: re.Pattern[str], flags: Collection[str] = ()) -> bool:
    for part in walk(node):
        if isinstance(part, ast.Name) and (words.search(part.id) or part.id in flags):
            return True
        if isinstance(part, ast.Attribute) and words.search(part.attr):
            return True
        if (
            isinstance(part, ast.Constant)
            and isinstance(part.value, str)
            and len(part.value) <= SHORT_TEXT
            and words.search(PRODUCT.sub("", part.value))
        ):
            return True
        if isinstance(part, ast.MatchValue | ast.MatchClass | ast.MatchAs) and words.search(
            ast.unparse(part)
        ):
            return True
    return False


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """A function's nodes, without those of the functions and classes defined inside it."""
    stack = children(function)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            stack.extend(children(node))


def _flags(function: ast.AST) -> set[str]:
    """The local names a function sets from something that names a game's word: a flag tested
    later (`in_fantasyland = seat.fantasyland is not None` … `if in_fantasyland:`)."""
    found = set()
    for node in _own_nodes(function):
        if not isinstance(node, ast.Assign | ast.AnnAssign | ast.NamedExpr) or node.value is None:
            continue
        if _names_a_word(node.value, WIDE_GAME_WORDS):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found |= {target.id for target in targets if isinstance(target, ast.Name)}
    return found


_MAY_ASK = (
    ast.If, ast.IfExp, ast.While, ast.Assert, ast.comprehension, ast.match_case,  # `_conditions`
    ast.BoolOp, ast.Compare, ast.UnaryOp,  # `_is_boolean`
)  # fmt: skip
"""The nodes that have a test (`_conditions`) or may be one (`_is_boolean`); no other can count."""


def _is_boolean(node: ast.AST) -> bool:
    return isinstance(node, ast.BoolOp | ast.Compare) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    )


def _wide_count(tree_nodes: list[ast.AST]) -> int:
    """The conditionals and boolean expressions of a module (its tree's nodes, `nodes`) that name
    a game's word, or test a flag set from one; one inside a counted one counts with it."""
    counted: set[int] = set()
    count = 0
    functions = [node for node in tree_nodes if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]
    flagged = [(function, flags) for function in functions if (flags := _flags(function))]
    # A function that sets no flag is passed over: the module's pass has read each of its tests
    # without flags already, and read alike they count nothing more.
    scopes = [(tree_nodes, set[str]()), *((walk(function), flags) for function, flags in flagged)]
    for scope, flags in scopes:
        for node in scope:
            if not isinstance(node, _MAY_ASK):
                continue
            tests = [test for test in _conditions(node) if test is not None]
            for test in [*tests, node] if _is_boolean(node) else tests:
                if id(test) not in counted and _names_a_word(test, WIDE_GAME_WORDS, flags):
                    count += 1
                    counted |= {id(part) for part in walk(test)}
    return count


def wide_game_branches(root: Path, package: str = PACKAGE) -> dict[str, int]:
    """The wider scan, per file outside the games' packages: conditionals, boolean expressions
    (`return seat.surrendered or …`) and flags tested later that name a game, its name, its result
    or a word only one game has (Fantasyland, a street, a royalty, the showdown, a special)."""
    counts: dict[str, int] = {}
    for path in sorted((root / package).rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if relative.startswith(GAME_PACKAGES):
            continue
        found = _wide_count(nodes(path))
        if found:
            counts[relative] = found
    return counts


GENERIC_PROTOCOLS = (
    "service/table/games/base.py",
    "desk/games/base.py",
    "reports/games/base.py",
    "service/terms/snapshot.py",
)
"""The modules that say what every game gives each layer (and the snapshot every game's table
fills): a third game implements their members, so none is named after one game."""


def _member_names(tree: ast.Module) -> Iterator[str]:
    """Each class of a module with each member it declares (`Class.member`), and each function
    and constant of the module itself."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            yield node.name
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield f"{node.name}.{item.name}"
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    yield f"{node.name}.{item.target.id}"
                elif isinstance(item, ast.Assign):
                    yield from (f"{node.name}.{t.id}" for t in item.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.name
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            yield from (target.id for target in targets if isinstance(target, ast.Name))


def game_named_members(root: Path, package: str = PACKAGE) -> set[str]:
    """The members of the generic protocols (`GENERIC_PROTOCOLS`) named with a game's word or one
    only a game has (`WIDE_GAME_WORDS`: a surrender, a showdown, a street, a royalty …), each as
    "path: Class.member"."""
    found: set[str] = set()
    for relative in GENERIC_PROTOCOLS:
        path = root / package / relative
        if not path.exists():
            continue
        tree = parsed(path)
        found |= {f"{relative}: {name}" for name in _member_names(tree) if WIDE_GAME_WORDS.search(name)}
    return found
