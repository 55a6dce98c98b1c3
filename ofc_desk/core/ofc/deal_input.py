"""Reading a deal from its JSON form (the `ofc-desk score` input), refusing bad input clearly.

Every refusal names the field and the problem, e.g. ``players[1].middle: Qs is already in Ann's
front``. Unknown fields are refused too: a misspelt option must not silently score by defaults.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache, partial
from typing import Any, Final, NoReturn, TypeVar

from ofc_desk.core.cards import Card, CardError, parse_cards
from ofc_desk.core.jackpot import answered_jackpot
from ofc_desk.core.ofc.deal import Deal, SeatHand, deal_jackpot, score_deal
from ofc_desk.core.ofc.presets import RulesPreset, load_preset, preset_from_dict, refuse_award_for_variant
from ofc_desk.core.ofc.scoring import SetHand
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import DEFAULT_PRESET, PresetError
from ofc_desk.core.rows import ROW_SIZE, ROWS, Row, already_in
from ofc_desk.core.settlement import SettleFrom, SettlementPolicy
from ofc_desk.i18n import _, lazy_gettext, ngettext

DEAL_FIELDS = frozenset({
    "rules", "house_options", "scoring", "variant", "progressive", "unit", "pair_units",
    "settlement", "settle_from", "in_fantasyland", "fantasyland_streaks", "dealer", "players",
    "jackpot_pool",
})  # fmt: skip
E = TypeVar("E", Variant, SettlementPolicy, SettleFrom)
_ROW_NAMES_AND_SIZES = tuple((row.value, ROW_SIZE[row]) for row in ROWS)
PLAYER_FIELDS = frozenset({"name", "stack", "front", "middle", "back"})
PAIR_UNIT_FIELDS = frozenset({"players", "unit"})


class DealInputError(ValueError):
    """Bad input for a deal; `field` is where it is, the message says what is wrong."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}" if field else problem)


UNKNOWN_FIELD: Final = lazy_gettext("unknown field")
MISSING: Final = lazy_gettext("is missing")
WHOLE_CHIPS: Final = lazy_gettext("must be a whole number of chips")
PLAYERS_IN_ORDER: Final = lazy_gettext("must be a list of players in clockwise order")
NON_EMPTY_NAME: Final = lazy_gettext("must be a non-empty name")
CARDS_LIKE: Final = lazy_gettext("must be cards such as 'Ah Kd 7c'")
"""Problems both games' deals are refused for, said alike (`DealInputError`'s problem)."""


def sits_twice(name: str) -> str:
    return _("{name} sits twice").format(name=repr(name))


def not_unicode(name: str) -> str:
    return _("{name} is not valid Unicode text").format(name=repr(name))


def holds_cards(count: int, size: int) -> str:
    """A row or hand of the wrong size: "holds 4 cards, needs 5"."""
    return ngettext("holds {count} card, needs {size}", "holds {count} cards, needs {size}", count).format(
        count=count, size=size
    )


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


def read_preset(rules: Any, house_options: Any = None) -> RulesPreset:
    if house_options is not None and not isinstance(house_options, Mapping):
        raise DealInputError("house_options", _("must be an object of preset fields"))
    try:
        if isinstance(rules, str):
            base = load_preset(rules)
            return _built_preset(base.source, house_options) if house_options else base
        if isinstance(rules, Mapping):
            return _built_preset(rules, house_options)
    except PresetError as error:
        raise DealInputError("rules", str(error)) from None
    raise DealInputError("rules", _("must be a preset name or a preset object"))


def _built_preset(rules: Mapping[str, Any], house_options: Any) -> RulesPreset:
    """A preset object, with house options laid over it, built once per distinct content: a table's
    pinned preset comes with every hand it scores (and `verify` re-scores thousands)."""
    try:
        key = json.dumps([rules, house_options], sort_keys=True, default=dict)
    except (TypeError, ValueError):  # not JSON data: build it as it is, and let it refuse itself
        return preset_from_dict(rules, house_options)
    return _preset_from_json(key)


@lru_cache(maxsize=64)
def _preset_from_json(key: str) -> RulesPreset:
    rules, house_options = json.loads(key)
    return preset_from_dict(rules, house_options)


def _check_scoring(preset: RulesPreset, scoring: Any) -> None:
    if not isinstance(scoring, str):
        raise DealInputError("scoring", _("must be text such as '1-6' or '2-4'"))
    try:
        preset.scoring_system(scoring)
    except PresetError as error:
        raise DealInputError("scoring", str(error)) from None


def read_choice(data: Mapping[str, Any], key: str, enum: type[E], default: E) -> E:
    value = data.get(key, default.value)
    try:
        member: E = enum(value)
    except ValueError:
        allowed = ", ".join(choice.value for choice in enum)
        said = _("unknown {key} {value} (use {allowed})").format(key=key, value=repr(value), allowed=allowed)
        raise DealInputError(key, said) from None
    return member


