"""Reading a command's JSON input the same way everywhere: the bytes as UTF-8 whatever the
console's encoding (standard input too), and nesting held to `MAX_NESTING` levels, far below the
depth at which Python itself gives up (about 990 levels).

Every check here is linear in the input's size: the nesting used to be measured on the text before
parsing, by patterns that took quadratic time on malformed input (`"\\` repeated: 13 s for 80 KB).
Python's reader is linear and refuses any nesting it cannot follow itself; what it reads is then
measured level by level, each value looked at once."""

from __future__ import annotations

import gc
import json
import sys
from typing import Any

MAX_NESTING = 64
_CONTAINERS = (list, dict)


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
    if nested_deeper_than(value, MAX_NESTING):
        raise NestedTooDeeply
    return value


def nested_deeper_than(value: Any, levels: int) -> bool:
    """Whether arrays and objects in `value` nest more than `levels` deep. One level at a time, so
    no stack is used whatever the depth, and each value is looked at once. An empty array or
    object is kept for the next level only past the last one (where it is one level too deep): a
    level of millions of `[]` is not walked again to find nothing in them."""
    level = [value] if isinstance(value, _CONTAINERS) else []
    for depth in range(1, levels + 1):
        last = depth == levels
        level = [
            child
            for container in level
            for child in (container.values() if isinstance(container, dict) else container)
            if isinstance(child, _CONTAINERS) and (child or last)
        ]
        if not level:
            return False
    return bool(level)
