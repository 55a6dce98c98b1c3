"""Keys rotate: from here on, every PIN change gives the account a new key pair (each key sealed
under one PIN only), and a key once sealed under a PIN shorter than a supervisor's is never a
supervisor's (ofc_desk.storage.accounts). The accounts chain gets the `keys_rotate` mark, which
records where the room stood (the newest session and the head of each open one): an event at a
table beyond that position must be signed under the mark or a later account event, so a signature
backdated to an older accounts head is named. The users table's guard lets a row take the new
public key an account event gives it.

Nothing stored is rewritten. The event hash is spelled here as
ofc_desk.storage.accounts.account_event_hash spells it (frozen with the migration).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from ofc_desk.storage import append_only

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

MARK = "keys_rotate"


def upgrade() -> None:
    connection = op.get_bind()
    append_only.guard_users(connection)
    _mark_the_accounts_chain(connection)


def _mark_the_accounts_chain(connection: sa.Connection) -> None:
    if connection.execute(sa.text("SELECT 1 FROM account_events WHERE kind = :kind"), {"kind": MARK}).first():
        return  # a revision set back and migrated again: the mark is there once (`verify` names it)
    last = connection.execute(
        sa.text("SELECT seq, hash FROM account_events ORDER BY seq DESC LIMIT 1")
    ).first()
    seq, previous = (last[0] + 1, last[1]) if last is not None else (1, "0" * 64)
    newest = connection.execute(sa.text("SELECT COALESCE(MAX(id), 0) FROM table_sessions")).scalar()
    heads = connection.execute(
        sa.text("SELECT id, head_seq FROM table_sessions WHERE closed_at IS NULL ORDER BY id")
    ).all()
    room = {"newest_session": int(newest or 0), "open": {str(row[0]): int(row[1]) for row in heads}}
    at = _newest_time(connection)
    payload = _canonical({"migration": revision, "room": room})
    content = {"approved_by": "", "at": at, "kind": MARK, "name": "", "payload": payload, "seq": seq}
    digest = hashlib.sha256((previous + _canonical(content)).encode("utf-8")).hexdigest()
    connection.execute(
        sa.text(
            "INSERT INTO account_events"
            " (seq, kind, name, approved_by, at, payload, prev_hash, hash, signature)"
            " VALUES (:seq, :kind, '', '', :at, :payload, :prev, :hash, '')"
        ),
        {"seq": seq, "kind": MARK, "at": at, "payload": payload, "prev": previous, "hash": digest},
    )


def _newest_time(connection: sa.Connection) -> str:
    """The mark's time: the newest the record holds (its events' and its accounts'), so that
    upgrading the same record always makes the same chain; now, for a room with no record yet."""
    times = [
        connection.execute(sa.text(f"SELECT MAX(at) FROM {table}")).scalar()
        for table in ("events", "account_events")
    ]
    known = [str(at) for at in times if at]
    return max(known) if known else datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def downgrade() -> None:
    """The mark stays in the accounts chain (it is append-only); a desk of 0009 folds it as an
    event it does not know and refuses, as it should: its rules are the older ones. The users
    table's guard stays as this revision left it (an account's row still follows its chain)."""
