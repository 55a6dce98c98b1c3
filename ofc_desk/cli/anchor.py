"""`ofc-desk anchor --db URL --to FILE`: append the room's head to an anchor file kept elsewhere.

The room's head is the newest event in the database (time, session, event number, hash), the head
of every other open table, the accounts chain's head and the head of the chain of PIN checks. Kept
on another disk, a share or paper, the file lets `ofc-desk verify --anchors FILE` prove later that
the database still holds every head it ever anchored: a cut or rewritten record does not.
Exit 0 with the line appended; 1 when the database holds no account and no table yet; 2 when the
database or the file cannot be used.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from ofc_desk.cli.main import add_database_option, database_refusal, one_line
from ofc_desk.i18n import _

EXIT_NOTHING = 1
EXIT_UNUSABLE = 2


def configure(parser: argparse.ArgumentParser) -> None:
    add_database_option(parser)
    parser.add_argument(
        "--to",
        metavar="FILE",
        type=Path,
        required=True,
        help=_("the anchor file (appended to, never rewritten)"),
    )


def run(args: argparse.Namespace) -> int:
    from ofc_desk.service.room.room_chain import AnchorFault, append_anchor
    from ofc_desk.storage.existing_room import NotADeskDatabase, open_existing

    try:
        database = open_existing(getattr(args, "db", None))
        try:
            head = append_anchor(database, args.to)
        finally:
            database.dispose()
    except AnchorFault as error:
        print(one_line(_("anchor: {problem}").format(problem=error)), file=sys.stderr)
        return EXIT_UNUSABLE
    except NotADeskDatabase as error:
        print(one_line(database_refusal(error)), file=sys.stderr)
        return EXIT_UNUSABLE
    except SQLAlchemyError as error:
        print(one_line(database_refusal(str(error).splitlines()[0])), file=sys.stderr)
        return EXIT_UNUSABLE
    if head is None:
        print(_("anchor: the database holds no account and no table yet: nothing to anchor"), file=sys.stderr)
        return EXIT_NOTHING
    print(_("anchored {head}").format(head=head.line()))
    return 0
