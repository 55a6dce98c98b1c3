"""Whether a card room's roles are current: what `ofc_desk_table` and `ofc_desk_floor` may do now,
read from PostgreSQL's catalog, against exactly what `roles.roles_sql` grants for the schema as it
stands (`ofc-desk db status`).

A migration that adds a table leaves the roles without grants on it until the owner applies them
again; a grant given by hand is one the roles must not have. Either shows here as a difference,
named, so the owner knows to run `ofc-desk db roles --apply`. Anyone who can log in may ask: the
catalog is readable by every login.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, text

from ofc_desk.i18n import _, ngettext
from ofc_desk.storage.roles import (
    COMMIT_CHECKS,
    DESK_INSERTS,
    FLOOR_COLUMNS_MOVED,
    FLOOR_EVENT_KINDS,
    FLOOR_INSERTS,
    LEASES,
    POOL_POLICY_WORD,
    ROW_POLICIES,
    SESSION_COLUMNS_MOVED,
    RoomRoles,
    sign_ins_chained,
    tables_owner,
)

Grant = tuple[str, str, str]
"""(role, what, privilege): ("ofc_desk_table", "table events", "INSERT")."""
PUBLIC = "PUBLIC"
SHOWN_DIFFERENCES = 3

_TABLES = """
SELECT c.relname FROM pg_class c
WHERE c.relnamespace = CAST(current_schema() AS regnamespace) AND c.relkind IN ('r', 'p')
"""
_ID_SEQUENCES = """
SELECT c.relname, pg_get_serial_sequence(format('%I.%I', current_schema(), c.relname), 'id')
FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'id' AND NOT a.attisdropped
WHERE c.relnamespace = CAST(current_schema() AS regnamespace) AND c.relkind IN ('r', 'p')
"""
_OBJECT_GRANTS = """
SELECT CASE c.relkind WHEN 'S' THEN 'sequence ' || format('%I.%I', current_schema(), c.relname)
                      ELSE 'table ' || c.relname END,
       g.privilege_type, coalesce(r.rolname, 'PUBLIC')
FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) g LEFT JOIN pg_roles r ON r.oid = g.grantee
WHERE c.relnamespace = CAST(current_schema() AS regnamespace) AND c.relkind IN ('r', 'p', 'S')
"""
_COLUMN_GRANTS = """
SELECT 'column ' || c.relname || '.' || a.attname, g.privilege_type, coalesce(r.rolname, 'PUBLIC')
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
CROSS JOIN LATERAL aclexplode(a.attacl) g LEFT JOIN pg_roles r ON r.oid = g.grantee
WHERE c.relnamespace = CAST(current_schema() AS regnamespace) AND a.attacl IS NOT NULL
"""
_SCHEMA_GRANTS = """
SELECT 'the schema', g.privilege_type, coalesce(r.rolname, 'PUBLIC')
FROM pg_namespace n CROSS JOIN LATERAL aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) g
LEFT JOIN pg_roles r ON r.oid = g.grantee
WHERE n.oid = CAST(current_schema() AS regnamespace)
"""
_POLICIES = """
SELECT policyname, cmd, roles::text[], coalesce(with_check, '') FROM pg_policies
WHERE schemaname = current_schema() AND tablename = 'events'
"""


@dataclass(frozen=True)
class RolesState:
    made: bool
    """Either role exists."""
    current: bool
    words: str
    """"current", "not made yet", or the first differences from what the roles should be."""


ROOM_ROLES = RoomRoles()


def roles_state(connection: Connection, roles: RoomRoles = ROOM_ROLES) -> RolesState:
    """How the room's roles stand in the schema this connection works in (PostgreSQL only)."""
    names = (roles.table, roles.floor)
    found = set(
        connection.scalars(
            text("SELECT rolname FROM pg_roles WHERE rolname = ANY(:names)"), {"names": list(names)}
        )
    )
    if not found:
        return RolesState(False, False, _("not made yet ({roles})").format(roles=_(" and ").join(names)))
    differences = [_("there is no role {name}").format(name=name) for name in names if name not in found]
    expected, granted = _expected(connection, roles), _granted(connection, roles)
    differences += [
        _("{role} lacks {privilege} on {what}").format(role=role, privilege=privilege, what=what)
        for role, what, privilege in sorted(expected - granted, key=_tables_first)
    ]
    differences += [
        _("{role} has {privilege} on {what}, which it must not").format(
            role=role, privilege=privilege, what=what
        )
        for role, what, privilege in sorted(granted - expected, key=_tables_first)
    ]
    differences += _policy_differences(connection, roles)
    differences += _row_check_differences(connection)
    differences += _function_owner_differences(connection)
    differences += _database_differences(connection, roles)
    if not differences:
        exactly = _("current ({roles} have exactly the grants of this OFC Desk)")
        return RolesState(True, True, exactly.format(roles=_(" and ").join(names)))
    shown = "; ".join(differences[:SHOWN_DIFFERENCES])
    more = len(differences) - SHOWN_DIFFERENCES
    if more > 0:
        shown = ngettext("{shown}; and {count} more", "{shown}; and {count} more", more).format(
            shown=shown, count=more
        )
    return RolesState(True, False, _("not current: {differences}").format(differences=shown))