def read_flag(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise DealInputError(key, _("must be true or false"))
    return value


def read_count(data: Mapping[str, Any], key: str, default: int, *, least: int, where: str = "") -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise DealInputError(where + key, str(WHOLE_CHIPS))
    if value < least:
        raise DealInputError(
            where + key, _("must be at least {least}, not {value}").format(least=least, value=value)
        )
    return value


def read_jackpot_pool(data: Mapping[str, Any]) -> int | None:
    """The room's jackpot pool before the deal (docs/rules.md §11), None when the deal carries none."""
    if "jackpot_pool" not in data:
        return None
    value = data["jackpot_pool"]
    if isinstance(value, bool) or not isinstance(value, int):
        raise DealInputError("jackpot_pool", str(WHOLE_CHIPS))
    if value < 0:
        raise DealInputError(
            "jackpot_pool", _("a pool holds 0 chips or more, not {value}").format(value=value)
        )
    return value


def read_name(data: Mapping[str, Any], key: str, names: list[str]) -> str:
    value = data.get(key)
    if value is None:
        raise DealInputError(key, str(MISSING))
    if value not in names:
        said = _("{name} is not one of the players ({players})").format(
            name=repr(value), players=", ".join(names)
        )
        raise DealInputError(key, said)
    return str(value)


def read_name_list(value: Any, field: str, names: list[str]) -> list[str]:
    if not isinstance(value, list):
        raise DealInputError(field, _("must be a list of player names"))
    for position, name in enumerate(value):
        if name not in names:
            raise DealInputError(
                f"{field}[{position}]", _("{name} is not one of the players").format(name=repr(name))
            )
        if name in value[:position]:
            raise DealInputError(f"{field}[{position}]", _("{name} is named twice").format(name=repr(name)))
    return list(value)


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


def read_pair_units(value: Any, names: list[str]) -> dict[frozenset[str], int]:
    if not isinstance(value, list):
        raise DealInputError("pair_units", _("must be a list of {players, unit}"))
    units: dict[frozenset[str], int] = {}
    for position, entry in enumerate(value):
        where = f"pair_units[{position}]"
        if not isinstance(entry, Mapping):
            raise DealInputError(where, _("must be an object with players and unit"))
        if not entry.keys() <= PAIR_UNIT_FIELDS:
            raise DealInputError(f"{where}.{min(set(entry) - PAIR_UNIT_FIELDS)}", str(UNKNOWN_FIELD))
        pair = read_name_list(entry.get("players"), f"{where}.players", names)
        if len(pair) != 2:
            raise DealInputError(f"{where}.players", _("must name two different players"))
        if frozenset(pair) in units:
            said = _("{first} and {second} already have a unit").format(first=pair[0], second=pair[1])
            raise DealInputError(f"{where}.players", said)
        if "unit" not in entry:
            raise DealInputError(f"{where}.unit", str(MISSING))
        units[frozenset(pair)] = read_count(entry, "unit", 1, least=1, where=f"{where}.")
    return units


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
    if not isinstance(entry, Mapping):
        raise DealInputError(
            f"players[{position}]", _("must be an object with name, stack, front, middle, back")
        )
    if not entry.keys() <= PLAYER_FIELDS:
        raise DealInputError(f"players[{position}].{min(set(entry) - PLAYER_FIELDS)}", str(UNKNOWN_FIELD))
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise DealInputError(f"players[{position}].name", str(NON_EMPTY_NAME))
    if not is_unicode(name):
        raise DealInputError(f"players[{position}].name", not_unicode(name))
    if "stack" not in entry:
        raise DealInputError(f"players[{position}].stack", str(MISSING))
    stack = read_count(entry, "stack", 0, least=0, where=f"players[{position}].")
    front, middle, back = (
        _read_row(entry.get(row_name), position, row_name, size) for row_name, size in _ROW_NAMES_AND_SIZES
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


def is_unicode(text: str) -> bool:
    """False for a string holding half a surrogate pair, which JSON can spell (`"\\ud800"`) but
    which can be neither written out as UTF-8 nor stored."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _read_row(value: Any, position: int, row_name: str, size: int) -> tuple[Card, ...]:
    if isinstance(value, str | list):
        try:
            cards = parse_cards(value)
        except CardError as error:
            raise DealInputError(f"players[{position}].{row_name}", str(error)) from None
        if len(cards) == size:
            return tuple(cards)
        raise DealInputError(f"players[{position}].{row_name}", holds_cards(len(cards), size))
    if value is None:
        raise DealInputError(f"players[{position}].{row_name}", str(MISSING))
    raise DealInputError(f"players[{position}].{row_name}", str(CARDS_LIKE))
