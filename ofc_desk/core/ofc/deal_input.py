"""Reading a deal from its JSON form (the `ofc-desk score` input), refusing bad input clearly.

Every refusal names the field and the problem, e.g. ``players[1].middle: Qs is already in Ann's
front``. Unknown fields are refused too: a misspelt option must not silently score by defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from ofc_desk.core.deal_input import (
    COMMON_DEAL_FIELDS,
    UNKNOWN_FIELD,
    CardPlaces,
    DealInputError,
    player_entries,
    read_choice,
    read_deal_terms,
    read_flag,
    read_game_preset,
    read_name_list,
    read_player_name,
    read_rows,
    read_stack,
    refuse_cards_held_twice,
    row_places,
    sits_twice,
)
from ofc_desk.core.jackpot import answered_jackpot
from ofc_desk.core.ofc.deal import Deal, SeatHand, deal_jackpot, score_deal
from ofc_desk.core.ofc.presets import RulesPreset, load_preset, preset_from_dict, refuse_award_for_variant
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import DEFAULT_PRESET, PresetError
from ofc_desk.core.rows import ROWS
from ofc_desk.i18n import _, lazy_gettext

DEAL_FIELDS = COMMON_DEAL_FIELDS | {
    "scoring", "variant", "progressive", "in_fantasyland", "fantasyland_streaks",
}  # fmt: skip
PLAYER_FIELDS = frozenset({"name", "stack", "front", "middle", "back"})


def deal_from_json(data: Any) -> Deal:
    if not isinstance(data, Mapping):
        raise DealInputError("", _("a deal must be a JSON object"))
    if not data.keys() <= DEAL_FIELDS:
        raise DealInputError(min(set(data) - DEAL_FIELDS), str(UNKNOWN_FIELD))
    preset = read_preset(data.get("rules", DEFAULT_PRESET), data.get("house_options"))
    variant = read_choice(data, "variant", Variant, Variant.REGULAR)
    try:
        refuse_award_for_variant(preset.jackpot_award, variant)
    except PresetError as error:
        raise DealInputError("variant", str(error)) from None
    players = _read_players(data.get("players"), variant)
    names = [seat.name for seat in players]
    scoring = data.get("scoring")
    if scoring is not None:
        _check_scoring(preset, scoring)
    in_fantasyland = frozenset(read_name_list(data.get("in_fantasyland", []), "in_fantasyland", names))
    terms = read_deal_terms(data, names)
    return Deal(
        preset=preset,
        players=players,
        scoring=scoring,
        variant=variant,
        progressive=read_flag(data, "progressive"),
        in_fantasyland=in_fantasyland,
        fantasyland_streaks=read_streaks(data.get("fantasyland_streaks", {}), in_fantasyland),
        **terms,
    )


def deal_to_json(deal: Deal) -> dict[str, object]:
    """The deal as `ofc-desk score` reads it (`deal_from_json` gives it back): to send it to
    another process."""
    return {**deal_rules_json(deal), **deal_hands_json(deal)}


def deal_rules_json(deal: Deal) -> dict[str, object]:
    """The keys of a deal its table's rules give: alike hand after hand, so sent once."""
    keys: dict[str, object] = {
        "rules": deal.preset.to_dict(),
        "variant": deal.variant.value,
        "progressive": deal.progressive,
        "unit": deal.unit,
        "pair_units": [{"players": sorted(pair), "unit": unit} for pair, unit in deal.pair_units.items()],
        "settlement": deal.settlement.value,
        "settle_from": deal.settle_from.value,
    }
    if deal.scoring is not None:
        keys["scoring"] = deal.scoring
    return keys


def deal_hands_json(deal: Deal) -> dict[str, object]:
    """The keys of a deal the hand itself gives: who dealt, the seats' stacks and rows,
    Fantasyland, and the jackpot pool when the deal carries one."""
    keys: dict[str, object] = {
        "dealer": deal.dealer,
        "players": [_seat_json(seat) for seat in deal.players],
        "in_fantasyland": [seat.name for seat in deal.players if seat.name in deal.in_fantasyland],
        "fantasyland_streaks": dict(deal.fantasyland_streaks),
    }
    if deal.jackpot_pool is not None:
        keys["jackpot_pool"] = deal.jackpot_pool
    return keys


def _seat_json(seat: SeatHand) -> dict[str, object]:
    rows = {row.value: [card.text for card in seat.hand.row(row)] for row in ROWS}
    return {"name": seat.name, "stack": seat.stack, **rows}


def score_deal_json(data: Any) -> dict[str, Any]:
    """An OFC deal as `ofc-desk score` reads it, scored and settled into the command's answer."""
    deal = deal_from_json(data)
    result = score_deal(deal)
    paid = partial(deal_jackpot, deal, result)
    return result.to_json(answered_jackpot(deal.jackpot_pool, deal.preset.jackpot_award, paid))


_NOT_A_PRESET = lazy_gettext("must be a preset name or a preset object")


def read_preset(rules: Any, house_options: Any = None) -> RulesPreset:
    """An OFC deal's or table's `rules` and `house_options` (`core.deal_input.read_game_preset`)."""
    return read_game_preset(rules, house_options, load_preset, preset_from_dict, _NOT_A_PRESET)


def _check_scoring(preset: RulesPreset, scoring: Any) -> None:
    if not isinstance(scoring, str):
        raise DealInputError("scoring", _("must be text such as '1-6' or '2-4'"))
    try:
        preset.scoring_system(scoring)
    except PresetError as error:
        raise DealInputError("scoring", str(error)) from None


def read_streaks(value: Any, in_fantasyland: frozenset[str]) -> dict[str, int]:
    """Fantasyland hands played in a row, this deal included (1 when not given): what the cap on
    consecutive Fantasyland hands counts."""
    if not isinstance(value, Mapping):
        raise DealInputError("fantasyland_streaks", _("must be an object of player names and hand counts"))
    streaks: dict[str, int] = {}
    for name, count in value.items():
        where = f"fantasyland_streaks.{name}"
        if name not in in_fantasyland:
            said = _("{name} did not play this deal in Fantasyland (in_fantasyland)").format(name=repr(name))
            raise DealInputError(where, said)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise DealInputError(where, _("must be a whole number of hands, 1 or more"))
        streaks[name] = count
    return streaks


def _read_players(value: Any, variant: Variant) -> tuple[SeatHand, ...]:
    structure = variant.structure
    said = _("{variant} is for {least} to {most} players, not {count}")
    entries = player_entries(value, structure.min_players, structure.max_players, said, variant=variant.value)
    seats: list[SeatHand] = []
    for position, entry in enumerate(entries):
        seat = _read_player(entry, position)
        if any(other.name == seat.name for other in seats):
            raise DealInputError(f"players[{position}].name", sits_twice(seat.name))
        seats.append(seat)
    # Every seat is read before a card dealt twice is named: the first met seat by seat, row by row.
    held: CardPlaces = {}
    for position, seat in enumerate(seats):
        refuse_cards_held_twice(seat.name, row_places(seat.hand), f"players[{position}]", held)
    return tuple(seats)


def _read_player(entry: Any, position: int) -> SeatHand:
    where = f"players[{position}]"
    if not isinstance(entry, Mapping):
        raise DealInputError(where, _("must be an object with name, stack, front, middle, back"))
    if not entry.keys() <= PLAYER_FIELDS:
        raise DealInputError(f"{where}.{min(set(entry) - PLAYER_FIELDS)}", str(UNKNOWN_FIELD))
    name = read_player_name(entry, where)
    return SeatHand(name, read_stack(entry, where), read_rows(entry, where))
