"""Reading a deal from its JSON form (the `ofc-desk score` input), refusing bad input clearly.

Every refusal names the field and the problem, e.g. ``players[1].middle: Qs is already in Ann's
front``. Unknown fields are refused too: a misspelt option must not silently score by defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any, NoReturn

from ofc_desk.core.cards import Card
from ofc_desk.core.deal_input import (
    PLAYERS_IN_ORDER,
    UNKNOWN_FIELD,
    DealInputError,
    read_cards,
    read_choice,
    read_count,
    read_flag,
    read_game_preset,
    read_jackpot_pool,
    read_name,
    read_name_list,
    read_pair_units,
    read_player_name,
    read_stack,
    sits_twice,
)
from ofc_desk.core.jackpot import answered_jackpot
from ofc_desk.core.ofc.deal import Deal, SeatHand, deal_jackpot, score_deal
from ofc_desk.core.ofc.presets import RulesPreset, load_preset, preset_from_dict, refuse_award_for_variant
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import DEFAULT_PRESET, PresetError
from ofc_desk.core.rows import ROW_SIZE, ROWS, Row, SetHand, already_in
from ofc_desk.core.settlement import SettleFrom, SettlementPolicy
from ofc_desk.i18n import _, lazy_gettext

DEAL_FIELDS = frozenset({
    "rules", "house_options", "scoring", "variant", "progressive", "unit", "pair_units",
    "settlement", "settle_from", "in_fantasyland", "fantasyland_streaks", "dealer", "players",
    "jackpot_pool",
})  # fmt: skip
_ROW_NAMES_AND_SIZES = tuple((row.value, ROW_SIZE[row]) for row in ROWS)
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
    return Deal(
        preset=preset,
        dealer=read_name(data, "dealer", names),
        players=players,
        scoring=scoring,
        variant=variant,
        progressive=read_flag(data, "progressive"),
        unit=read_count(data, "unit", 1, least=1),
        pair_units=read_pair_units(data.get("pair_units", []), names),
        settlement=read_choice(data, "settlement", SettlementPolicy, SettlementPolicy.WIN_CAP),
        settle_from=read_choice(data, "settle_from", SettleFrom, SettleFrom.LEFT_OF_DEALER),
        in_fantasyland=in_fantasyland,
        fantasyland_streaks=read_streaks(data.get("fantasyland_streaks", {}), in_fantasyland),
        jackpot_pool=read_jackpot_pool(data),
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
    if not isinstance(value, list):
        raise DealInputError("players", str(PLAYERS_IN_ORDER))
    structure = variant.structure
    if not structure.min_players <= len(value) <= structure.max_players:
        said = _("{variant} is for {least} to {most} players, not {count}")
        least, most = structure.min_players, structure.max_players
        raise DealInputError(
            "players", said.format(variant=variant.value, least=least, most=most, count=len(value))
        )
    seats: list[SeatHand] = []
    for position, entry in enumerate(value):
        seat = _read_player(entry, position)
        if any(other.name == seat.name for other in seats):
            raise DealInputError(f"players[{position}].name", sits_twice(seat.name))
        seats.append(seat)
    dealt = [card.code for seat in seats for card in seat.hand.cards]
    if len(set(dealt)) != len(dealt):
        _refuse_card_dealt_twice(seats)
    return tuple(seats)


def _read_player(entry: Any, position: int) -> SeatHand:
    where = f"players[{position}]"
    if not isinstance(entry, Mapping):
        raise DealInputError(where, _("must be an object with name, stack, front, middle, back"))
    if not entry.keys() <= PLAYER_FIELDS:
        raise DealInputError(f"{where}.{min(set(entry) - PLAYER_FIELDS)}", str(UNKNOWN_FIELD))
    name = read_player_name(entry, where)
    stack = read_stack(entry, where)
    front, middle, back = (
        read_cards(entry.get(row_name), f"{where}.{row_name}", size)
        for row_name, size in _ROW_NAMES_AND_SIZES
    )
    return SeatHand(name, stack, SetHand(front, middle, back))


def _refuse_card_dealt_twice(seats: list[SeatHand]) -> NoReturn:
    """Name the first card met a second time, reading seat by seat and row by row."""
    placed: dict[Card, tuple[str, Row]] = {}
    for position, seat in enumerate(seats):
        for row in ROWS:
            for card in seat.hand.row(row):
                if card in placed:
                    raise DealInputError(f"players[{position}].{row.value}", already_in(card, *placed[card]))
                placed[card] = (seat.name, row)
    raise AssertionError("called for a deal with no card dealt twice")  # pragma: no cover
