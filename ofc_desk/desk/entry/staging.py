"""The cards typed at a live table but not yet confirmed: the desk's one model of staging, Qt-free.

What is staged (each placement checked by the service as it is typed), the seat the line names
(`bo:`, `2:`) when it is not the player on turn's, whether the staged cards came back from a draft,
and the draft to keep. The table controller keeps one `Staging` and only shows what it says; the
showdown and the Fantasyland set read and change it too. No rule is decided here: every check is
the service's (`StagingChecks`, which `TableService` satisfies).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ofc_desk.desk.entry.drafts import StagedDraft
from ofc_desk.desk.entry.key_syntax import (
    KeyedPlacement,
    KeyedText,
    entry_lists,
    keyed_text,
    read_keyed_text,
    row_word,
    seat_named,
)
from ofc_desk.desk.games import game_at
from ofc_desk.desk.games.base import TakenBy
from ofc_desk.i18n import _, lazy_gettext, ngettext
from ofc_desk.service.table.commands import Entry
from ofc_desk.service.table.games.base import PlayedTable
from ofc_desk.service.table.games.choose import entry_for
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.snapshot import Phase, TableSnapshot

NO_HAND = lazy_gettext("no hand is being dealt: deal the next hand first")


class StagingChecks(Protocol):
    """The service's checks of a partial entry (`TableService` has them)."""

    def check_typing(self, entry: Entry) -> None: ...

    @property
    def machine(self) -> PlayedTable:
        """The table a game's own queries ask (whether a Chinese table plays a surrender)."""
        ...


@dataclass(frozen=True)
class StagingRead:
    """What reading the entry line did: the text left in it, and what to say."""

    typed: str
    """The text read."""
    line: str
    """What stays in the line: the text after the placements staged."""
    refusal: str = ""
    """Why the line stopped being staged (the service's word, or the syntax's)."""
    notice: str = ""
    """A word typed instead of cards at a showdown, said: what Enter will do with it (`s`, a
    surrender, at a Chinese table: the game's part reads it, `DeskGame.word_typed`)."""
    staged: bool = False
    """At least one placement was staged: the table is drawn again."""


def taken_by(snapshot: TableSnapshot | None) -> TakenBy | None:
    """How the desk takes the cards of the turn, as the table's game says; None with no turn."""
    if snapshot is None or snapshot.to_act is None:
        return None
    return game_at(snapshot).taken_by(snapshot.to_act)


def takes_any_seat(snapshot: TableSnapshot | None) -> bool:
    """The turn takes the hand of any seat without one, picked by its number or a click (a
    Chinese showdown)."""
    return taken_by(snapshot) is TakenBy.ANY_SEAT


def set_due(snapshot: TableSnapshot | None) -> bool:
    """A hand is being dealt with a player dealt a whole hand to set at once (`DeskGame.sets_due`,
    OFC's Fantasyland): F6 opens the set, or says when it comes."""
    if snapshot is None or snapshot.phase is not Phase.LIVE:
        return False
    return bool(game_at(snapshot).sets_due(snapshot))


def seat_map(snapshot: TableSnapshot | None) -> dict[int, str]:
    """Each seat's number with its player ("" for an empty seat): what `2:` may name."""
    if snapshot is None:
        return {}
    return {seat.number: seat.name for seat in snapshot.seats} | dict.fromkeys(snapshot.empty_seats, "")


def seat_names(snapshot: TableSnapshot | None) -> list[str]:
    return [seat.name for seat in snapshot.seats] if snapshot else []


