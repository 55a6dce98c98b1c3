"""The card entry at a Chinese poker table: each player's set hand is typed whole at showdown.

The same key syntax as a street (`qh f 10d m ...`, 13 cards with their rows), for the next player
without a hand or for a seat picked by clicking it or typing its number and a colon (`3:`); `s`
then Enter surrenders; a special is declared only by choosing one the service finds in the cards.
Every rule is the service's: this module only reads what was typed and says whose hand it is.
"""

from __future__ import annotations

from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.desk.entry.key_syntax import KeyedText
from ofc_desk.desk.games.base import StagedCards
from ofc_desk.desk.table.table_view import ServiceGetter, TableView
from ofc_desk.i18n import _
from ofc_desk.service.table.games.chinese.commands import Show
from ofc_desk.service.table.games.chinese.game import specials_made

SURRENDER_KEY = "s"


def asks_surrender(keyed: KeyedText) -> bool:
    """`s` alone after the seat (if any): a surrender, not a card being typed."""
    return not keyed.placements and keyed.rest.strip().lower() == SURRENDER_KEY


class ShowdownEntry:
    """`TurnEntry` for a showdown's turn, made for it by `ChineseDesk.entry_for`."""

    def __init__(self, staging: StagedCards, service: ServiceGetter, view: TableView) -> None:
        self.staging = staging
        self.service = service
        self.view = view

    def player(self, keyed: KeyedText | None = None) -> str | None:
        """Whose hand is being typed (`Staging.player`)."""
        return self.staging.player(self.view.snapshot, keyed)

    def confirm(self, keyed: KeyedText) -> None:
        """Enter: the staged hand, or a surrender, for the player whose hand is being typed."""
        view, service, staging = self.view, self.service(), self.staging
        player = self.player(keyed)
        if service is None or player is None:
            refusal = staging.addressed_refusal(keyed, view.snapshot, service)
            view.show_refusal(refusal or _("no hand is being entered"))
            return
        if asks_surrender(keyed) and not staging.placements:
            self._surrender(player)
            return
        if keyed.rest or keyed.placements:
            # Still in the line, so refused as typed: say why again rather than enter without it.
            view.read_line_again()
            if keyed.rest and not keyed.placements:
                view.show_refusal(
                    keyed.problem or _("finish '{rest}': a card, then its row").format(rest=keyed.rest)
                )
            return
        if not staging.placements:
            view.show_refusal(
                _("type {player}'s 13 cards with their rows, or s to surrender").format(player=player)
            )
            return
        cards, rows = staging.lists()
        view.enter(f"{player}: {' '.join(cards)}", lambda: service.do(Show(player, cards, rows)))

    def surrender(self) -> None:
        """The Surrender button: as `s` then Enter for the player whose hand is being typed."""
        player = self.player()
        if self.service() is None or player is None:
            return
        if self.staging.placements:
            self.view.show_refusal(
                _("{player}'s cards are staged: take them back (Backspace) to surrender").format(
                    player=player
                )
            )
            return
        self._surrender(player)

    def _surrender(self, player: str) -> None:
        service = self.service()
        assert service is not None
        entry = _("{player} surrenders").format(player=player)
        if self.view.enter(entry, lambda: service.do(Show(player, surrender=True))):
            self.view.show_notice(_("{player} surrendered (Ctrl+Z takes it back)").format(player=player))

    def declare(self, kind: str) -> None:
        """The dealer chose one of the specials offered for the staged cards."""
        service, player = self.service(), self.player()
        if service is None or player is None:
            return
        cards, rows = self.staging.lists()
        self.view.enter(
            _("{player} declares {special}").format(player=player, special=SpecialKind(kind).label),
            lambda: service.do(Show(player, cards, rows, declare=kind)),
        )

    def specials(self) -> tuple[str, list[tuple[str, str]]]:
        """Once the 13 cards are staged, the specials they make under the table's preset (kind and
        words), for the dealer to choose from; the desk never declares by itself. And whose hand."""
        service, player = self.service(), self.player()
        kinds: list[SpecialKind] = []
        if service is not None and player is not None:
            kinds = specials_made(service.machine, self.staging.lists()[0])
        return player or "", [(kind.value, str(kind.label)) for kind in kinds]
