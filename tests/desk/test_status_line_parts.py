"""The status line keeps what a dealer looks up to it for (issue 36, point 4): at 1366x768, in every
state of a hand and every language, the line as painted names the table, the preset, the hand and
the dealer; short of room, it leaves out the cards' count, the rest of the rules and the button
first, and cuts nothing."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable

import pytest
from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtGui import QImage, QPainter, QPaintEvent
from PySide6.QtWidgets import QApplication

from ofc_desk.desk.shell.app import fit_to_screen
from ofc_desk.desk.shell.status_line import ALIGN_LEFT_VCENTER, StatusLine, StatusPart
from ofc_desk.desk.table.seat_widget import SeatWidget
from ofc_desk.i18n import Language, _
from tests.desk.conftest import Desk
from tests.desk.screen_states import GAMES, PAYMENT_GAMES, ScreenGame, walk

TABLE = "Jade {number} — jackpot table"
PINEAPPLE = next(game for game in GAMES if game.name == "pineapple")
JACKPOT = next(game for game in PAYMENT_GAMES if game.name == "jackpot")
TABLES: tuple[tuple[ScreenGame, int], ...] = ((PINEAPPLE, 3), (JACKPOT, 4))
"""An OFC table through Fantasyland; a Chinese table whose award is paid from a seeded pool."""
A_THOUSAND = {Language.EN: "1,000", Language.RU: "1\u00a0000", Language.VI: "1.000", Language.ZH_CN: "1,000"}
"""1,000 chips as each language groups them, on the seats as on the status line (the pool)."""


def painted(desk: Desk) -> str:
    QApplication.processEvents()
    return desk.window.status_line.shown_text().replace("\u00a0", " ")


def must_name(desk: Desk) -> list[str]:
    snapshot = desk.snapshot
    number = snapshot.hand_number
    hand = _("Hand {number}").format(number=number) if number else _("No hand yet")
    return [snapshot.table, snapshot.preset, hand, snapshot.dealer]


@pytest.mark.usefixtures("english_after")
@pytest.mark.parametrize("language", [Language.EN, Language.RU, Language.VI, Language.ZH_CN])
def test_the_status_line_names_the_table_preset_hand_and_dealer(
    desk_in: Callable[[Language], Desk], language: Language
) -> None:
    desk = desk_in(language)
    fit_to_screen(desk.window, QRect(QPoint(0, 0), QSize(1366, 768)))
    seen: list[str] = []
    for number, (game, players) in enumerate(TABLES, start=1):
        setup = dataclasses.replace(game.setup(players), name=TABLE.format(number=number))
        assert desk.session.open_new_table(setup) is None
        service = desk.session.controller.service
        assert service is not None
        # Each state as the walk reaches it (the jackpot table's walk seeds the pool first).
        for state in itertools.chain(["opened"], walk(service, game)):
            desk.session.controller.refresh()
            line = painted(desk)
            assert desk.snapshot.dealer, "the desk's dealer is on duty"
            missing = [words for words in must_name(desk) if words not in line]
            assert not missing and "…" not in line, (game.name, state, line, missing)
            seen.append(line)
    desk.screenshot(f"36-status-line-{language.value}")
    assert len(set(seen)) > len(TABLES) * 3  # the line followed the hands
    seats = [seat for seat in desk.window.felt.seat_widgets if seat.seat and seat.seat.stack == 1000]
    assert seats and {seat.header().right for seat in seats} == {A_THOUSAND[language]}
    assert A_THOUSAND[language] in desk.window.status_line.shown_text(), "the room's pool"


def test_a_line_short_of_room_shortens_its_parts_least_needed_first(desk: Desk) -> None:
    line = StatusLine("")
    desk.qtbot.addWidget(line)
    parts = [
        StatusPart("Jade 1"),
        StatusPart("standard pineapple, 1 a point, win-cap", short="standard", order=2),
        StatusPart("Hand 3, street 2: Ann to act"),
        StatusPart("12 seen, 40 left", short="", order=1),
        StatusPart("dealer Dana, button Bob", short="dealer Dana", order=3),
    ]
    line.set_parts(parts)
    assert line.text().replace("\u00a0", " ") == "  ·  ".join(part.full for part in parts)
    shown = []
    for width in range(1600, 100, -10):
        line.resize(width, line.sizeHint().height())
        shown.append(line.shown_text().replace("\u00a0", " "))
    order = [text for index, text in enumerate(shown) if index == 0 or text != shown[index - 1]]
    table, rules, hand, counts, button = (part.full for part in parts)
    assert order[:4] == [
        "  ·  ".join([table, rules, hand, counts, button]),
        "  ·  ".join([table, rules, hand, button]),
        "  ·  ".join([table, "standard", hand, button]),
        "  ·  ".join([table, "standard", hand, "dealer Dana"]),
    ]
    line.setText("Database: sqlite:///room.db — sign in to continue")  # a line set whole is said whole
    line.resize(2000, line.sizeHint().height())
    assert line.shown_text() == line.text()


class StyledLine(StatusLine):
    """The line painted as it was before issue 39.3, by the style's drawItemText."""

    def paintEvent(self, event: QPaintEvent) -> None:
        shown, font = self._fitted()
        painter = QPainter(self)
        painter.setFont(font)
        self.style().drawItemText(
            painter,
            self.contentsRect(),
            ALIGN_LEFT_VCENTER,
            self.palette(),
            True,
            shown,
            self.foregroundRole(),
        )
        painter.end()


def test_the_line_painted_without_the_style_looks_as_the_style_paints_it(desk: Desk) -> None:
    """Issue 39.3: the status line paints its enabled text itself (the style, asked at the launch's
    first paint, cost PySide's QStyle class); in the desk's style sheet, pixel for pixel the same."""
    line = desk.window.status_line
    line.setText("Jade 1  ·  standard pineapple  ·  Hand 3, street 2: Ann to act  ·  dealer Dana")
    styled = StyledLine(line.text(), desk.window)
    styled.setObjectName(line.objectName())  # the same rule of the style sheet
    styled.setGeometry(line.geometry())
    styled.show()
    images: list[QImage] = [widget.grab().toImage() for widget in (line, styled)]
    line.setText("")
    blank = line.grab().toImage()
    assert images[0] != blank  # the words were painted
    assert images[0] == images[1]


def test_a_table_opened_after_another_shows_only_its_own_seats(desk_in: Callable[[Language], Desk]) -> None:
    """The seats of the table before are gone from the felt at once, not when the event loop next
    deletes them (they were painted under the new ones)."""
    desk = desk_in(Language.EN)
    for number, (game, players) in enumerate(TABLES, start=1):
        setup = dataclasses.replace(game.setup(players), name=TABLE.format(number=number))
        assert desk.session.open_new_table(setup) is None
        shown = [seat for seat in desk.window.findChildren(SeatWidget) if seat.isVisible()]
        assert len(shown) == players, (number, len(shown))
