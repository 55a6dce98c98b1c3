"""The screen matrix (issue 26): every game (OFC regular, pineapple, 2-7 pineapple, Chinese poker)
at every number of players it seats, through every phase a dealer sees (dealing, the showdown's
entry, the settlement, between hands, a voided hand), on a 1366x768 screen and a 1920x1080 one.

Each table is built once and walked through its phases (tests/desk/screen_states.py); at each
phase and screen the real window is checked: its frame fits the screen; no scroll bar runs
sideways anywhere; every transfer, the one-line status line and the card entry are in view; every
badge fits its seat. Each is drawn, and written to test-screenshots/ (git-ignored) when
OFC_DESK_TEST_SCREENSHOTS=1 asks for the screenshots.

Offscreen windows have no frame: the window is given the room a window manager's frame leaves
(`app.FRAME_ALLOWANCE`, measured under openbox), and its size is checked against it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from PySide6.QtCore import QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QDialog, QLabel, QWidget

from ofc_desk.core.cards import FULL_DECK
from ofc_desk.desk.shell.app import FRAME_ALLOWANCE, fit_to_screen
from ofc_desk.desk.table.faces import cards_in_play
from ofc_desk.desk.table.seat_widget import MIN_SCALE
from ofc_desk.service.terms.snapshot import Phase
from tests.desk.conftest import Desk, screenshot
from tests.desk.screen_states import GAMES, PHASES, SIX_PAIRS, ScreenGame, walk
from tests.desk.test_chinese_table import hand_keys

SCREENS = {"1366x768": QSize(1366, 768), "1920x1080": QSize(1920, 1080)}
CASES = [
    pytest.param(game, players, id=f"{game.name}-{players}") for game in GAMES for players in game.players
]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_phase_fits_the_screen(desk: Desk, game: ScreenGame, players: int) -> None:
    setup = dataclasses.replace(game.setup(players), name=f"Table 12 — {game.name}, high stakes")
    assert desk.session.open_new_table(setup) is None
    service = desk.session.controller.service
    assert service is not None
    problems: list[str] = []
    void_shown = True
    phases = []
    for phase in walk(service, game):
        phases.append(phase)
        with dealer_at_work(desk, phase):
            for screen_name, screen in SCREENS.items():
                place_window(desk, screen)
                where = f"{game.name}, {players} players, {phase}, {screen_name}"
                problems += [f"{where}: {problem}" for problem in what_does_not_fit(desk, screen, phase)]
                shoot(desk, f"matrix-{game.name}-{players}p-{phase}-{screen_name}")
        if phase == "voided":
            void_shown = voided_hand_shown(desk)
    assert phases == list(PHASES)
    assert not problems, "\n".join(problems)
    assert void_shown, "the voided hand is not marked VOID on the felt and the status line"


@contextmanager
def dealer_at_work(desk: Desk, phase: str) -> Iterator[None]:
    """The desk at `phase` with what a dealer has on it besides what is recorded: a card staged
    while dealing; at a Chinese showdown the last hand typed whole, whose special the desk offers
    (the dealer then declares it); at an OFC showdown the Fantasyland set's dialog, which opens by
    itself. Afterwards the staged card is taken back (Backspace), the special declared, the
    dialog closed."""
    controller = desk.session.controller
    controller.refresh()
    QApplication.processEvents()  # the Fantasyland set's dialog opens on the event loop's next turn
    chinese = desk.snapshot.variant == "chinese"
    if phase == "dealing":
        desk.type(f"{a_card_not_in_play(desk)} {'f' if chinese else 'm'}")
        assert controller.staged, desk.refusal()
    elif phase == "showdown-entry" and chinese:
        desk.type(hand_keys(SIX_PAIRS))
        assert desk.declare_buttons, desk.refusal()
    yield
    if phase == "dealing":
        while controller.staged:
            desk.qtbot.keyClick(desk.window.entry.line, Qt.Key.Key_Backspace)
    elif phase == "showdown-entry" and chinese:
        desk.qtbot.mouseClick(desk.declare_buttons[0], Qt.MouseButton.LeftButton)
        assert desk.snapshot.phase is Phase.AWAITING_SETTLEMENT, desk.refusal()
    elif phase == "showdown-entry":
        dialog = controller.set_dialog
        assert dialog is not None and dialog.isVisible()
        dialog.reject()


def a_card_not_in_play(desk: Desk) -> str:
    in_play = cards_in_play(desk.snapshot, desk.session.controller.staged)
    return next(str(card) for card in FULL_DECK if str(card) not in in_play)


def place_window(desk: Desk, screen: QSize) -> None:
    """The window as a dealer has it on that screen: on the card room's narrowest, as the desk sizes
    itself (the whole screen, frame included); on a bigger one, maximized."""
    available = QRect(QPoint(0, 0), screen)
    if screen == SCREENS["1366x768"]:
        fit_to_screen(desk.window, available)
    else:
        desk.window.resize(available.marginsRemoved(FRAME_ALLOWANCE).size())
    for _ in range(3):  # a resize lays out, which may ask for another layout
        QApplication.processEvents()


def what_does_not_fit(desk: Desk, screen: QSize, phase: str) -> list[str]:
    window = desk.window
    problems = frame_problems(window, screen)
    dialogs = [d for d in window.findChildren(QDialog) if d.isVisible()]
    problems += [f"the dialog {d.windowTitle()!r}: {p}" for d in dialogs for p in frame_problems(d, screen)]
    for area in [area for widget in (window, *dialogs) for area in widget.findChildren(QAbstractScrollArea)]:
        if area.isVisible() and area.horizontalScrollBar().isVisible():
            problems.append(f"{area.accessibleName() or type(area).__name__} scrolls sideways")
    problems += status_line_problems(desk)
    problems += page_problems(desk, phase)
    problems += badge_problems(desk)
    if desk.window.felt.seat_scale < MIN_SCALE:
        problems.append(f"the seats are painted at {desk.window.felt.seat_scale:.2f} of their size")
    return problems


def frame_problems(widget: QWidget, screen: QSize) -> list[str]:
    frame = widget.size().grownBy(FRAME_ALLOWANCE)
    if frame.width() <= screen.width() and frame.height() <= screen.height():
        return []
    return [f"its frame is {frame.width()}x{frame.height()}, bigger than the screen"]


def status_line_problems(desk: Desk) -> list[str]:
    status = desk.window.status_line
    problems = [] if in_view(desk, status) else ["the status line is out of view"]
    if status.height() >= 2 * status.fontMetrics().lineSpacing():
        problems.append("the status line takes two lines")
    if "…" in status.shown_text():  # more than the table and its rules (in the title) left out
        problems.append(f"the status line is cut: {status.shown_text()!r}")
    return problems


def page_problems(desk: Desk, phase: str) -> list[str]:
    window = desk.window
    entry, settlement, between = window.entry, window.settlement, window.between_hands
    shown: dict[str, tuple[QWidget, ...]] = {
        "dealing": (entry.prompt, entry.line, entry.staged, entry.confirm_button),
        "showdown-entry": (entry.prompt, entry.line, entry.staged, entry.confirm_button),
        "settlement": (
            settlement.title,
            settlement.confirm_button,
            settlement.hold_button,
            settlement.transfers,
        ),
        "between-hands": (between.message, between.deal_button),
        "voided": (between.message, between.deal_button),
    }
    wanted = [*shown[phase], *(desk.declare_buttons if phase == "showdown-entry" else ())]
    problems = [f"{name_of(widget)} is out of view" for widget in wanted if not in_view(desk, widget)]
    problems += [f"{name_of(label)} is cut: {label.text()!r}" for label in wanted if cut_label(label)]
    for button in desk.declare_buttons:
        words = button.text().replace("&", "")
        if button.fontMetrics().horizontalAdvance(words) > button.contentsRect().width():
            problems.append(f"the declare button {words!r} is cut")
    if phase == "settlement":
        transfers = settlement.transfers
        if transfers.document().size().height() > transfers.viewport().height():
            problems.append("the transfers need scrolling")
        details = settlement.details
        if details.document().size().height() > details.viewport().height():
            problems.append("the hands and pairs need scrolling")
    return problems


def badge_problems(desk: Desk) -> list[str]:
    problems = []
    for seat in desk.window.felt.seat_widgets:
        header, to_widget = seat.header(), seat.to_widget()
        taken = [to_widget.mapRect(header.title_box), to_widget.mapRect(header.right_box)]
        for badge in header.badges:
            box = to_widget.mapRect(badge.box)
            name = f"seat {seat.accessibleName()!r}: the badge {badge.full_text!r}"
            if not QRectF(seat.rect()).contains(box):
                problems.append(f"{name} runs off the seat")
            if any(box.intersects(other) for other in taken):
                problems.append(f"{name} runs into the name, the stack or another badge")
            if badge.text != badge.full_text:
                problems.append(f"{name} is cut short to {badge.text!r}")
            taken.append(box)
    return problems


def in_view(desk: Desk, widget: QWidget) -> bool:
    place = QRect(widget.mapTo(desk.window, QPoint(0, 0)), widget.size())
    return widget.isVisible() and desk.window.rect().contains(place)


def cut_label(widget: QWidget) -> bool:
    """A label whose words need more lines than it was given."""
    if not isinstance(widget, QLabel) or not widget.text() or not widget.wordWrap():
        return False
    return widget.heightForWidth(widget.width()) > widget.height()


def name_of(widget: QWidget) -> str:
    return widget.accessibleName() or widget.objectName() or type(widget).__name__


def voided_hand_shown(desk: Desk) -> bool:
    seats = [widget.seat for widget in desk.window.felt.seat_widgets]
    status = desk.status
    return all(seat is not None and seat.voided for seat in seats) and " VOID" in status


def shoot(desk: Desk, name: str) -> None:
    """The window as it is now, for people to look at."""
    screenshot(desk.window, name)
