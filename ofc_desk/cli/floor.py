"""`ofc-desk floor [--db URL]`: the floor supervisor's live window over every open table.

The database is opened only to read (never created or migrated): the floor never writes a table's
events. Qt is imported only once the database answers.
"""

from __future__ import annotations

import argparse
import sys

from sqlalchemy.exc import SQLAlchemyError

from ofc_desk.cli.main import add_database_option, one_line

EXIT_UNREADABLE = 2


def configure(parser: argparse.ArgumentParser) -> None:
    add_database_option(parser)


def run(args: argparse.Namespace) -> int:
    from ofc_desk.storage.database import NotADeskDatabase, open_existing

    try:
        database = open_existing(getattr(args, "db", None))
    except NotADeskDatabase as error:
        print(one_line(f"database: {error}"), file=sys.stderr)
        return EXIT_UNREADABLE
    except (SQLAlchemyError, ImportError) as error:
        print(one_line(f"database: {str(error).splitlines()[0]}"), file=sys.stderr)
        return EXIT_UNREADABLE
    from ofc_desk.desk.floor.app import run_floor

    try:
        return run_floor(database)
    finally:
        database.dispose()
