"""OFC's part of the reports (every variant): fouls, Fantasyland and royalties in the players table,
royalties in a hand's, a transfer's points and its cap as its why, every number of the OFC preset on
the rules page, and the streets and Fantasyland sets of a replay script."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from reportlab.lib.units import mm

from ofc_desk.core.cards import UNKNOWN_TOKEN
from ofc_desk.core.ofc.presets import load_preset, preset_from_dict
from ofc_desk.core.presets import DEFAULT_PRESET, PresetError
from ofc_desk.core.results import HandResult, ResultPair, ResultSeat, ResultTransfer
from ofc_desk.i18n import LazyText, _, lazy_gettext, ngettext
from ofc_desk.reports.games.base import plain_matchup, plain_transfer, unreadable_preset
from ofc_desk.reports.record import (
    HandRecord,
    MatchupRecord,
    PlayerSummary,
    RuleSetting,
    SeatPart,
    SeatResult,
    SummaryPart,
    TransferRecord,
)
from ofc_desk.reports.rules_words import PRESET_TABLES, inline_words, rules_label, value_words
from ofc_desk.reports.spoken import reason_words
from ofc_desk.service.replays.replay_vocabulary import ACTION_KEYS
from ofc_desk.service.store.records import HandRecord as StoredHand
from ofc_desk.service.table.games.ofc.record import OfcRecord
from ofc_desk.service.terms.events import EventKind

LABELS: dict[str, LazyText] = {
    "scoring_systems": lazy_gettext("Scoring systems"),
    "foul_penalty": lazy_gettext("Foul penalty (points)"),
    "winner_only_royalties": lazy_gettext("Winner-only royalties"),
    "royalties.back": lazy_gettext("Back royalties"),
    "royalties.middle": lazy_gettext("Middle royalties"),
    "royalties.front_pairs": lazy_gettext("Front pairs"),
    "royalties.front_trips": lazy_gettext("Front trips"),
    "royalties.deuce_to_seven_middle": lazy_gettext("2-7 middle royalties"),
    "fantasyland.entry_front_pair": lazy_gettext("Fantasyland entry (front pair)"),
    "fantasyland.cards": lazy_gettext("Fantasyland cards"),
    "fantasyland.progressive_cards": lazy_gettext("Progressive cards"),
    "fantasyland.progressive_stay_cards": lazy_gettext("Progressive stay cards"),
    "fantasyland.stay": lazy_gettext("Fantasyland stay"),
    "fantasyland.max_consecutive": lazy_gettext("Consecutive Fantasyland cap"),
    "fantasyland.deuce_to_seven": lazy_gettext("2-7 Fantasyland"),
    "rake.jackpot_percent": lazy_gettext("Jackpot share of rake (%)"),
    "jackpot_award": lazy_gettext("Jackpot award"),
}
SKIPPED = {"name", "description", "scoring"}


@dataclass(frozen=True)
class OfcSeat(SeatPart):
    """An OFC player's Fantasyland in a hand (docs/rules.md §5), beside the rows every game's line
    holds."""

    fantasyland_cards: int = 0
    """Cards dealt to this player in Fantasyland this hand (0 = played the streets)."""
    fantasyland_next: int = 0
    """Cards this player will be dealt in Fantasyland next hand (0 = not going)."""


NO_FANTASYLAND = OfcSeat()


@dataclass(frozen=True)
class OfcSummary(SummaryPart):
    """An OFC player's Fantasyland over the session, beside what every game's summary holds."""

    fantasyland_hands: int = 0
    """Standing hands the player played in Fantasyland."""


NO_FANTASYLAND_HANDS = OfcSummary()


def ofc_part(seat: SeatResult) -> OfcSeat:
    """A player's OFC part of a hand in the record; no Fantasyland for a line without one."""
    return seat.part if isinstance(seat.part, OfcSeat) else NO_FANTASYLAND


def fantasyland_played(hand: HandRecord) -> tuple[tuple[str, int], ...]:
    """Who played `hand` in Fantasyland, with the cards each was dealt, in seat order."""
    return tuple((seat.name, cards) for seat in hand.seats if (cards := ofc_part(seat).fantasyland_cards))


