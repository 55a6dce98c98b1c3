"""`ofc-desk db`: a card room's database chores, run by the room's owner.

- `upgrade --db URL`: create or migrate the schema to the newest this program knows, and say
  from which revision to which (or that it was current).
- `status --db URL`: the schema's revision and whether it is the newest this program knows, and
  whether the room's roles are current (PostgreSQL; on SQLite roles do not apply). Exit 0 when
  nothing is to do, 1 when something is (each line says what), 2 when it cannot be read.
- `roles --db URL [--apply]`: the least-privilege roles of a PostgreSQL card room; prints the SQL
  (or, with `--apply`, runs it as the connecting user, who must own the schema).

Errors exit with status 2 and one line on standard error.
"""

from __future__ import annotations

import argparse
import sys

from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from ofc_desk.cli.main import one_line
from ofc_desk.i18n import _, lazy_gettext, ngettext
from ofc_desk.storage.database import Database, failure_cause
from ofc_desk.storage.existing_room import NotADeskDatabase, open_existing
from ofc_desk.storage.roles import RolesError, RoomRoles, apply_roles, as_script, room_roles_sql
from ofc_desk.storage.roles_state import roles_state
from ofc_desk.storage.room_schema import RoomNotReady, owner_url, upgrade_hint
from ofc_desk.storage.schema_revision import pending_migrations

DEFAULT_ROLES = "ofc_desk"
"""The roles' names without their ending: ofc_desk_table and ofc_desk_floor."""
EXIT_TO_DO = 1
EXIT_REFUSED = 2

ROLES_DESCRIPTION = lazy_gettext("""\
The roles a card room's desks and floor log in as (PostgreSQL only):
  ofc_desk_table  a desk: reads everything, inserts events and the rows they leave (sessions,
                  hands, transfers, chip ledger), updates only a session's chain head, close
                  and opening time; never updates or deletes an event
  ofc_desk_floor  the floor: reads everything, inserts events (for approvals from the floor)
With --roles NAME they are NAME_table and NAME_floor: roles belong to the whole server, so each
room of a server names its own. They are bound to the room's database: CONNECT on it is taken
from PUBLIC and given only to them and the owner, so no other room's roles log in to it.
Each inserts an event only as the next of an open table's chain, with the head moved onto it, a
row beside an event only with that event, a signature only over an event the table holds.
Neither owns anything and nobody but the owner may create in the schema, so neither can alter
a table or drop a trigger. Safe to run again; run it again after every upgrade of the desk.
Give each role a password (ALTER ROLE ofc_desk_table PASSWORD '...') or make per-desk logins
members of it (CREATE ROLE table7 LOGIN PASSWORD '...' IN ROLE ofc_desk_table).""")
UPGRADE_DESCRIPTION = lazy_gettext("""\
Create the schema in a new, empty database, or migrate it after the desk was upgraded, as the
schema's owner (a card room's desks and floor log in as roles that cannot). Safe to run again:
it says from which revision to which it migrated, or that the schema was current. On PostgreSQL,
run `ofc-desk db roles --apply` afterwards when it says the roles are not current.""")
STATUS_DESCRIPTION = lazy_gettext("""\
Say the schema's revision and whether it is the newest this desk knows, and whether the room's
roles are current (PostgreSQL). Changes nothing. Exit 0: nothing to do; 1: something to do (the
lines say what); 2: the database cannot be read.""")


def configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="db_action", metavar="ACTION", required=True)
    for name, help_text, description in (
        ("upgrade", _("create or migrate the schema, as its owner"), UPGRADE_DESCRIPTION),
        ("status", _("the schema's revision and whether the roles are current"), STATUS_DESCRIPTION),
        ("roles", _("print or apply the SQL of the card room's least-privilege roles"), ROLES_DESCRIPTION),
    ):
        action = actions.add_parser(
            name,
            help=help_text,
            description=str(description),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        # Not required here: `ofc-desk --db URL db status` names it before the command, as for verify.
        action.add_argument(
            "--db", metavar="URL", default=argparse.SUPPRESS, help=_("the room's database URL (as its owner)")
        )
        action.add_argument(
            "--roles",
            metavar="NAME",
            default=DEFAULT_ROLES,
            help=_(
                "the room's roles, NAME_table and NAME_floor (default: {name}); each room of a server its own"
            ).format(name=DEFAULT_ROLES),
        )
    actions.choices["roles"].add_argument(
        "--apply", action="store_true", help=_("run the SQL instead of printing it")
    )


def run(args: argparse.Namespace) -> int:
    command = {"upgrade": _upgrade, "status": _status, "roles": _roles}[args.db_action]
    if not getattr(args, "db", None):
        which = _("which database? Give its URL with --db URL")
        return _refuse(f"ofc-desk db {args.db_action}: {which}")
    try:
        args.room_roles = RoomRoles(f"{args.roles}_table", f"{args.roles}_floor")
        return command(args)
    except (NotADeskDatabase, RolesError, RoomNotReady) as error:
        return _refuse(f"ofc-desk db {args.db_action}: {error}")
    except ImportError as error:
        missing = _("the database driver is not installed ({error})").format(error=error)
        return _refuse(f"ofc-desk db {args.db_action}: {missing}")
    except SQLAlchemyError as error:
        return _refuse(f"ofc-desk db {args.db_action}: {failure_cause(error)}")


def _upgrade(args: argparse.Namespace) -> int:
    database = Database(args.db, migrate=False)
    try:
        before = database.migrate()
        after = database.schema_state()
        postgresql = database.engine.dialect.name == "postgresql"
        roles = _roles_line(database, args, True) if postgresql else None
    finally:
        database.dispose()
    where = _shown(args.db)
    if before.current:
        done = _("{database} is at {schema}: nothing to do").format(database=where, schema=after.words())
    else:
        was = (
            _("revision {revision}").format(revision=before.revision)
            if before.revision
            else _("no OFC Desk tables")
        )
        done = _("{database} migrated from {was} to revision {revision}").format(
            database=where, was=was, revision=after.revision
        )
    print(f"ofc-desk db upgrade: {done}")
    if roles is not None and not roles[0]:
        roles_line = _("roles: {state}").format(state=roles[1])
        print(f"ofc-desk db upgrade: {roles_line}")
    return 0


def _status(args: argparse.Namespace) -> int:
    database = open_existing(args.db, new_room=True)
    try:
        state = database.schema_state()
        owner = database.may_change_schema()
        postgresql = database.engine.dialect.name == "postgresql"
        no_roles = (True, _("do not apply (SQLite has no roles)"))
        roles = _roles_line(database, args, owner) if postgresql else no_roles
    finally:
        database.dispose()
    schema = state.words()
    if not state.current and state.known and state.revision is not None:
        pending = pending_migrations(state.revision)
        to_run = ngettext(
            "{count} migration to run: {revisions}", "{count} migrations to run: {revisions}", len(pending)
        )
        schema += f" ({to_run.format(count=len(pending), revisions=', '.join(pending))})"
    if not state.current:
        command = f"`ofc-desk db upgrade --db {_shown(args.db)}`"
        upgrade = _("run {command}").format(command=command) if owner else upgrade_hint(args.db)
        schema += ": " + (upgrade if state.known else _("install the newer OFC Desk here"))
    print(_("database: {url}").format(url=_shown(args.db)))
    print(_("schema: {state}").format(state=schema))
    print(_("roles: {state}").format(state=roles[1]))
    return 0 if state.current and roles[0] else EXIT_TO_DO


def _roles_line(database: Database, args: argparse.Namespace, owner: bool) -> tuple[bool, str]:
    """(current, the words for the roles' line), with what the owner runs when they are not
    (`owner`: this login is the owner)."""
    with database.engine.connect() as connection:
        state = roles_state(connection, args.room_roles)
    if state.current:
        return True, state.words
    named = "" if args.roles == DEFAULT_ROLES else f" --roles {args.roles}"
    command = f"`ofc-desk db roles --db {_shown(args.db) if owner else owner_url(args.db)}{named} --apply`"
    if not state.made:
        make = _("make them with {command}, as a login that may create roles").format(command=command)
        return False, f"{state.words}: {make}"
    who = _("run {command}") if owner else _("ask the room's owner to run {command}")
    return False, f"{state.words}: {who.format(command=command)}"


def _roles(args: argparse.Namespace) -> int:
    database = open_existing(args.db)
    try:
        with database.engine.connect() as connection:
            statements = room_roles_sql(connection, args.room_roles)
            if args.apply:
                apply_roles(connection, statements)
    finally:
        database.dispose()
    if args.apply:
        applied = ngettext("{count} statement applied", "{count} statements applied", len(statements))
        print(f"ofc-desk db roles: {applied.format(count=len(statements))}")
    else:
        sys.stdout.write(as_script(statements))
    return 0


def _shown(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def _refuse(line: str) -> int:
    print(one_line(line), file=sys.stderr)
    return EXIT_REFUSED
