"""The `ofc-desk` command: a thin dispatcher over the subcommand modules.

Each subcommand lives in its own module with `configure(parser)` and `run(args) -> int`, imported
only when chosen, so that `ofc-desk score` never pays for Qt or the database at start-up.
"""

from __future__ import annotations

import argparse
import difflib
import functools
import importlib
import io
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from ofc_desk import __version__
from ofc_desk.i18n import LazyText, _, active_language, lazy_gettext, use_language
from ofc_desk.i18n.languages import Language, language_from_environment, parse_language

SUBCOMMANDS: dict[str, tuple[str, LazyText]] = {
    "score": ("ofc_desk.cli.score", lazy_gettext("score and settle finished deals (JSON in, JSON out)")),
    "replay": ("ofc_desk.cli.replay", lazy_gettext("play a scripted session through the session service")),
    "verify": ("ofc_desk.cli.verify", lazy_gettext("check the audit chain and re-settle every stored hand")),
    "anchor": (
        "ofc_desk.cli.anchor",
        lazy_gettext("append the room's head to an anchor file kept elsewhere"),
    ),
    "report": ("ofc_desk.cli.report", lazy_gettext("write a session report as PDF, CSV or JSON")),
    "demo": ("ofc_desk.cli.demo", lazy_gettext("open the desk on a throw-away demo table")),
    "floor": ("ofc_desk.cli.floor", lazy_gettext("the floor supervisor's live view of every open table")),
    "db": (
        "ofc_desk.cli.db",
        lazy_gettext("card-room database chores: db upgrade, db status, db roles"),
    ),
}


def database_refusal(problem: object) -> str:
    """A database that cannot be used, as every subcommand words it: 'database: <why>'."""
    return _("database: {problem}").format(problem=problem)


def verify_failed(fault: object) -> str:
    """The line `verify`, `report --fingerprint` and `report --shift` print for a record that does
    not verify (standard output, exit 1)."""
    return _("verify failed: {fault}").format(fault=fault)


def cannot_write(option: str, why: object) -> str:
    """An output that could not be written, named by its option (never by the file typed)."""
    return _("cannot write the {option} file: {why}").format(option=option, why=why)


def add_database_option(parser: argparse.ArgumentParser) -> None:
    """`--db URL` for a subcommand; left out, the desk's own database is used."""
    parser.add_argument(
        "--db",
        metavar="URL",
        default=argparse.SUPPRESS,
        help=_("SQLAlchemy database URL (default: the desk's own SQLite file)"),
    )


SHORTEST_PIN = 4
"""No PIN is shorter (storage.users.MIN_PIN_LENGTH, which this module does not import: `score`
starts without the database): a shorter word typed on the command line is never held back."""
HELD_BACK = "…"


@dataclass
class _CommandLine:
    """The words of the command line being run that a refusal never repeats: what the person typed
    as values (a PIN typed in the wrong place, a PIN's file name, a URL with a password), as opposed
    to the command and option names the program knows. Set by `main` before parsing."""

    typed: tuple[str, ...] = ()


_command_line = _CommandLine()


def one_line(message: str, shown: Sequence[str] = ()) -> str:
    """A refusal as exactly one line, without anything typed on the command line but the words
    `shown`: a value typed there is shown as "…" (it may be a PIN), and a character that would
    break the line or is an invisible control (a newline in a player's name, say) is shown
    escaped, as Python writes it.

    >>> print(one_line("Qs is already in Ann\\nLee's front"))
    Qs is already in Ann\\nLee's front
    """
    for word in _command_line.typed:
        if word in shown:
            continue
        message = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", HELD_BACK, message)
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode() for char in message)


