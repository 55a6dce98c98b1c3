"""Rules pinned after the fact, for sessions stored while rules were kept by preset name.

New sessions carry their resolved preset in the opening and rules-changed events
(`TableRules.pinned`). A session written before that named its presets only; migration 0007
appended one `rules_pinned` event to each such session, holding every preset it named as the file
read at the upgrade, with its SHA-256. Whoever folds such a session takes the pins from that event
first (`pins_in`), so the earlier events are scored by the pinned numbers, never by a file edited
since (docs/decisions.md, "Rules pinned in the chain").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Protocol

from ofc_desk.i18n import _
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.outcome import NO_ROWS, Outcome
from ofc_desk.service.terms.payloads import RawPayload, RulesPinned
from ofc_desk.service.terms.setup import TableRules, canonical_copy, canonical_sha256

PinnedPresets = dict[str, dict[str, object]]
MIGRATION_ACTOR = "migration 0007"


class PinningTable(Protocol):
    """What checking a `rules_pinned` event reads of a table (the machine; taken, not imported)."""

    pinned_presets: PinnedPresets
    named_presets: set[str]


def pins_in(events: Iterable[tuple[str, str]]) -> PinnedPresets:
    """The presets a session's `rules_pinned` event holds, from its (kind, payload JSON) pairs;
    none for a session that needs none. A malformed pin is left to `check` to refuse."""
    for kind, payload in events:
        if kind == EventKind.RULES_PINNED:
            presets = json.loads(payload).get("presets")
            return _copies(presets) if isinstance(presets, Mapping) else {}
    return {}


def _copies(presets: Mapping[object, object]) -> PinnedPresets:
    return {str(name): canonical_copy(data) for name, data in presets.items() if isinstance(data, Mapping)}


def with_pins(rules: TableRules, pins: Mapping[str, dict[str, object]]) -> TableRules:
    """Rules that name a pinned preset, with its pinned numbers in place of the file."""
    if isinstance(rules.preset, str) and rules.preset in pins:
        return replace(rules, preset=pins[rules.preset], preset_name=rules.preset)
    return rules


def check_rules_pinned(machine: PinningTable, raw: RawPayload) -> RulesPinned:
    """The pins must be exactly the presets this session named and was folded with, each with
    its own SHA-256: a pin that was not used, or used one the event does not hold, is a fault."""
    presets, digests, note = raw.get("presets"), raw.get("sha256"), raw.get("note")
    if not isinstance(presets, Mapping) or not isinstance(digests, Mapping) or not isinstance(note, str):
        raise ActionRefused(_("rules pinned: needs presets, their sha256 and a note"))
    pinned = _copies(presets)
    if len(pinned) != len(presets) or set(pinned) != set(digests):
        raise ActionRefused(_("rules pinned: each preset needs its object and its sha256"))
    for name, data in pinned.items():
        if digests[name] != canonical_sha256(data):
            said = _("rules pinned: preset {preset} does not match its SHA-256 {digest}")
            raise ActionRefused(said.format(preset=name, digest=digests[name]))
    if pinned != machine.pinned_presets or set(pinned) != machine.named_presets:
        named = ", ".join(sorted(machine.named_presets)) or _("none named")
        said = _("rules pinned: the pins are not the presets this session was played by ({presets})")
        raise ActionRefused(said.format(presets=named))
    return {"presets": pinned, "sha256": {name: str(digests[name]) for name in pinned}, "note": note}


def apply_rules_pinned(machine: PinningTable, payload: RulesPinned) -> Outcome:
    """Nothing changes: the session was folded with these numbers from its first event on."""
    return NO_ROWS
