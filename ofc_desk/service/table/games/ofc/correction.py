"""What a floor supervisor's correction of a settled hand changes of OFC's carry-over, in the audit
log's words (docs/rules.md §12): who goes to Fantasyland, followed by the next hand or only said.
The generic correction passes the change through (`payloads.CorrectedCarry`) and leaves the words
to the game (`games.choose.CARRY_CORRECTION_WORDS`)."""

from __future__ import annotations

from ofc_desk.i18n import _, ngettext
from ofc_desk.service.terms.payloads import CorrectedCarry


def fantasyland_words(carry: CorrectedCarry) -> str:
    """A change of who goes to Fantasyland: followed by the next hand, or only said; nothing when
    the correction sends the same players as recorded."""
    if carry.recorded == carry.owed:
        return ""
    going = _players_cards(carry.owed)
    if carry.follows:
        return _("; Fantasyland next hand: {going}").format(going=going)
    said = _("; Fantasyland would have been {going} (recorded: {recorded}); later hands stand")
    return said.format(going=going, recorded=_players_cards(carry.recorded))


def _players_cards(fantasyland: dict[str, int]) -> str:
    if not fantasyland:
        return _("nobody")
    return ", ".join(_player_cards(name, cards) for name, cards in fantasyland.items())


def _player_cards(player: str, cards: int) -> str:
    said = ngettext("{player} ({count} card)", "{player} ({count} cards)", cards)
    return said.format(player=player, count=cards)
