"""`ofc-desk db roles --db URL [--apply]`: the least-privilege roles of a PostgreSQL card room.

Prints the SQL (or, with `--apply`, runs it as the connecting user, who must own the schema).
Errors exit with status 2 and one line on standard error.
"""

from __future__ import annotations

import argparse
import sys

from sqlalchemy.exc import SQLAlchemyError

from ofc_desk.cli.main import one_line

EXIT_REFUSED = 2

ROLES_DESCRIPTION = """\
The roles a card room's desks and floor log in as (PostgreSQL only):
  ofc_desk_table  a desk: reads everything, inserts events and the rows they leave (sessions,
                  hands, transfers, chip ledger), updates only a session's chain head, close
                  and opening time; never updates or deletes an event
  ofc_desk_floor  the floor: reads everything, inserts events (for approvals from the floor)
Neither owns anything and nobody but the owner may create in the schema, so neither can alter
a table or drop a trigger. Safe to run again; run it again after every upgrade of the desk.
Give each role a password (ALTER ROLE ofc_desk_table PASSWORD '...') or make per-desk logins
members of it (CREATE ROLE table7 LOGIN PASSWORD '...' IN ROLE ofc_desk_table)."""


def configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="db_action", metavar="ACTION", required=True)
    roles = actions.add_parser(
        "roles",
        help="print or apply the SQL of the card room's least-privilege roles",
        description=ROLES_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    roles.add_argument(
        "--db", metavar="URL", required=True, help="the card room's PostgreSQL URL (as its owner)"
    )
    roles.add_argument("--apply", action="store_true", help="run the SQL instead of printing it")


def run(args: argparse.Namespace) -> int:
    from ofc_desk.storage.database import NotADeskDatabase, failure_cause, open_existing
    from ofc_desk.storage.roles import RolesError, apply_roles, as_script, room_roles_sql

    try:
        database = open_existing(args.db)
        try:
            with database.engine.connect() as connection:
                statements = room_roles_sql(connection)
                if args.apply:
                    apply_roles(connection, statements)
        finally:
            database.dispose()
    except (NotADeskDatabase, RolesError) as error:
        return _refuse(f"ofc-desk db roles: {error}")
    except ImportError as error:
        return _refuse(f"ofc-desk db roles: the database driver is not installed ({error})")
    except SQLAlchemyError as error:
        return _refuse(f"ofc-desk db roles: {failure_cause(error)}")
    if args.apply:
        print(f"ofc-desk db roles: {len(statements)} statements applied")
    else:
        sys.stdout.write(as_script(statements))
    return 0


def _refuse(line: str) -> int:
    print(one_line(line), file=sys.stderr)
    return EXIT_REFUSED
