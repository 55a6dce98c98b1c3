"""A table has at most one open session: two desks opening the same table at once cannot both win.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

INDEX = "uq_table_sessions_open_table"
OPEN = sa.text("closed_at IS NULL")


def upgrade() -> None:
    op.create_index(
        INDEX, "table_sessions", ["table_name"], unique=True, sqlite_where=OPEN, postgresql_where=OPEN
    )


def downgrade() -> None:
    op.drop_index(INDEX, table_name="table_sessions")
