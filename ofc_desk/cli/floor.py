"""`ofc-desk floor [--db URL] [--smoke-test N]`: the floor supervisor's live window over every open
table.

The database is opened only to read (never created or migrated): the floor never writes a table's
events. A new room whose tables are not there yet (its owner has not run `ofc-desk db upgrade`, or
its first desks are making them this moment) opens too, showing "No tables yet" and why, and fills
in as desks open. Qt is imported only once the database answers. The cycle collector is held
from the command's start until the room is first shown (`desk.floor.app.run_floor`).
"""

from __future__ import annotations

import argparse
import sys

from ofc_desk.cli.main import add_database_option, database_refusal, one_line
from ofc_desk.desk.shell.collector import LaunchHold
from ofc_desk.i18n import _

EXIT_UNREADABLE = 2


def configure(parser: argparse.ArgumentParser) -> None:
    add_database_option(parser)
    parser.add_argument(
        "--smoke-test",
        metavar="N",
        type=int,
        help=_("exit once the floor shows N open tables: 0, printing them, or 1 after 120 s (for checks)"),
    )


def run(args: argparse.Namespace) -> int:
    hold = LaunchHold.begin()  # before SQLAlchemy, the storage and the floor are imported
    try:
        return _run(args, hold)
    finally:
        hold.end()


def _run(args: argparse.Namespace, hold: LaunchHold) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from ofc_desk.storage.existing_room import NotADeskDatabase, open_existing
    from ofc_desk.storage.room_schema import RoomNotReady

    try:
        database = open_existing(getattr(args, "db", None), new_room=True)
    except (NotADeskDatabase, RoomNotReady) as error:
        print(one_line(database_refusal(error)), file=sys.stderr)
        return EXIT_UNREADABLE
    except (SQLAlchemyError, ImportError) as error:
        print(one_line(database_refusal(str(error).splitlines()[0])), file=sys.stderr)
        return EXIT_UNREADABLE
    from ofc_desk.desk.floor.app import run_floor

    try:
        return run_floor(database, smoke_test=args.smoke_test, launch=hold)
    finally:
        database.dispose()
