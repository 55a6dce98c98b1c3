"""Words more than one kind's sentence says: the rules in brief, the opening's and a change of
rules' (`sentences`, `actions.supervised`)."""

from __future__ import annotations

from ofc_desk.core.games import VARIANT_LABELS
from ofc_desk.core.settlement import SettlementPolicy
from ofc_desk.i18n import LazyText, _, formatting
from ofc_desk.service.terms.payloads import RulesPayload


def rules_words(rules: RulesPayload) -> str:
    # Pinned rules hold the preset's numbers and keep its file's name beside them.
    named = rules["rules"] if isinstance(rules["rules"], str) else rules.get("preset_name")
    preset = named or _("custom rules")
    said = _("{variant}, {preset}, unit {unit}, {settlement}")
    return said.format(
        variant=_stored_word(rules["variant"]),
        preset=preset,
        unit=formatting.number(rules["unit"]),
        settlement=_stored_word(rules["settlement"]),
    )


def _stored_word(stored: str) -> LazyText | str:
    """A stored variant or settlement policy in the reader's words; an unknown one as stored."""
    return STORED_RULE_WORDS.get(stored, stored)


STORED_RULE_WORDS: dict[str, LazyText] = {
    **VARIANT_LABELS,
    **{policy.value: policy.label for policy in SettlementPolicy},
}
"""A stored variant or settlement policy by its words in the reader's language (the reports say
the same stored words by these too)."""
