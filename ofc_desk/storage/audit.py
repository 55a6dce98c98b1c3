"""The hash chain: canonical JSON and the sha256 that links each event to the one before it."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

GENESIS_HASH = "0" * 64
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


# One encoder for every call: `json.dumps` with options builds a new one each time, which cost
# more than the encoding itself when `verify` spells out every event of a long session.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: Any) -> str:
    """One spelling per value: sorted keys, no spaces, UTF-8 kept as is."""
    return _CANONICAL.encode(value)


def utc_now() -> str:
    """UTC time as stored in every row: ISO 8601 with microseconds and a Z."""
    return datetime.now(UTC).strftime(TIME_FORMAT)


def event_hash(
    prev_hash: str, session_id: int, seq: int, kind: str, actor: str, at: str, payload: str
) -> str:
    """sha256 over the previous hash and this event's canonical content."""
    content = canonical_json(
        {"session": session_id, "seq": seq, "kind": kind, "actor": actor, "at": at, "payload": payload}
    )
    return hashlib.sha256((prev_hash + content).encode("utf-8")).hexdigest()
