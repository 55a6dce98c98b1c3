"""Reading a Chinese poker deal from its JSON form (`"variant": "chinese"` in `ofc-desk score`).

The deal keys are the OFC deal's (rules, house_options, unit, pair_units, settlement, settle_from,
dealer, players, jackpot_pool) without the OFC-only ones. Per player, beside name and stack, one of: the rows
`front`/`middle`/`back`; `"surrender": true`; or `"declare": KIND` with `"cards"` (13) or the rows.
Every refusal names the player and the problem: ``players[1] (Bob).declare: Bob's cards are not
six pairs``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from ofc_desk.core.cards import Card, find_duplicate
from ofc_desk.core.chinese.deal import (
    CHINESE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ChineseDeal,
    ChineseSeat,
    chinese_jackpot,
    score_chinese_deal,
)
from ofc_desk.core.chinese.hand import EntryRefused, declared_special, surrendered_with_cards
from ofc_desk.core.chinese.presets import ChinesePreset, chinese_preset_from_dict, load_chinese_preset
from ofc_desk.core.chinese.showdown import Entry
from ofc_desk.core.chinese.specials import HAND_CARDS
from ofc_desk.core.deal_input import (
    COMMON_DEAL_FIELDS,
    UNKNOWN_FIELD,
    CardPlaces,
    DealInputError,
    player_entries,
    read_cards,
    read_deal_terms,
    read_game_preset,
    read_player_name,
    read_rows,
    read_stack,
    refuse_cards_held_twice,
    row_places,
    sits_twice,
)
from ofc_desk.core.jackpot import answered_jackpot
from ofc_desk.core.rows import ROWS, Row
from ofc_desk.i18n import _, lazy_gettext

DEAL_FIELDS = COMMON_DEAL_FIELDS | {"variant"}
OFC_ONLY_FIELDS = frozenset({"scoring", "progressive", "in_fantasyland", "fantasyland_streaks"})
PLAYER_FIELDS = frozenset({"name", "stack", "front", "middle", "back", "surrender", "declare", "cards"})
OFC_ONLY_PLAYER_FIELDS = frozenset({"royalties", "fantasyland"})
DEFAULT_PRESET = "chinese-basic"


def is_chinese_deal(data: Any) -> bool:
    return isinstance(data, Mapping) and data.get("variant") == CHINESE


def chinese_deal_from_json(data: Mapping[str, Any]) -> ChineseDeal:
    _refuse_unknown(data.keys(), DEAL_FIELDS, OFC_ONLY_FIELDS, "", "a Chinese deal")
    preset = read_chinese_preset(data.get("rules", DEFAULT_PRESET), data.get("house_options"))
    players = _read_players(data.get("players"), preset)
    names = [seat.name for seat in players]
    return ChineseDeal(preset=preset, players=players, **read_deal_terms(data, names))


def chinese_deal_to_json(deal: ChineseDeal) -> dict[str, object]:
    """The deal as `ofc-desk score` reads it (`chinese_deal_from_json` gives it back): to send it
    to another process."""
    return {**chinese_rules_json(deal), **chinese_hands_json(deal)}


def chinese_rules_json(deal: ChineseDeal) -> dict[str, object]:
    """The keys of a deal its table's rules give: alike hand after hand, so sent once."""
    return {
        "variant": CHINESE,
        "rules": deal.preset.to_dict(),
        "unit": deal.unit,
        "pair_units": [{"players": sorted(pair), "unit": unit} for pair, unit in deal.pair_units.items()],
        "settlement": deal.settlement.value,
        "settle_from": deal.settle_from.value,
    }


def chinese_hands_json(deal: ChineseDeal) -> dict[str, object]:
    """The keys of a deal the hand itself gives: who dealt, each seat's stack and showdown, and the
    jackpot pool when the deal carries one."""
    keys: dict[str, object] = {
        "dealer": deal.dealer,
        "players": [
            {"name": seat.name, "stack": seat.stack, **_entry_json(seat.entry)} for seat in deal.players
        ],
    }
    if deal.jackpot_pool is not None:
        keys["jackpot_pool"] = deal.jackpot_pool
    return keys


def _entry_json(entry: Entry) -> dict[str, object]:
    """A showdown's keys as `_read_entry` reads them: a surrender; a declaration with its rows or
    its 13 cards; or the rows."""
    if entry.surrendered:
        return {"surrender": True}
    shown: dict[str, object] = {}
    if entry.declared is not None:
        shown["declare"] = entry.declared.kind.value
    if entry.rows is None:
        return {**shown, "cards": [card.text for card in entry.cards]}
    return {**shown, **{row.value: [card.text for card in entry.rows.row(row)] for row in ROWS}}


