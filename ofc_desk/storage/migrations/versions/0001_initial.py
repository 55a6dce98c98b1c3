"""The first schema: users, table sessions, the event chain and the derived history rows.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False, unique=True),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("pin_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "table_sessions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_name", sa.String(120), nullable=False),
        sa.Column("opened_at", sa.String(40), nullable=False),
        sa.Column("closed_at", sa.String(40), nullable=True),
        sa.Column("head_seq", sa.Integer(), nullable=False),
        sa.Column("head_hash", sa.String(64), nullable=False),
    )
    op.create_index("ix_table_sessions_table_name", "table_sessions", ["table_name"])
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("session_id", sa.Integer(), sa.ForeignKey("table_sessions.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("actor", sa.String(80), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.UniqueConstraint("session_id", "seq", name="uq_events_session_seq"),
    )
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("session_id", sa.Integer(), sa.ForeignKey("table_sessions.id"), nullable=False),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("button", sa.String(80), nullable=False),
        sa.Column("fantasyland", sa.Text(), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
        sa.Column("rake", sa.Text(), nullable=False),
        sa.Column("jackpot", sa.Integer(), nullable=False),
        sa.Column("settled_at", sa.String(40), nullable=False),
        sa.UniqueConstraint("session_id", "number", name="uq_hands_session_number"),
    )
    op.create_table(
        "transfers",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("hand_id", sa.Integer(), sa.ForeignKey("hands.id"), nullable=False),
        sa.Column("ordinal", sa.Integer(), nullable=False),
        sa.Column("from_player", sa.String(80), nullable=False),
        sa.Column("to_player", sa.String(80), nullable=False),
        sa.Column("owed", sa.Integer(), nullable=False),
        sa.Column("paid", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.UniqueConstraint("hand_id", "ordinal", name="uq_transfers_hand_ordinal"),
    )
    op.create_table(
        "chip_ledger",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("session_id", sa.Integer(), sa.ForeignKey("table_sessions.id"), nullable=False),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("hand_number", sa.Integer(), nullable=True),
        sa.Column("player", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
    )
    op.create_index("ix_chip_ledger_session", "chip_ledger", ["session_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chip_ledger_session", "chip_ledger")
    op.drop_table("chip_ledger")
    op.drop_table("transfers")
    op.drop_table("hands")
    op.drop_table("events")
    op.drop_index("ix_table_sessions_table_name", "table_sessions")
    op.drop_table("table_sessions")
    op.drop_table("users")