@dataclass
class Staging:
    """The cards staged in the entry, not yet recorded."""

    placements: list[KeyedPlacement] = field(default_factory=list)
    addressed: str | None = None
    """The player named before the staged cards (`bo:`); None means the player on turn."""
    restored: bool = False
    """The staged cards came back from a draft kept when the desk closed."""

    # ------------------------------------------------------------------ reading what is typed
    def read(self, text: str, snapshot: TableSnapshot | None, checks: StagingChecks | None) -> StagingRead:
        """The line as typed: its seat, then each placement staged while the service takes it;
        the first it refuses, and everything after it, stays in the line."""
        self.restored = False
        keyed = read_keyed_text(text, seat_names(snapshot))
        player, refusal = self._addressed_player(keyed, snapshot, checks)
        if refusal:
            return StagingRead(text, text, refusal)
        if keyed.seat and takes_any_seat(snapshot):
            self.addressed = player  # a seat picked for its hand: its staged cards show there
        if notice := self._word_typed(keyed, snapshot, checks):
            return StagingRead(text, text, notice=notice)
        kept_from, refused = 0, None
        for placement, end in zip(keyed.placements, keyed.ends, strict=True):
            refusal = self._check([*self.placements, placement], snapshot, checks, player)
            if refusal:
                refused = placement
                break
            self.placements.append(placement)
            self.addressed = player
            kept_from = end
        refusal = _with_staging_help(refusal, refused, self.placements) if refusal else keyed.problem
        return StagingRead(text, text[kept_from:].lstrip(), refusal, staged=bool(kept_from))

    def _word_typed(
        self, keyed: KeyedText, snapshot: TableSnapshot | None, checks: StagingChecks | None
    ) -> str:
        """What Enter does with a word typed instead of cards at a showdown, as the table's game
        says; "" off a showdown, where every word is a card or a row."""
        if snapshot is None or not takes_any_seat(snapshot):
            return ""
        player = self.player(snapshot, keyed)
        return "" if player is None else game_at(snapshot).word_typed(keyed, player, checks)

    def addressed_refusal(
        self, keyed: KeyedText, snapshot: TableSnapshot | None, checks: StagingChecks | None
    ) -> str:
        """Why the seat the line names cannot be typed for now ("" when it can, or none is named)."""
        return self._addressed_player(keyed, snapshot, checks)[1]

    def player(self, snapshot: TableSnapshot | None, keyed: KeyedText | None = None) -> str | None:
        """Whose Chinese hand is being typed: the seat named in the line, else the one the staged
        cards were typed for, else the next player without a hand."""
        if keyed is not None and keyed.seat:
            try:
                return seat_named(keyed.seat, seat_map(snapshot))
            except ValueError:
                return None
        if self.placements and self.addressed:
            return self.addressed
        turn = snapshot.to_act if snapshot else None
        return turn.player if turn is not None else None

    def staged_for(self) -> str | None:
        """The player the staged cards are drawn at, when not the player on turn."""
        return self.addressed if self.placements else None

    def line_for_seat_click(self, line: str, player: str, snapshot: TableSnapshot | None) -> str:
        """At a Chinese showdown a click on a seat picks it for the hand typed next, as typing its
        number and a colon would: the line with that seat named first."""
        keyed = read_keyed_text(line, seat_names(snapshot))
        number = snapshot.seat(player).number if snapshot else 1
        return f"{number}: {line[keyed.seat_end :].lstrip()}"

    def _addressed_player(
        self, keyed: KeyedText, snapshot: TableSnapshot | None, checks: StagingChecks | None
    ) -> tuple[str | None, str]:
        """The player a `bo:` or `2:` before the cards names (None: the player on turn), or the
        refusal: no such seat, or the service's word that it is not that player's turn."""
        if not keyed.seat:
            return self.staged_for(), ""
        try:
            player = seat_named(keyed.seat, seat_map(snapshot))
        except ValueError as no_seat:
            return None, str(no_seat)
        return player, self._check(self.placements, snapshot, checks, player)

    @staticmethod
    def _check(
        placements: list[KeyedPlacement],
        snapshot: TableSnapshot | None,
        checks: StagingChecks | None,
        player: str | None,
    ) -> str:
        turn = snapshot.to_act if snapshot else None
        if checks is None or turn is None:
            return str(NO_HAND)
        cards, rows = entry_lists(placements)
        try:
            checks.check_typing(entry_for(turn.kind, player or turn.player, cards, rows))
        except ActionRefused as refusal:
            return str(refusal)
        return ""

    # ------------------------------------------------------------------ taking back
    def unstage_last(self) -> bool:
        """Backspace on the empty line (or Ctrl+Z): the last staged card taken back."""
        if not self.placements:
            return False
        self.placements.pop()
        self.restored = False
        return True

    def clear(self) -> int:
        """Esc: every staged card taken back, and the seat named forgotten; how many there were."""
        count = len(self.placements)
        self.placements, self.addressed, self.restored = [], None, False
        return count

    def entered(self) -> None:
        """The staged cards were confirmed (recorded): nothing is staged, for nobody."""
        self.placements, self.addressed = [], None

    def drop(self) -> None:
        """Nothing staged any more (a table redrawn as recorded: an undo, another table)."""
        self.placements = []

    def show(self, placements: list[KeyedPlacement]) -> None:
        """What a Fantasyland set's dialog holds, drawn dashed at the seat until it is revealed."""
        self.placements = placements

    # ------------------------------------------------------------------ what is shown
    def lists(self) -> tuple[list[str], list[str]]:
        """The staged cards and their rows, as the service takes them."""
        return entry_lists(self.placements)

    def text(self, snapshot: TableSnapshot | None) -> str:
        """The staged line under the entry: its heading, then each card with its row."""
        if not self.placements:
            return ""
        cards = "  ".join(f"{p.label}→{row_word(p.placement)}" for p in self.placements)
        if self.restored:
            return _("Typed before the desk closed, not yet confirmed: {cards}").format(cards=cards)
        if takes_any_seat(snapshot):
            return _("{player}'s hand: {cards}").format(player=self.player(snapshot), cards=cards)
        return _("This street: {cards}").format(cards=cards)

    # ------------------------------------------------------------------ drafts
    def draft(self, snapshot: TableSnapshot) -> StagedDraft | None:
        """What to keep for the player to act, or None once nothing is. A Fantasyland set in its
        dialog is not a draft: the entry could not take it back."""
        turn = snapshot.to_act
        if not self.placements or turn is None or taken_by(snapshot) is TakenBy.DIALOG:
            return None
        player = (self.addressed or turn.player) if takes_any_seat(snapshot) else turn.player
        return StagedDraft(snapshot.last_event_hash, player, keyed_text(self.placements))

    def restore(
        self, draft: StagedDraft, snapshot: TableSnapshot, checks: StagingChecks | None
    ) -> StagingRead | None:
        """The draft's cards staged again, each checked by the service as if typed now, provided
        nothing was recorded since they were typed; None when the draft no longer applies."""
        turn = snapshot.to_act
        if draft.event_hash != snapshot.last_event_hash or turn is None:
            return None
        text = draft.text
        if takes_any_seat(snapshot):  # typed for a seat picked out of turn, perhaps: named again
            if draft.player not in seat_names(snapshot):
                return None
            text = f"{draft.player}: {draft.text}"
        elif turn.player != draft.player:
            return None
        read = self.read(text, snapshot, checks)
        self.restored = bool(self.placements)
        return read


def _with_staging_help(refusal: str, refused: KeyedPlacement | None, staged: list[KeyedPlacement]) -> str:
    """A card typed again while it is staged (a street typed anew after part of it was refused) is
    called that, not a card entered twice, and the dealer is told how to take the staged ones back."""
    if refused is None or refused.card is None or all(placement.card != refused.card for placement in staged):
        return refusal
    return ngettext(
        "{card} is staged already, not yet confirmed: type only the cards still to come, or"
        " Esc to take back all {count} card staged (Backspace on the empty line: the last one)",
        "{card} is staged already, not yet confirmed: type only the cards still to come, or"
        " Esc to take back all {count} cards staged (Backspace on the empty line: the last one)",
        len(staged),
    ).format(card=refused.label, count=len(staged))
