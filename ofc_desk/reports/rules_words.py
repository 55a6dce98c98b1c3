"""The rules page's words: a preset's tables in words a supervisor reads at a glance, in the order
of the game rather than of the record: royalties from the weakest hand up ("sixes 1 · sevens 2 · … ·
aces 9", "trips 0 · straight 2 · … · royal flush 25"), the rake as a sentence, and a preset's
proposed table stakes. Rules pinned in the chain are canonical JSON, whose keys are in alphabetical
order ("A 9 · J 6 · K 8"): never printed that way. And any other value or section of the rules
(`value_words`, `inline_words`), each game's lines alike."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ofc_desk.core.cards import Rank
from ofc_desk.core.games import GAME_OF_VARIANT
from ofc_desk.core.hands import HandClass
from ofc_desk.core.jackpot import AwardRulesError, JackpotAward
from ofc_desk.core.presets import RakeMode
from ofc_desk.core.rows import ROWS
from ofc_desk.i18n import LazyText, _, lazy_gettext, lazy_pgettext, ngettext
from ofc_desk.reports.spoken import data_words, speaks_as_stored

SEPARATOR = " · "
RANKS = frozenset(rank.value for rank in Rank)


def _ranked(key: str) -> tuple[int, str]:
    """Ranks deuce to ace first, then anything else (`trips`) in its own order."""
    return (Rank(key).order, "") if key in RANKS else (len(Rank), key)


def _rank_plurals(table: Mapping[str, Any]) -> str:
    """ "sixes 1 · sevens 2 · … · aces 9"; a key that is no rank (`trips`) as it is, last."""
    items = sorted(table.items(), key=lambda item: _ranked(item[0]))
    return SEPARATOR.join(f"{_rank_words(key)} {value}" for key, value in items)


def _rank_words(key: str) -> str:
    """A rank's plural in English ("sixes"); the rank as on the cards in the other languages
    (docs/glossary.md), or a key that is no rank in its words."""
    if key not in RANKS:
        return data_words(key) if not speaks_as_stored() else key.replace("_", " ")
    return Rank(key).plural if speaks_as_stored() else key


def _hand_classes(table: Mapping[str, Any]) -> str:
    """ "trips 0 · straight 2 · flush 4 · full house 6 · …", from the weakest hand up."""
    order = {hand_class.name.lower(): hand_class.value for hand_class in HandClass}
    items = sorted(table.items(), key=lambda item: order.get(item[0], len(order)))
    return SEPARATOR.join(f"{data_words(key)} {value}" for key, value in items)


def _lowball(table: Mapping[str, Any]) -> str:
    """2-7 middle royalties: a named hand ("7-5-4-3-2") first, then "seven-low", "eight-low" …"""
    named = sorted((key, value) for key, value in table.items() if key not in RANKS)
    lows = sorted((Rank(key).order, key, value) for key, value in table.items() if key in RANKS)
    words = [f"{key} {value}" for key, value in named]
    words += [f"{_low(key)} {value}" for _order, key, value in lows]
    return SEPARATOR.join(words)


def _low(key: str) -> str:
    # TRANSLATORS: a 2-7 low by its highest card: "seven-low" ({rank} is "7" in other languages).
    return _("{rank}-low").format(rank=Rank(key).word if speaks_as_stored() else key)


def _variants(table: Mapping[str, Any]) -> str:
    """ "regular 13 · pineapple 14", in the order the games are listed."""
    order = list(GAME_OF_VARIANT)
    items = sorted(table.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))
    return SEPARATOR.join(f"{data_words(key)} {value}" for key, value in items)


def _rows(table: Mapping[str, Any]) -> str:
    """ "front trips · middle full house · back quads": the rows front to back."""
    order = ["front", "middle", "back"]
    items = sorted(table.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))
    return SEPARATOR.join(f"{data_words(row)} {data_words(str(hand))}" for row, hand in items)


def rake_words(rake: Mapping[str, Any]) -> str:
    """ "off", "5 % of each player's win, at most 3 a hand; 50 % of it to the jackpot"."""
    mode = rake.get("mode")
    if mode == RakeMode.OFF:
        return _("off")
    if mode == RakeMode.PER_PLAYER:
        amount = rake.get("amount", 0)
        taken = ngettext(
            "{amount} chip from each player dealt in", "{amount} chips from each player dealt in", int(amount)
        ).format(amount=amount)
    else:
        taken = _("{percent} % of each player's win").format(percent=rake.get("percent", 0))
    if rake.get("cap"):
        taken = _("{rake}, at most {cap} a hand").format(rake=taken, cap=rake["cap"])
    jackpot = rake.get("jackpot_percent") or 0
    return (
        _("{rake}; {percent} % of it to the jackpot").format(rake=taken, percent=jackpot)
        if jackpot
        else taken
    )


def award_rule_words(award: Any) -> str:
    """ "front pair · middle trips · back straight flush · loser 50 % · winner 25 % · table 25 %":
    the least hand of each row, front to back, then the shares by the award's rank (the loser's
    first); "none" without an award, and a rule the core cannot read as it is stored."""
    if award is None:
        return _("none")
    try:
        rule = JackpotAward.from_json(award)
    except AwardRulesError:
        return inline_words(award) if isinstance(award, Mapping) else value_words(award)
    rows = [
        f"{data_words(row.value)} {data_words(least.key)}"
        for row, least in zip(ROWS, rule.least, strict=True)
    ]
    shares = [
        _("loser {percent} %").format(percent=rule.loser),
        _("winner {percent} %").format(percent=rule.winner),
        _("table {percent} %").format(percent=rule.table),
    ]
    return SEPARATOR.join([*rows, *shares])


SETTLE_FROM = {
    "dealer": lazy_gettext("from the dealer"),
    "left-of-dealer": lazy_gettext("from the player left of the dealer"),
}


def proposed_stakes_words(proposed: Mapping[str, Any]) -> str:
    """ "chip-exposure, settled from the dealer": what choosing the preset proposes to a new table."""
    policy = data_words(str(proposed.get("policy", ""))) or _("the table's own settlement")
    settle_from = proposed.get("settle_from")
    if not settle_from:
        return policy
    where = SETTLE_FROM.get(str(settle_from))
    return _("{policy}, settled {where}").format(policy=policy, where=where if where else settle_from)


PRESET_TABLES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "royalties.back": _hand_classes,
    "royalties.middle": _hand_classes,
    "royalties.front_pairs": _rank_plurals,
    "royalties.front_trips": _rank_plurals,
    "royalties.deuce_to_seven_middle": _lowball,
    "fantasyland.cards": _variants,
    "fantasyland.progressive_cards": _rank_plurals,
    "fantasyland.stay": _rows,
    "rake": rake_words,
    "proposed_settlement": proposed_stakes_words,
    "jackpot_award": award_rule_words,
}
"""A preset's tables (by their path in it) and how each reads."""