def score_chinese_deal_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """A Chinese poker deal as `ofc-desk score` reads it, scored and settled into the command's
    answer."""
    deal = chinese_deal_from_json(data)
    result = score_chinese_deal(deal)
    paid = partial(chinese_jackpot, deal, result)
    return result.to_json(answered_jackpot(deal.jackpot_pool, deal.preset.jackpot_award, paid))


_NOT_A_PRESET = lazy_gettext("must be a Chinese poker preset name or a preset object")


def read_chinese_preset(rules: Any, house_options: Any = None) -> ChinesePreset:
    """A Chinese deal's or table's `rules` and `house_options` (`core.deal_input.read_game_preset`)."""
    return read_game_preset(
        rules, house_options, load_chinese_preset, chinese_preset_from_dict, _NOT_A_PRESET
    )


def _refuse_unknown(
    keys: Any, allowed: frozenset[str], ofc_only: frozenset[str], where: str, what: str
) -> None:
    unknown = set(keys) - allowed
    if not unknown:
        return
    key = min(unknown)
    if key in ofc_only:
        said = _("is an OFC key; {what} has no Fantasyland, streets or royalties").format(what=what)
        raise DealInputError(f"{where}{key}", said)
    raise DealInputError(f"{where}{key}", str(UNKNOWN_FIELD))


def _read_players(value: Any, preset: ChinesePreset) -> tuple[ChineseSeat, ...]:
    said = _("Chinese poker is for {least} to {most} players, not {count}")
    seats: list[ChineseSeat] = []
    held: CardPlaces = {}
    for position, entry in enumerate(player_entries(value, MIN_PLAYERS, MAX_PLAYERS, said)):
        seat = _read_player(entry, position, preset)
        where = f"players[{position}] ({seat.name})"
        if any(other.name == seat.name for other in seats):
            raise DealInputError(f"{where}.name", sits_twice(seat.name))
        refuse_cards_held_twice(seat.name, _places(seat), where, held)
        seats.append(seat)
    return tuple(seats)


def _places(seat: ChineseSeat) -> list[tuple[Card, Row | None]]:
    """Each card and its row (None: a declared hand's cards, in no row)."""
    rows = seat.entry.rows
    if rows is not None:
        return row_places(rows)
    return [(card, None) for card in seat.entry.cards]


def _read_player(entry: Any, position: int, preset: ChinesePreset) -> ChineseSeat:
    where = f"players[{position}]"
    if not isinstance(entry, Mapping):
        raise DealInputError(
            where, _("must be an object with name, stack and the hand (or surrender, or declare)")
        )
    name = read_player_name(entry, where)
    where = f"{where} ({name})"
    _refuse_unknown(entry.keys(), PLAYER_FIELDS, OFC_ONLY_PLAYER_FIELDS, f"{where}.", _("a Chinese hand"))
    stack = read_stack(entry, where)
    return ChineseSeat(name, stack, _read_entry(entry, where, name, preset))


def _read_entry(entry: Mapping[str, Any], where: str, name: str, preset: ChinesePreset) -> Entry:
    has_rows = any(row.value in entry for row in ROWS)
    surrender = entry.get("surrender", False)
    if not isinstance(surrender, bool):
        raise DealInputError(f"{where}.surrender", _("must be true or false"))
    if surrender:
        refusal = preset.unplayed(surrender=True)
        if refusal:
            raise DealInputError(f"{where}.surrender", refusal)
        if has_rows or "cards" in entry or "declare" in entry:
            raise DealInputError(f"{where}.surrender", surrendered_with_cards(name))
        return Entry.surrender()
    if "declare" in entry:
        refusal = preset.unplayed(declaration=True)
        if refusal:
            raise DealInputError(f"{where}.declare", refusal)
        return _read_declaration(entry, where, name, preset, has_rows)
    if "cards" in entry:
        raise DealInputError(
            f"{where}.cards", _("13 cards without a declaration: give front, middle and back")
        )
    return Entry.set_rows(read_rows(entry, where))


def _read_declaration(
    entry: Mapping[str, Any], where: str, name: str, preset: ChinesePreset, has_rows: bool
) -> Entry:
    if has_rows and "cards" in entry:
        raise DealInputError(f"{where}.cards", _("give the 13 cards or the three rows, not both"))
    rows = read_rows(entry, where) if has_rows else None
    cards = rows.cards if rows is not None else read_cards(entry.get("cards"), f"{where}.cards", HAND_CARDS)
    twice = find_duplicate(cards)
    if twice is not None:
        raise DealInputError(f"{where}.cards", _("{card} is given twice").format(card=twice))
    try:
        special = declared_special(preset, entry["declare"], cards, name)
    except EntryRefused as error:
        raise DealInputError(f"{where}.declare", str(error)) from None
    return Entry.declare(special, cards, rows)
