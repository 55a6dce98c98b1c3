"""Reading the fields every game's deal has from its JSON form (the `ofc-desk score` input): the
rules and house options, the dealer, the seats' names, stacks and cards, the pair units, the
settlement and the jackpot pool. Each game reads its own fields with these (`core.ofc.deal_input`,
`core.chinese.deal_input`), so both refuse alike.

Every refusal names the field and the problem, e.g. ``players[1].middle: Qs is already in Ann's
front``.
"""

import json
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from functools import lru_cache
from typing import Any, Final, Protocol, TypedDict, TypeVar, cast

from ofc_desk.core.cards import Card, CardError, parse_cards
from ofc_desk.core.presets import PresetError
from ofc_desk.core.rows import ROW_SIZE, ROWS, Row, SetHand, already_in
from ofc_desk.core.settlement import SettleFrom, SettlementPolicy
from ofc_desk.i18n import LazyText, _, lazy_gettext, ngettext

E = TypeVar("E", bound=StrEnum)
PAIR_UNIT_FIELDS = frozenset({"players", "unit"})
COMMON_DEAL_FIELDS = frozenset({
    "rules", "house_options", "unit", "pair_units", "settlement", "settle_from", "dealer", "players",
    "jackpot_pool",
})  # fmt: skip
"""The keys every game's deal has; a game adds its own (`variant` names the game beside OFC's)."""


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


def is_unicode(text: str) -> bool:
    """False for a string holding half a surrogate pair, which JSON can spell (`"\\ud800"`) but
    which can be neither written out as UTF-8 nor stored."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class GamePreset(Protocol):
    """What a game's preset keeps for house options to go over: its data as read."""

    @property
    def source(self) -> Mapping[str, Any]: ...


P = TypeVar("P", bound=GamePreset)
PresetBuilder = Callable[[Mapping[str, Any], Mapping[str, Any] | None], P]
"""A game's preset from its data, with house options laid over it (or none)."""


def read_game_preset(
    rules: Any, house_options: Any, load: Callable[[str], P], build: PresetBuilder[P], not_a_preset: LazyText
) -> P:
    """A deal's `rules` (a preset's name, or a preset object) with its `house_options` laid over
    it, by one game's `load` (a preset by name) and `build` (one from data); refusals name the
    field, and `not_a_preset` says what `rules` should have been."""
    if house_options is not None and not isinstance(house_options, Mapping):
        raise DealInputError("house_options", _("must be an object of preset fields"))
    try:
        if isinstance(rules, str):
            base = load(rules)
            return _built_preset(build, base.source, house_options) if house_options else base
        if isinstance(rules, Mapping):
            return _built_preset(build, rules, house_options)
    except PresetError as error:
        raise DealInputError("rules", str(error)) from None
    raise DealInputError("rules", str(not_a_preset))


def _built_preset(build: PresetBuilder[P], rules: Mapping[str, Any], house_options: Any) -> P:
    """A preset object, with house options laid over it, built once per distinct content: a table's
    pinned preset comes with every hand it scores (and `verify` re-scores thousands)."""
    try:
        key = json.dumps([rules, house_options], sort_keys=True, default=dict)
    except (TypeError, ValueError):  # not JSON data: build it as it is, and let it refuse itself
        return build(rules, house_options)
    return cast(P, _preset_from_json(build, key))


@lru_cache(maxsize=64)
def _preset_from_json(build: PresetBuilder[GamePreset], key: str) -> GamePreset:
    rules, house_options = json.loads(key)
    return build(rules, house_options)


def read_choice(data: Mapping[str, Any], key: str, enum: type[E], default: E) -> E:
    value = data.get(key, default.value)
    try:
        member = enum(value)
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


def read_player_name(entry: Mapping[str, Any], where: str) -> str:
    """A seat's `name`: non-empty text that can be stored."""
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise DealInputError(f"{where}.name", str(NON_EMPTY_NAME))
    if not is_unicode(name):
        raise DealInputError(f"{where}.name", not_unicode(name))
    return name


def read_stack(entry: Mapping[str, Any], where: str) -> int:
    """A seat's `stack` before the deal: given, whole chips, 0 or more."""
    if "stack" not in entry:
        raise DealInputError(f"{where}.stack", str(MISSING))
    return read_count(entry, "stack", 0, least=0, where=f"{where}.")


def read_cards(value: Any, where: str, size: int) -> tuple[Card, ...]:
    """Exactly `size` cards, as text ("Ah Kd 7c") or a list of cards."""
    if value is None:
        raise DealInputError(where, str(MISSING))
    if not isinstance(value, str | list):
        raise DealInputError(where, str(CARDS_LIKE))
    try:
        cards = parse_cards(value)
    except CardError as error:
        raise DealInputError(where, str(error)) from None
    if len(cards) != size:
        raise DealInputError(where, holds_cards(len(cards), size))
    return tuple(cards)


def read_rows(entry: Mapping[str, Any], where: str) -> SetHand:
    """A seat's `front`, `middle` and `back`, each of its row's size."""
    front, middle, back = (
        read_cards(entry.get(row.value), f"{where}.{row.value}", ROW_SIZE[row]) for row in ROWS
    )
    return SetHand(front, middle, back)


class DealTerms(TypedDict):
    """The fields every game's deal reads alike beside its rules and seats: a game's deal takes
    them as keyword arguments (`read_deal_terms`)."""

    dealer: str
    unit: int
    pair_units: dict[frozenset[str], int]
    settlement: SettlementPolicy
    settle_from: SettleFrom
    jackpot_pool: int | None


def read_deal_terms(data: Mapping[str, Any], names: list[str]) -> DealTerms:
    """Who dealt, the units, how the deal settles and the jackpot pool, for seats named `names`."""
    return DealTerms(
        dealer=read_name(data, "dealer", names),
        unit=read_count(data, "unit", 1, least=1),
        pair_units=read_pair_units(data.get("pair_units", []), names),
        settlement=read_choice(data, "settlement", SettlementPolicy, SettlementPolicy.WIN_CAP),
        settle_from=read_choice(data, "settle_from", SettleFrom, SettleFrom.LEFT_OF_DEALER),
        jackpot_pool=read_jackpot_pool(data),
    )


def player_entries(value: Any, least: int, most: int, wrong_count: str, **words: str) -> list[Any]:
    """The deal's `players`: a list of `least` to `most` entries, each read by its game; a count
    outside is refused with `wrong_count` (formatted with least, most, count and `words`)."""
    if not isinstance(value, list):
        raise DealInputError("players", str(PLAYERS_IN_ORDER))
    if not least <= len(value) <= most:
        said = wrong_count.format(least=least, most=most, count=len(value), **words)
        raise DealInputError("players", said)
    return value


CardPlaces = dict[Card, tuple[str, Row | None]]
"""Each card met so far: whose it is and its row (None: a declared hand's cards, in no row)."""


def row_places(hand: SetHand) -> list[tuple[Card, Row | None]]:
    """A set hand's cards with their rows, front to back."""
    return [(card, row) for row in ROWS for card in hand.row(row)]


def refuse_cards_held_twice(
    name: str, places: Iterable[tuple[Card, Row | None]], where: str, held: CardPlaces
) -> None:
    """Name a card met a second time and where it already lies ("Qs is already in Ann's middle"),
    at `where` and the card's row; add the seat's cards to `held` otherwise."""
    for card, row in places:
        if card in held:
            raise DealInputError(f"{where}.{row or 'cards'}", already_in(card, *held[card]))
        held[card] = (name, row)
