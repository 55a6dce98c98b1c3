"""`ofc-desk report --shift [--from TIME] [--to TIME] --out FILE.pdf [--csv FILE.csv]`: every
table of the room over one shift, with the room's totals, as PDF and CSV.

The database is verified first (as `ofc-desk verify` does): a report that people sign is never
printed from a record that does not verify.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ofc_desk.cli.main import cannot_write, one_line, verify_failed
from ofc_desk.i18n import _, lazy_gettext, ngettext

if TYPE_CHECKING:
    from ofc_desk.reports.shift import ShiftReport, ShiftWindow

EXIT_FAULT, EXIT_REFUSED = 1, 2

SHIFT_HELP = lazy_gettext("""\
Shift report (--shift): every table open during the shift, for the floor supervisor and the
shift manager to sign:
  --shift [--from TIME] [--to TIME] --out FILE.pdf|FILE.csv [--csv FILE.csv]
                             per table: hands dealt, buy-ins and rebuys (drop), cash-outs,
                             rake, jackpot drop, seeds and awards, chips on the table at the
                             end, voids and corrections, audit fingerprint; the room's totals
                             and its jackpot pool reconciled over the shift. TIME is UTC,
                             e.g. 2026-11-23 18:00; the shift runs from --from up to (not
                             including) --to, either left open. The database is verified first.""")


def add_shift_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--shift", action="store_true", help=_("write the shift report of the whole room"))
    parser.add_argument("--from", dest="shift_from", metavar="TIME", help=_("the shift's start (UTC)"))
    parser.add_argument(
        "--to", dest="shift_to", metavar="TIME", help=_("the shift's end (UTC, not included)")
    )
    parser.add_argument("--csv", metavar="FILE.csv", help=_("the shift report's figures as CSV"))


def run_shift(args: argparse.Namespace) -> int:
    from ofc_desk.reports.shift import ShiftWindow

    if not args.shift:
        return _refuse(_("--csv, --from and --to go with --shift (the shift report)"))
    others = [args.close_out, args.csv_hands, args.csv_transactions, args.json, args.fingerprint]
    if args.table or args.session is not None or any(others):
        return _refuse(_("--shift reports the whole room: leave out --table, --session and session outputs"))
    outputs = [(option, path) for option, path in (("--out", args.out), ("--csv", args.csv)) if path]
    if not outputs:
        return _refuse(_("--shift needs --out FILE.pdf (or FILE.csv) and/or --csv FILE.csv"))
    try:
        start, end = _shift_time("--from", args.shift_from), _shift_time("--to", args.shift_to)
        for option, path in outputs:
            _check_writable(option, path)
    except ValueError as error:
        return _refuse(str(error))
    if start is not None and end is not None and end <= start:
        return _refuse(_("--to must come after --from: the shift ends before it starts"))
    window = ShiftWindow(start, end)
    return _report(args, window, outputs)


def _shift_time(option: str, value: str | None) -> datetime | None:
    from ofc_desk.reports.shift import parse_shift_time

    if not value:
        return None
    try:
        return parse_shift_time(value)
    except ValueError:  # its words repeat the value, which a refusal never does
        raise ValueError(
            _("{option} is not a time: write it as 2026-11-23 18:00 (UTC)").format(option=option)
        ) from None


def _report(args: argparse.Namespace, window: ShiftWindow, outputs: list[tuple[str, str]]) -> int:
    from ofc_desk.reports.atomic import write_atomically
    from ofc_desk.reports.loader import ReportSourceError, open_to_read
    from ofc_desk.reports.shift import verified_shift_report
    from ofc_desk.reports.shift_pdf import write_shift_report
    from ofc_desk.service.audit.verify import VerifyFault

    try:
        database = open_to_read(getattr(args, "db", None))
    except ReportSourceError as error:
        return _refuse(str(error))
    try:
        report = verified_shift_report(database, window, room=args.room)
    except VerifyFault as fault:
        print(one_line(_("{failed}; no shift report was written").format(failed=verify_failed(fault))))
        return EXIT_FAULT
    except ReportSourceError as error:
        return _refuse(str(error))
    finally:
        database.dispose()
    for option, path in outputs:
        try:
            if path.lower().endswith(".csv"):
                write_atomically(path, lambda temporary: _write_csv(report, temporary))
            else:
                write_atomically(path, lambda temporary: write_shift_report(report, temporary))
        except OSError as error:
            return _refuse(cannot_write(option, error.strerror or error))
    tables = len(report.tables)
    written = ", ".join(path for _option, path in outputs)
    print(
        ngettext(
            "shift report: {count} table -> {files}", "shift report: {count} tables -> {files}", tables
        ).format(count=tables, files=written)
    )
    return 0


def _write_csv(report: ShiftReport, path: str) -> None:
    from ofc_desk.reports.shift import write_shift_csv

    with open(path, "w", encoding="utf-8", newline="") as out:
        write_shift_csv(report, out)


def _check_writable(option: str, path: str) -> None:
    if not Path(path).resolve().parent.is_dir():
        raise ValueError(cannot_write(option, _("no such folder")))


def _refuse(message: str) -> int:
    print(one_line(_("ofc-desk report: {problem}").format(problem=message)), file=sys.stderr)
    return EXIT_REFUSED
