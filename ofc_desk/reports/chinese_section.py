"""What the reports add for a closed Chinese poker table (docs/rules.md §10): the surrender, the
declared special and the misset of each player, what each payment is for, and the Chinese preset's
numbers on the rules page. Kept apart so the OFC report code stays as it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ofc_desk.core.chinese.deal_input import read_chinese_preset
from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.core.ofc.deal_input import DealInputError
from ofc_desk.core.results import ResultSeat
from ofc_desk.i18n import LazyText, _, lazy_gettext, ngettext
from ofc_desk.reports.record import ChineseSeat, HandRecord, SeatResult, TransferRecord
from ofc_desk.reports.rules_words import PRESET_TABLES
from ofc_desk.reports.spoken import reason_words, speaks_as_stored, why_words

CHINESE_VARIANT = "chinese"
SPECIAL_KINDS = frozenset(SpecialKind)

# The preset's fields in the order a supervisor checks them, with the words the rules use.
CHINESE_LABELS: dict[str, LazyText] = {
    "scheme": lazy_gettext("Scoring scheme"),
    "bonus_mode": lazy_gettext("Bonus mode"),
    "bonuses": lazy_gettext("Row bonuses (units)"),
    "sweep": lazy_gettext("Sweep bonus"),
    "overall_point": lazy_gettext("Overall point"),
    "majority": lazy_gettext("Majority units"),
    "scoop": lazy_gettext("Scoop units"),
    "scoop_all": lazy_gettext("Scoop-all units"),
    "scoop_multiplier": lazy_gettext("Scoop multiplier"),
    "scoop_all_multiplier": lazy_gettext("Scoop-all multiplier"),
    "specials": lazy_gettext("Specials (units)"),
    "special_vs_special": lazy_gettext("Special against special"),
    "surrender": lazy_gettext("Surrender (units)"),
    "bank": lazy_gettext("Bank"),
    "aces": lazy_gettext("Aces"),
    "ace_units": lazy_gettext("Ace units (1–4 aces)"),
    "rake": lazy_gettext("Rake"),
    "proposed_settlement": lazy_gettext("Proposed table stakes"),
}


def is_chinese(rules: Mapping[str, Any]) -> bool:
    return rules.get("variant") == CHINESE_VARIANT


def chinese_preset(rules: Mapping[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """The Chinese preset's name and its data with house options applied (None if unreadable)."""
    chosen = rules.get("rules", "chinese-basic")
    try:
        preset = read_chinese_preset(chosen, rules.get("house_options"))
    except DealInputError:
        return (str(chosen.get("name", "custom")) if isinstance(chosen, Mapping) else str(chosen), None)
    return preset.name, preset.to_dict()


def chinese_preset_lines(preset: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Label and value of every number the hands were scored with, specials as `dragon 13`."""
    lines: list[tuple[str, Any]] = []
    for key, label in CHINESE_LABELS.items():
        if key not in preset:
            continue
        value = preset[key]
        if key == "specials":
            value = ", ".join(_special_words(s) for s in value) or _("none")
        elif key == "ace_units":
            value = " · ".join(
                ngettext("{aces} ace {units}", "{aces} aces {units}", aces).format(aces=aces, units=units)
                for aces, units in enumerate(value, 1)
            )
        elif key in PRESET_TABLES:
            value = PRESET_TABLES[key](value)
        # The label stays the English message: the report translates it when it prints it.
        lines.append((label.message, value))
    others = [key for key in preset if key not in CHINESE_LABELS and key not in _SHOWN]
    return lines + [(key.replace("_", " ").capitalize(), preset[key]) for key in others]


_SHOWN = {"name", "description", "game"}


def _special_words(special: Mapping[str, Any]) -> str:
    limit = special.get("highest") or special.get("lowest")
    # The rules page has always named a special by its key in English ("six-pairs").
    kind = str(special["kind"]) if speaks_as_stored() else special_words(str(special["kind"]))
    if limit:
        kind = _("{special} (to {rank})").format(special=kind, rank=limit)
    return f"{kind} {special['units']}"


def special_words(kind: str) -> str:
    """A declared special (`SpecialKind`'s value) in the reader's words; an unknown one by its
    stored name."""
    return str(SpecialKind(kind).label) if kind in SPECIAL_KINDS else kind.replace("-", " ")


def chinese_seat(seat: ResultSeat) -> ChineseSeat | None:
    """A settled result's Chinese part of one player, None for an OFC player."""
    showdown = seat.showdown
    if showdown is None:
        return None
    return ChineseSeat(
        surrendered=showdown.surrendered,
        declared=showdown.special.value if showdown.special else "",
        misset_reason=(seat.foul_reason or "") if seat.foul else "",
    )


def seat_flag(seat: SeatResult) -> str:
    """The word under the player's name: FOUL for OFC, MISSET for Chinese poker."""
    return _("MISSET") if seat.chinese else _("FOUL")


def seat_in_place_of_rows(seat: SeatResult) -> str:
    """The words a Chinese player's row cells carry when the hand was not set: never an empty row."""
    if seat.chinese is None:
        return ""
    if seat.chinese.surrendered:
        return _("surrendered: no hand shown")
    if seat.chinese.declared:
        return _("declared {special}: paid as a special").format(special=special_words(seat.chinese.declared))
    return ""


def is_chinese_hand(hand: HandRecord) -> bool:
    return any(seat.chinese is not None for seat in hand.seats)


def transfer_why(transfer: TransferRecord) -> str:
    """A Chinese payment's pass and purpose, then the cap when the payer's stack ran short."""
    why = why_words(transfer.why, transfer.payer, transfer.payee)
    parts = [_pass_words(transfer.settles, why) if transfer.settles else why]
    if transfer.capped:
        parts.append(reason_words(transfer.reason))
    return "; ".join(part for part in parts if part)


def _pass_words(settles: str, why: str) -> str:
    if settles == "special":
        return _("special pass: {why}").format(why=why)
    if settles == "rest":
        return _("rest pass: {why}").format(why=why)
    return f"{settles} pass: {why}"


def showdown_words(seat: SeatResult) -> str:
    """The hands CSV's account of a Chinese showdown; empty for OFC, whose rows say it all."""
    if seat.chinese is None:
        return ""
    if seat.chinese.surrendered:
        return "surrendered"
    if seat.chinese.declared:
        return f"declared {seat.chinese.declared}"
    if seat.chinese.misset_reason:
        return f"misset: {seat.chinese.misset_reason}"
    return "set"
