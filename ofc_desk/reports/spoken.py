"""Words the record stores in English, said again in the report's language from the data.

The record keeps two kinds of English words that a report prints: a row's hand name ("pair of
queens", part of the `ofc-desk score` contract) and a transfer's `reason` ("capped: Cy reached
the win cap of 20", compared byte for byte by `verify`). Both stay stored as they are
(docs/translating.md, "The record stays language-free"). An English report prints them as stored;
any other language makes them anew: a hand's name from its cards (`core.hands`), checked against
the stored name so that a row is never named for cards it does not hold, and a transfer's cause
parsed from the fixed English patterns of `core/settlement.py`. Words that match no known pattern
print as stored: never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ofc_desk.core.cards import CardError, Rank, parse_cards
from ofc_desk.core.games import STORED_SENTENCES
from ofc_desk.core.hands import (
    HandClass,
    deciding_rank,
    hand_class_of,
    hand_name_of,
    lowball_name,
    lowball_ranks,
    strength,
)
from ofc_desk.core.rows import Row
from ofc_desk.i18n import Language, _, active_language, lazy_gettext, lazy_pgettext, pgettext
from ofc_desk.i18n.translate import LazyText
from ofc_desk.reports.formatting import chips
from ofc_desk.service.table.actions.words import STORED_RULE_WORDS

HAND_PATTERNS: dict[HandClass, LazyText] = {
    # TRANSLATORS: {top} and {second} are ranks as on the cards: A K Q J 10 9 … 2 (docs/glossary.md).
    HandClass.HIGH_CARD: lazy_gettext("{top}-high"),
    HandClass.PAIR: lazy_gettext("pair of {top}"),
    HandClass.TWO_PAIR: lazy_gettext("two pair, {top} and {second}"),
    HandClass.TRIPS: lazy_gettext("three {top}"),
    HandClass.STRAIGHT: lazy_gettext("{top}-high straight"),
    HandClass.FLUSH: lazy_gettext("{top}-high flush"),
    HandClass.FULL_HOUSE: lazy_gettext("{top} full of {second}"),
    HandClass.QUADS: lazy_gettext("four {top}"),
    HandClass.STRAIGHT_FLUSH: lazy_gettext("{top}-high straight flush"),
    HandClass.ROYAL_FLUSH: lazy_gettext("royal flush"),
}


def speaks_as_stored(language: Language | None = None) -> bool:
    """English prints the stored words as they are. The pseudo-language says them again from the
    data, as any other language does, so that its screen run sees a stored word left unmarked."""
    return (language or active_language()) is Language.EN


def rank_shown(rank: Rank) -> str:
    """A rank as the cards show it: 10, not the T typed ("đôi 10" beside a 10 on the felt)."""
    return "10" if rank is Rank.TEN else rank.value


def hand_words(cards: Sequence[str], stored: str) -> str:
    """A row's hand in the active language: the stored name in English; else made from the cards,
    if their name is the stored one (a 2-7 middle's low included); else the stored name."""
    if speaks_as_stored() or not stored:
        return stored
    try:
        parsed = parse_cards(list(cards))
    except CardError:
        return stored
    if not parsed or len(parsed) not in (3, 5):
        return stored
    value = strength(parsed)
    category = hand_class_of(value)
    if hand_name_of(value, category) == stored:
        top, second = rank_shown(deciding_rank(value)), rank_shown(deciding_rank(value, 1))
        return str(HAND_PATTERNS[category]).format(top=top, second=second)
    if len(parsed) == 5 and lowball_name(parsed) == stored and stored.endswith(")"):
        ranks = [rank_shown(rank) for rank in lowball_ranks(parsed)]
        # TRANSLATORS: a 2-7 low: "seven-five low (7-5-4-3-2)"; {first} {second} are ranks, {ranks} all five.
        return _("{first}-{second} low ({ranks})").format(
            first=ranks[0], second=ranks[1], ranks="-".join(ranks)
        )
    return stored


def why_words(stored: str, payer: str, payee: str) -> str:
    """What a payment is for (the result's `for`, a Chinese one's), in the active language: as
    stored in English, or when it is none of a game's sentences (`core.games.STORED_SENTENCES`)."""
    if speaks_as_stored():
        return stored
    said = (reader(stored, payer, payee) for reader in STORED_SENTENCES)
    return next((words for words in said if words is not None), stored)


_WEAKER = re.compile(r"the (?P<row>front|middle|back) is weaker than the (?P<other>front|middle|back)")
_NOT_LOW = "the middle is not a ten-high or better low"


def foul_words(stored: str) -> str:
    """Why a hand fouled (OFC) or is misset (Chinese poker), in the active language: the core's
    English (`core.ofc.scoring.foul_reason`, stored in the result) said again from its rows; as
    stored in English, or when it is none of the core's sentences.

    >>> from ofc_desk.i18n import in_language
    >>> with in_language(Language.RU):
    ...     foul_words("the middle is weaker than the front")
    'средний ряд слабее, чем верхний'
    """
    if speaks_as_stored():
        return stored
    if stored == _NOT_LOW:
        return _("the middle is not a ten-high or better low")
    match = _WEAKER.fullmatch(stored)
    if match is None:
        return stored
    return _("the {row} is weaker than the {other}").format(
        row=Row(match["row"]).label, other=Row(match["other"]).label
    )


@dataclass(frozen=True)
class _Cause:
    """One pattern of a stored transfer reason, and how it is said again."""

    pattern: re.Pattern[str]
    say: Callable[[dict[str, str]], str]


def _amount(fields: dict[str, str], name: str) -> str:
    return chips(int(fields[name]))


_CAUSES = (
    _Cause(re.compile(r"paid in full"), lambda f: _("paid in full")),
    _Cause(
        re.compile(r"nothing moves: (?P<player>.+) is complete \(reached the win cap of (?P<cap>\d+)\)"),
        lambda f: _("nothing moves: {player} is complete (reached the win cap of {cap})").format(
            player=f["player"], cap=_amount(f, "cap")
        ),
    ),
    _Cause(
        re.compile(r"capped: (?P<player>.+) reached the win cap of (?P<cap>\d+) and is complete"),
        lambda f: _("capped: {player} reached the win cap of {cap} and is complete").format(
            player=f["player"], cap=_amount(f, "cap")
        ),
    ),
    _Cause(
        re.compile(r"capped: (?P<player>.+) reached the win cap of (?P<cap>\d+)"),
        lambda f: _("capped: {player} reached the win cap of {cap}").format(
            player=f["player"], cap=_amount(f, "cap")
        ),
    ),
    _Cause(
        re.compile(r"nothing paid: (?P<player>.+) has no chips left"),
        lambda f: _("nothing paid: {player} has no chips left").format(player=f["player"]),
    ),
    _Cause(
        re.compile(r"(?P<player>.+) had only (?P<chips>\d+) unused chips of the (?P<start>\d+) at the start"),
        lambda f: _("{player} had only {chips} unused chips of the {start} at the start").format(
            player=f["player"], chips=_amount(f, "chips"), start=_amount(f, "start")
        ),
    ),
    _Cause(
        re.compile(
            r"(?P<player>.+) had only (?P<chips>\d+) unused chips of the (?P<start>\d+) to cover the win"
        ),
        lambda f: _("{player} had only {chips} unused chips of the {start} to cover the win").format(
            player=f["player"], chips=_amount(f, "chips"), start=_amount(f, "start")
        ),
    ),
    _Cause(
        re.compile(r"(?P<player>.+) had only (?P<chips>\d+) in front of them"),
        lambda f: _("{player} had only {chips} in front of them").format(
            player=f["player"], chips=_amount(f, "chips")
        ),
    ),
)
_COMPLETE = re.compile(r"(?P<first>.+); (?P<player>.+) reached the win cap of (?P<cap>\d+) and is complete")


def _said_again(stored: str) -> str | None:
    for cause in _CAUSES:
        if (match := cause.pattern.fullmatch(stored)) is not None:
            return cause.say(match.groupdict())
    return None


def reason_words(stored: str) -> str:
    """A transfer's stored reason in the active language; as stored in English, or when it
    matches none of the settlement's patterns.

    >>> from ofc_desk.i18n import in_language
    >>> reason_words("capped: Cy reached the win cap of 2000")
    'capped: Cy reached the win cap of 2000'
    >>> with in_language(Language.RU):
    ...     reason_words("capped: Cy reached the win cap of 2000")
    'урезано лимитом: Cy достиг лимита выигрыша 2\\xa0000'
    """
    if speaks_as_stored():
        return stored
    whole = _said_again(stored)
    if whole is not None:
        return whole
    # A payment after which the winner reached the cap: "<cause>; Cy reached the win cap of 20 and
    # is complete".
    match = _COMPLETE.fullmatch(stored)
    if match is None or (first := _said_again(match["first"])) is None:
        return stored
    complete = _("{player} reached the win cap of {cap} and is complete").format(
        player=match["player"], cap=chips(int(match["cap"]))
    )
    return pgettext("joining two causes", "{first}; {second}").format(first=first, second=complete)


PRESET_VALUE_WORDS: dict[str, LazyText] = {
    # A Chinese preset's scoring scheme, bonus mode and special against special (core.chinese.presets).
    "rows": lazy_pgettext("preset value", "rows"),
    "majority": lazy_pgettext("preset value", "majority"),
    "instead": lazy_pgettext("preset value", "instead"),
    "extra": lazy_pgettext("preset value", "extra"),
    "always": lazy_pgettext("preset value", "always"),
    "difference": lazy_pgettext("preset value", "difference"),
    "higher": lazy_pgettext("preset value", "higher"),
}
"""The words a preset's rules page says for its enumerated values (the report's rules)."""
DATA_WORDS: dict[str, LazyText] = {
    # The enums' labels, which the desk's faces say too.
    **STORED_RULE_WORDS,
    **{row.value: row.label for row in Row},
    **PRESET_VALUE_WORDS,
}
"""Stored values (variants, settlement policies, rows) by their words; English shows them as
stored, and an unknown value shows as stored in every language."""

HAND_CLASS_WORDS = {
    "high_card": lazy_pgettext("hand class", "high card"),
    "pair": lazy_pgettext("hand class", "pair"),
    "two_pair": lazy_pgettext("hand class", "two pair"),
    "trips": lazy_pgettext("hand class", "trips"),
    "straight": lazy_pgettext("hand class", "straight"),
    "flush": lazy_pgettext("hand class", "flush"),
    "full_house": lazy_pgettext("hand class", "full house"),
    "quads": lazy_pgettext("hand class", "quads"),
    "straight_flush": lazy_pgettext("hand class", "straight flush"),
    "royal_flush": lazy_pgettext("hand class", "royal flush"),
}
"""A preset's hand classes (`HandClass.key`) by their words."""


def data_words(value: str) -> str:
    """A stored identifier in the active language: 'win-cap' as 'win-cap' in English."""
    words = DATA_WORDS.get(value) or HAND_CLASS_WORDS.get(value)
    if words is None or speaks_as_stored():
        return value.replace("_", " ") if value in HAND_CLASS_WORDS else value
    return str(words)
