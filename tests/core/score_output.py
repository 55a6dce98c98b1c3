"""What `ofc-desk score` writes for a document, read back as JSON, for tests that check figures."""

from __future__ import annotations

import json
from typing import Any

from ofc_desk.cli.score import score_document_text


def score(document: object) -> Any:
    return json.loads(score_document_text(document))