class OneLineParser(argparse.ArgumentParser):
    """Refuses a bad command line as the subcommands refuse bad input: one line, exit 2 (argparse
    would print its usage block first); `--help` still shows the usage. An option is known only by
    its whole name: argparse would take `--pin 2468` for `--pin-file 2468` and name a PIN as a file."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        unknown = UNKNOWN_COMMAND.match(message)
        if unknown is not None:  # what was typed in a command's place is a command misspelt
            typed = unknown["typed"]
            said = _not_a_command(typed, [word.strip(" '") for word in unknown["choices"].split(",")])
            # A word of a command's shape is said again; one with a digit or a sign may be a PIN.
            shown = (typed,) if COMMAND_SHAPE.fullmatch(typed) else ()
            self.exit(2, one_line(f"{self.prog}: {said}", shown=shown) + "\n")
        self.exit(2, one_line(f"{self.prog}: {_without_values(message)}") + "\n")


UNKNOWN_COMMAND = re.compile(
    r"argument [^-\s]\S*: invalid choice: '(?P<typed>.*)' \(choose from (?P<choices>.*)\)$"
)
"""argparse's refusal of a word in a (sub)command's place (a positional's choice, never an option's)."""
COMMAND_SHAPE = re.compile(r"[A-Za-z][A-Za-z_-]*")
"""A word typed in a command's place that the refusal says again: letters, as commands are."""


def _not_a_command(typed: str, commands: Sequence[str]) -> str:
    """ "'verfy' is not a command (did you mean verify?): score, replay, verify, …" """
    listed = ", ".join(commands)
    close = difflib.get_close_matches(typed, commands, n=1)
    if close:
        said = _("'{typed}' is not a command (did you mean {command}?): {commands}")
        return said.format(typed=typed, command=close[0], commands=listed)
    return _("'{typed}' is not a command: {commands}").format(typed=typed, commands=listed)


UNRECOGNIZED = "unrecognized arguments: "


def _without_values(message: str) -> str:
    """argparse repeats arguments it does not know; a value among them may be a PIN someone put on
    the command line, so only the option names are repeated.

    >>> _without_values("unrecognized arguments: --supervisor-pin Sue=2468 --x=1")
    'unrecognized arguments: --supervisor-pin … --x (values not repeated)'
    """
    if not message.startswith(UNRECOGNIZED):
        return message
    words = message.removeprefix(UNRECOGNIZED).split()
    shown = [word.split("=")[0] if word.startswith("--") else HELD_BACK for word in words]
    return UNRECOGNIZED + " ".join(shown) + " (values not repeated)"


def typed_values(argv: Sequence[str], parser: argparse.ArgumentParser) -> tuple[str, ...]:
    """The words of `argv` a refusal must not repeat, longest first: every word but the command
    names `parser` knows and the long options' names, the value of `--option=value`, a short
    option's attached value (`-p2468`), a database URL's password; none shorter than a PIN."""
    names = _known_words(parser)
    held: set[str] = set()
    for word in argv:
        if word in names:
            continue
        option, equals, value = word.partition("=")
        if word.startswith("--"):  # an option's name, known or not, is not a value
            held |= {value} if option in names else {word, value} if equals else set()
        elif word.startswith("-"):
            held |= {word, word[2:]}
        else:
            held.add(word)
    held |= {password for word in set(held) if "://" in word if (password := _url_password(word))}
    return tuple(sorted((word for word in held if len(word) >= SHORTEST_PIN), key=len, reverse=True))


def _url_password(url: str) -> str:
    """The password of a database URL, which a driver's message may quote without the rest: the
    other parts (host, database, a file's path) are what a person reads to find the fault.

    >>> _url_password("postgresql://sam:2468@db.room:5432/cards"), _url_password("sqlite:///x.db")
    ('2468', '')
    """
    authority = url.partition("://")[2].partition("/")[0]
    user_info = authority.rpartition("@")[0]
    return user_info.partition(":")[2]


