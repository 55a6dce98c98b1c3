"""Which desk holds each open table (issue 34, one table, one desk): one row a table, the desk's
machine, its dealer, since when and the token of the desk's process. It is a lease, not history:
a desk claims it when it opens or resumes the table, a floor supervisor's takeover moves it (the
takeover itself is an event of the table's chain), and a desk closed normally lets it go. The
append of every event a desk records checks, in its transaction, that the desk still holds it.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

TABLE = "desk_holds"


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column(
            "session_id",
            sa.Integer(),
            sa.ForeignKey("table_sessions.id"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("desk", sa.String(120), nullable=False),
        sa.Column("dealer", sa.String(120), nullable=False),
        sa.Column("since", sa.String(40), nullable=False),
        sa.Column("token", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table(TABLE)
