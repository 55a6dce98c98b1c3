"""The accounts chain beside the room's tables, schema and users table: positions recorded, checks.

The room's position each account event records (`room_position`); the checks that hold the chain to
the room's tables and schema (`room_fault`) and the users table to the chain (`check_users_table`).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from ofc_desk.i18n import _
from ofc_desk.storage.accounts import BUILTIN_REPLAY, AccountsChain, AccountsFault, AccountState
from ofc_desk.storage.audit import GENESIS_HASH
from ofc_desk.storage.models import TableSession, User


def room_position(session: Session) -> dict[str, object]:
    """The `room` field of an account event (`RoomPosition`), as stored: read under the accounts
    chain's lock, which every signature at a table takes (shared) before it reads the accounts head,
    so no event signed under an older head can come after the position read here."""
    newest = session.scalar(select(func.coalesce(func.max(TableSession.id), 0)))
    heads = session.execute(
        select(TableSession.id, TableSession.head_seq)
        .where(TableSession.closed_at.is_(None))
        .order_by(TableSession.id)
    ).all()
    return {"newest_session": int(newest or 0), "open": {str(row.id): int(row.head_seq) for row in heads}}


APPROVALS_REVISION = "0008"
"""The migration that writes the accounts chain's `approvals_required` mark, names the accounts head
in every sign-off and chains the PIN checks."""
ROTATION_REVISION = "0012"
"""The migration that writes the accounts chain's `keys_rotate` mark."""


def anchors_accounts(session: Session) -> bool:
    """Whether the schema is of migration 0008 or later (remembered for the session): a copy of an
    older one, read only (`verify`, a report), has neither the sign-offs' accounts columns nor the
    chain of PIN checks, and is read as it stands."""
    return _at_least(session, APPROVALS_REVISION)


def _at_least(session: Session, wanted: str) -> bool:
    known = session.info.get(wanted)
    if known is None:
        revision = session.scalar(text("SELECT max(version_num) FROM alembic_version"))
        known = session.info[wanted] = revision is not None and str(revision) >= wanted
    return bool(known)


_FIRST_OPENING = (
    "(SELECT min(s.id) FROM table_sessions s JOIN events e ON e.session_id = s.id AND e.seq = 1"
    " WHERE {where})"
)
"""The first session, of those `where` picks, as its opening event tells it."""
_SESSIONS_AGAINST_THE_CHAIN = text(
    "SELECT "
    + _FIRST_OPENING.format(where="s.id <= :before AND e.prev_hash <> :genesis")
    + " AS linked, "
    + _FIRST_OPENING.format(where="s.id <= :before AND e.at > :signoffs_at")
    + " AS later, "
    # Sessions are numbered in the order they open (the room chain links each to the one before).
    + _FIRST_OPENING.format(
        where="s.id = (SELECT min(id) FROM table_sessions WHERE id > :before)"
        " AND e.at < :founded_at AND e.at < :replayed_from"
    )
    + " AS signed"
)
"""`room_fault`'s three questions to the room's tables, asked in one statement: the first session
linked into the room chain, or opened after sign-offs began, among those the chain says came before
them; the first signed session, if it opened before the room's set-up. SQL text, which a new engine
(a desk's first sign-in, each test's database) does not compile again as it does a statement
SQLAlchemy builds (about 3 ms for this one)."""


def room_fault(session: Session, chain: AccountsChain) -> str | None:
    """Where the accounts chain disagrees with the room's tables and schema, said in words: where
    it says sign-offs began must agree with the tables (a session linked into the room chain, which
    came after sign-offs, or opened after they began, cannot be one from before them); the room's
    set-up (its first supervisor signing their own creation) comes before any signed session but
    those replayed under the built-in dealer's key once it existed (only an empty room gets it); a
    schema of migration 0008 has its mark in the chain. A session is judged by its opening event
    (its row is checked against it)."""
    # Tables replayed under the built-in dealer's key before the set-up held no other account's.
    replay = chain.accounts.get(BUILTIN_REPLAY)
    replayed_from = replay.created_at if replay is not None and replay.builtin else chain.founded_at
    found = session.execute(
        _SESSIONS_AGAINST_THE_CHAIN,
        {
            "before": chain.sessions_before,
            "signoffs_at": chain.signoffs_at,
            "founded_at": chain.founded_at,
            "replayed_from": replayed_from,
            "genesis": GENESIS_HASH,
        },
    ).one()
    if found.linked is not None or found.later is not None:
        return _(
            "accounts: session {session} was opened after sign-offs began, yet the accounts chain says"
            " sessions up to {before} carry none: its start was rewritten"
        ).format(session=found.linked or found.later, before=chain.sessions_before)
    if chain.founded_at and found.signed:
        return _(
            "accounts: a supervisor signed their own creation after session {signed} was recorded: only"
            " a room's set-up does that, before any table"
        ).format(signed=found.signed)
    if not chain.strict_from and anchors_accounts(session):
        return _("accounts: the chain lacks the mark migration 0008 wrote: it was cut or rewritten")
    if not chain.rotate_from and _at_least(session, ROTATION_REVISION):
        return _("accounts: the chain lacks the mark migration 0012 wrote: it was cut or rewritten")
    return None


def check_users_table(accounts: dict[str, AccountState], users: Sequence[User]) -> None:
    """The users table must be exactly what the accounts chain gives."""
    by_name = {user.name: user for user in users}
    for name, state in accounts.items():
        user = by_name.pop(name, None)
        if user is None:
            raise AccountsFault(_("users: {name}'s account is missing").format(name=name))
        stored = (
            user.role,
            user.pin_hash,
            user.public_key,
            user.sealed_key,
            user.account_seq,
            user.created_at,
        )
        chained = (
            state.role,
            state.pin_hash,
            state.public_key,
            state.sealed_key,
            state.seq,
            state.created_at,
        )
        if stored != chained:
            raise AccountsFault(_("users: {name}'s row differs from the accounts chain").format(name=name))
    if by_name:
        raise AccountsFault(_("users: {name} has no account event").format(name=min(by_name)))