def _known_words(parser: argparse.ArgumentParser) -> set[str]:
    """Every option string and (sub)command name of `parser` and its subcommands."""
    words: set[str] = set()
    for action in parser._actions:
        words.update(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for name, subparser in action.choices.items():
                words.add(name)
                words |= _known_words(subparser)
    return words


LANGUAGE_CHOICES = [language.value for language in Language]
LANG_HELP = lazy_gettext("the language to speak (default: LANG, or for the desk its Settings → Language)")


def build_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """A new parser for `argv`'s command, in the language active now: its help and refusals speak
    it, and only the command `argv` names is configured (its module imported)."""
    return _new_parser(_chosen(argv))


def _chosen(argv: Sequence[str]) -> str | None:
    return next((word for word in argv if word in SUBCOMMANDS), None)


@functools.cache
def _parser_in(language: Language, chosen: str | None) -> argparse.ArgumentParser:
    """The parser `main` reads with, built once a process for each language and command: building
    it (every subcommand's parser and its translated help) cost more than parsing. Parsing never
    changes a parser; `language` is the key only, since `_` reads the active language, which `main`
    passes."""
    return _new_parser(chosen)


def _new_parser(chosen: str | None) -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="ofc-desk",
        description=_(
            "OFC Desk. Without a COMMAND, ofc-desk opens the desk, the dealer's window (on --db, or"
            " the desk's own database); a COMMAND does its work on the command line and never opens"
            " the desk. --lang may come before the COMMAND or after it, and so may --db for a COMMAND"
            " that uses a database."
        ),
    )
    parser.add_argument("--version", action="version", version=f"ofc-desk {__version__}")
    parser.add_argument("--db", metavar="URL", help=_("SQLAlchemy database URL for the desk"))
    parser.add_argument("--lang", choices=LANGUAGE_CHOICES, help=str(LANG_HELP))
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sub = subparsers.add_parser(name, help=str(help_text))
        if name == chosen:
            importlib.import_module(module_name).configure(sub)
        _take_lang_here_too(sub)
    return parser


def _take_lang_here_too(parser: argparse.ArgumentParser) -> None:
    """`--lang` after a (sub)command as before it (`verify --lang ru`): the same option, which
    leaves the one given before the command alone when it is not given here."""
    if "--lang" not in parser._option_string_actions:
        parser.add_argument(
            "--lang", choices=LANGUAGE_CHOICES, default=argparse.SUPPRESS, help=str(LANG_HELP)
        )
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for subparser in action.choices.values():
                _take_lang_here_too(subparser)


def write_utf8() -> None:
    """Standard output and error in UTF-8 whatever the console's encoding (Windows' cp1252 cannot
    write an emoji in a player's name, and would fail a command after its work was stored)."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")


def language_named(argv: Sequence[str]) -> Language | None:
    """The language `--lang` names, before the subcommand or after it (the last one given, as the
    parser reads them), read before the parser is built so that its help and refusals already
    speak it (a bad name is left to the parser to refuse).

    >>> language_named(["--lang", "vi", "report"]), language_named(["verify", "--lang=ru"])
    (<Language.VI: 'vi'>, <Language.RU: 'ru'>)
    >>> language_named(["score"]), language_named(["--lang", "vi", "verify", "--lang", "zh_CN"])
    (None, <Language.ZH_CN: 'zh_CN'>)
    """
    named = None
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and index + 1 < len(argv):
            named = parse_language(argv[index + 1])
        elif word.startswith("--lang="):
            named = parse_language(word.removeprefix("--lang="))
    return named


def main(argv: Sequence[str] | None = None) -> int:
    write_utf8()
    args_list = list(sys.argv[1:] if argv is None else argv)
    named = language_named(args_list)
    use_language(named or language_from_environment(), asked_for=named is not None)
    parser = _parser_in(active_language(), _chosen(args_list))
    _command_line.typed = typed_values(args_list, parser)
    args = parser.parse_args(args_list)
    if args.command is None:
        from ofc_desk.desk.shell.app import run_desk

        return int(run_desk(args.db))
    module_name = SUBCOMMANDS[args.command][0]
    return int(importlib.import_module(module_name).run(args))
