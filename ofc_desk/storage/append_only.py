"""The database refuses rewrites of its history: triggers (SQLite and PostgreSQL) that refuse any
UPDATE or DELETE of an event, a hand, a transfer, a ledger row or an account, and every change to
a table session except the one the event flow makes: its chain's head moves one event forward
(taking the opening time with the opening event, and the closing time with the closing one).

They stop a rewrite through the desk, the CLI, the library or an SQL console under the desk's
own database role. They do not stop the owner of the file or a PostgreSQL role that owns the
tables, who can drop them: `verify` catches what such a person changes (docs/decisions.md,
"Threat model").
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

REFUSAL = "OFC Desk keeps an append-only record"
HISTORY_TABLES = ("events", "hands", "transfers", "chip_ledger", "users")

# What a session row's update may not do: anything but move the head one event forward, onto an
# event already written, set the opening time with the opening event, and close an open session.
_SESSION_ROW_REWRITTEN = (
    "NEW.id <> OLD.id OR NEW.table_name <> OLD.table_name OR NEW.head_seq <> OLD.head_seq + 1"
    " OR (OLD.head_seq <> 0 AND NEW.opened_at <> OLD.opened_at) OR OLD.closed_at IS NOT NULL"
    " OR NOT EXISTS (SELECT 1 FROM events WHERE events.session_id = NEW.id"
    " AND events.seq = NEW.head_seq AND events.hash = NEW.head_hash)"
)


# An account's row changes only as the accounts chain says (migration 0006): to the state an
# account event already written for it gives, its name and creation kept (its public key changes
# with a PIN since migration 0012: `verify` holds the row to the chain).
_USER_ROW_REWRITTEN = (
    "NEW.id <> OLD.id OR NEW.name <> OLD.name OR NEW.created_at <> OLD.created_at"
    " OR NEW.account_seq <= OLD.account_seq"
    " OR NOT EXISTS (SELECT 1 FROM account_events WHERE account_events.seq = NEW.account_seq"
    " AND account_events.name = NEW.name)"
)


def trigger_names(table: str) -> tuple[str, str]:
    return f"ofc_refuse_update_{table}", f"ofc_refuse_delete_{table}"


def install(connection: Connection, tables: tuple[str, ...] = HISTORY_TABLES) -> None:
    """Refuse every UPDATE and DELETE of `tables`; with the default, also guard table sessions."""
    postgresql = connection.dialect.name == "postgresql"
    if postgresql:
        _create_postgresql_functions(connection)
    for table in tables:
        for name, action in zip(trigger_names(table), ("UPDATE", "DELETE"), strict=True):
            if postgresql:
                connection.exec_driver_sql(
                    f"CREATE TRIGGER {name} BEFORE {action} ON {table}"
                    " FOR EACH ROW EXECUTE FUNCTION ofc_refuse_rewrite()"
                )
            else:
                connection.exec_driver_sql(
                    f"CREATE TRIGGER {name} BEFORE {action} ON {table}"
                    f" BEGIN SELECT RAISE(ABORT, '{REFUSAL}: no {action} of {table}'); END"
                )
    if tables == HISTORY_TABLES:
        _guard_table_sessions(connection, postgresql)


def remove(connection: Connection, tables: tuple[str, ...] = HISTORY_TABLES) -> None:
    """Drop the triggers: a downgrade, or a test playing the owner of the database file."""
    postgresql = connection.dialect.name == "postgresql"
    guarded = (*tables, "table_sessions") if tables == HISTORY_TABLES else tables
    for table in guarded:
        for name in trigger_names(table):
            on_table = f" ON {table}" if postgresql else ""
            connection.exec_driver_sql(f"DROP TRIGGER IF EXISTS {name}{on_table}")
    if postgresql and tables == HISTORY_TABLES:
        connection.exec_driver_sql("DROP TRIGGER IF EXISTS ofc_refuse_truncate ON events")
        connection.exec_driver_sql("DROP FUNCTION IF EXISTS ofc_refuse_session_rewrite()")


def guard_users(connection: Connection) -> None:
    """Replace the users table's triggers: only the accounts chain's own updates, no DELETE."""
    postgresql = connection.dialect.name == "postgresql"
    update, delete = trigger_names("users")
    for name in (update, delete):
        connection.exec_driver_sql(f"DROP TRIGGER IF EXISTS {name}" + (" ON users" if postgresql else ""))
    message = f"{REFUSAL}: an account changes only by a signed account event"
    if postgresql:
        connection.exec_driver_sql(
            "CREATE OR REPLACE FUNCTION ofc_refuse_user_rewrite() RETURNS trigger"
            f" LANGUAGE plpgsql AS $$ BEGIN IF {_USER_ROW_REWRITTEN} THEN RAISE EXCEPTION"
            f" '{message}' USING ERRCODE = 'insufficient_privilege'; END IF; RETURN NEW; END $$"
        )
        connection.exec_driver_sql(
            f"CREATE TRIGGER {update} BEFORE UPDATE ON users"
            " FOR EACH ROW EXECUTE FUNCTION ofc_refuse_user_rewrite()"
        )
        connection.exec_driver_sql(
            f"CREATE TRIGGER {delete} BEFORE DELETE ON users"
            " FOR EACH ROW EXECUTE FUNCTION ofc_refuse_rewrite()"
        )
        return
    connection.exec_driver_sql(
        f"CREATE TRIGGER {update} BEFORE UPDATE ON users WHEN {_USER_ROW_REWRITTEN}"
        f" BEGIN SELECT RAISE(ABORT, '{message}'); END"
    )
    connection.exec_driver_sql(
        f"CREATE TRIGGER {delete} BEFORE DELETE ON users"
        f" BEGIN SELECT RAISE(ABORT, '{REFUSAL}: no DELETE of users'); END"
    )


_LATER_TABLES = ("account_events", "signatures", "sign_in_attempts", "jackpot_moves", "entry_marks")
"""Tables guarded by migrations after the first append-only one (0005, 0006, 0009, 0013)."""


def remove_all(connection: Connection) -> None:
    """Every trigger of every migration: what the owner of the database file can do."""
    remove(connection)
    remove(connection, _LATER_TABLES)


def install_all(connection: Connection) -> None:
    """Every trigger of every migration as the migrations leave them: `remove_all` undone."""
    install(connection)
    install(connection, _LATER_TABLES)
    guard_users(connection)


def _guard_table_sessions(connection: Connection, postgresql: bool) -> None:
    update, delete = trigger_names("table_sessions")
    message = f"{REFUSAL}: a table session only moves its head forward and closes once"
    if postgresql:
        connection.exec_driver_sql(
            "CREATE OR REPLACE FUNCTION ofc_refuse_session_rewrite() RETURNS trigger"
            f" LANGUAGE plpgsql AS $$ BEGIN IF {_SESSION_ROW_REWRITTEN} THEN RAISE EXCEPTION"
            f" '{message}' USING ERRCODE = 'insufficient_privilege'; END IF; RETURN NEW; END $$"
        )
        connection.exec_driver_sql(
            f"CREATE TRIGGER {update} BEFORE UPDATE ON table_sessions"
            " FOR EACH ROW EXECUTE FUNCTION ofc_refuse_session_rewrite()"
        )
        connection.exec_driver_sql(
            f"CREATE TRIGGER {delete} BEFORE DELETE ON table_sessions"
            " FOR EACH ROW EXECUTE FUNCTION ofc_refuse_rewrite()"
        )
        connection.exec_driver_sql(
            "CREATE TRIGGER ofc_refuse_truncate BEFORE TRUNCATE ON events"
            " FOR EACH STATEMENT EXECUTE FUNCTION ofc_refuse_rewrite()"
        )
        return
    connection.exec_driver_sql(
        f"CREATE TRIGGER {update} BEFORE UPDATE ON table_sessions WHEN {_SESSION_ROW_REWRITTEN}"
        f" BEGIN SELECT RAISE(ABORT, '{message}'); END"
    )
    connection.exec_driver_sql(
        f"CREATE TRIGGER {delete} BEFORE DELETE ON table_sessions"
        f" BEGIN SELECT RAISE(ABORT, '{REFUSAL}: no DELETE of table_sessions'); END"
    )


def _create_postgresql_functions(connection: Connection) -> None:
    connection.exec_driver_sql(
        "CREATE OR REPLACE FUNCTION ofc_refuse_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$"
        f" BEGIN RAISE EXCEPTION '{REFUSAL}: no %% of %%', TG_OP, TG_TABLE_NAME"
        " USING ERRCODE = 'insufficient_privilege'; END $$"
    )
