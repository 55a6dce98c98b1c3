"""`ofc-desk verify --db URL`: check the audit chain and re-score and re-settle every stored hand.

Exit 0 with a one-line summary when everything holds (followed by a line for each stored row set
aside: a signature that does not hold, a derived row no event gives); exit 1 naming the first fault
("event 812 was altered", "hand 37: stored transfers differ from the rules"). With
`--fingerprints`, a line per session follows the summary with the hash its verified chain ends on,
which is the fingerprint printed on that session's report. With `--anchors FILE`, every room head
`ofc-desk anchor` wrote to that file must still be in the database (exit 1 naming the first that
is not; exit 2 when the file cannot be read).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from ofc_desk.cli.main import add_database_option, database_refusal, one_line, verify_failed
from ofc_desk.i18n import _

EXIT_FAULT = 1
EXIT_UNREADABLE = 2


def configure(parser: argparse.ArgumentParser) -> None:
    add_database_option(parser)
    parser.add_argument(
        "--fingerprints",
        action="store_true",
        help=_("after the summary, print each session's final audit hash (its report's fingerprint)"),
    )
    parser.add_argument(
        "--anchors",
        metavar="FILE",
        type=Path,
        help=_("also prove the database still holds every room head anchored in FILE (ofc-desk anchor)"),
    )


def run(args: argparse.Namespace) -> int:
    from ofc_desk.service.audit.verify import VerifyFault, verify_database
    from ofc_desk.service.room.room_chain import AnchorFault
    from ofc_desk.storage.existing_room import NotADeskDatabase, open_existing

    try:
        # Only read: a mistyped path must not become an empty database that "verifies".
        database = open_existing(getattr(args, "db", None))
        try:
            summary = verify_database(database, args.anchors)
        finally:
            database.dispose()
        read_only = database.read_only
    except VerifyFault as fault:
        print(one_line(verify_failed(fault)))
        return EXIT_FAULT
    except AnchorFault as error:
        print(one_line(_("anchors: {problem}").format(problem=error)), file=sys.stderr)
        return EXIT_UNREADABLE
    except NotADeskDatabase as error:
        print(one_line(database_refusal(error)), file=sys.stderr)
        return EXIT_UNREADABLE
    except (SQLAlchemyError, ImportError) as error:
        print(one_line(database_refusal(str(error).splitlines()[0])), file=sys.stderr)
        return EXIT_UNREADABLE
    print(summary.line())
    for row in summary.set_aside:
        print(one_line(_("set aside: {row}").format(row=row)))
    if read_only:
        print(_("note: the database file is read-only here; it was verified as it stands"), file=sys.stderr)
    if args.fingerprints:
        for fingerprint in summary.fingerprints:
            print(fingerprint.line())
    return 0
