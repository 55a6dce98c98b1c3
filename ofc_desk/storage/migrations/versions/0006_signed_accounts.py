"""Sign-offs that prove themselves: accounts become a signed chain of account events (each
account's Ed25519 public key and PIN-sealed private key in it), the users table is derived from
it, and table sessions gain their dealers' and supervisors' signatures.

Accounts that exist already are imported honestly, as unsigned `account_imported` events without
a key: each gets its key pair at its next sign-in (ofc_desk.storage.accounts).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from ofc_desk.storage import append_only

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

GENESIS_HASH = "0" * 64


def upgrade() -> None:
    connection = op.get_bind()
    append_only.remove(connection, ("users",))
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("public_key", sa.String(64), nullable=False, server_default=""))
        batch.add_column(sa.Column("sealed_key", sa.String(200), nullable=False, server_default=""))
        batch.add_column(sa.Column("account_seq", sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "account_events",
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("approved_by", sa.String(80), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("signature", sa.String(128), nullable=False),
    )
    op.create_table(
        "signatures",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("session_id", sa.Integer(), sa.ForeignKey("table_sessions.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("signer", sa.String(80), nullable=False),
        sa.Column("signature", sa.String(128), nullable=False),
    )
    op.create_index("ix_signatures_session", "signatures", ["session_id", "seq"])
    _import_existing_accounts(connection)
    append_only.install(connection, ("account_events", "signatures"))
    append_only.guard_users(connection)


def _import_existing_accounts(connection: sa.Connection) -> None:
    """Each existing account as an unsigned `account_imported` event, then the `signoffs_started`
    mark: the chain spelled as ofc_desk.storage.accounts.account_event_hash does (frozen here)."""
    users = connection.execute(sa.text("SELECT id, name, role, pin_hash, created_at FROM users ORDER BY id"))
    sessions_before = connection.execute(sa.text("SELECT COALESCE(MAX(id), 0) FROM table_sessions")).scalar()
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    events = [
        (user_id, name, "account_imported", {"pin_hash": pin_hash, "role": role}, created_at)
        for user_id, name, role, pin_hash, created_at in users
    ]
    events.append((None, "", "signoffs_started", {"sessions_before": int(sessions_before or 0)}, now))
    previous = GENESIS_HASH
    for seq, (user_id, name, kind, fields, at) in enumerate(events, start=1):
        payload = _canonical(fields)
        content = {"approved_by": "", "at": at, "kind": kind, "name": name, "payload": payload, "seq": seq}
        digest = hashlib.sha256((previous + _canonical(content)).encode("utf-8")).hexdigest()
        connection.execute(
            sa.text(
                "INSERT INTO account_events"
                " (seq, kind, name, approved_by, at, payload, prev_hash, hash, signature)"
                " VALUES (:seq, :kind, :name, '', :at, :payload, :prev, :hash, '')"
            ),
            {
                "seq": seq,
                "kind": kind,
                "name": name,
                "at": at,
                "payload": payload,
                "prev": previous,
                "hash": digest,
            },
        )
        if user_id is not None:
            connection.execute(
                sa.text("UPDATE users SET account_seq = :seq WHERE id = :id"), {"seq": seq, "id": user_id}
            )
        previous = digest


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def downgrade() -> None:
    connection = op.get_bind()
    append_only.remove(connection, ("account_events", "signatures", "users"))
    op.drop_index("ix_signatures_session", table_name="signatures")
    op.drop_table("signatures")
    op.drop_table("account_events")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("account_seq")
        batch.drop_column("sealed_key")
        batch.drop_column("public_key")
    append_only.install(connection, ("users",))
