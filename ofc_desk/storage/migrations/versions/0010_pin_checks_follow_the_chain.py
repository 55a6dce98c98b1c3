"""PIN checks follow the newest chained one: on PostgreSQL, the row policy a card room's roles
meet when they record a PIN check took a check from before migration 0008 (which has no hash) for
the head of the chain, while the desk links the first chained check to the genesis hash; in a room
upgraded from before 0008, every sign-in as a desk's or the floor's login was refused. The policy,
where the roles were applied, is set to the one `ofc-desk db roles` makes now.

Nothing stored is rewritten: the old checks keep their empty hash, outside the chain, before it.
SQLite has no policies: nothing to do there.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ofc_desk.storage.roles import chained_check

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

POLICY = "ofc_desk_chained"


def upgrade() -> None:
    connection = op.get_bind()
    if connection.dialect.name != "postgresql" or not _policy_made(connection):
        return
    schema = str(connection.scalar(sa.text("SELECT quote_ident(current_schema())")))
    connection.execute(
        sa.text(f"ALTER POLICY {POLICY} ON sign_in_attempts WITH CHECK ({chained_check(schema)})")
    )


def _policy_made(connection: sa.Connection) -> bool:
    return bool(
        connection.scalar(
            sa.text(
                "SELECT 1 FROM pg_policies WHERE schemaname = current_schema()"
                " AND tablename = 'sign_in_attempts' AND policyname = :policy"
            ),
            {"policy": POLICY},
        )
    )


def downgrade() -> None:
    """The policy stays: it is the right one for revision 0009 too."""
