"""A string marked inside an f-string's braces (`f"{_('Shift report')} · …"`) is translated at run
time but never extracted on Python 3.11: Babel does not read into f-strings there, so the catalogs
and their completeness test never see it and it stays English. Found in the reports' footers and
`db status` while wrapping them (issue 29); the folders wrapped so far, the desk too, are held to it."""

from __future__ import annotations

import ast

from ofc_desk.i18n.maintain import KEYWORDS, PACKAGE
from tests.architecture.source import SOURCE_TREES, nodes, walk

CHECKED = ("core", "storage", "service", "cli", "reports", "i18n", "desk")


def marks_in_fstrings(source: str) -> list[int]:
    """The lines where a marking call sits inside an f-string."""
    return marks_in(walk(ast.parse(source)))


def marks_in(tree_nodes: list[ast.AST]) -> list[int]:
    """The lines where a marking call sits inside an f-string, among a module's nodes in
    `ast.walk`'s order (`source.nodes`: listed once a process for all the checks that read them)."""
    lines = []
    for node in tree_nodes:
        if not isinstance(node, ast.JoinedStr):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id in KEYWORDS:
                lines.append(inner.lineno)
    return lines


def test_the_check_finds_a_mark_inside_an_fstring() -> None:
    assert marks_in_fstrings('x = f"{_(\'Table close\')} · {table}"\ny = _("fine") + f"{n}"\n') == [1]


@SOURCE_TREES
def test_no_string_is_marked_inside_an_fstring() -> None:
    found = {
        f"{path.relative_to(PACKAGE)}:{line}"
        for folder in CHECKED
        for path in sorted((PACKAGE / folder).rglob("*.py"))
        for line in marks_in(nodes(path))
    }
    assert not found, f"marked inside an f-string, so never extracted: {sorted(found)}"
