"""Least-privilege PostgreSQL roles for a card room: what a desk and the floor may do.

`ofc_desk_table` is what a desk logs in as. It reads everything, inserts events with the rows they
leave beside them (a session, a settled hand, its transfers, chip ledger lines, sign-offs, PIN
checks: `DESK_INSERTS`), keeps the lease of the table it holds (`desk_holds`, migration 0011: no
history, so inserted and updated, never deleted) and updates only the columns the event flow moves:
a session's chain head (`head_seq`, `head_hash`), its `closed_at` when the close is recorded, and
its `opened_at` (set to the first event's time in the transaction that inserts it). It writes no
account: neither an account event (not even a key for an account an upgrade left without one: that
takes a supervisor's signed approval, made from a desk started with the owner's login) nor any
column of `users`. `ofc_desk_floor` reads everything and records only a supervisor's decision on a
table's request and a seed of the room's jackpot pool (`FLOOR_EVENT_KINDS`): a row-level security
policy on `events` refuses it any other kind of event, and it moves only a session's chain head,
with the signature, the seed's row of the pool and the PIN checks.

What either inserts is held to the event it belongs to (`_row_checks`), so that no one row a
login adds can silence a session: an event only as the next of an open session's chain, committed
only with the head moved onto it; a session only with its opening; a derived row only with its
event; a signature only over an event the session holds (one that does not hold, `verify` sets
aside).

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

from ofc_desk.i18n import _
from ofc_desk.storage.audit import GENESIS_HASH
from ofc_desk.storage.lockout import Attempt

TABLE_ROLE = "ofc_desk_table"
FLOOR_ROLE = "ofc_desk_floor"

DESK_INSERTS: dict[str, str] = {
    "table_sessions": "a table opened",
    "events": "each accepted action",
    "hands": "a settled hand (derived from its event)",
    "transfers": "a settled hand's transfers (derived)",
    "chip_ledger": "chip movements (derived)",
    "jackpot_moves": "the room's jackpot pool: drops, seeds and awards (derived)",
    "entry_marks": "each entry's mark of the desk that recorded it (beside its event)",
    "signatures": "the sign-offs of the chain by dealers and supervisors",
    "sign_in_attempts": "every PIN check, for the lockout",
    "desk_holds": "which desk holds a table (a lease, not history: also updated)",
}
"""What a desk records into; a table an older schema lacks is left out (its grant comes when the
roles are applied again after the upgrade that adds it)."""
LEASES = "desk_holds"
"""The one table a desk updates whole: which desk holds each table (issue 34), a lease."""
FLOOR_INSERTS: dict[str, str] = {
    "events": "a supervisor's decision on a request (only that kind: FLOOR_EVENT_KINDS)",
    "signatures": "the supervisor's signature of an approval",
    "jackpot_moves": "a seed of the room's jackpot pool (derived)",
    "sign_in_attempts": "every PIN check, for the lockout",
}
FLOOR_EVENT_KINDS = ("request_decided", "jackpot_seeded")
"""The event kinds the floor's role may insert (service.terms.events.FLOOR_WRITTEN; storage does not
import the service, so the word is said here and a test holds the two together)."""
FLOOR_COLUMNS_MOVED = ("head_seq", "head_hash")
"""The floor moves a session's chain head when it records a decision or a seed, nothing else of it."""
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
                raise RolesError(
                    _("'{name}' is not a plain role name (lower-case letters, digits, _)").format(name=name)
                )


@dataclass(frozen=True)
class RoomPlace:
    """Where the roles' SQL runs: the room's database, and who owns its tables."""

    database: str
    owner: str


