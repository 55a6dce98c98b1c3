"""The room's jackpot pool (docs/rules.md §11): one pool per database, fed by every table's drop,
filled by a supervisor's seed, emptied by awards. Each change is a row of `jackpot_moves`, derived
from its event like the chip ledger, with the pool after it; the pool is the last row's, written
under the pool's lock and never below 0.

The drops recorded before this upgrade went into each session's own pool, which nothing paid: they
are the room's pool now. Their rows are derived here from the stored hands (and the voids that
took a drop back), in the order of their events, exactly as the service derives them today;
nothing stored is rewritten.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

from ofc_desk.storage import append_only

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

TABLE = "jackpot_moves"


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("session_id", sa.Integer(), sa.ForeignKey("table_sessions.id"), nullable=False),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("hand_number", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("chips", sa.BigInteger(), nullable=False),
        sa.Column("pool_after", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("pool_after >= 0", name="ck_jackpot_moves_pool"),
    )
    connection = op.get_bind()
    pool = 0
    for event_id, session_id, hand_number, kind, chips in _earlier_moves(connection):
        pool += chips
        connection.execute(
            sa.text(
                f"INSERT INTO {TABLE} (session_id, event_id, hand_number, kind, chips, pool_after)"
                " VALUES (:session, :event, :hand, :kind, :chips, :pool)"
            ),
            {
                "session": session_id,
                "event": event_id,
                "hand": hand_number,
                "kind": kind,
                "chips": chips,
                "pool": pool,
            },
        )
    append_only.install(connection, (TABLE,))


def _earlier_moves(connection: sa.Connection) -> list[tuple[int, int, int, str, int]]:
    """Every drop stored so far, and every void that took one back, in the order of their events."""
    drops = {
        (session_id, number): (event_id, jackpot)
        for event_id, session_id, number, jackpot in connection.execute(
            sa.text("SELECT event_id, session_id, number, jackpot FROM hands WHERE jackpot > 0")
        )
    }
    moves = [
        (event_id, session, number, "drop", jackpot)
        for (session, number), (event_id, jackpot) in drops.items()
    ]
    voids = connection.execute(
        sa.text("SELECT id, session_id, payload FROM events WHERE kind = 'hand_voided'")
    )
    for event_id, session_id, payload in voids:
        number = json.loads(payload)["hand"]
        dropped = drops.get((session_id, number))
        if dropped is not None:
            moves.append((event_id, session_id, number, "void", -dropped[1]))
    return sorted(moves)


def downgrade() -> None:
    append_only.remove(op.get_bind(), (TABLE,))
    op.drop_table(TABLE)
