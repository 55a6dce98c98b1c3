"""Least-privilege PostgreSQL roles for a card room: what a desk and the floor may do.

`ofc_desk_table` is what a desk logs in as. It reads everything, inserts events with the rows they
leave beside them (a session, a settled hand, its transfers, chip ledger lines, sign-offs, PIN
checks: `DESK_INSERTS`) and updates only the columns the event flow moves: a session's chain head
(`head_seq`, `head_hash`), its `closed_at` when the close is recorded, and its `opened_at` (set to
the first event's time in the transaction that inserts it). It writes no account: neither an
account event (not even a key for an account an upgrade left without one: that takes a
supervisor's signed approval, made from a desk started with the owner's login) nor any column of
`users`. `ofc_desk_floor` reads everything and records only a supervisor's decision on a table's
request (`FLOOR_EVENT_KINDS`): a row-level security policy on `events` refuses it any other kind
of event, and it moves only a session's chain head, with the signature and the PIN checks.

Neither role owns anything, and nobody but the owner may create in the schema, so neither can
alter a table, drop a trigger or truncate: those need ownership. The SQL is safe to run again
(roles that exist are kept, their grants are reset to exactly these) and is run again after every
upgrade that adds a table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, text

TABLE_ROLE = "ofc_desk_table"
FLOOR_ROLE = "ofc_desk_floor"

DESK_INSERTS: dict[str, str] = {
    "table_sessions": "a table opened",
    "events": "each accepted action",
    "hands": "a settled hand (derived from its event)",
    "transfers": "a settled hand's transfers (derived)",
    "chip_ledger": "chip movements (derived)",
    "signatures": "the sign-offs of the chain by dealers and supervisors",
    "sign_in_attempts": "every PIN check, for the lockout",
}
"""What a desk records into; a table an older schema lacks is left out (its grant comes when the
roles are applied again after the upgrade that adds it)."""
FLOOR_INSERTS: dict[str, str] = {
    "events": "a supervisor's decision on a request (only that kind: FLOOR_EVENT_KINDS)",
    "signatures": "the supervisor's signature of an approval",
    "sign_in_attempts": "every PIN check, for the lockout",
}
FLOOR_EVENT_KINDS = ("request_decided",)
"""The event kinds the floor's role may insert (service.events.FLOOR_WRITTEN; storage does not
import the service, so the word is said here and a test holds the two together)."""
FLOOR_COLUMNS_MOVED = ("head_seq", "head_hash")
"""The floor moves a session's chain head when it records a decision, nothing else of it."""
SESSION_COLUMNS_MOVED = ("head_seq", "head_hash", "closed_at", "opened_at")
"""The UPDATEs of the event flow on the session row (persistence.EventStore._write)."""

_ROLE_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


class RolesError(ValueError):
    """The roles cannot be made here; the message says why."""


@dataclass(frozen=True)
class RoomRoles:
    table: str = TABLE_ROLE
    floor: str = FLOOR_ROLE

    def __post_init__(self) -> None:
        for name in (self.table, self.floor):
            if not _ROLE_NAME.fullmatch(name):
                raise RolesError(f"'{name}' is not a plain role name (lower-case letters, digits, _)")


