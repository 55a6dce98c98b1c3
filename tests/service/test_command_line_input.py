"""What a person types on the command line and feeds to `score` and `replay` (issue 25): input
checks linear in the input's size (a 10 MB hostile input refused at once, in one line), no value
typed on the command line repeated in an error (it may be a PIN), no option taken by an
abbreviation of its name."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_desk.cli.json_input import MAX_NESTING, nested_deeper_than
from ofc_desk.cli.main import SHORTEST_PIN, SUBCOMMANDS, build_parser, main
from ofc_desk.storage.users import MIN_PIN_LENGTH
from tests.helpers.migrated_files import MigratedTemplate
from tests.helpers.replay_helpers import run_cli, write_script

Capture = pytest.CaptureFixture[str]
TEN_MB = 10_000_000
SECRET = "8642097"
"""What a person typed that may be a PIN: no error may show it."""


def two_seats() -> dict[str, object]:
    return {"table": "Table 7", "seats": [{"name": "Ann", "buy_in": 100}, {"name": "Bob", "buy_in": 100}]}


def refusal(capsys: Capture, *args: str) -> tuple[int, str, str]:
    """Run the command; argparse's own refusals end in SystemExit."""
    try:
        return run_cli(capsys, *args)
    except SystemExit as exit_info:
        out, err = capsys.readouterr()
        return int(str(exit_info.code)), out, err


