"""`ofc-desk score FILE|-`: score and settle finished deals; JSON in, JSON out.

A binding contract for other casino systems: bad input of any kind exits 2 with one line on
standard error naming the deal, the field and the problem, and nothing on standard output.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from typing import Any

import orjson

from ofc_desk.cli.json_input import MAX_NESTING, NestedTooDeeply, parse_json, read_utf8
from ofc_desk.cli.main import one_line
from ofc_desk.core.deal_input import DealInputError
from ofc_desk.core.games import deal_scoring
from ofc_desk.i18n import _

EXIT_BAD_INPUT = 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", metavar="FILE", help=_("a deal or a JSON list of deals; - for standard input")
    )


def run(args: argparse.Namespace) -> int:
    try:
        document = _read_document(args.file)
        # The input is only read from now on: take it out of the garbage collector's scans, which
        # otherwise revisit every deal of a large batch again and again while results are made.
        gc.freeze()
        pieces = score_document(document)
    except DealInputError as error:
        print(one_line(f"ofc-desk score: {error}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    sys.stdout.flush()
    # Written piece by piece: a batch's output is tens of megabytes, and joining it first would copy
    # all of it once more.
    sys.stdout.buffer.writelines([*pieces, b"\n"])
    sys.stdout.buffer.flush()
    return 0


def score_document(document: Any) -> list[bytes]:
    """Score one deal (an object) or many (a list) into the UTF-8 JSON the command writes, in pieces,
    naming a bad deal by its index. Each result is encoded as soon as it is scored, so a batch keeps
    short texts rather than thousands of result trees until the last deal is known good (nothing may
    reach standard output before that)."""
    if not isinstance(document, list):
        return [_encode(_score(document))]
    pieces = [b"["]
    for index, deal in enumerate(document):
        if index:
            pieces.append(b", ")
        pieces.append(_encode(_score(deal, index)))
    pieces.append(b"]")
    return pieces


def _score(deal: Any, index: int | None = None) -> dict[str, Any]:
    try:
        return deal_scoring(deal)(deal)
    except DealInputError as error:
        if index is None:
            raise
        raise DealInputError(
            f"deal {index}" + (f", {error.field}" if error.field else ""), error.problem
        ) from None


def _encode(result: dict[str, Any]) -> bytes:
    # orjson writes the result several times faster than the standard library, which matters for
    # batches of thousands of deals; chip counts beyond its 64-bit integers go the slow way.
    try:
        return orjson.dumps(result)
    except orjson.JSONEncodeError:
        pass
    # A stack read at the limit on reading (4,300 digits) can end a few digits longer; the result
    # must still be written, and numbers that size cost nothing to convert.
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.dumps(result, ensure_ascii=False).encode()
    finally:
        sys.set_int_max_str_digits(limit)


def _read_document(path: str) -> Any:
    # The file is never named: what was typed for it may be a PIN.
    try:
        text = read_utf8(path)
    except OSError as error:
        raise DealInputError("", f"cannot read the input: {error.strerror}") from None
    except UnicodeDecodeError:
        source = "standard input" if path == "-" else "the input file"
        raise DealInputError("", f"{source} is not UTF-8 text") from None
    try:
        return parse_json(text)
    except NestedTooDeeply:
        raise DealInputError("", f"malformed JSON: nested more than {MAX_NESTING} levels deep") from None
    except json.JSONDecodeError as error:
        raise DealInputError(
            "", f"malformed JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    except ValueError:  # Python's guard against converting huge numbers (quadratic time)
        limit = sys.get_int_max_str_digits()
        raise DealInputError("", f"a number in the JSON has more than {limit:,} digits") from None
