"""Every number and flag of the rules in force, as label/value lines for the report header.

The table's stored rules (the `ofc-desk score` keys) name a shipped preset or carry a whole preset,
plus house options layered on top; the preset itself comes from the rules core, so the report
prints exactly the numbers the hands were scored with. The game's part of the reports
(`reports.games`) reads its preset and says its own lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ofc_desk.core.games import DEFAULT_VARIANT
from ofc_desk.core.presets import DEFAULT_PRESET
from ofc_desk.core.settlement import SettleFrom, SettlementPolicy
from ofc_desk.i18n import _, lazy_gettext
from ofc_desk.reports.games import report_game
from ofc_desk.reports.record import RuleSetting
from ofc_desk.reports.rules_words import SETTLE_FROM, inline_words, rules_label
from ofc_desk.reports.spoken import data_words, speaks_as_stored
from ofc_desk.service.store.records import AuditRecord
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.setup import canonical_sha256

PINNED_BY = "pinned_by"
"""Set on rules a report reads, never stored: who pinned a preset the session named."""


def resolve_preset(rules: Mapping[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """The preset's name and its full data with house options applied (None if unreadable)."""
    return report_game(rules).resolve_preset(rules)


def table_options(rules: Mapping[str, Any]) -> tuple[RuleSetting, ...]:
    """The table's own choices: preset, variant, scoring, stakes and settlement."""
    name, preset = resolve_preset(rules)
    pair_units = ", ".join(
        f"{p['players'][0]}–{p['players'][1]} {p['unit']}" for p in rules.get("pair_units") or ()
    )
    return (
        RuleSetting(rules_label(lazy_gettext("Preset")), name),
        RuleSetting(
            rules_label(lazy_gettext("Variant")), data_words(str(rules.get("variant", DEFAULT_VARIANT)))
        ),
        *_play_options(rules, preset),
        RuleSetting(rules_label(lazy_gettext("Unit")), str(rules.get("unit", 1))),
        RuleSetting(rules_label(lazy_gettext("Per-pair units")), pair_units or _("none")),
        RuleSetting(
            rules_label(lazy_gettext("Settlement")),
            data_words(str(rules.get("settlement", SettlementPolicy.WIN_CAP.value))),
        ),
        RuleSetting(
            rules_label(lazy_gettext("Settle from")),
            _settle_from(str(rules.get("settle_from", SettleFrom.LEFT_OF_DEALER.value))),
        ),
    )


def _settle_from(value: str) -> str:
    if speaks_as_stored():
        return value
    words = SETTLE_FROM.get(value)
    return str(words) if words is not None else value


def with_migration_pins(rules: Mapping[str, Any], events: Sequence[AuditRecord]) -> Mapping[str, Any]:
    """A session that named its preset, with the numbers migration 0007 pinned for it."""
    chosen = rules.get("rules")
    pinned = next((event for event in events if event.kind == EventKind.RULES_PINNED), None)
    if pinned is None or not isinstance(chosen, str) or chosen not in pinned.payload.get("presets", {}):
        return rules
    return {
        **rules,
        "rules": pinned.payload["presets"][chosen],
        "preset_name": chosen,
        "preset_sha256": pinned.payload["sha256"][chosen],
        PINNED_BY: pinned.actor,
    }


def _pin_line(rules: Mapping[str, Any]) -> str:
    """The fingerprint of the numbers the record holds; a session opened before rules were pinned
    names its preset file and was read from it (docs/decisions.md, "Rules pinned in the chain")."""
    recorded = rules.get("preset_sha256")
    if recorded:
        by = rules.get(PINNED_BY) or _("the table's opening")
        return _("{sha256} (pinned by {by} from {file})").format(
            sha256=recorded, by=by, file=f"{rules.get('preset_name')}.json"
        )
    chosen = rules.get("rules", DEFAULT_PRESET)
    if isinstance(chosen, Mapping):
        return _("{sha256} (the table's own preset, in the record)").format(sha256=canonical_sha256(chosen))
    return _("not pinned: read from the preset file {file}").format(file=f"{chosen}.json")


def _play_options(rules: Mapping[str, Any], preset: Mapping[str, Any] | None) -> list[RuleSetting]:
    """The game's own choices of play, then the house options layered on the preset."""
    house = rules.get("house_options")
    label = rules_label(lazy_gettext("House options"))
    house_line = [RuleSetting(label, inline_words(house))] if house else []
    return [*report_game(rules).play_options(rules, preset), *house_line]


def rules_settings(rules: Mapping[str, Any]) -> tuple[RuleSetting, ...]:
    """Every number and flag in force beyond the report header's preset, variant, unit and
    settlement: the scoring and table flags, then each value of the preset (house options applied).
    """
    _name, preset = resolve_preset(rules)
    settings = [
        RuleSetting(rules_label(lazy_gettext("Preset SHA-256")), _pin_line(rules)),
        *_play_options(rules, preset),
    ]
    if preset is None:
        unreadable = _("not readable: ofc-desk verify will say why")
        settings.append(RuleSetting(rules_label(lazy_gettext("Preset data")), unreadable))
    else:
        settings += report_game(rules).preset_lines(preset)
    return tuple(settings)
