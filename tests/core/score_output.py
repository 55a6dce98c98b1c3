"""What `ofc-desk score` writes for a document, read back as JSON, for tests that check figures."""

from __future__ import annotations

import json
from typing import Any

from ofc_desk.cli.score import score_document


def score(document: object) -> Any:
    return json.loads(b"".join(score_document(document)))
