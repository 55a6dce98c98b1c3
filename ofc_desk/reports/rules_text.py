"""Every number and flag of the rules in force, as label/value lines for the report header.

The table's stored rules (the `ofc-desk score` keys) name a shipped preset or carry a whole preset,
plus house options layered on top; the preset itself comes from the rules core, so the report
prints exactly the numbers the hands were scored with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ofc_desk.core.ofc.presets import load_preset, preset_from_dict
from ofc_desk.core.presets import PresetError
from ofc_desk.reports.chinese_section import chinese_preset, chinese_preset_lines, is_chinese
from ofc_desk.reports.record import RuleSetting
from ofc_desk.reports.rules_words import PRESET_TABLES
from ofc_desk.service.events import EventKind
from ofc_desk.service.records import AuditRecord
from ofc_desk.service.setup import canonical_sha256

LABELS = {
    "scoring_systems": "Scoring systems",
    "foul_penalty": "Foul penalty (points)",
    "winner_only_royalties": "Winner-only royalties",
    "royalties.back": "Back royalties",
    "royalties.middle": "Middle royalties",
    "royalties.front_pairs": "Front pairs",
    "royalties.front_trips": "Front trips",
    "royalties.deuce_to_seven_middle": "2-7 middle royalties",
    "fantasyland.entry_front_pair": "Fantasyland entry (front pair)",
    "fantasyland.cards": "Fantasyland cards",
    "fantasyland.progressive_cards": "Progressive cards",
    "fantasyland.progressive_stay_cards": "Progressive stay cards",
    "fantasyland.stay": "Fantasyland stay",
    "fantasyland.max_consecutive": "Consecutive Fantasyland cap",
    "fantasyland.deuce_to_seven": "2-7 Fantasyland",
    "rake.jackpot_percent": "Jackpot share of rake (%)",
}
SKIPPED = {"name", "description", "scoring"}
PINNED_BY = "pinned_by"
"""Set on rules a report reads, never stored: who pinned a preset the session named."""


def resolve_preset(rules: Mapping[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """The preset's name and its full data with house options applied (None if unreadable)."""
    if is_chinese(rules):
        return chinese_preset(rules)
    chosen = rules.get("rules", "standard")
    overrides = rules.get("house_options") or None
    try:
        if isinstance(chosen, Mapping):
            preset = preset_from_dict(chosen, overrides)
        else:
            preset = load_preset(str(chosen))
            if overrides:
                preset = preset_from_dict(preset.to_dict(), overrides)
    except PresetError:
        return (str(chosen.get("name", "custom")) if isinstance(chosen, Mapping) else str(chosen), None)
    return preset.name, preset.to_dict()


def table_options(rules: Mapping[str, Any]) -> tuple[RuleSetting, ...]:
    """The table's own choices: preset, variant, scoring, stakes and settlement."""
    name, preset = resolve_preset(rules)
    pair_units = ", ".join(
        f"{p['players'][0]}–{p['players'][1]} {p['unit']}" for p in rules.get("pair_units") or ()
    )
    return (
        RuleSetting("Preset", name),
        RuleSetting("Variant", str(rules.get("variant", "regular"))),
        *_play_options(rules, preset),
        RuleSetting("Unit", str(rules.get("unit", 1))),
        RuleSetting("Per-pair units", pair_units or "none"),
        RuleSetting("Settlement", str(rules.get("settlement", "win-cap"))),
        RuleSetting("Settle from", str(rules.get("settle_from", "left-of-dealer"))),
    )


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
        by = rules.get(PINNED_BY, "the table's opening")
        return f"{recorded} (pinned by {by} from {rules.get('preset_name')}.json)"
    chosen = rules.get("rules", "standard")
    if isinstance(chosen, Mapping):
        return f"{canonical_sha256(chosen)} (the table's own preset, in the record)"
    return f"not pinned: read from the preset file {chosen}.json"


def _play_options(rules: Mapping[str, Any], preset: Mapping[str, Any] | None) -> list[RuleSetting]:
    if is_chinese(rules):  # no streets, no Fantasyland: the preset's lines say everything
        house = rules.get("house_options")
        return [RuleSetting("House options", _inline(house))] if house else []
    scoring = rules.get("scoring") or (preset or {}).get("scoring", "the preset's own")
    options = [
        RuleSetting("Scoring", str(scoring)),
        RuleSetting("Progressive Fantasyland", _value(bool(rules.get("progressive", False)))),
        RuleSetting("Last 3 cards face down", _value(bool(rules.get("last_three_face_down")))),
    ]
    if rules.get("house_options"):
        options.append(RuleSetting("House options", _inline(rules["house_options"])))
    return options


def rules_settings(rules: Mapping[str, Any]) -> tuple[RuleSetting, ...]:
    """Every number and flag in force beyond the report header's preset, variant, unit and
    settlement: the scoring and table flags, then each value of the preset (house options applied).
    """
    _, preset = resolve_preset(rules)
    settings = [RuleSetting("Preset SHA-256", _pin_line(rules)), *_play_options(rules, preset)]
    if preset is None:
        settings.append(RuleSetting("Preset data", "not readable: ofc-desk verify will say why"))
    elif is_chinese(rules):
        settings += [RuleSetting(label, _value(value)) for label, value in chinese_preset_lines(preset)]
    else:
        settings += _flatten(preset, "")
    return tuple(settings)


def _flatten(data: Mapping[str, Any], prefix: str) -> list[RuleSetting]:
    settings: list[RuleSetting] = []
    for key, value in data.items():
        path = f"{prefix}{key}"
        if path in SKIPPED:
            continue
        if isinstance(value, Mapping) and any(isinstance(v, Mapping) for v in value.values()):
            if path in LABELS:
                settings.append(RuleSetting(LABELS[path], _inline(value)))
            else:
                settings += _flatten(value, f"{path}.")
        else:
            words = PRESET_TABLES[path](value) if path in PRESET_TABLES else _value(value)
            settings.append(RuleSetting(LABELS.get(path, _humanize(path)), words))
    return settings


def _humanize(path: str) -> str:
    words = path.replace(".", " ").replace("_", " ")
    return words[:1].upper() + words[1:]


def _mode_first(value: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """A section's `mode` (the rake's) says how its numbers read, so it leads; the rest keep the
    record's order, which for rules pinned in the chain is alphabetical (canonical JSON)."""
    return sorted(value.items(), key=lambda item: item[0] != "mode")


def _inline(value: Any) -> str:
    if isinstance(value, Mapping):
        parts = []
        for key, item in _mode_first(value):
            inner = _inline(item)
            parts.append(
                f"{str(key).replace('_', ' ')}: {inner}"
                if isinstance(item, Mapping)
                else f"{str(key).replace('_', ' ')} {inner}"
            )
        return (
            " · ".join(parts) if not any(isinstance(v, Mapping) for v in value.values()) else "; ".join(parts)
        )
    return _value(value)


def _value(value: Any) -> str:
    if isinstance(value, Mapping):
        return _inline(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    return str(value).replace("_", " ")
