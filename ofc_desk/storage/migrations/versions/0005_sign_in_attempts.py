"""Every PIN check is recorded, append-only, for the audit and the lockout after wrong PINs.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ofc_desk.storage import append_only

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

TABLE = "sign_in_attempts"


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("outcome", sa.String(20), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
    )
    op.create_index("ix_sign_in_attempts_name", TABLE, ["name", "id"])
    append_only.install(op.get_bind(), (TABLE,))


def downgrade() -> None:
    append_only.remove(op.get_bind(), (TABLE,))
    op.drop_table(TABLE)