def _tables_first(grant: Grant) -> tuple[str, bool, str, str]:
    """A role's tables before its columns, sequences and schema: what a person reads first."""
    role, what, privilege = grant
    return role, not what.startswith("table "), what, privilege


def _expected(connection: Connection, roles: RoomRoles) -> set[Grant]:
    """What `roles.roles_sql` grants for the tables the schema has now."""
    tables = set(connection.scalars(text(_TABLES)))
    sequences = {table: sequence for table, sequence in connection.execute(text(_ID_SEQUENCES)) if sequence}
    expected: set[Grant] = set()
    for role, inserts in ((roles.table, DESK_INSERTS), (roles.floor, FLOOR_INSERTS)):
        expected.add((role, "the schema", "USAGE"))
        expected |= {(role, f"table {table}", "SELECT") for table in tables}
        present = [table for table in inserts if table in tables]
        expected |= {(role, f"table {table}", "INSERT") for table in present}
        expected |= {
            (role, f"sequence {sequences[table]}", "USAGE") for table in present if table in sequences
        }
    moved = [
        (roles.table, "table_sessions", SESSION_COLUMNS_MOVED),
        (roles.floor, "table_sessions", FLOOR_COLUMNS_MOVED),
    ]
    for role, table, columns in moved:
        expected |= {(role, f"column {table}.{column}", "UPDATE") for column in columns}
    if LEASES in tables:
        expected.add((roles.table, f"table {LEASES}", "UPDATE"))
    return expected


def _granted(connection: Connection, roles: RoomRoles) -> set[Grant]:
    """What the two roles hold in the schema, and PUBLIC's CREATE on it (which they must not
    inherit: nobody but the owner creates there)."""
    granted: set[Grant] = set()
    for query in (_OBJECT_GRANTS, _COLUMN_GRANTS, _SCHEMA_GRANTS):
        for what, privilege, role in connection.execute(text(query)):
            if role in (roles.table, roles.floor) or (
                role == PUBLIC and what == "the schema" and privilege == "CREATE"
            ):
                granted.add((role, what, privilege))
    return granted


def _policy_differences(connection: Connection, roles: RoomRoles) -> list[str]:
    """Row-level security on `events`: on, and exactly the three policies of `roles_sql`."""
    events = "to_regclass(format('%I.events', current_schema()))"
    enabled = connection.scalar(text(f"SELECT relrowsecurity FROM pg_class WHERE oid = {events}"))
    if enabled is None:
        return []
    differences = [] if enabled else [_("row-level security is off on {table}").format(table="events")]
    policies = {
        name: (cmd, sorted(to), check) for name, cmd, to, check in connection.execute(text(_POLICIES))
    }
    wanted = {
        "ofc_desk_reads": ("SELECT", ["public"]),
        "ofc_desk_desk_records": ("INSERT", [roles.table]),
        "ofc_desk_floor_decides": ("INSERT", [roles.floor]),
    }
    for name in sorted(set(policies) - set(wanted)):
        differences.append(_("events has a policy {name} the roles do not make").format(name=name))
    for name, (cmd, to) in wanted.items():
        found = policies.get(name)
        if found is None or found[:2] != (cmd, to):
            differences.append(
                _("events lacks its policy {name} ({command} for {roles})").format(
                    name=name, command=cmd, roles=", ".join(to)
                )
            )
    floor = policies.get("ofc_desk_floor_decides")
    if floor is not None and any(f"'{kind}'" not in floor[2] for kind in FLOOR_EVENT_KINDS):
        differences.append(_("the floor's policy on events does not hold it to decisions on requests"))
    return differences


_ROW_SECURITY = """
SELECT c.relname, c.relrowsecurity FROM pg_class c
WHERE c.relnamespace = CAST(current_schema() AS regnamespace) AND c.relkind IN ('r', 'p')
"""
_ALL_POLICIES = "SELECT tablename, policyname FROM pg_policies WHERE schemaname = current_schema()"
_DESK_POLICY = """
SELECT coalesce(with_check, '') FROM pg_policies
WHERE schemaname = current_schema() AND tablename = 'events' AND policyname = 'ofc_desk_desk_records'
"""
_POOL_POLICY = """
SELECT coalesce(with_check, '') FROM pg_policies
WHERE schemaname = current_schema() AND tablename = 'jackpot_moves' AND policyname = 'ofc_desk_derived'
"""
_SIGN_IN_POLICY = """
SELECT coalesce(with_check, '') FROM pg_policies
WHERE schemaname = current_schema() AND tablename = 'sign_in_attempts' AND policyname = 'ofc_desk_chained'
"""
_TRIGGERS = """
SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
WHERE c.relnamespace = CAST(current_schema() AS regnamespace) AND NOT t.tgisinternal
"""