class OfcReport:
    """What the reports ask of an OFC table, answered for OFC."""

    @property
    def player_headings(self) -> tuple[str, str, str]:
        return (_("Fouls"), _("FL hands"), _("Royalties"))

    def player_figures(self, player: PlayerSummary) -> tuple[int, int, int]:
        part = player.part if isinstance(player.part, OfcSummary) else NO_FANTASYLAND_HANDS
        return (player.fouls, part.fantasyland_hands, player.row_points)

    def summary(self, player: PlayerSummary, seats: Sequence[SeatResult]) -> PlayerSummary:
        played_in = sum(1 for seat in seats if ofc_part(seat).fantasyland_cards)
        return replace(player, part=OfcSummary(played_in))

    # "Fouls" and "FL hands" are wider than their figures: the player's column gives them the room.
    player_widths = (28 * mm, 17 * mm, 16 * mm, 18 * mm, 19 * mm, 19 * mm, 13 * mm, 12 * mm, 18 * mm)

    @property
    def row_points_heading(self) -> str:
        # TRANSLATORS: "Roy." is the royalties column of a hand's table, a narrow one: keep it short.
        return _("Roy.")

    @property
    def flag(self) -> str:
        return _("FOUL")

    def seat_part(self, seat: ResultSeat, stored: StoredHand) -> OfcSeat:
        """The Fantasyland cards the stored hand says the player was dealt, and the ones the result
        earned them (a fouled hand's reason is the record's own)."""
        return OfcSeat(OfcRecord.of(stored.part).fantasyland.get(seat.name, 0), seat.fantasyland_next)

    def matchup(self, pair: ResultPair) -> MatchupRecord:
        return plain_matchup(pair)

    def transfer(self, transfer: ResultTransfer) -> TransferRecord:
        return plain_transfer(transfer)  # its why is said from the hand's pairs (`why`)

    def title_parts(self, hand: HandRecord) -> tuple[str, ...]:
        played = fantasyland_played(hand)
        if not played:
            return ()
        players = ", ".join(
            ngettext("{player} ({count} card)", "{player} ({count} cards)", c).format(player=n, count=c)
            for n, c in played
        )
        return (_("Fantasyland: {players}").format(players=players),)

    def under_name(self, seat: SeatResult) -> str:
        going = ofc_part(seat).fantasyland_next
        return _("→ Fantasyland ({cards})").format(cards=going) if going else ""

    def in_place_of_rows(self, seat: SeatResult) -> str:
        return ""  # every OFC player sets three rows, even a fouled one

    def pair_note(self, matchup: MatchupRecord) -> str:
        return ""  # one pass: the points say it all

    @property
    def why_heading(self) -> str:
        return _("Why")

    def hand_note(self, hand: HandRecord) -> str:
        return ""  # every royalty a hand scored is paid

    def why(self, transfer: TransferRecord, hand: HandRecord) -> str | None:
        """The points the pair settled (from the hand's matchups), then the cap when the payer's
        stack ran short."""
        parts = [_points_words(transfer, hand.matchups)]
        if transfer.capped:
            parts.append(reason_words(transfer.reason))
        return "; ".join(part for part in parts if part) or None

    def shown_result(self, result: HandResult, rules: Mapping[str, Any]) -> HandResult:
        return result  # a royalty is always paid where it stands

    def resolve_preset(self, rules: Mapping[str, Any]) -> tuple[str, dict[str, Any] | None]:
        chosen = rules.get("rules", DEFAULT_PRESET)
        overrides = rules.get("house_options") or None
        try:
            if isinstance(chosen, Mapping):
                preset = preset_from_dict(chosen, overrides)
            else:
                preset = load_preset(str(chosen))
                if overrides:
                    preset = preset_from_dict(preset.to_dict(), overrides)
        except PresetError:
            return unreadable_preset(chosen)
        return preset.name, preset.to_dict()

    def play_options(self, rules: Mapping[str, Any], preset: Mapping[str, Any] | None) -> list[RuleSetting]:
        scoring = rules.get("scoring") or (preset or {}).get("scoring") or _("the preset's own")
        progressive = value_words(bool(rules.get("progressive", False)))
        face_down = value_words(bool(rules.get("last_three_face_down")))
        return [
            RuleSetting(rules_label(lazy_gettext("Scoring")), str(scoring)),
            RuleSetting(rules_label(lazy_gettext("Progressive Fantasyland")), progressive),
            RuleSetting(rules_label(lazy_gettext("Last 3 cards face down")), face_down),
        ]

    def preset_lines(self, preset: Mapping[str, Any]) -> list[RuleSetting]:
        return _flatten(preset, "")

    def hand_columns(self, seat: SeatResult) -> Mapping[str, object]:
        part = ofc_part(seat)
        return {"fantasyland_cards": part.fantasyland_cards, "fantasyland_next": part.fantasyland_next}

    def transfer_note(self, transfer: TransferRecord) -> str:
        return transfer.reason

    entry_kinds = frozenset({EventKind.PLACED, EventKind.REVEALED})

    def script_entry(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """A street, a face-down card turned up or a Fantasyland set: the cards and their rows."""
        player, cards, rows = ACTION_KEYS
        entered = payload.get(cards) or []
        return {
            player: payload[player],
            cards: " ".join(UNKNOWN_TOKEN if card is None else str(card) for card in entered),
            rows: " ".join(str(row) for row in payload.get(rows) or []),
        }


def _flatten(data: Mapping[str, Any], prefix: str) -> list[RuleSetting]:
    settings: list[RuleSetting] = []
    for key, value in data.items():
        path = f"{prefix}{key}"
        if path in SKIPPED:
            continue
        if isinstance(value, Mapping) and any(isinstance(v, Mapping) for v in value.values()):
            if path in LABELS:
                settings.append(RuleSetting(rules_label(LABELS[path]), inline_words(value)))
            else:
                settings += _flatten(value, f"{path}.")
        else:
            words = PRESET_TABLES[path](value) if path in PRESET_TABLES else value_words(value)
            label = rules_label(LABELS[path]) if path in LABELS else _humanize(path)
            settings.append(RuleSetting(label, words))
    return settings


def _humanize(path: str) -> str:
    words = path.replace(".", " ").replace("_", " ")
    return words[:1].upper() + words[1:]


def _points_words(transfer: TransferRecord, matchups: Sequence[MatchupRecord]) -> str:
    """ "Ann won 6 points from Bob, 5 a point": the pair's points from the payee's side."""
    pair = next((m for m in matchups if set(m.players) == {transfer.payer, transfer.payee}), None)
    if pair is None:
        return ""
    points = pair.points if pair.players[0] == transfer.payee else -pair.points
    return ngettext(
        "{payee} won {points} point from {payer}, {unit} a point",
        "{payee} won {points} points from {payer}, {unit} a point",
        points,
    ).format(payee=transfer.payee, payer=transfer.payer, points=points, unit=pair.unit)