def roles_sql(
    schema: str,
    sequences: dict[str, str | None],
    roles: RoomRoles = RoomRoles(),
    *,
    room: RoomPlace,
    chained_sign_ins: bool = True,
) -> list[str]:
    """The statements, in order, for `schema` of the `room`; `sequences` maps each table of the
    schema that a role inserts into to its id sequence (schema-qualified, as `pg_get_serial_sequence`
    gives it; None for a table whose key is not generated)."""
    both = f"{roles.table}, {roles.floor}"
    in_schema = _quote(schema)
    database = _quote(room.database)
    statements = [
        *(_create_role(name) for name in (roles.table, roles.floor)),
        # Roles are the server's: bound to this room's database, not to every database PUBLIC may reach.
        f"REVOKE CONNECT ON DATABASE {database} FROM PUBLIC",
        f"GRANT CONNECT ON DATABASE {database} TO {both}, {_quote(room.owner)}",
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
    if LEASES in sequences:  # a desk takes, moves and lets go of its table's hold
        statements.append(f"GRANT UPDATE ON {in_schema}.{LEASES} TO {roles.table}")
    moved = ", ".join(SESSION_COLUMNS_MOVED)
    statements.append(f"GRANT UPDATE ({moved}) ON {in_schema}.table_sessions TO {roles.table}")
    floor_moved = ", ".join(FLOOR_COLUMNS_MOVED)
    statements.append(f"GRANT UPDATE ({floor_moved}) ON {in_schema}.table_sessions TO {roles.floor}")
    statements += _event_policies(f"{in_schema}.events", roles)
    held = set(sequences) - (set() if chained_sign_ins else {"sign_in_attempts"})
    statements += _row_checks(in_schema, roles, held, room.owner)
    return statements


def _event_policies(events: str, roles: RoomRoles) -> list[str]:
    """Row-level security on `events`: everyone with SELECT reads every row; a desk inserts only
    the next event of an open session's chain (a session's first, its opening), the floor only a
    decision on a request, the next of its table's chain. The owner (migrations) is not bound by it."""
    kinds = ", ".join(f"'{kind}'" for kind in FLOOR_EVENT_KINDS)
    sessions = events.removesuffix(".events") + ".table_sessions"
    next_in_chain = (
        f"EXISTS (SELECT 1 FROM {sessions} s WHERE s.id = events.session_id AND s.closed_at IS NULL"
        " AND events.seq = s.head_seq + 1 AND (s.head_seq > 0 AND events.prev_hash = s.head_hash"
        " OR s.head_seq = 0 AND events.kind = 'table_opened'))"
    )
    policies = {
        "ofc_desk_reads": "FOR SELECT USING (true)",
        "ofc_desk_desk_records": f"FOR INSERT TO {roles.table} WITH CHECK ({next_in_chain})",
        "ofc_desk_floor_decides": (
            f"FOR INSERT TO {roles.floor} WITH CHECK (kind IN ({kinds}) AND {next_in_chain})"
        ),
    }
    return _policies(events, policies)


def _policies(table: str, policies: dict[str, str]) -> list[str]:
    statements = [f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY"]
    for name, rule in policies.items():
        statements += [
            f"DROP POLICY IF EXISTS {name} ON {table}",
            f"CREATE POLICY {name} ON {table} {rule}",
        ]
    return statements


THIS_TRANSACTION = "pg_current_xact_id()::xid"
"""A row whose `xmin` is this was inserted by the transaction now running."""
DERIVED_ROWS: dict[str, str] = {
    "hands": (
        "EXISTS (SELECT 1 FROM {schema}.events e WHERE e.id = hands.event_id"
        " AND e.session_id = hands.session_id AND e.kind = 'hand_settled' AND e.at = hands.settled_at"
        f" AND e.xmin = {THIS_TRANSACTION})"
    ),
    "transfers": (
        "EXISTS (SELECT 1 FROM {schema}.hands h WHERE h.id = transfers.hand_id"
        f" AND h.xmin = {THIS_TRANSACTION})"
    ),
    "chip_ledger": (
        "EXISTS (SELECT 1 FROM {schema}.events e WHERE e.id = chip_ledger.event_id"
        f" AND e.session_id = chip_ledger.session_id AND e.xmin = {THIS_TRANSACTION})"
    ),
    "jackpot_moves": (
        "EXISTS (SELECT 1 FROM {schema}.events e WHERE e.id = jackpot_moves.event_id"
        f" AND e.session_id = jackpot_moves.session_id AND e.xmin = {THIS_TRANSACTION}"
        " AND (jackpot_moves.kind = 'drop' AND jackpot_moves.chips > 0 AND e.kind = 'hand_settled'"
        " AND jackpot_moves.hand_number = (e.payload::json->>'number')::bigint"
        " OR jackpot_moves.kind = 'award' AND jackpot_moves.chips < 0 AND e.kind = 'hand_settled'"
        " AND jackpot_moves.hand_number = (e.payload::json->>'number')::bigint"
        " OR jackpot_moves.kind = 'void' AND e.kind = 'hand_voided'"
        " AND jackpot_moves.hand_number = (e.payload::json->>'hand')::bigint"
        " OR jackpot_moves.kind = 'seed' AND e.kind = 'jackpot_seeded' AND jackpot_moves.hand_number IS NULL"
        " AND jackpot_moves.chips = (e.payload::json->>'chips')::bigint))"
        " AND NOT EXISTS (SELECT 1 FROM {schema}.jackpot_moves m WHERE m.event_id = jackpot_moves.event_id"
        " AND m.kind = jackpot_moves.kind)"
    ),
    "entry_marks": (
        "EXISTS (SELECT 1 FROM {schema}.events e WHERE e.id = entry_marks.event_id"
        " AND e.session_id = entry_marks.session_id AND e.seq = entry_marks.seq"
        f" AND e.xmin = {THIS_TRANSACTION})"
    ),
}
"""What a desk may insert into the rows an event leaves beside it: only rows of an event (a hand:
of a settlement) inserted in the same transaction, as `persistence.EventStore` writes them. A row
added later for any event, which `verify` would otherwise have to set aside, is refused. A change
of the room's pool is held to its event's kind, hand and sign (a seed to its chips), once per
event and kind (issue 35): the pool is walked from the events all the same (`pool_ledger`), and
`verify` sets aside a row beside them."""
POOL_POLICY_WORD = "jackpot_seeded"
"""A word the policy on `jackpot_moves` says only since it holds a change to its event's kind
(`roles_state` names a room whose roles were applied before)."""
SIGNED_EVENT = (
    "EXISTS (SELECT 1 FROM {schema}.events e WHERE e.session_id = signatures.session_id"
    " AND e.seq = signatures.seq AND e.hash = signatures.hash)"
)
"""A signature is over an event the session holds: signing a head, a desk or the floor signs one."""


CHAINED_CHECK = (
    "sign_in_attempts.outcome IN ({outcomes})"
    " AND sign_in_attempts.prev_hash = coalesce((SELECT a.hash FROM {schema}.sign_in_attempts a"
    " WHERE a.hash <> '' ORDER BY a.id DESC LIMIT 1), '{genesis}')"
    " AND sign_in_attempts.hash = encode(sha256(convert_to(sign_in_attempts.prev_hash"
    """ || '{{"at":' || to_json(sign_in_attempts.at)::text"""
    """ || ',"name":' || to_json(sign_in_attempts.name)::text"""
    """ || ',"outcome":' || to_json(sign_in_attempts.outcome)::text"""
    """ || ',"role":' || to_json(sign_in_attempts.role)::text || '}}', 'UTF8')), 'hex')"""
)
"""A PIN check is the next link of their chain (after the newest chained one: a try from before
migration 0008 has no hash and links nothing, as `lockout.record` reads it), its hash over its
content as `lockout.attempt_hash` makes it (PostgreSQL's `to_json` escapes a text as Python's JSON
writer does with `ensure_ascii=False`). Whether an accepted one is signed, SQL cannot tell: `verify`
sets aside one that is not, and the lockout counts it as a wrong PIN."""


def chained_check(schema: str) -> str:
    """The insert policy's check on `sign_in_attempts` in `schema` (quoted), also set by migration
    0010 on a room whose roles were applied before."""
    outcomes = ", ".join(f"'{outcome.value}'" for outcome in Attempt)
    return CHAINED_CHECK.format(schema=schema, outcomes=outcomes, genesis=GENESIS_HASH)


ROW_POLICIES = {
    **dict.fromkeys(DERIVED_ROWS, "ofc_desk_derived"),
    "signatures": "ofc_desk_signs",
    "sign_in_attempts": "ofc_desk_chained",
}
"""Each table held to its event beside `events`, and the name of its insert policy."""
COMMIT_CHECKS = {"ofc_desk_event_in_chain": "events", "ofc_desk_session_opened": "table_sessions"}
"""The checks made when a transaction commits, and the table each is on."""


def _row_checks(schema: str, roles: RoomRoles, present: set[str], owner: str) -> list[str]:
    """No one row a role may insert can silence a session (issue 25): derived rows only with their
    event, signatures only over an event of that session (one that does not hold is set aside by
    `verify`), and, checked when the transaction commits, an event only with the chain head moved
    onto it and a session only with its opening recorded. The deferred checks bind every login,
    the owner's too: the event flow and the migrations meet them."""
    statements = []
    both = f"{roles.table}, {roles.floor}"
    for table, rule in DERIVED_ROWS.items():
        if table in present:
            check = rule.format(schema=schema)
            inserters = both if table in FLOOR_INSERTS else roles.table  # a seed's row, from the floor
            statements += _policies(
                f"{schema}.{table}",
                {
                    "ofc_desk_reads": "FOR SELECT USING (true)",
                    ROW_POLICIES[table]: f"FOR INSERT TO {inserters} WITH CHECK ({check})",
                },
            )
    either = {"signatures": SIGNED_EVENT.format(schema=schema), "sign_in_attempts": chained_check(schema)}
    for table, check in either.items():
        if table in present:
            statements += _policies(
                f"{schema}.{table}",
                {
                    "ofc_desk_reads": "FOR SELECT USING (true)",
                    ROW_POLICIES[table]: f"FOR INSERT TO {both} WITH CHECK ({check})",
                },
            )
    return statements + _commit_checks(schema, owner)


def _commit_checks(schema: str, owner: str) -> list[str]:
    """Deferred to the commit, when the event flow has moved the head: a committed event lies
    within its session's chain, and a session is committed only with its opening event.

    The functions belong to the tables' `owner` whoever runs the SQL (an administrator with psql,
    or the owner with `--apply`), so that either may run it again after the next upgrade: one is
    replaced only when its body changed, and given to the owner by whoever may."""
    sessions = f"{schema}.table_sessions"
    # The messages are built with || (a % would be read as a parameter by the driver).
    checks = {
        "ofc_desk_event_in_chain": (
            f"{schema}.{COMMIT_CHECKS['ofc_desk_event_in_chain']}",
            f"IF NOT EXISTS (SELECT 1 FROM {sessions} WHERE id = NEW.session_id AND head_seq >= NEW.seq)"
            " THEN RAISE EXCEPTION USING MESSAGE = 'ofc-desk: event number ' || NEW.seq || ' of session '"
            " || NEW.session_id || ' lies beyond its chain head: an event is recorded with the head"
            " moved onto it'; END IF;",
        ),
        "ofc_desk_session_opened": (
            f"{schema}.{COMMIT_CHECKS['ofc_desk_session_opened']}",
            "IF NEW.head_seq <> 0 OR NEW.closed_at IS NOT NULL OR NOT EXISTS (SELECT 1 FROM"
            f" {sessions} WHERE id = NEW.id AND head_seq >= 1) THEN RAISE EXCEPTION USING MESSAGE ="
            " 'ofc-desk: session ' || NEW.id || ' is recorded only with its opening event'; END IF;",
        ),
    }
    statements = []
    for name, (table, body) in checks.items():
        function, source = f"{schema}.{name}()", f" BEGIN {body} RETURN NULL; END "
        found = f"SELECT FROM pg_proc WHERE oid = to_regprocedure({_literal(function)})"
        statements += [
            f"DO $do$ BEGIN IF NOT EXISTS ({found} AND prosrc = $body${source}$body$) THEN"
            f" CREATE OR REPLACE FUNCTION {function} RETURNS trigger LANGUAGE plpgsql AS"
            f" $body${source}$body$; END IF;"
            f" IF EXISTS ({found} AND proowner <> to_regrole({_literal(_quote(owner))})"
            f" AND pg_has_role(proowner, 'MEMBER')) THEN ALTER FUNCTION {function} OWNER TO {_quote(owner)};"
            " END IF; END $do$",
            f"DROP TRIGGER IF EXISTS {name} ON {table}",
            f"CREATE CONSTRAINT TRIGGER {name} AFTER INSERT ON {table} DEFERRABLE INITIALLY DEFERRED"
            f" FOR EACH ROW EXECUTE FUNCTION {schema}.{name}()",
        ]
    return statements


def room_roles_sql(connection: Connection, roles: RoomRoles = RoomRoles()) -> list[str]:
    """The statements for the schema this connection works in (its `search_path`)."""
    if connection.dialect.name != "postgresql":
        raise RolesError(_("roles are for a PostgreSQL card room: SQLite has no roles or grants"))
    schema = connection.scalar(text("SELECT current_schema()"))
    if schema is None:
        raise RolesError(_("the connection has no schema to work in (check search_path)"))
    sequences: dict[str, str | None] = {}
    for table in {**DESK_INSERTS, **FLOOR_INSERTS}:
        qualified = f"{_quote(schema)}.{table}"
        if connection.scalar(text("SELECT to_regclass(:table)"), {"table": qualified}) is None:
            continue
        sequences[table] = _id_sequence(connection, qualified)
    missing = [table for table in ("table_sessions", "events") if table not in sequences]
    if missing:
        raise RolesError(
            _("{schema} has no {tables} table: is it an OFC Desk database?").format(
                schema=schema, tables=_(" or ").join(missing)
            )
        )
    room = RoomPlace(str(connection.scalar(text("SELECT current_database()"))), tables_owner(connection))
    return roles_sql(str(schema), sequences, roles, room=room, chained_sign_ins=sign_ins_chained(connection))


def tables_owner(connection: Connection) -> str:
    """Who owns the schema's tables (who ran the migrations): the owner of its `events`."""
    owner = "SELECT tableowner FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'events'"
    return str(connection.scalar(text(owner)))


def sign_ins_chained(connection: Connection) -> bool:
    """Whether the schema's PIN checks are a chain (migration 0008): before, nothing holds them."""
    return bool(
        connection.scalar(
            text(
                "SELECT 1 FROM pg_attribute WHERE attname = 'hash' AND NOT attisdropped AND attrelid ="
                " to_regclass(format('%I.sign_in_attempts', current_schema()))"
            )
        )
    )


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


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'
