"""Closed Chinese poker's part of the reports (docs/rules.md §10): missets, surrenders and specials
in the players table, row bonuses in a hand's, a player's surrender or declared special in place of
the rows, what each payment was for, the Chinese preset's numbers on the rules page, and a showdown
as a replay script spells it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from reportlab.lib.units import mm

from ofc_desk.core.chinese.bonus_paid import BonusPaid, mark_paid
from ofc_desk.core.chinese.deal_input import read_chinese_preset
from ofc_desk.core.chinese.house_variants import house_variants_of
from ofc_desk.core.chinese.house_words import OPTION_LABELS, house_variant_words
from ofc_desk.core.chinese.payment import Payment
from ofc_desk.core.chinese.presets import BonusMode
from ofc_desk.core.chinese.showdown import showdown_of
from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.core.deal_input import DealInputError
from ofc_desk.core.results import HandResult, ResultPair, ResultSeat, ResultTransfer
from ofc_desk.core.rows import ROWS
from ofc_desk.i18n import LazyText, _, in_language, lazy_gettext, ngettext
from ofc_desk.i18n.languages import SOURCE
from ofc_desk.reports.formatting import signed_chips
from ofc_desk.reports.games.base import plain_matchup, plain_transfer, unreadable_preset
from ofc_desk.reports.record import (
    HandRecord,
    MatchupPart,
    MatchupRecord,
    PlayerSummary,
    RuleSetting,
    SeatPart,
    SeatResult,
    SummaryPart,
    TransferPart,
    TransferRecord,
)
from ofc_desk.reports.rules_words import PRESET_TABLES, value_words
from ofc_desk.reports.spoken import reason_words, speaks_as_stored, why_words
from ofc_desk.service.store.records import HandRecord as StoredHand
from ofc_desk.service.table.games.chinese.play import SHOWDOWN_KEYS
from ofc_desk.service.terms.events import EventKind

SPECIAL_KINDS = frozenset(SpecialKind)


@dataclass(frozen=True)
class ChineseSeat(SeatPart):
    """A Chinese poker player's showdown beyond the rows (docs/rules.md §10)."""

    surrendered: bool = False
    declared: str = ""
    """The special declared (`dragon`), or empty."""
    misset_reason: str = ""


@dataclass(frozen=True)
class ChineseSummary(SummaryPart):
    """A Chinese poker player's surrenders and declared specials over the session."""

    surrenders: int = 0
    specials: int = 0


@dataclass(frozen=True)
class ChinesePair(MatchupPart):
    """A Chinese poker pair's special pass: the part of the pair's points (`MatchupRecord.points`,
    both passes together) a declared special's units settled."""

    special: int = 0


@dataclass(frozen=True)
class ChinesePayment(TransferPart):
    """What a Chinese poker payment is for, and the settlement pass it belongs to."""

    why: str = ""
    """In the result's words ("Cy's dragon (13 units)"), said again in the reader's (`why_words`)."""
    settles: str = ""
    """`special` or `rest` (`core.settlement.SettlementPass`); empty where the hand settled in one."""


NO_COUNTS, NO_SPECIAL_PASS, NO_PURPOSE = ChineseSummary(), ChinesePair(), ChinesePayment()


# The preset's fields in the order a supervisor checks them, with the words the rules use.
CHINESE_LABELS: dict[str, LazyText] = {
    "scheme": lazy_gettext("Scoring scheme"),
    "wheel": OPTION_LABELS["wheel"],
    "bonus_mode": lazy_gettext("Bonus mode"),
    "bonuses": lazy_gettext("Row bonuses (units)"),
    "bonus_by_rank": OPTION_LABELS["bonus_by_rank"],
    "sweep": lazy_gettext("Sweep bonus"),
    "overall_point": lazy_gettext("Overall point"),
    "majority": lazy_gettext("Majority units"),
    "scoop": lazy_gettext("Scoop units"),
    "scoop_all": lazy_gettext("Scoop-all units"),
    "scoop_multiplier": lazy_gettext("Scoop multiplier"),
    "scoop_all_multiplier": lazy_gettext("Scoop-all multiplier"),
    "scoop_multipliers": OPTION_LABELS["scoop_multipliers"],
    "specials": lazy_gettext("Specials (units)"),
    "special_vs_special": lazy_gettext("Special against special"),
    "strict_specials": OPTION_LABELS["strict_specials"],
    "surrender": lazy_gettext("Surrender (units)"),
    "bank": lazy_gettext("Bank"),
    "aces": lazy_gettext("Aces"),
    "ace_units": lazy_gettext("Ace units (1–4 aces)"),
    "rake": lazy_gettext("Rake"),
    "proposed_settlement": lazy_gettext("Proposed table stakes"),
    "jackpot_award": lazy_gettext("Jackpot award"),
}


