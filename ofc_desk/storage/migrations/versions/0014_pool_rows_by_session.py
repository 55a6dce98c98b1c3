"""The room's jackpot pool rows found by their table's session (issue 39): a report of a session
(each table of a shift report) reads that session's rows of the pool, and without an index the
server read every table's row of the room's history to find them, once for each session
reported. Nothing stored changes; an index is all it adds.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

TABLE = "jackpot_moves"
INDEX = "ix_jackpot_moves_session"


def upgrade() -> None:
    op.create_index(INDEX, TABLE, ["session_id", "id"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name=TABLE)
