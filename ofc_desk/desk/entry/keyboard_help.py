"""The keyboard reference: one table, shown by Help → Keyboard reference and kept in
docs/keyboard.md (a test checks that every line here is there too). Each game's part gives its own
lines and examples (`DeskGame.card_keys`, `help_keys`, `help_examples`, F6's `set_words`): the
reference is put together when asked, so a game registered later brings its own. At a table it has
the lines of the table's game and variant only; before any table, every game's."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ofc_desk.desk.games import DESK_GAMES, first_game, set_words
from ofc_desk.desk.games.base import DeskGame, HelpLine
from ofc_desk.i18n import LazyText, _, lazy_gettext

if TYPE_CHECKING:
    from ofc_desk.service.front.table_service import TableService

ENTRY_KEYS = (
    HelpLine(
        "qh, 10d, Q♥, AS …",
        lazy_gettext("a card: rank (2–9, T or 10, J, Q, K, A) then suit (s h d c or ♠ ♥ ♦ ♣)"),
    ),
    HelpLine(lazy_gettext("f  or  1"), lazy_gettext("send the card just typed to the front")),
    HelpLine(lazy_gettext("m  or  2"), lazy_gettext("send it to the middle")),
    HelpLine(lazy_gettext("b  or  3"), lazy_gettext("send it to the back")),
)
"""The card entry's keys of a card and its row, every game's; the games' keys of a card follow."""

SEAT_KEYS = (
    HelpLine(
        lazy_gettext("2:  or  bo:"),
        lazy_gettext(
            "before the cards: the seat they are for, by number or the first letters of the name"
            " (`bo: qh f`); refused if it is not that player's turn. Without it: the player on turn."
            " A seat keeps its number all session: after a cash-out, `3:` is still seat 3"
        ),
    ),
)
"""The card entry's key of a seat, every game's; the games' own keys come after it."""

CONFIRM_KEYS = (
    HelpLine(
        "Enter",
        lazy_gettext(
            "confirm the turn's cards with the service (or confirm the settlement / deal the next hand)"
        ),
    ),
    HelpLine(
        "Ctrl+Enter",
        lazy_gettext("on the settlement: confirm it, deal later (buy-ins, cash-outs, voids first)"),
    ),
    HelpLine(
        lazy_gettext("Backspace on an empty entry"),
        lazy_gettext(
            "take back the last staged (not yet confirmed) card;"
            " staged cards come back if the desk closes before Enter"
        ),
    ),
    HelpLine(
        "Esc",
        lazy_gettext("take back every card staged this turn (nothing recorded changes) and empty the entry"),
    ),
    HelpLine(
        "Ctrl+Z",
        lazy_gettext(
            "undo: a staged card first, then the last confirmed entry (the service records the undo)"
        ),
    ),
    HelpLine(
        "Ctrl+Shift+Z / Ctrl+Y", lazy_gettext("redo the entry just undone (offered only after an undo)")
    ),
    HelpLine("F1", lazy_gettext("this keyboard reference")),
    HelpLine("F4", lazy_gettext("show or hide the 52-card picker")),
    HelpLine("F5", lazy_gettext("deal the next hand")),
)
"""From Enter to F5: what is confirmed, taken back, asked for; F6 (a game's, `set_words`) follows."""

WINDOW_KEYS = (
    HelpLine("F7 / F8 / F9", lazy_gettext("hand history / chip ledger / audit log")),
    HelpLine("Ctrl+N / Ctrl+O", lazy_gettext("new table / resume an open table")),
    HelpLine("Ctrl+P", lazy_gettext("session report")),
    HelpLine("Ctrl++ / Ctrl+-", lazy_gettext("bigger / smaller cards and text")),
    HelpLine("Ctrl+,", lazy_gettext("settings")),
    HelpLine(
        "Alt+F, Alt+T …",
        lazy_gettext("open a menu by its underlined letter; the entry's underlined letter chooses it"),
    ),
    HelpLine(
        lazy_gettext("Tab, Enter, Escape in a dialog"),
        lazy_gettext(
            "Tab goes down the fields, then to OK; Enter in any field does what OK does; Escape cancels."
            " A supervisor's name and PIN come last; a refused PIN is selected, to be typed again"
        ),
    ),
    HelpLine(
        lazy_gettext("Ctrl+S / Ctrl+P in a report's preview"),
        lazy_gettext(
            "save the PDF / print it; Tab reaches every button of the preview, Enter presses it;"
            " Escape closes"
        ),
    ),
    HelpLine(
        lazy_gettext("Ctrl+F in a record view"),
        lazy_gettext("go to its search box (hand history, chip ledger, audit log)"),
    ),
    HelpLine(lazy_gettext("Escape / Ctrl+W in a record view"), lazy_gettext("close it")),
)

TYPED_TOGETHER = lazy_gettext("Cards can be typed one after the other without spaces: `qhf10d2`.")
SEAT_NAMED = lazy_gettext(
    "Naming the seat first: `bo: ks b 4d m` — if it is Ann's turn the desk says"
    " \"it is Ann's turn, not Bob's\" and keeps the line to be corrected."
)


def keyboard_keys(game: DeskGame | None = None, service: TableService | None = None) -> tuple[HelpLine, ...]:
    """The reference's lines at a table of `game` (its service's variant's), or before any table
    (`game` None) every game's in the New table's order: the card entry's with the games' keys of a
    card among them, the games' own, then the rest with F6's line among them (a game with a set's)."""
    parts = _parts(game)
    card_keys = (line for part in parts for line in part.card_keys(service))
    games_keys = (line for part in parts for line in part.help_keys(service))
    set_line = set_words() if game is None else game.set_words
    set_keys = () if set_line is None else (HelpLine("F6", set_line.help),)
    return (*ENTRY_KEYS, *card_keys, *SEAT_KEYS, *games_keys, *CONFIRM_KEYS, *set_keys, *WINDOW_KEYS)


def keyboard_examples(
    game: DeskGame | None = None, service: TableService | None = None
) -> tuple[LazyText, ...]:
    """At a table, its game's examples; before any table, the first game's (the entry's), then
    cards typed together (as the first game's run), the other games' examples, and a seat named first
    (any game's line)."""
    lead = first_game() if game is None else game
    others = (example for part in _parts(game) if part is not lead for example in part.help_examples(service))
    return (*lead.help_examples(service), TYPED_TOGETHER, *others, SEAT_NAMED)


def _parts(game: DeskGame | None) -> Iterable[DeskGame]:
    return DESK_GAMES.values() if game is None else (game,)


def keyboard_markdown(game: DeskGame | None = None, service: TableService | None = None) -> str:
    """The reference as shown at a table of `game` (its service's variant's), or before any table."""
    title, keys_word, meaning_word = _("Keyboard reference"), _("keys"), _("what they do")
    lines = [f"# {title}", "", f"| {keys_word} | {meaning_word} |", "|---|---|"]
    lines += [f"| `{keys}` | {meaning} |" for keys, meaning in keyboard_keys(game, service)]
    lines += ["", "## " + _("Examples"), ""]
    lines += [f"- {example}" for example in keyboard_examples(game, service)]
    lines += [
        "",
        _(
            "A refusal (a card already in play, a full row, the wrong player) appears in red under the"
            " entry, in the service's words; what you typed stays in the entry to be corrected."
        ),
    ]
    return "\n".join(lines) + "\n"
