"""The keyboard reference: one table, shown by Help → Keyboard reference and kept in
docs/keyboard.md (a test checks that every line here is there too)."""

from __future__ import annotations

from ofc_desk.desk.games import set_help
from ofc_desk.i18n import LazyText, _, lazy_gettext

KEYS: tuple[tuple[str | LazyText, LazyText], ...] = (
    (
        "qh, 10d, Q♥, AS …",
        lazy_gettext("a card: rank (2–9, T or 10, J, Q, K, A) then suit (s h d c or ♠ ♥ ♦ ♣)"),
    ),
    (lazy_gettext("f  or  1"), lazy_gettext("send the card just typed to the front")),
    (lazy_gettext("m  or  2"), lazy_gettext("send it to the middle")),
    (lazy_gettext("b  or  3"), lazy_gettext("send it to the back")),
    ("x", lazy_gettext("discard the card just typed (pineapple)")),
    ("?", lazy_gettext("a discard nobody saw (unknown, face down)")),
    (
        lazy_gettext("2:  or  bo:"),
        lazy_gettext(
            "before the cards: the seat they are for, by number or the first letters of the name"
            " (`bo: qh f`); refused if it is not that player's turn. Without it: the player on turn."
            " A seat keeps its number all session: after a cash-out, `3:` is still seat 3"
        ),
    ),
    (
        lazy_gettext("s  then Enter"),
        lazy_gettext(
            "Chinese poker: the player whose hand is being entered surrenders (or `3: s` for seat 3)"
        ),
    ),
    (
        "Alt+1, Alt+2 …",
        lazy_gettext("Chinese poker: declare the special offered on that button for the 13 cards typed"),
    ),
    (
        "Enter",
        lazy_gettext("confirm the street with the service (or confirm the settlement / deal the next hand)"),
    ),
    (
        "Ctrl+Enter",
        lazy_gettext("on the settlement: confirm it, deal later (buy-ins, cash-outs, voids first)"),
    ),
    (
        lazy_gettext("Backspace on an empty entry"),
        lazy_gettext(
            "take back the last staged (not yet confirmed) card;"
            " staged cards come back if the desk closes before Enter"
        ),
    ),
    (
        "Esc",
        lazy_gettext(
            "take back every card staged this street (nothing recorded changes) and empty the entry"
        ),
    ),
    (
        "Ctrl+Z",
        lazy_gettext(
            "undo: a staged card first, then the last confirmed entry (the service records the undo)"
        ),
    ),
    ("Ctrl+Shift+Z / Ctrl+Y", lazy_gettext("redo the entry just undone (offered only after an undo)")),
    ("F1", lazy_gettext("this keyboard reference")),
    ("F4", lazy_gettext("show or hide the 52-card picker")),
    ("F5", lazy_gettext("deal the next hand")),
    ("F6", set_help()),
    ("F7 / F8 / F9", lazy_gettext("hand history / chip ledger / audit log")),
    ("Ctrl+N / Ctrl+O", lazy_gettext("new table / resume an open table")),
    ("Ctrl+P", lazy_gettext("session report")),
    ("Ctrl++ / Ctrl+-", lazy_gettext("bigger / smaller cards and text")),
    ("Ctrl+,", lazy_gettext("settings")),
    (
        "Alt+F, Alt+T …",
        lazy_gettext("open a menu by its underlined letter; the entry's underlined letter chooses it"),
    ),
    (
        lazy_gettext("Tab, Enter, Escape in a dialog"),
        lazy_gettext(
            "Tab goes down the fields, then to OK; Enter in any field does what OK does; Escape cancels."
            " A supervisor's name and PIN come last; a refused PIN is selected, to be typed again"
        ),
    ),
    (
        lazy_gettext("Ctrl+S / Ctrl+P in a report's preview"),
        lazy_gettext(
            "save the PDF / print it; Tab reaches every button of the preview, Enter presses it;"
            " Escape closes"
        ),
    ),
    (
        lazy_gettext("Ctrl+F in a record view"),
        lazy_gettext("go to its search box (hand history, chip ledger, audit log)"),
    ),
    (lazy_gettext("Escape / Ctrl+W in a record view"), lazy_gettext("close it")),
)

EXAMPLES = (
    lazy_gettext("First street, five cards: `qh f qd f 10s m 9s m 2c b` then Enter."),
    lazy_gettext("Pineapple street: `ks b 4d m ?` then Enter (the third card was discarded unseen)."),
    lazy_gettext("Cards can be typed one after the other without spaces: `qhf10d2`."),
    lazy_gettext(
        "Chinese poker, a whole hand at showdown: `6s f 6h f 6d f 4s m …` (13 cards) then Enter;"
        " click a seat (or type `3:`) to enter its hand out of turn."
    ),
    lazy_gettext(
        "Naming the seat first: `bo: ks b 4d m x` — if it is Ann's turn the desk says"
        " \"it is Ann's turn, not Bob's\" and keeps the line to be corrected."
    ),
)


def keyboard_markdown() -> str:
    title, keys_word, meaning_word = _("Keyboard reference"), _("keys"), _("what they do")
    lines = [f"# {title}", "", f"| {keys_word} | {meaning_word} |", "|---|---|"]
    lines += [f"| `{keys}` | {meaning} |" for keys, meaning in KEYS]
    lines += ["", "## " + _("Examples"), ""]
    lines += [f"- {example}" for example in EXAMPLES]
    lines += [
        "",
        _(
            "A refusal (a card already in play, a full row, the wrong player) appears in red under the"
            " entry, in the service's words; what you typed stays in the entry to be corrected."
        ),
    ]
    return "\n".join(lines) + "\n"