# ----------------------------------------------------------------------- linear input checks
def _unterminated_escapes() -> str:
    """The audit's input: `"\\` again and again, which the old nesting check took quadratic time
    over (20 KB 0.9 s, 80 KB 13 s, 1 MB not done after 300 s)."""
    return '"\\' * (TEN_MB // 2)


def _deep_at_the_end() -> str:
    """Ten megabytes of valid JSON whose last value nests 65 levels deep: every level is looked at."""
    wide = ",".join(["[]"] * (TEN_MB // 3))
    return '{"table": "T", "seats": [' + wide + "], " + '"x": ' + "[" * 65 + "]" * 65 + "}"


@pytest.mark.parametrize(
    ("make", "score_says", "replay_says"),
    [
        (_unterminated_escapes, "malformed JSON at line 1, column 1: Unterminated string", "not valid JSON"),
        (_deep_at_the_end, "nested more than 64 levels deep", "nested more than 64 levels deep"),
        (lambda: "[" * TEN_MB, "nested more than 64 levels deep", "nested more than 64 levels deep"),
    ],
    ids=["unterminated escapes", "deep at the end", "brackets never closed"],
)
def test_a_ten_megabyte_hostile_input_is_refused_in_one_line(
    tmp_path: Path, capsys: Capture, make: object, score_says: str, replay_says: str
) -> None:
    """Before, the first took hours and the last ended in Python's RecursionError traceback;
    benchmarks/input_bench.py prints the times."""
    assert callable(make)
    path = tmp_path / "hostile.json"
    path.write_text(make())
    status, out, err = refusal(capsys, "score", str(path))
    assert (status, out) == (2, "") and err.startswith("ofc-desk score: ") and err.count("\n") == 1
    assert score_says in err
    database = tmp_path / "room.db"
    status, out, err = refusal(capsys, "replay", str(path), "--db", f"sqlite:///{database}")
    assert (status, out) == (2, "") and err.startswith("script: ") and err.count("\n") == 1
    assert replay_says in err
    assert not database.exists()  # refused before the database was opened


def test_nesting_is_measured_by_the_brackets_outside_strings_to_the_limit() -> None:
    assert not nested_deeper_than("[" * MAX_NESTING + "]" * MAX_NESTING, MAX_NESTING)
    assert nested_deeper_than("[" * 65 + "]" * 65, MAX_NESTING)
    assert deeper({"a": [1, {"b": [[]]}]}, 4) and not deeper({"a": [1, {"b": []}]}, 4)
    assert not deeper("[[[", 0) and not deeper(["[[[", {"{{": "]"}], 2)  # text is a value, not nesting
    assert not deeper(['\\"[[', "\\", '"', {"\\": "\\\\["}], 2)  # escapes end no string
    assert not nested_deeper_than(json.dumps(["\u00e9[[["], ensure_ascii=False), 1)
    # An empty array or object counts as a level, at the limit and below it, in a list or a value.
    empties: tuple[list[object], dict[str, object]] = ([], {})
    for empty in empties:
        assert deeper([[1], [empty]], 2) and deeper({"a": [empty]}, 2)
        assert not deeper([[1], [empty]], 3) and not deeper([empty, [[]]], 3)
        assert deeper([empty], 1) and not deeper(empty, 1)
        assert deeper(empty, 0) and not deeper([[empty]] * 3 + [[1]], 3)


def deeper(value: object, levels: int) -> bool:
    """`nested_deeper_than` the JSON of `value`."""
    return nested_deeper_than(json.dumps(value), levels)


def walked_deeper_than(value: Any, levels: int) -> bool:
    """The measure `nested_deeper_than` gave before it read the text: the parsed values walked one
    level at a time, each looked at once (an empty array or object only past the last level)."""
    level = [value] if isinstance(value, (list, dict)) else []
    for depth in range(1, levels + 1):
        last = depth == levels
        level = [
            child
            for container in level
            for child in (container.values() if isinstance(container, dict) else container)
            if isinstance(child, (list, dict)) and (child or last)
        ]
        if not level:
            return False
    return bool(level)


# Strings full of what could be taken for structure: brackets, quotes, backslashes, and beyond ASCII.
_TRICKY = st.text(alphabet=st.sampled_from('[]{}"\\,:ab é\u2028\U0001f0a1'), max_size=8)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | _TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TRICKY, inner, max_size=4),
    max_leaves=40,
)


@given(
    value=_VALUES,
    levels=st.integers(min_value=0, max_value=8),
    ascii_only=st.booleans(),
    indent=st.sampled_from([None, 0, 2]),
)
@settings(max_examples=400)
def test_the_brackets_outside_strings_nest_as_deep_as_the_values_walked(
    value: Any, levels: int, ascii_only: bool, indent: int | None
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    assert nested_deeper_than(text, levels) == walked_deeper_than(json.loads(text), levels)


# ----------------------------------------------------------------------- nothing typed is repeated
@pytest.fixture(scope="module")
def replayed_room(tmp_path_factory: pytest.TempPathFactory, migrated_template: MigratedTemplate) -> Path:
    """The two seats' table replayed once a module (a hand's worth of setup), into a copy of the
    process's migrated file: what the replay finds in a database it has just made."""
    folder = tmp_path_factory.mktemp("room")
    path = folder / "room.db"
    migrated_template.copy(path)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["replay", str(write_script(folder, two_seats())), "--db", f"sqlite:///{path}"]) == 0
    return path


@pytest.fixture
def room(replayed_room: Path, tmp_path: Path) -> str:
    """This test's copy of the replayed room (SQLite's backup: the replay's last writes may still
    be in its write-ahead log)."""
    path = tmp_path / "room.db"
    with (
        contextlib.closing(sqlite3.connect(replayed_room)) as source,
        contextlib.closing(sqlite3.connect(path)) as copy,
    ):
        source.backup(copy)
    return f"sqlite:///{path}"


COMMAND_LINES = [
    ["replay", f"--resume={SECRET}", "{script}"],
    ["replay", SECRET],
    ["replay", f"-p{SECRET}", "{script}"],
    ["replay", "--pin", SECRET, "{script}"],
    ["replay", "{script}", "--pin-file", SECRET, "--db", "{db}"],
    ["replay", "{script}", "--db", SECRET],
    ["replay", "{script}", "--db", f"postgresql://sam:{SECRET}@127.0.0.1:1/x"],
    ["score", SECRET],
    ["score", "{script}", f"-p{SECRET}"],
    ["score", "{script}", "--counted", f"{SECRET}x"],
    ["report", "--db", "{db}", "--close-out", "{tmp}/c.pdf", "--counted", f"{SECRET}x"],
    ["report", "--db", "{db}", "--session", SECRET, "--out", "{tmp}/x.pdf"],
    ["report", "--db", "{db}", "--table", SECRET, "--out", "{tmp}/x.pdf"],
    ["report", "--db", SECRET, "--out", "{tmp}/x.pdf"],
    ["report", "--db", "{db}", "--out", f"{{tmp}}/{SECRET}/x.pdf"],
    ["report", "--db", "{db}", "--shift", "--from", SECRET, "--out", "{tmp}/s.pdf"],
    ["report", "--db", "{db}", "--shift", "--to", f"{SECRET}x", "--out", "{tmp}/s.pdf"],
    ["verify", "--db", SECRET],
    ["verify", "--db", "{db}", "--anchors", SECRET],
    ["verify", "--db", "{db}", f"--anchors={SECRET}"],
    ["anchor", "--db", "{db}", "--to", f"{{tmp}}/{SECRET}/anchors.txt"],
    ["anchor", "--db", SECRET, "--to", "{tmp}/anchors.txt"],
    ["db", "roles", "--db", SECRET],
    ["db", "upgrade", "--db", f"postgresql://sam:{SECRET}@127.0.0.1:1/x"],
    ["db", "status", "--db", SECRET],
    ["db", SECRET],
    [SECRET],
    [f"--db={SECRET}", SECRET],
    ["demo", "--keep", f"{{tmp}}/{SECRET}"],
]


@pytest.mark.parametrize("words", COMMAND_LINES, ids=[" ".join(words) for words in COMMAND_LINES])
def test_no_value_typed_on_the_command_line_is_repeated(
    tmp_path: Path, room: str, capsys: Capture, words: list[str]
) -> None:
    (tmp_path / SECRET).write_text("a file the demo must not overwrite")
    script = write_script(tmp_path, two_seats(), "other.json")
    filled = [
        word.replace("{script}", str(script)).replace("{db}", room).replace("{tmp}", str(tmp_path))
        for word in words
    ]
    status, out, err = refusal(capsys, *filled)
    assert status in (1, 2)
    assert (out + err).count("\n") == 1, out + err
    assert SECRET not in out + err, out + err


def test_a_short_word_is_never_held_back() -> None:
    """A word shorter than any PIN is shown: "session 3" is not "session …"."""
    assert SHORTEST_PIN == MIN_PIN_LENGTH


# ----------------------------------------------------------------------- no abbreviations
REQUIRED = {
    "replay": ["x.json"],
    "score": ["x.json"],
    "anchor": ["--to", "a.txt"],
    "db": ["roles", "--db", "u"],
}


def _long_options(parser: argparse.ArgumentParser) -> set[str]:
    options = {name for action in parser._actions for name in action.option_strings if name.startswith("--")}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for subparser in action.choices.values():
                options |= _long_options(subparser)
    return options


@pytest.mark.parametrize("command", [*SUBCOMMANDS])
def test_no_option_is_taken_by_an_abbreviation(command: str, capsys: Capture) -> None:
    options = _long_options(build_parser([command]))
    abbreviations = {option[:end] for option in options for end in range(3, len(option))} - options
    assert abbreviations  # every subcommand has a long option at least
    for abbreviation in sorted(abbreviations):
        with pytest.raises(SystemExit) as exit_info:
            main([command, *REQUIRED.get(command, []), abbreviation])
        assert exit_info.value.code == 2
        assert "unrecognized arguments" in capsys.readouterr().err, abbreviation


def test_pin_is_not_taken_for_pin_file(tmp_path: Path, capsys: Capture) -> None:
    script = write_script(tmp_path, two_seats())
    status, out, err = refusal(capsys, "replay", str(script), "--pin", "2468", "--db", "sqlite://")
    assert (status, out) == (2, "")
    assert err == "ofc-desk: unrecognized arguments: --pin … (values not repeated)\n"


def test_a_subcommand_is_not_taken_by_an_abbreviation(capsys: Capture) -> None:
    status, _, err = refusal(capsys, "rep", "x.json")
    assert status == 2 and err.startswith("ofc-desk: 'rep' is not a command (did you mean ")
