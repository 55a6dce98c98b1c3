"""The screen matrix in the pseudo-language (issue 29): every marked string is accented, bracketed
`⟦…⟧` and about 40% longer, so a handful of tables walked through their phases at 1366x768 show
what a longer language would cut off and what was never marked.

At each phase, besides what the screen matrix checks (tests/desk/test_screen_matrix.py): no window
or dialog is bigger than the screen; no text the dealer sees is cut short (a `⟦` whose `⟧` is not
shown, or a text wider than its widget); and no text of the desk's window is plain English (any
word of Latin letters that is not data: a player's, the table's or the dealer's name, a preset, a
card). That holds the words the service and the core make too (the turn's counts, why a seat
waits, a Chinese seat's showdown) and those the result stores in English (a row's hand, a foul's
reason, a capped transfer's, what a Chinese payment is for), which the pseudo-language says again
from the data as any other language does (reports/spoken.py). The dialogs' words (desk/dialogs) are
left out of the last check.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator

import pytest
from PySide6.QtWidgets import QAbstractButton, QDialog, QLabel, QLineEdit, QTextBrowser, QWidget

from ofc_desk.desk.entry.panel import HINT_ROOM
from ofc_desk.desk.shell.main_window import MainWindow
from ofc_desk.desk.shell.status_line import StatusLine
from ofc_desk.i18n import Language
from tests.desk.conftest import DEALER, SUPERVISOR, Desk
from tests.desk.screen_states import GAMES, NAMES, PAYMENT_GAMES, PHASES, ScreenGame, walk
from tests.desk.test_screen_matrix import (
    SCREENS,
    dealer_at_work,
    name_of,
    place_window,
    shoot,
    what_does_not_fit,
)

SCREEN = SCREENS["1366x768"]
CASES = [("regular", 4), ("pineapple", 3), ("chinese", 4)]
"""A handful of tables: the most seats OFC and Chinese poker seat, and a pineapple's discards."""
TABLE_NAME = "Table 12 — {game}, high stakes"
DATA_WORDS = {
    *NAMES,
    *TABLE_NAME.replace(",", "").split(),
    DEALER[0],
    SUPERVISOR[0],
    *["standard", "hawaiian", "gardens", "regular", "pineapple", "chinese", "pool", "basic", "jackpot"],
}
"""Words the dealer typed or the record stores, shown as they are in every language."""
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
CARD = re.compile(r"^(?:[2-9TJQKA]|10)[SHDC]$", re.IGNORECASE)
"""A card as shown (`Qh`) or as typed (`qh`)."""


@pytest.fixture
def pseudo_desk(desk_in: Callable[[Language], Desk]) -> Desk:
    """A desk started in the pseudo-language (installed before the window, as at a start)."""
    return desk_in(Language.PSEUDO)


@pytest.mark.usefixtures("english_after")
@pytest.mark.parametrize(
    ("game_name", "players"), CASES, ids=[f"{game}-{players}" for game, players in CASES]
)
def test_a_longer_language_is_never_cut_and_never_english(
    pseudo_desk: Desk, game_name: str, players: int
) -> None:
    desk = pseudo_desk
    game = next(game for game in GAMES if game.name == game_name)
    setup = dataclasses.replace(game.setup(players), name=TABLE_NAME.format(game=game.name))
    assert desk.session.open_new_table(setup) is None
    service = desk.session.controller.service
    assert service is not None
    problems: list[str] = []
    phases = []
    for phase in walk(service, game):
        phases.append(phase)
        with dealer_at_work(desk, phase):
            place_window(desk, SCREEN)
            where = f"{game.name}, {players} players, {phase}"
            found = [*what_does_not_fit(desk, SCREEN, phase), *words_problems(desk)]
            problems += [f"{where}: {problem}" for problem in found]
            shoot(desk, f"pseudo-{game.name}-{players}p-{phase}")
    assert phases == list(PHASES)
    assert not problems, "\n".join(problems)


