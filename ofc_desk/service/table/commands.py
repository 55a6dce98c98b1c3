"""Every action at a table as a typed command (issue 37): one frozen dataclass per action, its event
kind a class attribute, done by `TableService.do`, offered by `TableService.can`, refused in the
dealer's words by `TableService.check`.

A command says its action as the raw payload the machine checks (`raw`), the same for the desk,
the floor, the command line and a request to the floor; a supervised one also carries who approves
it and their PIN (never stored: the payload names the supervisor only). One game's entries are in
that game's package (`games.ofc.commands`, `games.chinese.commands`); a replay script's steps, read
from files, are `Scripted` (`replay` builds them in one place).

A command that adds no field to its base (`StartHand`, `CashOut`, `CloseSession`, OFC's `Place`...)
is a plain subclass of that frozen dataclass, not decorated again: the base's generated methods
already take the instance's own class (equal only to its own class, its repr named after it), and
decorating it generated the same methods again at every launch (issue 39.3).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import count
from typing import ClassVar

from ofc_desk.core.cards import Card
from ofc_desk.core.rows import Row
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import RawPayload
from ofc_desk.service.terms.setup import TableRules
from ofc_desk.storage.users import Account

CardEntries = str | Sequence[Card | str | None]
"""Cards as typed ("Qh Qd ??") or as a sequence; `None` or "??" is an unknown discard."""
RowEntries = str | Sequence[Row | str]
"""One word per card: front/middle/back/discard (also f/m/b/x, 1/2/3)."""


@dataclass(frozen=True)
class Command:
    """One action at a table; `kind` is the event it records."""

    kind: ClassVar[EventKind]

    def event_kind(self) -> EventKind:
        return self.kind

    def raw(self, in_force: TableRules) -> RawPayload:
        """The action as the machine checks it; `in_force` are the table's rules now (a change of
        rules naming the preset in force keeps its pinned numbers)."""
        return {}

    def approval(self) -> tuple[str, str] | None:
        """The approving supervisor and their PIN, for an action a supervisor approves."""
        return None


@dataclass(frozen=True, kw_only=True)
class Supervised(Command):
    """An action a floor supervisor approves with their PIN: `can` asks whether they could, before
    either is typed."""

    supervisor: str = ""
    pin: str = field(default="", repr=False)

    def approval(self) -> tuple[str, str] | None:
        return self.supervisor, self.pin


@dataclass(frozen=True)
class Entry(Command):
    """Cards entered for a player during a hand; `TableService.check_typing` also takes one typed
    only in part."""

    player: str
    cards: CardEntries = ()
    rows: RowEntries = ()

    def raw(self, in_force: TableRules) -> RawPayload:
        return {"player": self.player, "cards": self.cards, "rows": self.rows}


# ------------------------------------------------------------------------------ the hand
class StartHand(Command):
    """Deal the next hand; refused while a hand is unsettled or a seated player has no chips."""

    kind = EventKind.HAND_STARTED


class Undo(Command):
    """Take back the last entry of the live hand: recorded as an undo, never erased."""

    kind = EventKind.UNDONE


class Settle(Command):
    """Settle the complete hand: chips move, rake is taken, the button moves or is held."""

    kind = EventKind.HAND_SETTLED


# ------------------------------------------------------------------------------ between hands
@dataclass(frozen=True)
class Join(Command):
    """A new player buys in to the empty seat numbered `seat` (`TableService.free_seats`). Without a
    seat, as sessions recorded before seats kept their numbers did: clockwise after `after`
    (default: after the last seat)."""

    kind = EventKind.JOINED
    player: str
    buy_in: int
    after: str | None = None
    seat: int | None = None

    def raw(self, in_force: TableRules) -> RawPayload:
        return {"player": self.player, "buy_in": self.buy_in, "after": self.after, "seat": self.seat}


def newcomer(seated: Collection[str]) -> Join:
    """A join by someone not seated, of one chip: `can` of it says whether anyone could join now."""
    name = next(f"new player {n}" for n in count(1) if f"new player {n}" not in seated)
    return Join(name, 1)


@dataclass(frozen=True)
class Rebuy(Command):
    """A rebuy or top-up, between hands only."""

    kind = EventKind.REBOUGHT
    player: str
    amount: int

    def raw(self, in_force: TableRules) -> RawPayload:
        return {"player": self.player, "amount": self.amount}


@dataclass(frozen=True)
class SeatCommand(Command):
    """An action at one player's seat that carries nothing else."""

    player: str

    def raw(self, in_force: TableRules) -> RawPayload:
        return {"player": self.player}


