"""`ofc-desk report`: a session's signed report as PDF, its table-close page, CSV and JSON exports.

Everything is read from the stored events of one session (default: the last one, or the last one
of `--table`). Errors exit with status 2 and one line on standard error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ofc_desk.cli.main import add_database_option, cannot_write, one_line, verify_failed
from ofc_desk.cli.pins import PIN_ENVIRONMENT, add_pin_file_option, pin_source
from ofc_desk.cli.shift_report import SHIFT_HELP, add_shift_options, run_shift
from ofc_desk.i18n import _, lazy_gettext
from ofc_desk.reports.record import SessionRecord

if TYPE_CHECKING:
    from ofc_desk.storage.database import Database

DESCRIPTION = lazy_gettext("""\
Write the report of one stored table session. Give at least one output:
  --out FILE.pdf             the session report (header, players, stack chart, hand by hand
                             with ordered transfers, rake and jackpot, voids/corrections/undos,
                             the room's jackpot pool: drops, seeds, awards and their shares,
                             audit fingerprint, signature lines)
  --close-out FILE.pdf       the table-close report (one page; more with many players or the
                             room's jackpot changes, the signatures kept with the last stacks;
                             jackpot awards counted in the expected chips); with --counted N
                             --counted-by NAME the chip count of the floor supervisor NAME, who
                             signs it with their PIN, is printed against the expected chips and
                             any variance is flagged (without it the count is left blank)
  --csv-hands FILE.csv       one row per player per hand
  --csv-transactions FILE.csv
                             every chip movement: buy-ins, rebuys, cash-outs, corrections,
                             each hand's transfers, rake, void reversals
  --json FILE.json           the session as an `ofc-desk replay` script that replays it event
                             for event (undos included); it never holds a PIN: the replay
                             asks for the PINs of the supervisors it names (--pin-file,
                             OFC_DESK_PINS or the prompt)
  --fingerprint              verify the whole database (as `ofc-desk verify` does) and print
                             the session's fingerprint, the final hash of its audit chain: a
                             printed report matches this database when the two hashes are equal
