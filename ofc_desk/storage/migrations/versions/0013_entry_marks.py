"""Entries bound to their table's desk (issue 35): a desk that takes a table publishes a key in a
signature of its dealer (`signatures.entries_key`, the top of a hash chain whose seed only the desk
holds), and marks each entry it records (a street, a showdown, an undo, a new hand, a seat's
sitting out or in, a request to the floor) with the next link of that chain (`entry_marks`), in
the entry's own transaction. An entry another login appended carries no mark the chain accepts,
and `verify` names it (ofc_desk.service.store.entry_marks).

Nothing stored is rewritten: a session whose opening signature names no key (every one recorded
before) is checked as before.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ofc_desk.storage import append_only

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

TABLE = "entry_marks"


def upgrade() -> None:
    # ADD COLUMN with a constant default: SQLite alters the table in place, its triggers kept.
    op.add_column("signatures", sa.Column("entries_key", sa.String(64), nullable=False, server_default=""))
    op.create_table(
        TABLE,
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("session_id", sa.Integer(), sa.ForeignKey("table_sessions.id"), nullable=False),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("mark", sa.String(64), nullable=False),
    )
    op.create_index("ix_entry_marks_session", TABLE, ["session_id", "seq"])
    append_only.install(op.get_bind(), (TABLE,))


def downgrade() -> None:
    append_only.remove(op.get_bind(), (TABLE,))
    op.drop_index("ix_entry_marks_session", table_name=TABLE)
    op.drop_table(TABLE)
    op.drop_column("signatures", "entries_key")