def roles_sql(schema: str, sequences: dict[str, str | None], roles: RoomRoles = RoomRoles()) -> list[str]:
    """The statements, in order, for `schema`; `sequences` maps each table of the schema that a
    role inserts into to its id sequence (schema-qualified, as `pg_get_serial_sequence` gives it;
    None for a table whose key is not generated)."""
    both = f"{roles.table}, {roles.floor}"
    in_schema = _quote(schema)
    statements = [
        *(_create_role(name) for name in (roles.table, roles.floor)),
        f"REVOKE CREATE ON SCHEMA {in_schema} FROM PUBLIC",
        f"REVOKE ALL ON SCHEMA {in_schema} FROM {both}",
        f"REVOKE ALL ON ALL TABLES IN SCHEMA {in_schema} FROM {both}",
        f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {in_schema} FROM {both}",
        f"GRANT USAGE ON SCHEMA {in_schema} TO {both}",
        f"GRANT SELECT ON ALL TABLES IN SCHEMA {in_schema} TO {both}",
    ]
    for role, inserts in ((roles.table, DESK_INSERTS), (roles.floor, FLOOR_INSERTS)):
        present = [table for table in inserts if table in sequences]
        statements.append(f"GRANT INSERT ON {', '.join(f'{in_schema}.{t}' for t in present)} TO {role}")
        generated = [str(sequences[table]) for table in present if sequences[table]]
        statements.append(f"GRANT USAGE ON SEQUENCE {', '.join(generated)} TO {role}")
    moved = ", ".join(SESSION_COLUMNS_MOVED)
    statements.append(f"GRANT UPDATE ({moved}) ON {in_schema}.table_sessions TO {roles.table}")
    floor_moved = ", ".join(FLOOR_COLUMNS_MOVED)
    statements.append(f"GRANT UPDATE ({floor_moved}) ON {in_schema}.table_sessions TO {roles.floor}")
    statements += _event_policies(f"{in_schema}.events", roles)
    return statements


def _event_policies(events: str, roles: RoomRoles) -> list[str]:
    """Row-level security on `events`: everyone with SELECT reads every row, a desk inserts any
    event, the floor only a decision on a request. The owner (migrations) is not bound by it."""
    kinds = ", ".join(f"'{kind}'" for kind in FLOOR_EVENT_KINDS)
    policies = {
        "ofc_desk_reads": "FOR SELECT USING (true)",
        "ofc_desk_desk_records": f"FOR INSERT TO {roles.table} WITH CHECK (true)",
        "ofc_desk_floor_decides": f"FOR INSERT TO {roles.floor} WITH CHECK (kind IN ({kinds}))",
    }
    statements = [f"ALTER TABLE {events} ENABLE ROW LEVEL SECURITY"]
    for name, rule in policies.items():
        statements += [
            f"DROP POLICY IF EXISTS {name} ON {events}",
            f"CREATE POLICY {name} ON {events} {rule}",
        ]
    return statements


def room_roles_sql(connection: Connection, roles: RoomRoles = RoomRoles()) -> list[str]:
    """The statements for the schema this connection works in (its `search_path`)."""
    if connection.dialect.name != "postgresql":
        raise RolesError("roles are for a PostgreSQL card room: SQLite has no roles or grants")
    schema = connection.scalar(text("SELECT current_schema()"))
    if schema is None:
        raise RolesError("the connection has no schema to work in (check search_path)")
    sequences: dict[str, str | None] = {}
    for table in {**DESK_INSERTS, **FLOOR_INSERTS}:
        qualified = f"{_quote(schema)}.{table}"
        if connection.scalar(text("SELECT to_regclass(:table)"), {"table": qualified}) is None:
            continue
        sequences[table] = _id_sequence(connection, qualified)
    missing = [table for table in ("table_sessions", "events") if table not in sequences]
    if missing:
        raise RolesError(f"{schema} has no {' or '.join(missing)} table: is it an OFC Desk database?")
    return roles_sql(str(schema), sequences, roles)


def _id_sequence(connection: Connection, qualified: str) -> str | None:
    """The sequence of the table's generated `id`; None for a table keyed otherwise."""
    has_id = connection.scalar(
        text("SELECT 1 FROM pg_attribute WHERE attrelid = CAST(:table AS regclass) AND attname = 'id'"),
        {"table": qualified},
    )
    if has_id is None:
        return None
    found = connection.scalar(text("SELECT pg_get_serial_sequence(:table, 'id')"), {"table": qualified})
    return None if found is None else str(found)


def apply_roles(connection: Connection, statements: Sequence[str]) -> None:
    """Run the statements in the connection's transaction and commit: the grants change all
    together or not at all."""
    for statement in statements:
        connection.exec_driver_sql(statement)
    connection.commit()


def as_script(statements: Sequence[str]) -> str:
    return "".join(f"{statement};\n" for statement in statements)


def _create_role(name: str) -> str:
    # CREATE ROLE has no IF NOT EXISTS; a role that exists keeps its password and memberships.
    return (
        f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{name}') "
        f"THEN CREATE ROLE {name} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE; END IF; END $$"
    )


def _quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'