Exit status: 0 done; 1 the session or database does not verify (nothing is written); 2 bad arguments, no such
session, or a file that cannot be written.""")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = f"{DESCRIPTION}\n\n{SHIFT_HELP}"
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    add_database_option(parser)
    parser.add_argument("--table", metavar="NAME", help=_("the table's name (default: any table)"))
    parser.add_argument(
        "--session",
        metavar="ID",
        type=int,
        help=_("the session id (default: the last session, of --table if given)"),
    )
    parser.add_argument("--room", metavar="NAME", default="", help=_("card room name printed in the header"))
    parser.add_argument("--out", metavar="FILE.pdf", help=_("write the session report here"))
    parser.add_argument("--close-out", metavar="FILE.pdf", help=_("write the table-close report here"))
    parser.add_argument(
        "--counted",
        metavar="N",
        type=int,
        help=_("chips counted by the floor supervisor (table-close report)"),
    )
    parser.add_argument(
        "--counted-by",
        metavar="NAME",
        help=_("the floor supervisor who counted the chips (with --counted); signs with their PIN"),
    )
    add_pin_file_option(parser, _("for the supervisor who counted the chips"))
    parser.add_argument("--csv-hands", metavar="FILE.csv", help=_("write the hands as CSV here"))
    parser.add_argument(
        "--csv-transactions", metavar="FILE.csv", help=_("write the chip transactions as CSV here")
    )
    parser.add_argument(
        "--json", metavar="FILE.json", help=_("write the session as an ofc-desk replay script here")
    )
    parser.add_argument(
        "--fingerprint",
        action="store_true",
        help=_("verify the database and print the session's fingerprint"),
    )
    add_shift_options(parser)


def _fail(message: str) -> int:
    print(one_line(_("ofc-desk report: {problem}").format(problem=message)), file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    if args.shift or args.csv or args.shift_from or args.shift_to:
        return run_shift(args)
    outputs = [args.out, args.close_out, args.csv_hands, args.csv_transactions, args.json, args.fingerprint]
    if not any(outputs):
        return _fail(
            _(
                "nothing to do: give --out, --close-out, --csv-hands, --csv-transactions, --json"
                " or --fingerprint"
            )
        )
    if args.counted is not None and not args.close_out:
        return _fail(_("--counted goes with --close-out (the table-close report)"))
    if args.counted is not None and args.counted < 0:
        return _fail(_("--counted must be a whole number of chips, 0 or more"))
    if (args.counted is None) != (args.counted_by is None):
        return _fail(_("--counted and --counted-by go together: the count and the supervisor who signs it"))
    # Imported here so that `ofc-desk report --help` stays instant.
    from ofc_desk.reports.loader import (
        ReportNotVerified,
        ReportSourceError,
        load_session_record,
        open_to_read,
    )

    try:
        database = open_to_read(getattr(args, "db", None))
    except ReportSourceError as error:
        return _fail(str(error))
    try:
        # The fingerprint vouches for the whole database: verify before reading anything.
        if args.fingerprint and (fault := _verify_fault(database)):
            print(one_line(verify_failed(fault)))
            return 1
        counted_by = "" if args.counted_by is None else _counted_by(database, args.counted_by, args.pin_file)
        record = load_session_record(database, table=args.table, session_id=args.session, room=args.room)
        _write_outputs(record, args, counted_by)
    except ReportNotVerified as fault:
        print(one_line(verify_failed(fault)))
        return 1
    except (ReportSourceError, ValueError) as error:
        return _fail(str(error))
    finally:
        database.dispose()
    for row in record.set_aside:
        print(one_line(_("note: set aside: {row}").format(row=row)), file=sys.stderr)
    if args.fingerprint:
        print(
            _(
                "session {session} ({table}): fingerprint {hash} after event {event}; the database verifies"
            ).format(
                session=record.session_id,
                table=record.table,
                hash=record.final_hash,
                event=record.event_count,
            )
        )
    return 0


def _verify_fault(database: Database) -> str:
    from ofc_desk.service.audit.verify import VerifyFault, verify_database

    try:
        verify_database(database)
    except VerifyFault as fault:
        return str(fault)
    return ""


def _counted_by(database: Database, name: str, pin_file: str | None) -> str:
    """The floor supervisor who counted, signed in as at the desk's table-close report (the try
    counted by the lockout); their PIN from --pin-file, OFC_DESK_PINS or the terminal, unechoed.
    ValueError names what is wrong, never the PIN."""
    from sqlalchemy.exc import SQLAlchemyError

    from ofc_desk.storage.users import Role, SignInError, sign_in

    pin = pin_source(pin_file, may_prompt=True)(name)
    if pin is None:
        said = _(
            "--counted-by: no PIN for the supervisor (give --pin-file or {variable}, or run on a terminal)"
        )
        raise ValueError(said.format(variable=PIN_ENVIRONMENT))
    try:
        return sign_in(database, name, pin, Role.SUPERVISOR).name
    except SignInError as error:
        raise ValueError(_("--counted-by: {problem}").format(problem=error)) from None
    except SQLAlchemyError:  # a database this login may only read: the check is recorded
        raise ValueError(
            _("--counted-by: the PIN cannot be checked: this database cannot be written here")
        ) from None


def _write_outputs(record: SessionRecord, args: argparse.Namespace, counted_by: str) -> None:
    from ofc_desk.reports import exports
    from ofc_desk.reports.session_pdf import write_session_report
    from ofc_desk.reports.table_close_pdf import write_table_close_report

    if args.json:
        script = exports.replay_script(record)
        _write("--json", args.json, lambda path: exports.write_text_file(path, _dumper(script), record))
    writers: list[tuple[str, str | None, Callable[[str], None]]] = [
        ("--out", args.out, lambda path: write_session_report(record, path)),
        (
            "--close-out",
            args.close_out,
            lambda path: write_table_close_report(record, path, args.counted, counted_by=counted_by),
        ),
        (
            "--csv-hands",
            args.csv_hands,
            lambda path: exports.write_text_file(path, exports.write_hands_csv, record),
        ),
        (
            "--csv-transactions",
            args.csv_transactions,
            lambda path: exports.write_text_file(path, exports.write_transactions_csv, record),
        ),
    ]
    for option, path, write in writers:
        if path:
            _write(option, path, write)


def _write(option: str, path: str, write: Callable[[str], None]) -> None:
    """Run one output's writer, whole or not at all; any failure to write names that output by its
    option (an error raised while writing, e.g. a full disk, carries no file name of its own; the
    file's name is what was typed, which a refusal never repeats)."""
    from ofc_desk.reports.atomic import write_atomically

    try:
        if not Path(path).resolve().parent.is_dir():
            raise OSError(2, _("no such folder"))
        write_atomically(path, write)
    except OSError as error:
        raise ValueError(cannot_write(option, error.strerror or error)) from None


def _dumper(script: Mapping[str, object]) -> Callable[[SessionRecord, IO[str]], None]:
    from ofc_desk.reports.exports import dump_json

    return lambda _record, out: dump_json(script, out)
