"""Every number and flag of the rules in force, as label/value lines for the report header.

The table's stored rules (the `ofc-desk score` keys) name a shipped preset or carry a whole preset,
plus house options layered on top; the preset itself comes from the rules core, so the report
prints exactly the numbers the hands were scored with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ofc_desk.core.ofc.presets import load_preset, preset_from_dict
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import DEFAULT_PRESET, PresetError
from ofc_desk.core.settlement import SettleFrom, SettlementPolicy
from ofc_desk.i18n import LazyText, _, lazy_gettext, lazy_pgettext
from ofc_desk.reports.chinese_section import chinese_preset, chinese_preset_lines, is_chinese
from ofc_desk.reports.record import RuleSetting
from ofc_desk.reports.rules_words import PRESET_TABLES, SETTLE_FROM
from ofc_desk.reports.spoken import data_words, speaks_as_stored
from ofc_desk.service.events import EventKind
from ofc_desk.service.records import AuditRecord
from ofc_desk.service.setup import canonical_sha256

LABELS: dict[str, LazyText] = {
    "scoring_systems": lazy_gettext("Scoring systems"),
    "foul_penalty": lazy_gettext("Foul penalty (points)"),
    "winner_only_royalties": lazy_gettext("Winner-only royalties"),
    "royalties.back": lazy_gettext("Back royalties"),
    "royalties.middle": lazy_gettext("Middle royalties"),
    "royalties.front_pairs": lazy_gettext("Front pairs"),
    "royalties.front_trips": lazy_gettext("Front trips"),
    "royalties.deuce_to_seven_middle": lazy_gettext("2-7 middle royalties"),
    "fantasyland.entry_front_pair": lazy_gettext("Fantasyland entry (front pair)"),
    "fantasyland.cards": lazy_gettext("Fantasyland cards"),
    "fantasyland.progressive_cards": lazy_gettext("Progressive cards"),
    "fantasyland.progressive_stay_cards": lazy_gettext("Progressive stay cards"),
    "fantasyland.stay": lazy_gettext("Fantasyland stay"),
    "fantasyland.max_consecutive": lazy_gettext("Consecutive Fantasyland cap"),
    "fantasyland.deuce_to_seven": lazy_gettext("2-7 Fantasyland"),
    "rake.jackpot_percent": lazy_gettext("Jackpot share of rake (%)"),
}
SKIPPED = {"name", "description", "scoring"}


def _label(words: LazyText) -> str:
    """A rules line's label stays its English message, marked here: the report translates it
    when it prints it, in the report's language (session_pdf)."""
    return words.message


PINNED_BY = "pinned_by"
"""Set on rules a report reads, never stored: who pinned a preset the session named."""


def resolve_preset(rules: Mapping[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """The preset's name and its full data with house options applied (None if unreadable)."""
    if is_chinese(rules):
        return chinese_preset(rules)
    chosen = rules.get("rules", DEFAULT_PRESET)
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
        RuleSetting(_label(lazy_gettext("Preset")), name),
        RuleSetting(
            _label(lazy_gettext("Variant")), data_words(str(rules.get("variant", Variant.REGULAR.value)))
        ),
        *_play_options(rules, preset),
        RuleSetting(_label(lazy_gettext("Unit")), str(rules.get("unit", 1))),
        RuleSetting(_label(lazy_gettext("Per-pair units")), pair_units or _("none")),
        RuleSetting(
            _label(lazy_gettext("Settlement")),
            data_words(str(rules.get("settlement", SettlementPolicy.WIN_CAP.value))),
        ),
        RuleSetting(
            _label(lazy_gettext("Settle from")),
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
    if is_chinese(rules):  # no streets, no Fantasyland: the preset's lines say everything
        house = rules.get("house_options")
        return [RuleSetting(_label(lazy_gettext("House options")), _inline(house))] if house else []
    scoring = rules.get("scoring") or (preset or {}).get("scoring") or _("the preset's own")
    options = [
        RuleSetting(_label(lazy_gettext("Scoring")), str(scoring)),
        RuleSetting(
            _label(lazy_gettext("Progressive Fantasyland")), _value(bool(rules.get("progressive", False)))
        ),
        RuleSetting(
            _label(lazy_gettext("Last 3 cards face down")), _value(bool(rules.get("last_three_face_down")))
        ),
    ]
    if rules.get("house_options"):
        options.append(RuleSetting(_label(lazy_gettext("House options")), _inline(rules["house_options"])))
    return options


def rules_settings(rules: Mapping[str, Any]) -> tuple[RuleSetting, ...]:
    """Every number and flag in force beyond the report header's preset, variant, unit and
    settlement: the scoring and table flags, then each value of the preset (house options applied).
    """
    _name, preset = resolve_preset(rules)
    settings = [
        RuleSetting(_label(lazy_gettext("Preset SHA-256")), _pin_line(rules)),
        *_play_options(rules, preset),
    ]
    if preset is None:
        unreadable = _("not readable: ofc-desk verify will say why")
        settings.append(RuleSetting(_label(lazy_gettext("Preset data")), unreadable))
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
                settings.append(RuleSetting(_label(LABELS[path]), _inline(value)))
            else:
                settings += _flatten(value, f"{path}.")
        else:
            words = PRESET_TABLES[path](value) if path in PRESET_TABLES else _value(value)
            label = _label(LABELS[path]) if path in LABELS else _humanize(path)
            settings.append(RuleSetting(label, words))
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
            words = _key_words(str(key))
            parts.append(f"{words}: {inner}" if isinstance(item, Mapping) else f"{words} {inner}")
        return (
            " · ".join(parts) if not any(isinstance(v, Mapping) for v in value.values()) else "; ".join(parts)
        )
    return _value(value)


def _value(value: Any) -> str:
    if isinstance(value, Mapping):
        return _inline(value)
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
}
"""The keys inside a preset's tables (resources/presets) by their words; English prints a key
as it is spelt, its underscores as spaces."""


def _key_words(key: str) -> str:
    if speaks_as_stored():
        return key.replace("_", " ")
    words = PRESET_KEY_WORDS.get(key)
    return str(words) if words is not None else data_words(key).replace("_", " ")
