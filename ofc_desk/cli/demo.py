"""`ofc-desk demo`: the desk on a throw-away database holding a table part-way through a session.

The demo is built by driving the session service exactly as a dealer would (every street through
`place`, the Fantasyland set through `reveal`, every settlement confirmed), never by writing rows:
two settled hands (one foul, Fantasyland won twice, the button held), then a live third hand with
Bob setting his Fantasyland hand.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from ofc_desk.core.rows import HAND_SIZE
from ofc_desk.i18n import _
from ofc_desk.service import TableService, TableSetup, open_table
from ofc_desk.service.table.commands import Settle, StartHand
from ofc_desk.service.table.games.choose import entry_for
from ofc_desk.service.terms.setup import SeatSetup, TableRules
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role

DEMO_DEALER = ("Dana", "1234")
DEMO_SUPERVISOR = ("Floor", "99999999")
DEMO_SETUP = TableSetup(
    name="Demo table",
    seats=(SeatSetup("Ann", 200), SeatSetup("Bob", 200), SeatSetup("Cy", 200)),
    button="Cy",
    rules=TableRules(preset="standard", variant="regular", unit=2),
)

# Each finished hand as (front, middle, back) per player. Streets are dealt from it in the order
# back (the first five cards), then middle, then front, one card a street.
SETTLED_HANDS: tuple[Mapping[str, tuple[str, str, str]], ...] = (
    {
        "Ann": ("Qh Qd 4c", "9s 9d 5h 5c 2s", "Ks Kd Kc 7h 7d"),
        "Bob": ("8s 6d 3h", "As Ac Jd Th 2d", "2h 3c 4s 5d 6c"),
        "Cy": ("Jh 9h 2c", "Td Ts 8d 8c 3s", "Ah Kh 8h 4h 3d"),
    },
    {
        "Ann": ("Ah Ad 3c", "Kh Kd 7s 7c 2h", "9c 9d 9h 4s 4d"),
        "Bob": ("Ks Kc 5s", "Js Jc 8h 8d 3h", "Qc Tc 8c 6c 2c"),
        "Cy": ("7h 6h 2d", "Ts Th 5d 4h 3s", "As Ac Qd Qs 8s"),
    },
)
LIVE_HAND_STREETS: tuple[tuple[str, str, str], ...] = (
    ("Ann", "Kd Ks 8c 8s 3d", "back back middle middle front"),
    ("Cy", "Ah Qh Jh 6d 6s", "back back back front front"),
    ("Ann", "Th", "middle"),
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--keep", metavar="FILE", type=Path, help=_("write the demo database to FILE instead of a temp file")
    )
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help=_("exit once the demo table is drawn: 0, or 1 with the reason (for installation checks)"),
    )


def run(args: argparse.Namespace) -> int:
    keep: Path | None = args.keep
    if keep is not None and keep.exists():
        print(
            _("ofc-desk demo: the --keep file already exists; name a new file for the demo"), file=sys.stderr
        )
        return 2
    folder = None if keep else tempfile.TemporaryDirectory(prefix="ofc-desk-demo-")
    path = keep if keep is not None else Path(folder.name if folder else ".") / "demo.db"
    url = f"sqlite:///{path}"
    database = Database(url)
    session_id = build_demo(database)
    database.dispose()
    from ofc_desk.desk.shell.app import run_prepared_desk

    try:
        return run_prepared_desk(url, DEMO_DEALER, session_id, demo_note(), smoke_test=args.smoke_test)
    finally:
        if folder is not None:
            folder.cleanup()


def demo_note() -> str:
    """What the desk's status line says of the demo: who may sign in, with which PIN."""
    return _(
        "Demo table on a throw-away database — dealer {dealer} (PIN {dealer_pin}), supervisor "
        "{supervisor} (PIN {supervisor_pin})"
    ).format(
        dealer=DEMO_DEALER[0],
        dealer_pin=DEMO_DEALER[1],
        supervisor=DEMO_SUPERVISOR[0],
        supervisor_pin=DEMO_SUPERVISOR[1],
    )


def build_demo(database: Database) -> int:
    """Fill `database` with the demo accounts and table; returns the table's session id."""
    accounts = [
        (DEMO_SUPERVISOR[0], Role.SUPERVISOR, DEMO_SUPERVISOR[1]),
        (DEMO_DEALER[0], Role.DEALER, DEMO_DEALER[1]),
    ]
    dealer = next(account for account in create_accounts(database, accounts) if account.role is Role.DEALER)
    service = open_table(database, DEMO_SETUP, dealer)
    for hand in SETTLED_HANDS:
        play_hand(service, hand)
        service.do(Settle())
    service.do(StartHand())
    for player, cards, rows in LIVE_HAND_STREETS:
        turn = service.snapshot().to_act
        assert turn is not None and turn.player == player  # the live hand's streets, in their turns
        service.do(entry_for(turn.kind, player, cards, rows))
    return service.session_id


def play_hand(service: TableService, hand: Mapping[str, tuple[str, str, str]]) -> None:
    """Deal a hand to its end, each player acting when the service says it is their turn."""
    if service.snapshot().phase is not Phase.LIVE:
        service.do(StartHand())
    streets = {player: _streets(rows) for player, rows in hand.items()}
    while (turn := service.snapshot().to_act) is not None:
        front, middle, back = hand[turn.player]
        if turn.place == HAND_SIZE:  # a whole hand set at once (a Fantasyland set)
            cards = f"{front} {middle} {back}"
            service.do(
                entry_for(turn.kind, turn.player, cards, ["front"] * 3 + ["middle"] * 5 + ["back"] * 5)
            )
            continue
        cards, rows = streets[turn.player].pop(0)
        service.do(entry_for(turn.kind, turn.player, cards, rows))


def _streets(rows: tuple[str, str, str]) -> list[tuple[str, list[str]]]:
    front, middle, back = (row.split() for row in rows)
    streets = [(" ".join(back), ["back"] * 5)]
    streets += [(card, ["middle"]) for card in middle]
    streets += [(card, ["front"]) for card in front]
    return streets