INLINE_TABLES: dict[str, Callable[[Any], str]] = {"jackpot_award": award_rule_words}
"""A table that keeps its own words where it is a house option among others: the award rule's rows
and shares said as on its own line, not as the record spells them ("loser 50", "high-card")."""


def rules_label(words: LazyText) -> str:
    """A rules line's label stays its English message, marked where it is written: the report
    translates it when it prints it, in the report's language (session_pdf)."""
    return words.message


def _mode_first(value: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """A section's `mode` (the rake's) says how its numbers read, so it leads; the rest keep the
    record's order, which for rules pinned in the chain is alphabetical (canonical JSON)."""
    return sorted(value.items(), key=lambda item: item[0] != "mode")


def inline_words(value: Any) -> str:
    """A section of the rules on one line: "mode percent · percent 5 · cap 3"."""
    if isinstance(value, Mapping):
        parts = []
        for key, item in _mode_first(value):
            table = INLINE_TABLES.get(str(key))
            inner = table(item) if table is not None else inline_words(item)
            words = _key_words(str(key))
            parts.append(f"{words}: {inner}" if isinstance(item, Mapping) else f"{words} {inner}")
        return (
            " · ".join(parts) if not any(isinstance(v, Mapping) for v in value.values()) else "; ".join(parts)
        )
    return value_words(value)


def value_words(value: Any) -> str:
    """One value of the rules: yes or no, none, a word of the record in the reader's words."""
    if isinstance(value, Mapping):
        return inline_words(value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return _("none")
    if isinstance(value, str) and not speaks_as_stored():
        return data_words(value).replace("_", " ")
    return str(value).replace("_", " ")


PRESET_KEY_WORDS = {
    "both_conditions_cards": lazy_pgettext("preset key", "both conditions cards"),
    "one_condition_cards": lazy_pgettext("preset key", "one condition cards"),
    "entry_front_pair": lazy_pgettext("preset key", "entry front pair"),
    "entry_middle": lazy_pgettext("preset key", "entry middle"),
    "stay": lazy_pgettext("preset key", "stay"),
    "stay_cards": lazy_pgettext("preset key", "stay cards"),
    "cards": lazy_pgettext("preset key", "cards"),
    "majority": lazy_pgettext("preset key", "majority"),
    "row": lazy_pgettext("preset key", "row"),
    "scoop": lazy_pgettext("preset key", "scoop"),
    "mode": lazy_pgettext("preset key", "mode"),
    "percent": lazy_pgettext("preset key", "percent"),
    "amount": lazy_pgettext("preset key", "amount"),
    "cap": lazy_pgettext("preset key", "cap"),
    "jackpot_percent": lazy_pgettext("preset key", "jackpot percent"),
    "policy": lazy_pgettext("preset key", "policy"),
    "settle_from": lazy_pgettext("preset key", "settle from"),
    "jackpot_award": lazy_pgettext("preset key", "jackpot award"),
}
"""The keys inside a preset's tables (resources/presets) by their words; English prints a key
as it is spelt, its underscores as spaces."""


def _key_words(key: str) -> str:
    if speaks_as_stored():
        return key.replace("_", " ")
    words = PRESET_KEY_WORDS.get(key)
    return str(words) if words is not None else data_words(key).replace("_", " ")
