"""A session record's words in the report's language: its adjustments' and chip transactions'
kinds, the hands each dealer dealt and the signature lines. Apart from `spoken`, whose words the
desk draws on the felt: a desk resuming a table never loads the session record (`record`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ofc_desk.i18n import LazyText, _, lazy_gettext
from ofc_desk.reports.record import AdjustmentKind, ChipKind, SessionRecord
from ofc_desk.reports.spoken import speaks_as_stored

ADJUSTMENT_WORDS: dict[AdjustmentKind, LazyText] = {
    AdjustmentKind.VOID: lazy_gettext("void"),
    AdjustmentKind.CORRECTION: lazy_gettext("chip correction"),
    AdjustmentKind.UNDO: lazy_gettext("undo"),
    AdjustmentKind.RULES_CHANGE: lazy_gettext("rules change"),
    AdjustmentKind.REQUEST: lazy_gettext("floor request"),
    AdjustmentKind.HAND_CORRECTION: lazy_gettext("hand correction"),
}


def kind_words(kind: ChipKind | AdjustmentKind) -> str:
    """A chip transaction's or an adjustment's kind as the report says it ('correction' is the
    chip ledger's word; the report has always said 'correction' there, so English keeps it)."""
    if speaks_as_stored():
        return str(kind)
    if isinstance(kind, ChipKind):
        return str(kind.said.label)
    words = ADJUSTMENT_WORDS.get(kind)
    return str(words) if words is not None else str(kind)


def hands_words(hands: Sequence[int]) -> str:
    """'hands 1–6, 9', 'hand 7', or 'no hand', in the active language."""
    if not hands:
        return _("no hand")
    runs: list[list[int]] = []
    for number in hands:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    spans = ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in runs)
    # One hand or a list of them, not a count: Russian's plural forms would name 21 hands as one.
    return (_("hand {hands}") if len(hands) == 1 else _("hands {hands}")).format(hands=spans)


def dealers_words(record: SessionRecord) -> str:
    """ "Dana (hands 1–6), Rita (hands 6–13)": who dealt which hands."""
    if not record.dealer_hands:
        return ", ".join(record.dealers)
    return ", ".join(f"{shift.dealer} ({hands_words(shift.hands)})" for shift in record.dealer_hands)


def signing_roles(record: SessionRecord) -> list[tuple[str, str]]:
    """The signature lines: one for each dealer, saying which hands they sign for, then the floor
    supervisors'."""
    dealers = [
        (_("Dealer, {hands}").format(hands=hands_words(shift.hands)), shift.dealer)
        for shift in record.dealer_hands
    ]
    return [
        *(dealers or [(_("Dealer"), ", ".join(record.dealers))]),
        (_("Floor supervisor"), ", ".join(record.supervisors)),
    ]
