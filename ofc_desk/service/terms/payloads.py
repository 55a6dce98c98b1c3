"""The payload of each kind of event, exactly as the log stores it (canonical JSON, sorted keys).

`TableMachine.check` turns what a face sends (`RawPayload`: any mapping, maybe malformed) into one
of these; `apply` folds it in. The shapes are part of every stored hash chain: a key added,
renamed or retyped here breaks the verification of every existing database.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NotRequired, TypedDict

RawPayload = Mapping[str, object]
"""An action as a face or a stored event gives it, before `check` has read it."""


class SeatPayload(TypedDict):
    name: str
    buy_in: int


class PairUnitPayload(TypedDict):
    players: list[str]
    unit: int


class RulesPayload(TypedDict):
    """`TableRules.to_json()`: the `ofc-desk score` rules keys plus the table's own option."""

    rules: str | dict[str, object]
    house_options: dict[str, object] | None
    scoring: str | None
    variant: str
    progressive: bool
    unit: int
    pair_units: list[PairUnitPayload]
    settlement: str
    settle_from: str
    last_three_face_down: bool
    preset_name: NotRequired[str]
    """The preset file the rules were pinned from (docs/decisions.md, "Rules pinned in the chain")."""
    preset_sha256: NotRequired[str]
    """SHA-256 of the pinned preset's canonical JSON: present whenever `rules` is an object."""


class TableOpened(TypedDict):
    table: str
    seats: list[SeatPayload]
    button: str
    rules: RulesPayload


class HandStarted(TypedDict):
    number: int


class EntryPayload(TypedDict):
    """A street (`placed`) or a Fantasyland set or face-down reveal (`revealed`)."""

    player: str
    cards: list[str | None]
    rows: list[str]


class ShownPayload(TypedDict):
    """A Chinese poker showdown (`shown`): 13 cards with their rows, or a surrender (no cards), or
    a declared special with its cards (and its rows when given)."""

    player: str
    cards: list[str]
    rows: list[str] | None
    surrender: bool
    declare: str | None


class Undone(TypedDict):
    undone: EntryPayload | ShownPayload


class HandSettled(TypedDict):
    number: int
    jackpot_pool: NotRequired[int]
    """The room's jackpot pool before the hand, read under the pool's lock: only at a table whose
    preset has a `jackpot_award` (the award is paid from it and this hand's drop)."""


class Joined(TypedDict):
    player: str
    buy_in: int
    after: str | None
    """The player the newcomer sits after, clockwise (None: before everyone)."""
    seat: NotRequired[int]
    """The empty seat taken, by number; a join recorded before seats kept their numbers names none
    (`service.table.seats` says which seat such a join takes)."""


class Rebought(TypedDict):
    player: str
    amount: int


class CashedOut(TypedDict):
    player: str
    amount: int


class SatOut(TypedDict):
    player: str


class SatIn(TypedDict):
    player: str


class HandVoided(TypedDict):
    hand: int
    reason: str
    supervisor: str
    request: NotRequired[int]
    """The floor request this carries out, when the floor approved it rather than a PIN at the desk."""


class ChipsCorrected(TypedDict):
    player: str
    amount: int
    reason: str
    supervisor: str
    request: NotRequired[int]


class CarriedCorrection(TypedDict):
    """The part of `HandCorrected` that says what the corrected hand leaves the next owing its players
    (`carry.CarryOver.owed`), read and written as `CorrectedCarry`. Stored under OFC's word,
    Fantasyland's, from before the carry-over was a game's own: the keys stay as they are stored, and
    a game that carries nothing stores them empty."""

    fantasyland: dict[str, int]
    """What the corrected hand leaves the next owing each player, in their seats' order (OFC: who
    it sends to Fantasyland, with their cards)."""
    fantasyland_recorded: dict[str, int]
    """What the hand left owing as recorded (or last corrected)."""
    fantasyland_follows: bool
    """Whether the next hand's carry-over and button follow the corrected hand (it is the last
    settled one and the next has not started)."""


