"""`ofc-desk score FILE|-`: score and settle finished deals; JSON in, JSON out.

A binding contract for other casino systems: bad input of any kind exits 2 with one line on
standard error naming the deal, the field and the problem, and nothing on standard output.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ofc_desk.core.deal import score_deal
from ofc_desk.core.deal_input import DealInputError, deal_from_json

EXIT_BAD_INPUT = 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a deal or a JSON list of deals; - for standard input")


def run(args: argparse.Namespace) -> int:
    try:
        document = _read_document(args.file)
        results = score_document(document)
    except DealInputError as error:
        print(f"ofc-desk score: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    # One write of the C encoder's output: json.dump would write every small piece separately.
    sys.stdout.write(json.dumps(results, ensure_ascii=False) + "\n")
    return 0


def score_document(document: Any) -> Any:
    """Score one deal (an object) or many (a list), naming a bad deal by its index."""
    if not isinstance(document, list):
        return score_deal(deal_from_json(document)).to_json()
    results = []
    for index, deal in enumerate(document):
        try:
            results.append(score_deal(deal_from_json(deal)).to_json())
        except DealInputError as error:
            raise DealInputError(
                f"deal {index}" + (f", {error.field}" if error.field else ""), error.problem
            ) from None
    return results


def _read_document(path: str) -> Any:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise DealInputError("", f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise DealInputError("", f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise DealInputError(
            "", f"malformed JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        raise DealInputError("", "malformed JSON: nested too deeply") from None
