"""PINs for a command that signs or exports: from the OFC_DESK_PINS environment variable, a file
given by path (`--pin-file`), or a prompt on a terminal. Never from the command line, where any
user of the machine sees it (`ps`), and never repeated in a message."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Callable

from ofc_desk.cli.json_input import NestedTooDeeply, parse_json, read_utf8
from ofc_desk.i18n import _

PIN_ENVIRONMENT = "OFC_DESK_PINS"
PinSource = Callable[[str], str | None]


def add_pin_file_option(parser: argparse.ArgumentParser, purpose: str) -> None:
    words = _(
        "a JSON object of account names and PINs, as {example}, {purpose} (or set {variable} to such "
        "an object; a terminal is asked for any other)"
    )
    example = '{"Sue": "2468"}'
    # argparse reads "%" in a help text as its own format: the example has none.
    parser.add_argument(
        "--pin-file",
        metavar="PATH",
        help=words.format(example=example, purpose=purpose, variable=PIN_ENVIRONMENT),
    )


def pin_source(pin_file: str | None, *, may_prompt: bool) -> PinSource:
    """ValueError names a source that cannot be read, never its content."""
    given: dict[str, str] = {}
    if os.environ.get(PIN_ENVIRONMENT):
        given |= _pins(os.environ[PIN_ENVIRONMENT], PIN_ENVIRONMENT)
    if pin_file:
        try:
            given |= _pins(read_utf8(pin_file), "--pin-file")
        except (OSError, UnicodeDecodeError):
            raise ValueError(_("--pin-file: cannot be read as a UTF-8 text file")) from None
    interactive = may_prompt and sys.stdin.isatty()

    def pin(name: str) -> str | None:
        if name in given or not interactive:
            return given.get(name)
        given[name] = getpass.getpass(_("PIN for {name}: ").format(name=name))
        return given[name]

    return pin


def _pins(text: str, source: str) -> dict[str, str]:
    try:
        pins = parse_json(text)
    except (ValueError, NestedTooDeeply):  # malformed, or a number too long to read
        pins = None
    if not isinstance(pins, dict) or not all(isinstance(pin, str) for pin in pins.values()):
        example = '{"Sue": "2468"}'
        raise ValueError(
            _("{source}: must be a JSON object of names and PINs, as {example}").format(
                source=source, example=example
            )
        )
    return pins
