"""Rules pinned in the chain: sessions stored while their rules named a preset file get the
numbers of every preset they named, as the file reads at this upgrade, in one `rules_pinned`
event appended to their own chain (actor "migration 0007"), so an edit of a preset file can no
longer change how they resume, verify or print.

Nothing stored is rewritten: the pins are appended, and the note in each says that the migration,
not a dealer, pinned them and when. A closed session's head moves onto its pin, which the
append-only guard of table sessions refuses to anyone but the owner running this upgrade: the
guards are taken down for the appends and put back as they were. The event hash is spelled here
as ofc_desk.storage.audit.event_hash spells it (frozen with the migration).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from ofc_desk.core.presets import Game, PresetError, find_preset_file, read_preset_json
from ofc_desk.storage import append_only

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

ACTOR = "migration 0007"
RULES_KINDS = ("table_opened", "rules_changed")


def upgrade() -> None:
    connection = op.get_bind()
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    pins = [pin for pin in map(_pin_for, _sessions(connection)) if pin is not None]
    if not pins:
        return
    append_only.remove(connection)
    for session_id, head_seq, head_hash, presets in pins:
        _append_pin(connection, session_id, head_seq, head_hash, presets, now)
    append_only.install(connection)
    append_only.guard_users(connection)


def _sessions(connection: sa.Connection) -> list[tuple[int, int, str, list[str]]]:
    rows = connection.execute(sa.text("SELECT id, head_seq, head_hash FROM table_sessions ORDER BY id")).all()
    sessions = []
    for session_id, head_seq, head_hash in rows:
        payloads = connection.execute(
            sa.text(
                "SELECT payload FROM events WHERE session_id = :id AND kind IN :kinds ORDER BY seq"
            ).bindparams(sa.bindparam("kinds", expanding=True)),
            {"id": session_id, "kinds": list(RULES_KINDS)},
        ).scalars()
        sessions.append((session_id, head_seq, head_hash, list(payloads)))
    return sessions


def _pin_for(session: tuple[int, int, str, list[str]]) -> tuple[int, int, str, dict[str, object]] | None:
    """The presets a session named, read now; None when it named none, or one that no file holds
    (that session stays unpinned, and `verify` names its unknown preset as before)."""
    session_id, head_seq, head_hash, payloads = session
    named: dict[str, Game] = {}
    for payload in payloads:
        rules = json.loads(payload).get("rules", {})
        chosen = rules.get("rules") if isinstance(rules, dict) else None
        if isinstance(chosen, str):
            named[chosen] = Game.CHINESE if rules.get("variant") == "chinese" else Game.OFC
    presets: dict[str, object] = {}
    for name, game in named.items():
        try:
            presets[name] = json.loads(_canonical(dict(read_preset_json(find_preset_file(name, game)))))
        except PresetError:
            return None
    return (session_id, head_seq, head_hash, presets) if presets else None


def _append_pin(
    connection: sa.Connection,
    session_id: int,
    head_seq: int,
    head_hash: str,
    presets: dict[str, object],
    at: str,
) -> None:
    digests = {
        name: hashlib.sha256(_canonical(data).encode("utf-8")).hexdigest() for name, data in presets.items()
    }
    note = (
        f"pinned by migration 0007 at {at}: this session named its preset(s) before rules were"
        " pinned in the chain; these are the preset files as they read at the upgrade"
    )
    payload = _canonical({"note": note, "presets": presets, "sha256": digests})
    seq = head_seq + 1
    content = {
        "session": session_id,
        "seq": seq,
        "kind": "rules_pinned",
        "actor": ACTOR,
        "at": at,
        "payload": payload,
    }
    digest = hashlib.sha256((head_hash + _canonical(content)).encode("utf-8")).hexdigest()
    connection.execute(
        sa.text(
            "INSERT INTO events (session_id, seq, kind, actor, at, payload, prev_hash, hash)"
            " VALUES (:session, :seq, 'rules_pinned', :actor, :at, :payload, :prev, :hash)"
        ),
        {
            "session": session_id,
            "seq": seq,
            "actor": ACTOR,
            "at": at,
            "payload": payload,
            "prev": head_hash,
            "hash": digest,
        },
    )
    connection.execute(
        sa.text("UPDATE table_sessions SET head_seq = :seq, head_hash = :hash WHERE id = :id"),
        {"seq": seq, "hash": digest, "id": session_id},
    )


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def downgrade() -> None:
    """The pins stay: the record is append-only, and a desk of 0006 reads a pinned session's
    events up to its pin as it always did."""