class CashOut(SeatCommand):
    """A player leaves with their whole stack, between hands only."""

    kind = EventKind.CASHED_OUT


class SitOut(SeatCommand):
    """A player sits out."""

    kind = EventKind.SAT_OUT


class SitIn(SeatCommand):
    """A player who sat out sits in again."""

    kind = EventKind.SAT_IN


# ------------------------------------------------------------------------------ supervised
@dataclass(frozen=True)
class VoidHand(Supervised):
    """Void a settled hand: its transfers are reversed by a new event, never deleted."""

    kind = EventKind.HAND_VOIDED
    hand: int
    reason: str = ""

    def raw(self, in_force: TableRules) -> RawPayload:
        return {"hand": self.hand, "reason": self.reason}


@dataclass(frozen=True)
class CorrectChips(Supervised):
    """Add (positive) or remove (negative) chips from a stack, with a stated reason."""

    kind = EventKind.CHIPS_CORRECTED
    player: str
    amount: int
    reason: str

    def raw(self, in_force: TableRules) -> RawPayload:
        return {"player": self.player, "amount": self.amount, "reason": self.reason}


@dataclass(frozen=True)
class CorrectHand(Supervised):
    """Deal a settled hand again from corrected entries (`corrections`), with a stated reason."""

    kind = EventKind.HAND_CORRECTED
    hand: int
    entries: Sequence[Mapping[str, object]]
    reason: str

    def raw(self, in_force: TableRules) -> RawPayload:
        return {"hand": self.hand, "entries": list(self.entries), "reason": self.reason}


@dataclass(frozen=True)
class ChangeRules(Supervised):
    """New rules or stakes, between hands only; a named preset is pinned as its file is now."""

    kind = EventKind.RULES_CHANGED
    rules: TableRules

    def raw(self, in_force: TableRules) -> RawPayload:
        return {"rules": self.rules.pinned(in_force).to_json()}


class CloseSession(Supervised):
    """Close the table between hands; nothing can be entered afterwards."""

    kind = EventKind.SESSION_CLOSED


@dataclass(frozen=True)
class SeedJackpot(Supervised):
    """Add the house's chips to the room's jackpot pool, between hands (docs/rules.md §11)."""

    kind = EventKind.JACKPOT_SEEDED
    chips: int

    def raw(self, in_force: TableRules) -> RawPayload:
        return {"chips": self.chips}


# ------------------------------------------------------------------------------ the floor
@dataclass(frozen=True)
class Request(Command):
    """Ask the floor for an action (a void, a chip or hand correction, a rules change); the desk
    carries on dealing while the request waits."""

    kind = EventKind.REQUEST_MADE
    action: Command
    reason: str

    def raw(self, in_force: TableRules) -> RawPayload:
        details = dict(self.action.raw(in_force))
        return {"action": self.action.event_kind().value, "details": details, "reason": self.reason}


@dataclass(frozen=True)
class DecideRequest(Supervised):
    """A supervisor at the desk approves or declines a request, as the floor view would."""

    kind = EventKind.REQUEST_DECIDED
    number: int
    approved: bool
    note: str = ""

    def raw(self, in_force: TableRules) -> RawPayload:
        return {"request": self.number, "approved": self.approved, "note": self.note}


def dealer_name(dealer: Account | str) -> str:
    """The dealer's name: a signed-in dealer's account's, or a bare name (a table that signs nothing)."""
    return dealer.name if isinstance(dealer, Account) else dealer


def signing_account(dealer: Account | str) -> Account | None:
    """The account whose key signs the dealer's events; None for a bare name."""
    return dealer if isinstance(dealer, Account) else None


@dataclass(frozen=True)
class HandOver(Command):
    """Another dealer takes over this desk's table (`TableService.do` says how it is signed)."""

    kind = EventKind.HANDED_OVER
    dealer: Account | str

    def name(self) -> str:
        return dealer_name(self.dealer)

    def raw(self, in_force: TableRules) -> RawPayload:
        return {"dealer": self.name()}


# ------------------------------------------------------------------------------ scripts
@dataclass(frozen=True, kw_only=True)
class Scripted(Command):
    """A replay script's step as the script states it (its payload read from a file, checked by the
    machine as a stored event is); `approved` is the supervisor and PIN where its kind needs one."""

    event: EventKind
    payload: RawPayload
    approved: tuple[str, str] | None = field(default=None, repr=False)

    def event_kind(self) -> EventKind:
        return self.event

    def raw(self, in_force: TableRules) -> RawPayload:
        return self.payload

    def approval(self) -> tuple[str, str] | None:
        return self.approved
