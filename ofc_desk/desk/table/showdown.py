"""The card entry at a Chinese poker table: each player's set hand is typed whole at showdown.

The same key syntax as a street (`qh f 10d m ...`, 13 cards with their rows), for the next player
without a hand or for a seat picked by clicking it or typing its number and a colon (`3:`); `s`
then Enter surrenders; a special is declared only by choosing one the service finds in the cards.
Every rule is the service's: this module only reads what was typed and says whose hand it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.desk.entry.key_syntax import KeyedText, seat_named
from ofc_desk.desk.table.faces import seat_map
from ofc_desk.service.snapshot import TableSnapshot, TurnKind

if TYPE_CHECKING:
    from ofc_desk.desk.table.controller import TableController

SURRENDER_KEY = "s"


def is_showdown(snapshot: TableSnapshot | None) -> bool:
    turn = snapshot.to_act if snapshot is not None else None
    return turn is not None and turn.kind is TurnKind.SHOWDOWN


def asks_surrender(keyed: KeyedText) -> bool:
    """`s` alone after the seat (if any): a surrender, not a card being typed."""
    return not keyed.placements and keyed.rest.strip().lower() == SURRENDER_KEY


class ShowdownEntry:
    def __init__(self, controller: TableController) -> None:
        self.controller = controller

    def player(self, keyed: KeyedText | None = None) -> str | None:
        """Whose hand is being typed: the seat named in the line, else the one the staged cards
        were typed for, else the next player without a hand."""
        controller = self.controller
        if keyed is not None and keyed.seat:
            try:
                return seat_named(keyed.seat, seat_map(controller.snapshot))
            except ValueError:
                return None
        if controller.staged and controller.addressed:
            return controller.addressed
        turn = controller.snapshot.to_act if controller.snapshot else None
        return turn.player if turn is not None else None

    def confirm(self, keyed: KeyedText) -> None:
        """Enter: the staged hand, or a surrender, for the player whose hand is being typed."""
        controller, service = self.controller, self.controller.service
        player = self.player(keyed)
        if service is None or player is None:
            controller.show_refusal(controller.addressed_refusal(keyed) or "no hand is being entered")
            return
        if asks_surrender(keyed) and not controller.staged:
            self._surrender(player)
            return
        if keyed.rest or keyed.placements:
            # Still in the line, so refused as typed: say why again rather than enter without it.
            controller.on_entry_edited(controller.window.entry.line.text())
            if keyed.rest and not keyed.placements:
                controller.show_refusal(keyed.problem or f"finish '{keyed.rest}': a card, then its row")
            return
        if not controller.staged:
            controller.show_refusal(f"type {player}'s 13 cards with their rows, or s to surrender")
            return
        cards, rows = controller.staged_lists()
        controller.enter(
            f"{player}: {' '.join(cards)}", lambda: service.show(player, {"cards": cards, "rows": rows})
        )

    def surrender(self) -> None:
        """The Surrender button: as `s` then Enter for the player whose hand is being typed."""
        controller, player = self.controller, self.player()
        if controller.service is None or player is None:
            return
        if controller.staged:
            controller.show_refusal(f"{player}'s cards are staged: take them back (Backspace) to surrender")
            return
        self._surrender(player)

    def _surrender(self, player: str) -> None:
        controller, service = self.controller, self.controller.service
        assert service is not None
        if controller.enter(f"{player} surrenders", lambda: service.show(player, {"surrender": True})):
            controller.show_notice(f"{player} surrendered (Ctrl+Z takes it back)")

    def declare(self, kind: str) -> None:
        """The dealer chose one of the specials offered for the staged cards."""
        controller, service, player = self.controller, self.controller.service, self.player()
        if service is None or player is None:
            return
        cards, rows = controller.staged_lists()
        words = SpecialKind(kind).words
        controller.enter(
            f"{player} declares {words}",
            lambda: service.show(player, {"cards": cards, "rows": rows, "declare": kind}),
        )

    def offer_specials(self) -> None:
        """Once the 13 cards are staged, the specials they make under the table's preset, for the
        dealer to choose from; the desk never declares by itself."""
        controller, service = self.controller, self.controller.service
        player = self.player()
        kinds: list[SpecialKind] = []
        if service is not None and player is not None and is_showdown(controller.snapshot):
            kinds = service.specials_made(controller.staged_lists()[0])
        controller.window.entry.offer_declarations(player or "", [(kind.value, kind.words) for kind in kinds])