@pytest.mark.usefixtures("english_after")
@pytest.mark.parametrize("game", PAYMENT_GAMES, ids=[game.name for game in PAYMENT_GAMES])
def test_a_pools_row_winners_and_an_awards_shares_are_never_cut_and_never_english(
    pseudo_desk: Desk, game: ScreenGame
) -> None:
    desk = pseudo_desk
    (players,) = game.players
    setup = dataclasses.replace(game.setup(players), name=TABLE_NAME.format(game=game.name))
    assert desk.session.open_new_table(setup) is None
    service = desk.session.controller.service
    assert service is not None
    problems: list[str] = []
    for phase in walk(service, game):
        if phase == "settlement":
            desk.session.controller.refresh()
            place_window(desk, SCREEN)
            found = [*what_does_not_fit(desk, SCREEN, phase), *words_problems(desk)]
            problems += [f"{game.name}, {phase}: {problem}" for problem in found]
            shoot(desk, f"pseudo-{game.name}-{players}p-{phase}")
    assert not problems, "\n".join(problems)


def words_problems(desk: Desk) -> list[str]:
    dialogs = [dialog for dialog in desk.window.findChildren(QDialog) if dialog.isVisible()]
    problems = []
    for top in (desk.window, *dialogs):
        for name, text, shown in visible_texts(top):
            if not fully_shown(shown):
                problems.append(f"{name} is cut: {text!r} shows as {shown!r}")
            english = english_words(text) if top is desk.window else []
            if english:
                problems.append(f"{name} is plain English ({', '.join(english)}): {text!r}")
    return problems


def visible_texts(top: QWidget) -> Iterator[tuple[str, str, str]]:
    """Each text shown in `top` (its title, menus, labels, buttons, fields, seats), as the dealer
    reads it: (the widget's name, its whole text, what of it is shown)."""
    yield "the window's title", top.windowTitle(), top.windowTitle()
    for menu in top.menus.values() if isinstance(top, MainWindow) else ():
        yield "the menu bar", menu.title(), menu.title()
        for action in menu.actions():
            yield f"the menu {menu.title()!r}", action.text(), action.text()
    for widget in top.findChildren(QWidget):
        if not widget.isVisible() or widget.window() is not top:
            continue
        if isinstance(widget, StatusLine):
            yield "the status line", widget.text(), widget.shown_text()
        elif isinstance(widget, QLabel) and widget.text():
            yield name_of(widget), widget.text(), widget.text() if label_fits(widget) else "…"
        elif isinstance(widget, QAbstractButton) and widget.text():
            words = widget.text().replace("&", "")
            fits = widget.fontMetrics().horizontalAdvance(words) <= widget.contentsRect().width()
            yield name_of(widget), widget.text(), words if fits else "…"
        elif isinstance(widget, QLineEdit) and not widget.text() and widget.placeholderText():
            hint = widget.placeholderText()
            fits = widget.fontMetrics().horizontalAdvance(hint) <= widget.contentsRect().width() - HINT_ROOM
            yield name_of(widget), hint, hint if fits else "…"
        elif isinstance(widget, QTextBrowser):
            yield name_of(widget), widget.toPlainText(), widget.toPlainText()
    for seat in top.felt.seat_widgets if isinstance(top, MainWindow) else ():
        if seat.seat is None or seat.seat.empty:
            continue
        header = seat.header()
        whole_title = f"{seat.seat.seat_number} · {seat.seat.name}"
        yield f"seat {seat.seat.name!r}", whole_title, header.title
        yield f"seat {seat.seat.name!r}", header.right, header.right
        for badge in header.badges:
            yield f"seat {seat.seat.name!r}: a badge", badge.full_text, badge.text
        yield f"seat {seat.seat.name!r}: what a screen reader says", seat.accessibleDescription(), ""


def label_fits(label: QLabel) -> bool:
    width = label.contentsRect().width()
    if label.wordWrap():
        return label.heightForWidth(width) <= label.height() or label.heightForWidth(width) < 0
    return label.fontMetrics().horizontalAdvance(label.text()) <= width


def fully_shown(shown: str) -> bool:
    """No bracket opened and not closed: nothing was cut off its end (or left out, `…`)."""
    return shown != "…" and shown.count("⟦") == shown.count("⟧")


def english_words(text: str) -> list[str]:
    """The words of `text` in plain Latin letters that are no data (every marked word is accented)."""
    words = []
    for word in LATIN_WORD.findall(re.sub(r"<[^<>]*>", " ", text)):
        if word not in DATA_WORDS and not CARD.match(word) and word not in words:
            words.append(word)
    return words
