"""Accounts anchored: every sign-off names the accounts chain's head it was made under, the record
of PIN checks becomes a chain of its own (an accepted PIN signed by the account's key), and the
accounts chain marks where its stricter rules begin (ofc_desk.storage.accounts): from the
`approvals_required` event on, an account without a key gets one only by a supervisor's signed
`key_added`, and a supervisor's PIN has at least 8 characters.

Nothing stored is rewritten: old signatures keep their message (they name no accounts head), old
PIN checks stay as they were, unchained, before the first chained one, and the accounts chain
before the mark keeps the rules it was written under. The event hash is spelled here as
ofc_desk.storage.accounts.account_event_hash spells it (frozen with the migration).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

MARK = "approvals_required"


def upgrade() -> None:
    # ADD COLUMN with a constant default: SQLite alters the table in place, its triggers kept.
    op.add_column("signatures", sa.Column("accounts_seq", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("signatures", sa.Column("accounts_hash", sa.String(64), nullable=False, server_default=""))
    for column, length in (("prev_hash", 64), ("hash", 64), ("signature", 128)):
        op.add_column(
            "sign_in_attempts", sa.Column(column, sa.String(length), nullable=False, server_default="")
        )
    op.create_index(
        "ix_sign_in_checks",
        "sign_in_attempts",
        ["name", "id"],
        sqlite_where=sa.text("outcome <> 'waiting'"),
        postgresql_where=sa.text("outcome <> 'waiting'"),
    )
    _mark_the_accounts_chain(op.get_bind())


def _mark_the_accounts_chain(connection: sa.Connection) -> None:
    last = connection.execute(
        sa.text("SELECT seq, hash FROM account_events ORDER BY seq DESC LIMIT 1")
    ).first()
    seq, previous = (last[0] + 1, last[1]) if last is not None else (1, "0" * 64)
    at = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    payload = _canonical({"migration": revision})
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


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def downgrade() -> None:
    """The mark stays in the accounts chain (it is append-only); a desk of 0007 folds it as an
    event it does not know and refuses, as it should: its rules are the older ones."""
    op.drop_index("ix_sign_in_checks", table_name="sign_in_attempts")
    for column in ("signature", "hash", "prev_hash"):
        op.drop_column("sign_in_attempts", column)
    op.drop_column("signatures", "accounts_hash")
    op.drop_column("signatures", "accounts_seq")
