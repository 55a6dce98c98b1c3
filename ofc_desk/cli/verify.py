"""`ofc-desk verify --db URL`: check the audit chain and re-score and re-settle every stored hand.

Exit 0 with a one-line summary when everything holds; exit 1 naming the first fault
("event 812 was altered", "hand 37: stored transfers differ from the rules").
"""

from __future__ import annotations

import argparse
import sys

from sqlalchemy.exc import SQLAlchemyError

EXIT_FAULT = 1
EXIT_UNREADABLE = 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="URL",
        default=argparse.SUPPRESS,
        help="SQLAlchemy database URL (default: the desk's own SQLite file)",
    )


def run(args: argparse.Namespace) -> int:
    from ofc_desk.service.verify import VerifyFault, verify_database
    from ofc_desk.storage.database import Database

    try:
        summary = verify_database(Database(getattr(args, "db", None)))
    except VerifyFault as fault:
        print(f"verify failed: {fault}")
        return EXIT_FAULT
    except SQLAlchemyError as error:
        print(f"database: {str(error).splitlines()[0]}", file=sys.stderr)
        return EXIT_UNREADABLE
    print(summary.line())
    return 0
