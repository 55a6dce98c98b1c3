"""Chip amounts in 64-bit columns: PostgreSQL's INTEGER stops at 2,147,483,647 chips.

SQLite's INTEGER already holds 64 bits, so only PostgreSQL's columns change.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

CHIP_COLUMNS = (("hands", "jackpot"), ("transfers", "owed"), ("transfers", "paid"), ("chip_ledger", "amount"))


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column in CHIP_COLUMNS:
        op.alter_column(
            table, column, type_=sa.BigInteger(), existing_type=sa.Integer(), existing_nullable=False
        )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column in CHIP_COLUMNS:
        op.alter_column(
            table, column, type_=sa.Integer(), existing_type=sa.BigInteger(), existing_nullable=False
        )
