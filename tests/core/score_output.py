"""What `ofc-desk score` writes for a document, read back as JSON, for tests that check figures; and
the two checks every score test file makes of bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ofc_desk.cli.main import main
from ofc_desk.cli.score import score_document
from ofc_desk.core.deal_input import DealInputError


def score(document: object) -> Any:
    return json.loads(b"".join(score_document(document)))


def refusal(tmp_path: Path, document: Any, capsys: pytest.CaptureFixture[str]) -> str:
    """The line `ofc-desk score` refuses a document with: exit 2, one line, nothing on standard
    output."""
    path = tmp_path / "deals.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    code = main(["score", str(path)])
    captured = capsys.readouterr()
    assert (code, captured.out) == (2, "")
    assert captured.err.count("\n") == 1
    return captured.err


def scored_or_refused(deal: dict[str, Any], path: tuple[str | int, ...], value: Any) -> None:
    """Put `value` at `path` in the deal: it is scored into JSON or refused naming deal 0, never a
    crash."""
    target: Any = deal
    for key in path[:-1]:
        target = target.setdefault(key, {}) if isinstance(key, str) else target[key]
    target[path[-1]] = value
    try:
        result = score([deal])
    except DealInputError as error:
        assert str(error).startswith("deal 0")
    else:
        json.dumps(result)
