"""Which schemas DDL changed in a test process's own database, logged by PostgreSQL event triggers.

The schema pools hand a schema out again only when its structure is the migrations' (a digest of
the catalog: tests/helpers/pooled_schemas.py, `STRUCTURE`), about 0.03 s of the server's CPU a
test. A test that ran no DDL on its schema cannot have changed that structure: a relation,
column, constraint, trigger, function, policy, owner or grant changes only by a DDL command, and
every DDL command fires an event trigger (`ENABLE ALWAYS`: with `session_replication_role` set
to replica too). The log notes each command's schema; where PostgreSQL does not name one (GRANT,
REVOKE, a command reporting no object), its schema is unknown and counts as every schema's.
A pool that finds its schema's log untouched since the test took it skips the digest; any other
schema goes through the digest as before. Only a superuser may make event triggers, as only one
may have a pool.
"""

from __future__ import annotations

from typing import Any

import psycopg

SCHEMA = "test_ddl_log"
_INSTALL = f"""
CREATE SCHEMA IF NOT EXISTS {SCHEMA};
CREATE TABLE IF NOT EXISTS {SCHEMA}.commands (
    id bigserial PRIMARY KEY, schema_name text, command text NOT NULL
);
CREATE OR REPLACE FUNCTION {SCHEMA}.note() RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
BEGIN
    IF TG_EVENT = 'sql_drop' THEN
        INSERT INTO {SCHEMA}.commands (schema_name, command)
        SELECT coalesce(schema_name, CASE object_type WHEN 'schema' THEN object_identity END), TG_TAG
          FROM pg_event_trigger_dropped_objects();
        RETURN;
    END IF;
    -- A trigger's or a policy's schema is its table's, which PostgreSQL leaves unnamed here.
    INSERT INTO {SCHEMA}.commands (schema_name, command)
    SELECT coalesce(d.schema_name, CASE d.object_type WHEN 'schema' THEN d.object_identity END, n.nspname),
           d.command_tag
      FROM pg_event_trigger_ddl_commands() d
      LEFT JOIN pg_trigger t ON d.classid = 'pg_trigger'::regclass AND t.oid = d.objid
      LEFT JOIN pg_policy p ON d.classid = 'pg_policy'::regclass AND p.oid = d.objid
      LEFT JOIN pg_class c ON c.oid = coalesce(t.tgrelid, p.polrelid)
      LEFT JOIN pg_namespace n ON n.oid = c.relnamespace;
    -- A drop's objects are logged at sql_drop; anything else that named none touched any schema.
    IF NOT FOUND AND (TG_TAG NOT LIKE 'DROP %' OR TG_TAG = 'DROP OWNED') THEN
        INSERT INTO {SCHEMA}.commands (schema_name, command) VALUES (NULL, TG_TAG);
    END IF;
END $$;
"""
_TRIGGERS = {"test_ddl_log_commands": "ddl_command_end", "test_ddl_log_drops": "sql_drop"}

_LAST = f"SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM {SCHEMA}.commands_id_seq"
_TOUCHED = f"""
SELECT EXISTS (SELECT FROM {SCHEMA}.commands
                WHERE id > %(mark)s AND (schema_name IS NULL OR schema_name = %(schema)s))
"""


def install(catalog: psycopg.Connection[Any]) -> None:
    """The log and its event triggers in the database `catalog` is connected to, once."""
    with catalog.transaction():
        catalog.execute(_INSTALL)
        made = {str(name) for (name,) in catalog.execute("SELECT evtname FROM pg_event_trigger")}
        for name, event in _TRIGGERS.items():
            if name not in made:
                catalog.execute(f"CREATE EVENT TRIGGER {name} ON {event} EXECUTE FUNCTION {SCHEMA}.note()")
                catalog.execute(f"ALTER EVENT TRIGGER {name} ENABLE ALWAYS")


def mark(catalog: psycopg.Connection[Any]) -> int:
    """Where the log stands: what `untouched_since` compares with."""
    row = catalog.execute(_LAST).fetchone()
    return int(row[0]) if row else 0


def untouched_since(catalog: psycopg.Connection[Any], since: int, schema: str) -> bool:
    """Whether no DDL command was logged for `schema` (or for no schema named) after `since`."""
    row = catalog.execute(_TOUCHED, {"mark": since, "schema": schema}).fetchone()
    return row is not None and not row[0]