def _row_check_differences(connection: Connection) -> list[str]:
    """What holds the roles' inserts to their events (`roles._row_checks`): the desk's events only
    as the next of a chain, row-level security and its policies on the rows beside the events, the
    checks made at commit. Rooms whose roles were applied before these lack them."""
    secured = {str(table): bool(on) for table, on in connection.execute(text(_ROW_SECURITY))}
    policies = {(str(table), str(name)) for table, name in connection.execute(text(_ALL_POLICIES))}
    triggers = {(str(table), str(name)) for table, name in connection.execute(text(_TRIGGERS))}
    differences = []
    desk_check = connection.scalar(text(_DESK_POLICY))
    if desk_check is not None and "head_seq" not in desk_check:
        differences.append(_("the desk's policy on events does not hold it to the next event of a chain"))
    pool_check = connection.scalar(text(_POOL_POLICY))
    if pool_check is not None and POOL_POLICY_WORD not in pool_check:
        differences.append(_("the policy on jackpot_moves does not hold a change to its event"))
    chained = sign_ins_chained(connection)
    sign_in_check = connection.scalar(text(_SIGN_IN_POLICY))
    if sign_in_check is not None and "<> ''" not in sign_in_check:
        # The policy of 0.1.0 took a try from before migration 0008 (no hash) for the chain's head.
        differences.append(_("the policy on sign_in_attempts does not follow the newest chained PIN check"))
    for table, policy in ROW_POLICIES.items():
        if table not in secured or (table == "sign_in_attempts" and not chained):
            continue
        if not secured[table]:
            differences.append(_("row-level security is off on {table}").format(table=table))
        for name in ("ofc_desk_reads", policy):
            if (table, name) not in policies:
                differences.append(_("{table} lacks its policy {name}").format(table=table, name=name))
    differences += [
        _("{table} lacks its check at commit {name}").format(table=table, name=name)
        for name, table in COMMIT_CHECKS.items()
        if table in secured and (table, name) not in triggers
    ]
    return differences


_CONNECT = """
SELECT coalesce(r.rolname, 'PUBLIC') FROM pg_database d
CROSS JOIN LATERAL aclexplode(coalesce(d.datacl, acldefault('d', d.datdba))) g
LEFT JOIN pg_roles r ON r.oid = g.grantee
WHERE d.datname = current_database() AND g.privilege_type = 'CONNECT'
"""

_OTHER_ROOMS = """
SELECT r.rolname, d.datname FROM pg_database d CROSS JOIN LATERAL aclexplode(d.datacl) g
JOIN pg_roles r ON r.oid = g.grantee
WHERE d.datname <> current_database() AND g.privilege_type = 'CONNECT' AND r.rolname = ANY(:names)
ORDER BY r.rolname, d.datname
"""


def _database_differences(connection: Connection, roles: RoomRoles) -> list[str]:
    """The roles are bound to the room's database: they may connect to it, and PUBLIC (every
    login of the server, another room's desks too) may not; nor were they given another room's."""
    database = str(connection.scalar(text("SELECT current_database()")))
    connecting = set(connection.scalars(text(_CONNECT)))
    differences = [
        _("{role} may not connect to the database {database}").format(role=role, database=database)
        for role in (roles.table, roles.floor)
        if role not in connecting
    ]
    if PUBLIC in connecting:
        differences.append(
            _("every login of the server may connect to the database {database}").format(database=database)
        )
    for role, other in connection.execute(text(_OTHER_ROOMS), {"names": [roles.table, roles.floor]}):
        differences.append(
            _(
                "{role} may connect to the database {other} too: a room there needs roles of its own"
                " (ofc-desk db roles --roles NAME)"
            ).format(role=role, other=other)
        )
    return differences


_FUNCTION_OWNERS = """
SELECT p.proname, pg_get_userbyid(p.proowner) FROM pg_proc p
WHERE p.pronamespace = CAST(current_schema() AS regnamespace) AND p.proname = ANY(:names)
"""


def _function_owner_differences(connection: Connection) -> list[str]:
    """The checks at commit belong to the tables' owner, who can then replace them at the next
    upgrade; one an administrator made with the SQL of 0.1.0 is theirs until they give it away."""
    owner = tables_owner(connection)
    found = connection.execute(text(_FUNCTION_OWNERS), {"names": list(COMMIT_CHECKS)})
    return [
        _(
            "the function {function} belongs to {login}, not to the tables' owner {owner}: {login} runs"
            " the SQL of `ofc-desk db roles` once more"
        ).format(function=function, login=login, owner=owner)
        for function, login in found
        if login != owner
    ]
