"""A rules page and a hand's name in the reader's language (issue 36): every value a Chinese
preset's rules page prints for its scheme, bonus mode and special against special has its words
(the Chinese report printed "majority / extra / difference"); a hand's ranks are written as the
cards show them, 10 and not the T typed ("đôi T", "四条 T" beside a 10)."""

from __future__ import annotations

import re

import pytest

from ofc_desk.core.cards import parse_cards
from ofc_desk.core.chinese.presets import BonusMode, Scheme, SpecialVsSpecial
from ofc_desk.core.hands import hand_class_of, hand_name_of, strength
from ofc_desk.i18n import Language, in_language
from ofc_desk.reports.spoken import data_words, hand_words

OTHER_LANGUAGES = [Language.RU, Language.VI, Language.ZH_CN, Language.PSEUDO]
PRESET_VALUES = [value.value for enum in (Scheme, BonusMode, SpecialVsSpecial) for value in enum]


@pytest.mark.parametrize("language", OTHER_LANGUAGES, ids=lambda language: language.value)
def test_every_enumerated_preset_value_is_said_in_the_readers_words(language: Language) -> None:
    with in_language(language):
        untranslated = [value for value in PRESET_VALUES if data_words(value) == value]
    assert not untranslated, untranslated


def test_english_prints_the_preset_values_as_stored() -> None:
    with in_language(Language.EN):
        assert [data_words(value) for value in PRESET_VALUES] == PRESET_VALUES


@pytest.mark.parametrize(
    ("language", "cards", "stored", "said"),
    [
        (Language.VI, ["Th", "Td", "2c"], "pair of tens", "đôi 10"),
        (Language.ZH_CN, ["Th", "Td", "Tc", "Ts", "2c"], "four tens", "四条10"),
        (Language.RU, ["Th", "Td", "2c"], "pair of tens", "пара 10"),
        (Language.EN, ["Th", "Td", "2c"], "pair of tens", "pair of tens"),
    ],
)
def test_a_hands_ten_is_written_10_as_on_the_cards(
    language: Language, cards: list[str], stored: str, said: str
) -> None:
    with in_language(language):
        assert hand_words(cards, stored).replace(" ", "") == said.replace(" ", "")


TENS = [
    "Th 9d 2c",
    "Th Td 2c",
    "Th Td 9c 9s 2c",
    "Th Td Tc 9s 2c",
    "Th 9d 8c 7s 6c",
    "Th Td Tc 9s 9c",
    "Th 9h 8h 7h 6h",
]
"""A ten deciding each class it can: high card, pair, two pair, trips, straight, full house, straight
flush."""
A_T_ALONE = re.compile(r"(?<![A-Za-z])T(?![A-Za-z])")


@pytest.mark.parametrize("language", OTHER_LANGUAGES, ids=lambda language: language.value)
def test_no_hand_name_writes_a_t_for_ten(language: Language) -> None:
    stored = {}
    for cards in TENS:
        value = strength(parse_cards(cards.split()))
        stored[cards] = hand_name_of(value, hand_class_of(value))
    with in_language(language):
        said = {cards: hand_words(cards.split(), name) for cards, name in stored.items()}
    assert all("10" in words and not A_T_ALONE.search(words) for words in said.values()), said
