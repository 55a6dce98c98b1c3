"""The jackpot award rule on the rules page in the reader's language (issue 36): the award's own
line of a preset and the award a table's house options carry said in Russian, Vietnamese and
Chinese, with no English word of the rule left ("Jackpot award", "high-card", "loser" …)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from ofc_desk.i18n import Language, _, in_language
from ofc_desk.reports.rules_text import rules_settings
from tests.helpers.jackpot_awards import ANY_HAND_AWARD

OTHER_LANGUAGES = [Language.RU, Language.VI, Language.ZH_CN]
ENGLISH_AWARD_WORDS = re.compile(
    r"award|high|card|loser|winner|table|front|middle|back|pair|straight|flush|trips|kind",
    re.IGNORECASE,
)
TABLES: dict[str, dict[str, Any]] = {
    "shipped preset": {"variant": "chinese", "rules": "hawaiian-gardens-jackpot"},
    "house option": {
        "variant": "chinese",
        "rules": "chinese-basic",
        "house_options": {"jackpot_award": ANY_HAND_AWARD},
    },
}


def _award_lines(rules: dict[str, Any]) -> list[str]:
    """The rules page's lines that carry the award, label and value as the report prints them."""
    printed = [f"{_(setting.label)} {setting.value}" for setting in rules_settings(rules)]
    return [line for line in printed if "%" in line and "50" in line]


@pytest.mark.parametrize("table", TABLES, ids=str)
@pytest.mark.parametrize("language", OTHER_LANGUAGES, ids=lambda language: language.value)
def test_the_award_rule_has_no_english_word(language: Language, table: str) -> None:
    with in_language(language):
        lines = _award_lines(TABLES[table])
    assert lines, "the rules page prints no award"
    assert not [line for line in lines if ENGLISH_AWARD_WORDS.search(line)], lines


@pytest.mark.parametrize("table", TABLES, ids=str)
def test_english_names_the_award_rule_in_its_own_words(table: str) -> None:
    with in_language(Language.EN):
        lines = _award_lines(TABLES[table])
    assert any("loser 50 %" in line and "winner 25 %" in line for line in lines), lines
