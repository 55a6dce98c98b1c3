"""`ofc-desk replay FILE --db URL [--resume]`: play a scripted session through the session service.

Without `--db` the script is played into a throw-away database in memory, never the desk's own
(which would then hold the script's accounts or the built-in replay dealer, and no first start): the
output is the same, and nothing is kept. JSON on standard output. A refused step ends the run with
exit status 2 and one line on standard error ("hand 3, action 7: it is Bob's turn, not Ann's");
everything accepted before it stays stored.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from ofc_desk.cli.json_input import MAX_NESTING, NestedTooDeeply, parse_json, read_utf8
from ofc_desk.cli.main import database_refusal, one_line
from ofc_desk.cli.pins import add_pin_file_option, pin_source
from ofc_desk.core.deal_input import is_unicode
from ofc_desk.i18n import _
from ofc_desk.i18n.formatting import number

EXIT_REFUSED = 2


THROW_AWAY = "sqlite://"
"""Where a replay without `--db` plays: SQLite in memory, gone when the command ends."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help=_("the session script (JSON), or - for stdin"))
    parser.add_argument(
        "--db",
        metavar="URL",
        default=argparse.SUPPRESS,
        help=_("SQLAlchemy database URL to store the session in (default: a throw-away one in memory)"),
    )
    add_pin_file_option(parser, _("for the accounts of a database that has some"))
    parser.add_argument(
        "--resume",
        action="store_true",
        help=_("continue a stored session of this table; its stored actions must match the script"),
    )


def run(args: argparse.Namespace) -> int:
    from ofc_desk.service.replays.replay import ReplayError, run_replay
    from ofc_desk.storage.database import Database
    from ofc_desk.storage.room_schema import RoomNotReady

    try:
        script = _read_script(args.file)
        pins = pin_source(args.pin_file, may_prompt=args.file != "-")
        database = Database(getattr(args, "db", None) or THROW_AWAY)
        output = run_replay(database, script, resume=args.resume, pins=pins)
    except (ReplayError, ValueError, OSError) as error:
        return _refuse(str(error))
    except (TypeError, KeyError, AttributeError) as error:
        # A script of the wrong shape somewhere the checks above do not look (e.g. a rules key).
        return _refuse(_("script: not in the replay format: {error}").format(error=repr(error)))
    except RoomNotReady as error:
        return _refuse(database_refusal(error))
    except SQLAlchemyError as error:
        return _refuse(database_refusal(str(error).splitlines()[0]))
    json.dump(output, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _read_script(file: str) -> Any:
    """The script's JSON; ValueError says what is wrong with it, never naming the file (what was
    typed for it may be a PIN)."""
    try:
        text = read_utf8(file)
    except OSError as error:
        raise ValueError(_("script: the file cannot be read: {why}").format(why=error.strerror)) from None
    except UnicodeDecodeError as error:
        raise ValueError(_("script: not UTF-8 text (byte {byte})").format(byte=error.start)) from None
    try:
        script = parse_json(text)
        # Only a \u escape can spell half a surrogate pair: the text itself was read as UTF-8.
        where = _first_text_not_unicode(script, "script") if "\\u" in text else None
    except NestedTooDeeply:
        raise ValueError(
            _("script: JSON nested more than {levels} levels deep").format(levels=MAX_NESTING)
        ) from None
    except json.JSONDecodeError as error:
        raise ValueError(_("script: not valid JSON: {error}").format(error=error)) from None
    except ValueError:  # Python's guard against converting huge numbers (quadratic time)
        limit = number(sys.get_int_max_str_digits())
        raise ValueError(
            _("script: a number in the JSON has more than {limit} digits").format(limit=limit)
        ) from None
    if where is not None:
        raise ValueError(_("{where}: not valid Unicode text (half a surrogate pair)").format(where=where))
    return script


def _first_text_not_unicode(value: Any, where: str) -> str | None:
    """Where the first string that is not valid Unicode sits, as `script.hands[0].actions[2].player`."""
    if isinstance(value, str):
        return None if is_unicode(value) else where
    items: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        items = [(f"{where}.{key}", part) for key, item in value.items() for part in (key, item)]
    elif isinstance(value, list):
        items = [(f"{where}[{position}]", item) for position, item in enumerate(value)]
    return next((found for place, item in items if (found := _first_text_not_unicode(item, place))), None)


def _refuse(line: str) -> int:
    print(one_line(line), file=sys.stderr)
    return EXIT_REFUSED
