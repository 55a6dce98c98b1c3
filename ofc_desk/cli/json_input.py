"""Reading a command's JSON input the same way everywhere: the bytes as UTF-8 whatever the
console's encoding (standard input too), and nesting held to `MAX_NESTING` levels, far below the
depth at which Python itself gives up (about 990 levels).

Every check here is linear in the input's size: the nesting used to be measured on the text before
parsing, by patterns that took quadratic time on malformed input (`"\\` repeated: 13 s for 80 KB).
Python's reader is linear and refuses any nesting it cannot follow itself; the text it read is then
measured by its brackets outside strings, in a few passes of bytes operations: walking the values it
made, each in Python, cost from a quarter of the parse's instructions to more than the parse (10 MB inputs,
benchmarks/product_cpu_bench.py)."""

from __future__ import annotations

import gc
import json
import sys
from itertools import accumulate
from typing import Any, Final

MAX_NESTING = 64
_QUOTE: Final = ord('"')
_NOT_BRACKETS_OR_QUOTES: Final = bytes(byte for byte in range(256) if byte not in b'[]{}"')
_CURLY_AS_SQUARE: Final = bytes.maketrans(b"{}", b"[]")
_STEPS: Final = bytes.maketrans(b"[]", b"\x01\xff")
"""An opening bracket as 1 and a closing one as -1, read as signed bytes."""


class NestedTooDeeply(Exception):
    """The JSON nests arrays and objects more than `MAX_NESTING` levels deep."""


def read_utf8(path: str) -> str:
    """The text of `path`, or of standard input for "-", decoded as UTF-8 (a BOM allowed).
    OSError and UnicodeDecodeError pass through for the caller to word."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as handle:
            data = handle.read()
    return data.decode("utf-8-sig")


def parse_json(text: str) -> Any:
    """The value `text` holds. NestedTooDeeply when it nests more than `MAX_NESTING` levels;
    json.JSONDecodeError (malformed) and ValueError (a number longer than Python converts) pass
    through."""
    # A parsed document holds no reference cycle, but the cyclic collector would look at its
    # millions of lists and objects again and again as they are made: ten times the parse itself.
    collecting = gc.isenabled()
    gc.disable()
    try:
        value = json.loads(text)
    except RecursionError:  # deeper than Python's reader follows: far deeper than the limit
        raise NestedTooDeeply from None
    finally:
        if collecting:
            gc.enable()
    if nested_deeper_than(text, MAX_NESTING):
        raise NestedTooDeeply
    return value


def nested_deeper_than(text: str, levels: int) -> bool:
    """Whether arrays and objects nest more than `levels` deep in `text`, JSON that `json.loads`
    read: the depth of its brackets outside strings. Every step runs in C (bytes operations, then a
    running sum over the brackets left), none is a Python loop over the values."""
    brackets = _brackets_outside_strings(text)
    if not brackets:
        return False  # no array or object: nesting 0
    # Every innermost `[]` goes in one pass: what is left nests one level less.
    inner = brackets.replace(b"[]", b"")
    depth = 1 + max(accumulate(memoryview(inner.translate(_STEPS)).cast("b")), default=0)
    return depth > levels


def _brackets_outside_strings(text: str) -> bytes:
    """`text`'s brackets outside its strings, `{}` said as `[]` (valid JSON matches each kind)."""
    # In valid JSON a backslash is only ever inside a string, where it escapes the character after
    # it: a run of them pairs up from its start, and what an odd one escapes is never a backslash.
    data = text.encode("utf-8", "surrogatepass").replace(b"\\\\", b"").replace(b'\\"', b"")
    data = data.translate(_CURLY_AS_SQUARE, _NOT_BRACKETS_OR_QUOTES)
    # The quotes left delimit the strings; two with nothing between them (an empty string once the
    # rest was dropped, or one string's end beside the next one's start) change no bracket's side.
    data = data.replace(b'""', b"")
    return b"".join(data.split(b'"')[::2]) if _QUOTE in data else data