class ChineseReport:
    """What the reports ask of a closed Chinese poker table, answered for Chinese poker."""

    @property
    def player_headings(self) -> tuple[str, str, str]:
        return (_("Missets"), _("Surrenders"), _("Specials"))

    def player_figures(self, player: PlayerSummary) -> tuple[int, int, int]:
        counts = player.part if isinstance(player.part, ChineseSummary) else NO_COUNTS
        return (player.fouls, counts.surrenders, counts.specials)

    def summary(self, player: PlayerSummary, seats: Sequence[SeatResult]) -> PlayerSummary:
        parts = [part for seat in seats if (part := chinese_part(seat)) is not None]
        surrenders = sum(1 for part in parts if part.surrendered)
        specials = sum(1 for part in parts if part.declared)
        return replace(player, part=ChineseSummary(surrenders, specials))

    player_widths = (26 * mm, 17 * mm, 16 * mm, 18 * mm, 19 * mm, 19 * mm, 12 * mm, 15 * mm, 19 * mm)

    @property
    def row_points_heading(self) -> str:
        return _("Bonus")

    @property
    def flag(self) -> str:
        return _("MISSET")

    def seat_part(self, seat: ResultSeat, stored: StoredHand) -> ChineseSeat | None:
        return chinese_seat(seat)

    def matchup(self, pair: ResultPair) -> MatchupRecord:
        """The pair's points of both passes together: the result's `points` are its rest pass."""
        special = pair.special or 0
        return replace(plain_matchup(pair), points=pair.points + special, part=ChinesePair(special))

    def transfer(self, transfer: ResultTransfer) -> TransferRecord:
        settles = transfer.settles.value if transfer.settles else ""
        return replace(plain_transfer(transfer), part=ChinesePayment(transfer.why, settles))

    def title_parts(self, hand: HandRecord) -> tuple[str, ...]:
        return ()  # every player is dealt the same 13 cards

    def under_name(self, seat: SeatResult) -> str:
        return ""  # a misset is the flag; a surrender or a special runs across the rows

    def in_place_of_rows(self, seat: SeatResult) -> str:
        """The words a player's row cells carry when the hand was not set: never an empty row."""
        chinese = chinese_part(seat)
        if chinese is None:
            return ""
        if chinese.surrendered:
            return _("surrendered: no hand shown")
        if chinese.declared:
            special = special_words(chinese.declared)
            return _("declared {special}: paid as a special").format(special=special)
        return ""

    def pair_note(self, matchup: MatchupRecord) -> str:
        """The special pass of a pair's points: all of them (' special'), or some beside the rest."""
        special = pair_part(matchup).special
        if not special:
            return ""
        if special == matchup.points:
            return " " + _("special")
        rest = matchup.points - special
        return " " + _("(special {special}, rest {rest})").format(
            special=signed_chips(special), rest=signed_chips(rest)
        )

    @property
    def why_heading(self) -> str:
        return _("Why")

    def hand_note(self, hand: HandRecord) -> str:
        return unpaid_bonus_note(hand)

    def why(self, transfer: TransferRecord, hand: HandRecord) -> str:
        """A payment's purpose, with its pass when the hand settled in both (a pool table's, or a
        hand without specials, settles in one: a pass would say nothing), then the cap when the
        payer's stack ran short."""
        return _why(transfer, passes=len({payment_part(t).settles for t in hand.transfers}) > 1)

    def shown_result(self, result: HandResult, rules: Mapping[str, Any]) -> HandResult:
        try:
            preset = read_chinese_preset(rules.get("rules", "chinese-basic"), rules.get("house_options"))
        except DealInputError:
            return result  # a preset no longer readable: its bonuses as the result stored them
        return mark_paid(result, BonusPaid.of(preset.bonus_mode, preset.payment.payment))

    def resolve_preset(self, rules: Mapping[str, Any]) -> tuple[str, dict[str, Any] | None]:
        chosen = rules.get("rules", "chinese-basic")
        try:
            preset = read_chinese_preset(chosen, rules.get("house_options"))
        except DealInputError:
            return unreadable_preset(chosen)
        return preset.name, preset.to_dict()

    def play_options(self, rules: Mapping[str, Any], preset: Mapping[str, Any] | None) -> list[RuleSetting]:
        return []  # no streets, no Fantasyland: the preset's lines say everything

    def preset_lines(self, preset: Mapping[str, Any]) -> list[RuleSetting]:
        return [RuleSetting(label, value_words(value)) for label, value in chinese_preset_lines(preset)]

    def hand_columns(self, seat: SeatResult) -> Mapping[str, object]:
        return {"showdown": self._showdown_words(seat)}

    def _showdown_words(self, seat: SeatResult) -> str:
        """The hands CSV's account of a showdown."""
        chinese = chinese_part(seat)
        if chinese is None:
            return ""
        if chinese.surrendered:
            return "surrendered"
        if chinese.declared:
            return f"declared {chinese.declared}"
        if chinese.misset_reason:
            return f"misset: {chinese.misset_reason}"
        return "set"

    def transfer_note(self, transfer: TransferRecord) -> str:
        """What a payment settled; the CSV is machine-readable: its words are the record's
        English, whatever the language."""
        if not payment_part(transfer).settles:
            return transfer.reason
        with in_language(SOURCE):
            return _why(transfer, passes=True)

    entry_kinds = frozenset({EventKind.SHOWN})

    def script_entry(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """A showdown: a surrender, a declaration with its cards (and rows when given), or the
        cards with their rows."""
        surrender, declare = SHOWDOWN_KEYS
        action: dict[str, Any] = {"player": payload["player"]}
        if payload.get(surrender):
            return {**action, surrender: True}
        if payload.get(declare):
            action[declare] = payload[declare]
        action["cards"] = " ".join(payload.get("cards") or [])
        if payload.get("rows"):
            action["rows"] = " ".join(payload["rows"])
        return action


BONUS_PAID_LABEL = lazy_gettext("Row bonuses paid")


def _bonus_paid_words(preset: Mapping[str, Any]) -> str:
    """Which bonus rows the hands were paid, as the Bonus column counts them ("" for a preset whose
    bonus mode or payment is no longer known)."""
    try:
        paid = BonusPaid.of(BonusMode(preset["bonus_mode"]), Payment(preset.get("payment", Payment.PAIRS)))
    except (ValueError, KeyError):
        return ""
    if paid is BonusPaid.ALWAYS:
        return _("every bonus row of a hand set correctly, won, tied or lost")
    if paid is BonusPaid.WON:
        return _("only a row won: a bonus row lost or tied pays nothing, and the Bonus column leaves it out")
    return _("none: the payment is decided by the whole deal")


def unpaid_bonus_note(hand: HandRecord) -> str:
    """The row bonuses a hand held that paid nothing, and why, so that a reader who sees a bonus
    hand without its "+n" in the Bonus column knows ("" when every bonus held was paid: an OFC
    hand, or a Chinese one under `always`)."""
    unpaid = [
        _("{player}'s {row} +{points}").format(player=seat.name, row=str(row.label), points=record.unpaid)
        for seat in hand.seats
        for row, record in zip(ROWS, (seat.front, seat.middle, seat.back), strict=True)
        if record.unpaid
    ]
    if not unpaid:
        return ""
    if hand.whole_deal:
        said = _(
            "Row bonuses are not paid where the payment is decided by the whole deal; not paid here: {rows}"
        )
    else:
        said = _("Row bonuses are paid on rows won; not paid here: {rows}")
    return said.format(rows=", ".join(unpaid))


def chinese_preset_lines(preset: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Label and value of every number the hands were scored with, specials as `dragon 13`."""
    lines: list[tuple[str, Any]] = []
    house = house_variants_of(preset)
    house_words = {} if house is None else house_variant_words(house)
    for key, label in CHINESE_LABELS.items():
        if key not in preset or (key in _REPLACED_BY_SCOOP_COUNT and "scoop_multipliers" in house_words):
            continue
        value = preset[key]
        if key in house_words:
            value = house_words[key]
        elif key == "specials":
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
        if key == "bonus_mode" and (paid := _bonus_paid_words(preset)):
            lines.append((BONUS_PAID_LABEL.message, paid))
    others = [key for key in preset if key not in CHINESE_LABELS and key not in _SHOWN]
    return lines + [
        (
            key.replace("_", " ").capitalize(),
            PRESET_TABLES[key](preset[key]) if key in PRESET_TABLES else preset[key],
        )
        for key in others
    ]


_SHOWN = {"name", "description", "game"}
_REPLACED_BY_SCOOP_COUNT = {"scoop_multiplier", "scoop_all_multiplier"}
"""Ignored where the house multiplies by scoop count (§13): not printed as if they paid."""


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


def chinese_part(seat: SeatResult) -> ChineseSeat | None:
    """A player's Chinese part of a hand in the record, None for another game's."""
    return seat.part if isinstance(seat.part, ChineseSeat) else None


def chinese_seat(seat: ResultSeat) -> ChineseSeat | None:
    """A settled result's Chinese part of one player, None for an OFC player."""
    showdown = showdown_of(seat)
    if showdown is None:
        return None
    return ChineseSeat(
        surrendered=showdown.surrendered,
        declared=showdown.special.value if showdown.special else "",
        misset_reason=(seat.foul_reason or "") if seat.foul else "",
    )


def pair_part(matchup: MatchupRecord) -> ChinesePair:
    """A pair's Chinese part of a hand in the record; no special pass for another game's."""
    return matchup.part if isinstance(matchup.part, ChinesePair) else NO_SPECIAL_PASS


def payment_part(transfer: TransferRecord) -> ChinesePayment:
    """A payment's Chinese part in the record; no purpose nor pass for another game's."""
    return transfer.part if isinstance(transfer.part, ChinesePayment) else NO_PURPOSE


def _why(transfer: TransferRecord, *, passes: bool) -> str:
    payment = payment_part(transfer)
    why = why_words(payment.why, transfer.payer, transfer.payee)
    parts = [_pass_words(payment.settles, why) if payment.settles and passes else why]
    if transfer.capped:
        parts.append(reason_words(transfer.reason))
    return "; ".join(part for part in parts if part)


def _pass_words(settles: str, why: str) -> str:
    if settles == "special":
        return _("special pass: {why}").format(why=why)
    if settles == "rest":
        return _("rest pass: {why}").format(why=why)
    return f"{settles} pass: {why}"
