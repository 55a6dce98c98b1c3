"""Reading a command's JSON input the same way everywhere: the bytes as UTF-8 whatever the
console's encoding (standard input too), and nesting held to `MAX_NESTING` levels before it is
parsed, far below the depth at which Python itself gives up (about 990 levels)."""

from __future__ import annotations

import re
import sys

MAX_NESTING = 64
# A JSON string, escapes included: its brackets are text, not nesting.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"\[\]|\{\}")


def read_utf8(path: str) -> str:
    """The text of `path`, or of standard input for "-", decoded as UTF-8 (a BOM allowed).
    OSError and UnicodeDecodeError pass through for the caller to word."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as handle:
            data = handle.read()
    return data.decode("utf-8-sig")


def nested_too_deeply(text: str) -> bool:
    """Whether any array or object in `text` lies more than `MAX_NESTING` levels deep. Unbalanced
    brackets are left for the JSON parser to name."""
    brackets = _NOT_A_BRACKET.sub("", _outside_strings(text))
    # Each pass removes every innermost pair; a document `MAX_NESTING` deep is gone after as many.
    for _ in range(MAX_NESTING):
        reduced = _INNERMOST.sub("", brackets)
        if reduced == brackets:
            return False
        brackets = reduced
    return _INNERMOST.search(brackets) is not None


def _outside_strings(text: str) -> str:
    # Without a backslash no string holds a quote, so every other piece between quotes is a
    # string: several times faster than the pattern on a batch of thousands of deals.
    return "".join(text.split('"')[::2]) if "\\" not in text else _STRING.sub("", text)
