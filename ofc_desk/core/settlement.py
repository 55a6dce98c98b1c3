"""Table-stakes settlement of one deal, in strict clockwise order (docs/rules.md §8).

>>> result = settle({"Ann": 10, "Bob": 20, "Cy": 20, "Dee": 20}, [
...     Obligation("Bob", "Ann", 8), Obligation("Ann", "Cy", 5), Obligation("Dee", "Ann", 9)])
>>> [(t.paid, t.reason) for t in result.transfers][-1]
(7, 'capped: Ann reached the win cap of 10 and is complete')
>>> result.stacks_after["Ann"]
20
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, NamedTuple

from ofc_desk.i18n import LazyText, lazy_pgettext

MAX_CHIPS = 10**12
"""The largest buy-in, rebuy, correction, unit or rake a table takes: far beyond any real stack,
and sums of such amounts stay well inside the database's 64-bit integers."""


class SettlementPolicy(StrEnum):
    WIN_CAP = "win-cap"
    CHIP_EXPOSURE = "chip-exposure"

    @property
    def label(self) -> LazyText:
        """The policy's name in the reader's language (its value is the stored identifier)."""
        return _POLICY_LABELS[self]


_POLICY_LABELS: Final[dict[SettlementPolicy, LazyText]] = {
    SettlementPolicy.WIN_CAP: lazy_pgettext("settlement policy", "win-cap"),
    SettlementPolicy.CHIP_EXPOSURE: lazy_pgettext("settlement policy", "chip-exposure"),
}


class SettleFrom(StrEnum):
    LEFT_OF_DEALER = "left-of-dealer"
    DEALER = "dealer"


class ProposedSettlement(NamedTuple):
    """How a new table with a preset is proposed to settle (a Chinese preset may say, OFC's say
    nothing); the dealer may change it."""

    policy: SettlementPolicy
    settle_from: SettleFrom


class SettlementPass(StrEnum):
    """The passes of a two-pass settlement (docs/rules.md §8, §10): special hands first, then the
    rest, one ledger for both. An OFC deal settles in one pass and names none."""

    SPECIAL = "special"
    REST = "rest"


class Obligation(NamedTuple):
    """Chips one player owes another for their pair, before table stakes apply."""

    debtor: str
    creditor: str
    owed: int


class Transfer(NamedTuple):
    debtor: str
    creditor: str
    owed: int
    paid: int
    reason: str

    def to_json(self) -> dict[str, object]:
        return {
            "from": self.debtor,
            "to": self.creditor,
            "owed": self.owed,
            "paid": self.paid,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Settlement:
    """A hand settled: its transfers, and every stack before and after them."""

    transfers: tuple[Transfer, ...]
    stacks_before: Mapping[str, int]
    stacks_after: Mapping[str, int]


def settlement_order(seats: Sequence[str], dealer: str, settle_from: SettleFrom) -> list[str]:
    """Players clockwise from the one left of the dealer (or the dealer), the dealer last.

    >>> settlement_order(["West", "North", "East", "South"], "South", SettleFrom.LEFT_OF_DEALER)
    ['West', 'North', 'East', 'South']
    >>> settlement_order(["West", "North", "East", "South"], "North", SettleFrom.DEALER)
    ['North', 'East', 'South', 'West']
    """
    start = seats.index(dealer) + (1 if settle_from is SettleFrom.LEFT_OF_DEALER else 0)
    return [seats[(start + offset) % len(seats)] for offset in range(len(seats))]


def pair_order(order: Sequence[str]) -> list[tuple[str, str]]:
    """The first player against each later one, then the second, and so on: W–N, W–E, W–S, N–E…"""
    return [(first, second) for i, first in enumerate(order) for second in order[i + 1 :]]


def settle(
    start_stacks: Mapping[str, int],
    obligations: Sequence[Obligation],
    policy: SettlementPolicy = SettlementPolicy.WIN_CAP,
) -> Settlement:
    """Pay every obligation in the order given, as far as table stakes allow."""
    ledger: _Ledger = (
        _WinCapLedger(start_stacks) if policy is SettlementPolicy.WIN_CAP else _ExposureLedger(start_stacks)
    )
    transfers = tuple(ledger.pay(obligation) for obligation in obligations)
    return Settlement(transfers, dict(start_stacks), dict(ledger.stacks))


class _Ledger:
    def __init__(self, start_stacks: Mapping[str, int]) -> None:
        self.start = dict(start_stacks)
        self.stacks = dict(start_stacks)

    def pay(self, obligation: Obligation) -> Transfer:
        paid, reason = self.payable(obligation)
        self.stacks[obligation.debtor] -= paid
        self.stacks[obligation.creditor] += paid
        reason = self.after_payment(obligation, paid, reason)
        return Transfer(obligation.debtor, obligation.creditor, obligation.owed, paid, reason)

    def payable(self, obligation: Obligation) -> tuple[int, str]:
        raise NotImplementedError

    def after_payment(self, obligation: Obligation, paid: int, reason: str) -> str:
        return reason


class _WinCapLedger(_Ledger):
    """A loser pays at most what is in front of them; a winner at most doubles their stack."""

    def __init__(self, start_stacks: Mapping[str, int]) -> None:
        super().__init__(start_stacks)
        self.complete: set[str] = set()

    def payable(self, obligation: Obligation) -> tuple[int, str]:
        debtor, creditor, owed = obligation.debtor, obligation.creditor, obligation.owed
        for player in (creditor, debtor):
            if player in self.complete:
                return 0, f"nothing moves: {player} is complete (reached the win cap of {self.start[player]})"
        in_front = self.stacks[debtor]
        room = 2 * self.start[creditor] - self.stacks[creditor]
        paid = min(owed, in_front, room)
        if paid == owed:
            return paid, "paid in full"
        if paid == room:
            return paid, f"capped: {creditor} reached the win cap of {self.start[creditor]}"
        if in_front == 0:
            return 0, f"nothing paid: {debtor} has no chips left"
        return paid, f"{debtor} had only {in_front} in front of them"

    def after_payment(self, obligation: Obligation, paid: int, reason: str) -> str:
        creditor = obligation.creditor
        if creditor not in self.complete and self.stacks[creditor] == 2 * self.start[creditor]:
            self.complete.add(creditor)
            if reason.startswith("capped"):
                return f"{reason} and is complete"
            return f"{reason}; {creditor} reached the win cap of {self.start[creditor]} and is complete"
        return reason


class _ExposureLedger(_Ledger):
    """Every chip a player started the deal with covers one win or pays one loss, once."""

    def __init__(self, start_stacks: Mapping[str, int]) -> None:
        super().__init__(start_stacks)
        self.unused = dict(start_stacks)

    def payable(self, obligation: Obligation) -> tuple[int, str]:
        debtor, creditor, owed = obligation.debtor, obligation.creditor, obligation.owed
        paid = min(owed, self.unused[debtor], self.unused[creditor])
        if paid == owed:
            reason = "paid in full"
        elif paid == self.unused[debtor]:
            reason = f"{debtor} had only {paid} unused chips of the {self.start[debtor]} at the start"
        else:
            reason = f"{creditor} had only {paid} unused chips of the {self.start[creditor]} to cover the win"
        self.unused[debtor] -= paid
        self.unused[creditor] -= paid
        return paid, reason
