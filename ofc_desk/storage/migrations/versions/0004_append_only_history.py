"""The database refuses rewrites: triggers refuse UPDATE and DELETE of events and of every derived
row, and any change to a table session but the event flow's own (ofc_desk.storage.append_only).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

from alembic import op

from ofc_desk.storage import append_only

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    append_only.install(op.get_bind())


def downgrade() -> None:
    append_only.remove(op.get_bind())
