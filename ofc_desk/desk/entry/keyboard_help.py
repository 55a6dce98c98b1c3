"""The keyboard reference: one table, shown by Help → Keyboard reference and kept in
docs/keyboard.md (a test checks that every line here is there too)."""

from __future__ import annotations

KEYS: tuple[tuple[str, str], ...] = (
    ("qh, 10d, Q♥, AS …", "a card: rank (2–9, T or 10, J, Q, K, A) then suit (s h d c or ♠ ♥ ♦ ♣)"),
    ("f  or  1", "send the card just typed to the front"),
    ("m  or  2", "send it to the middle"),
    ("b  or  3", "send it to the back"),
    ("x", "discard the card just typed (pineapple)"),
    ("?", "a discard nobody saw (unknown, face down)"),
    (
        "2:  or  bo:",
        "before the cards: the seat they are for, by number or the first letters of the name"
        " (`bo: qh f`); refused if it is not that player's turn. Without it: the player on turn."
        " A seat keeps its number all session: after a cash-out, `3:` is still seat 3",
    ),
    (
        "s  then Enter",
        "Chinese poker: the player whose hand is being entered surrenders (or `3: s` for seat 3)",
    ),
    (
        "Alt+1, Alt+2 …",
        "Chinese poker: declare the special offered on that button for the 13 cards typed",
    ),
    ("Enter", "confirm the street with the service (or confirm the settlement / deal the next hand)"),
    ("Ctrl+Enter", "on the settlement: confirm it, deal later (buy-ins, cash-outs, voids first)"),
    (
        "Backspace on an empty entry",
        "take back the last staged (not yet confirmed) card;"
        " staged cards come back if the desk closes before Enter",
    ),
    ("Esc", "take back every card staged this street (nothing recorded changes) and empty the entry"),
    ("Ctrl+Z", "undo: a staged card first, then the last confirmed entry (the service records the undo)"),
    ("Ctrl+Shift+Z / Ctrl+Y", "redo the entry just undone (offered only after an undo)"),
    ("F1", "this keyboard reference"),
    ("F4", "show or hide the 52-card picker"),
    ("F5", "deal the next hand"),
    ("F6", "Fantasyland set dialog"),
    ("F7 / F8 / F9", "hand history / chip ledger / audit log"),
    ("Ctrl+N / Ctrl+O", "new table / resume an open table"),
    ("Ctrl+P", "session report"),
    ("Ctrl++ / Ctrl+-", "bigger / smaller cards and text"),
    ("Ctrl+,", "settings"),
    ("Alt+F, Alt+T …", "open a menu by its underlined letter; the entry's underlined letter chooses it"),
    (
        "Tab, Enter, Escape in a dialog",
        "Tab goes down the fields, then to OK; Enter in any field does what OK does; Escape cancels."
        " A supervisor's name and PIN come last; a refused PIN is selected, to be typed again",
    ),
    (
        "Ctrl+S / Ctrl+P in a report's preview",
        "save the PDF / print it; Tab reaches every button of the preview, Enter presses it; Escape closes",
    ),
    ("Ctrl+F in a record view", "go to its search box (hand history, chip ledger, audit log)"),
    ("Escape / Ctrl+W in a record view", "close it"),
)

EXAMPLES = (
    "First street, five cards: `qh f qd f 10s m 9s m 2c b` then Enter.",
    "Pineapple street: `ks b 4d m ?` then Enter (the third card was discarded unseen).",
    "Cards can be typed one after the other without spaces: `qhf10d2`.",
    "Chinese poker, a whole hand at showdown: `6s f 6h f 6d f 4s m …` (13 cards) then Enter;"
    " click a seat (or type `3:`) to enter its hand out of turn.",
    "Naming the seat first: `bo: ks b 4d m x` — if it is Ann's turn the desk says"
    " \"it is Ann's turn, not Bob's\" and keeps the line to be corrected.",
)


def keyboard_markdown() -> str:
    lines = ["# Keyboard reference", "", "| keys | what they do |", "|---|---|"]
    lines += [f"| `{keys}` | {meaning} |" for keys, meaning in KEYS]
    lines += ["", "## Examples", ""]
    lines += [f"- {example}" for example in EXAMPLES]
    lines += [
        "",
        "A refusal (a card already in play, a full row, the wrong player) appears in red under the",
        "entry, in the service's words; what you typed stays in the entry to be corrected.",
    ]
    return "\n".join(lines) + "\n"