@dataclass(frozen=True)
class CorrectedCarry:
    """What a correction changes of what the next hand owes, under names of no game: the generic
    correction passes it through (`actions.hand_corrections`) and each game says it
    (`games.choose.CARRY_CORRECTION_WORDS`)."""

    owed: dict[str, int]
    """What the corrected hand leaves the next owing, in the players' seats' order."""
    recorded: dict[str, int]
    """What the hand left the next owing as recorded (or last corrected)."""
    follows: bool
    """Whether the next hand's carry-over and button follow the corrected hand."""

    @classmethod
    def of(cls, correction: CarriedCorrection) -> "CorrectedCarry":
        return cls(
            correction["fantasyland"], correction["fantasyland_recorded"], correction["fantasyland_follows"]
        )

    def stored(self) -> CarriedCorrection:
        """Its keys of the stored payload, as they have always been spelled."""
        return {
            "fantasyland": self.owed,
            "fantasyland_recorded": self.recorded,
            "fantasyland_follows": self.follows,
        }


class CorrectedHand(TypedDict):
    """A settled hand corrected by a floor supervisor (docs/rules.md §12): its entries as they
    should stand, the result they score and settle to from the stacks the hand began with, each
    player's difference D against the recorded (or last corrected) settlement, and D paid now: what
    every game's correction says alike (`HandCorrected` adds what the next hand owes)."""

    hand: int
    entries: list[EntryPayload | ShownPayload]
    """The hand's entries whole, in the shape its own events store them."""
    result: dict[str, object]
    """The corrected hand scored and settled, as `ofc-desk score` answers it."""
    difference: dict[str, int]
    paid: dict[str, int]
    """Chips each player paid (negative) or received now, at the stacks as they were."""
    not_covered: dict[str, int]
    """What could not be paid at the table, with D's sign (paid + not covered = D)."""
    stacks_after: dict[str, int]
    """The stacks of the hand's players still seated once the correction is paid."""
    reason: str
    supervisor: str
    request: NotRequired[int]


class HandCorrected(CorrectedHand, CarriedCorrection):
    """A settled hand corrected, and what the correction changes of what the next hand owes."""


class RulesChanged(TypedDict):
    rules: RulesPayload
    supervisor: str
    request: NotRequired[int]


class RequestMade(TypedDict):
    """The dealer asks the floor for a void, a chip correction or a rules change."""

    request: int
    action: str
    """The kind of the event asked for (`hand_voided`, `chips_corrected`, `rules_changed`)."""
    details: dict[str, object]
    """That event's payload as checked when asked, without its supervisor."""
    reason: str


class RequestDecided(TypedDict):
    """A floor supervisor approves or declines a request (signed with their key)."""

    request: int
    approved: bool
    supervisor: str
    note: str


class HandedOver(TypedDict):
    """The dealer on duty (the event's actor) hands the table over to `dealer`."""

    dealer: str


class TakenOver(TypedDict):
    """A supervisor hands the table to `dealer` at the desk on machine `desk`, whoever held it."""

    dealer: str
    desk: str
    supervisor: str


class SessionClosed(TypedDict):
    supervisor: str


class JackpotSeeded(TypedDict):
    chips: int
    supervisor: str


class RulesPinned(TypedDict):
    presets: dict[str, dict[str, object]]
    sha256: dict[str, str]
    note: str


EventPayload = (
    TableOpened
    | HandStarted
    | EntryPayload
    | ShownPayload
    | Undone
    | HandSettled
    | Joined
    | Rebought
    | CashedOut
    | SatOut
    | SatIn
    | HandVoided
    | ChipsCorrected
    | HandCorrected
    | RulesChanged
    | SessionClosed
    | JackpotSeeded
    | RulesPinned
    | RequestMade
    | RequestDecided
    | HandedOver
    | TakenOver
)
"""Any event's payload; the event's kind says which."""
