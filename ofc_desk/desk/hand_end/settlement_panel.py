"""The end of a hand: each pair's breakdown and the ordered chip transfers, then Confirm.

It shows the service's scored result (the core's `HandResult` of the hand) as it is; the desk
adds no arithmetic of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ofc_desk.core.chinese.payment import PaymentRules
from ofc_desk.core.presets import Game
from ofc_desk.core.results import HandResult, JackpotView, ResultPair, ResultSeat
from ofc_desk.core.rows import ROWS
from ofc_desk.desk import refusals
from ofc_desk.desk.hand_end.between_hands import press_focused_button
from ofc_desk.desk.hand_end.chinese_settlement import chinese_details_html
from ofc_desk.desk.hand_end.payment_lines import jackpot_html, payment_html
from ofc_desk.desk.hand_end.transfer_lines import (
    hands_table,
    keep_cell,
    pairs_heading,
    points_words,
    signed,
    transfers_html,
)
from ofc_desk.desk.refusals import refusal_label
from ofc_desk.desk.shell.theme import PALETTES, DisplayOptions, ThemeName
from ofc_desk.desk.table.seat_widget import ROW_LETTERS
from ofc_desk.i18n import _, lazy_pgettext, ngettext, pgettext
from ofc_desk.reports.spoken import foul_words


@dataclass(frozen=True, slots=True)
class Inks:
    """The two colours the settlement marks with, from the theme: readable on its background."""

    foul: str = PALETTES[ThemeName.DARK].foul
    capped: str = PALETTES[ThemeName.DARK].prompt


HOLD_KEYS = ("Ctrl+Return", "Ctrl+Enter")
WANTED_LINES = 15
"""Lines of text the settlement wants in view below its title and buttons: four players' hands and
their six pairs; beside them, the page's whole height, six transfers with what each was for."""
GAP = "&nbsp;" * 3


class SettlementPanel(QWidget):
    """No taller than the card entry it replaces, so the seats keep their size: the title, the
    buttons and the hands and pairs (they scroll) on the left; the chip transfers on the right, the
    whole height, where they are read without scrolling."""

    confirm_requested = Signal()
    confirm_and_hold_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(_("Settlement"), self)
        self.title.setObjectName("prompt")
        self.title.setWordWrap(True)
        self.details = _browser(self, _("Settlement details"))
        self.transfers = _browser(self, _("Chip transfers"))
        self.refusal = refusal_label(self)
        self.inks = Inks()
        self._shown: tuple[int, HandResult, str, PaymentRules | None, JackpotView | None] | None = None
        self.confirm_button = QPushButton(_("Confirm and deal next hand (Enter)"), self)
        self.confirm_button.setAccessibleName(_("Confirm settlement"))
        self.confirm_button.setDefault(True)
        self.confirm_button.clicked.connect(self.confirm_requested)
        self.hold_button = QPushButton(_("Confirm, deal later (Ctrl+Enter)"), self)
        self.hold_button.setAccessibleName(_("Confirm settlement and hold the deal"))
        self.hold_button.setToolTip(_("Settle now; buy-ins, cash-outs and voids first, then deal (F5)"))
        self.hold_button.clicked.connect(self.confirm_and_hold_requested)
        for keys in HOLD_KEYS:
            hold = QShortcut(QKeySequence(keys), self, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
            hold.activated.connect(self.confirm_and_hold_requested)
        for button in (self.confirm_button, self.hold_button):
            button.installEventFilter(self)
        buttons = QHBoxLayout()
        buttons.addWidget(self.hold_button)
        buttons.addWidget(self.confirm_button)
        buttons.addStretch(1)
        left = QVBoxLayout()
        left.setSpacing(2)  # every pixel to the hands' lines: four must show at 1366x768
        left.addWidget(self.title)
        left.addLayout(buttons)
        left.addWidget(self.refusal)
        left.addWidget(self.details, 1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(left, 3)
        layout.addWidget(self.transfers, 2)

    def wanted_height(self) -> int:
        """How tall the page wants to be to show a four-player hand without scrolling (the window
        lays the felt out in the rest: `MainWindow.fit_felt`)."""
        for widget in (self, self.title, self.confirm_button, self.details):
            widget.ensurePolished()
        lines = self.details.fontMetrics().lineSpacing() * WANTED_LINES
        frame = 2 * self.details.frameWidth() + 2 * int(self.details.document().documentMargin())
        return self.title.sizeHint().height() + self.confirm_button.sizeHint().height() + lines + frame + 8

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A focused push button takes Enter with any modifier as its own click: Ctrl+Enter on
        "Confirm and deal" would deal. It holds the deal, as the shortcut says."""
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and _is_hold(event):
            self.confirm_and_hold_requested.emit()
            return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event: Any) -> None:
        if isinstance(event, QKeyEvent) and _is_hold(event):
            self.confirm_and_hold_requested.emit()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if not press_focused_button(self):
                self.confirm_requested.emit()
            return
        super().keyPressEvent(event)

    def set_options(self, options: DisplayOptions) -> None:
        self.inks = Inks(options.palette.foul, options.palette.prompt)
        if self._shown is not None:
            self.show_result(*self._shown)

    def show_result(
        self,
        hand_number: int,
        result: HandResult,
        rake_line: str,
        payment: PaymentRules | None = None,
        jackpot: JackpotView | None = None,
    ) -> None:
        """`payment`: how the table's preset pays (the service's `payment_rules`); `jackpot`: the
        award the hand would be paid if settled now (the service's `jackpot_due`)."""
        self._shown = (hand_number, result, rake_line, payment, jackpot)
        self.title.setText(
            _("Hand {number} complete — check and confirm the settlement").format(number=hand_number)
        )
        if result.game is Game.CHINESE:
            details = payment_html(result.payment, payment) + chinese_details_html(
                result, rake_line, self.inks.foul
            )
        else:
            details = settlement_html(result, rake_line, self.inks)
        self.details.setHtml(details)
        self.transfers.setHtml(
            transfers_html(result.transfers, self.inks.capped) + jackpot_html(jackpot, before_settling=True)
        )
        refusals.show_on(self.refusal, "")


def _is_hold(event: QKeyEvent) -> bool:
    ctrl = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier == Qt.KeyboardModifier.ControlModifier
    return ctrl and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)


def _browser(parent: QWidget, name: str) -> QTextBrowser:
    browser = QTextBrowser(parent)
    browser.setAccessibleName(name)
    browser.setOpenLinks(False)
    # As tall as the page is given, never asking for more: the felt keeps the rest.
    browser.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
    browser.setMinimumHeight(80)
    browser.document().setDocumentMargin(2)
    return browser


def settlement_html(result: HandResult, rake_line: str = "", inks: Inks = Inks()) -> str:
    """The hands and the pairs; the transfers, with why one was capped, have their own view beside
    them."""
    parts = [_players_html(result.seats, inks), _matchups_html(result.pairs)]
    if rake_line:
        parts.append(f"<p>{escape(rake_line)}</p>")
    return "".join(parts)


def _players_html(seats: Sequence[ResultSeat], inks: Inks) -> str:
    """One line a player: the felt above already shows each row's hand and royalty, so the line
    says what the felt does not (a foul's reason, the totals, the stacks) and four players are
    read without scrolling at 1366x768."""
    rows = []
    for seat in seats:
        name = escape(seat.name)
        foul = ""
        if seat.foul:
            foul_word, reason = escape(_("FOUL")), escape(foul_words(seat.foul_reason or ""))
            foul = f"<b style='color:{inks.foul}'>{foul_word}</b> — {reason}"
        count = seat.fantasyland_next
        going = ""
        if count:
            going = ngettext("→ Fantasyland ({count} card)", "→ Fantasyland ({count} cards)", count)
            going = going.format(count=count)
        stacks = f"{seat.stack_before} → <b>{seat.stack_after}</b>"
        royalties = _("royalties {points}").format(points=seat.royalties)
        points = points_words(seat.points)
        rows.append(
            f"<tr><td><b>{name}</b>{GAP}</td><td>{escape(royalties)}{GAP}</td>"
            f"<td align='right'>{escape(points)}{GAP}</td>"
            f"<td align='right'>{stacks}{GAP}</td>"
            f"<td>{escape(going)}{foul}</td></tr>"
        )
    return hands_table(rows)


PAIR_COLUMNS = (
    # The rows by their keys, as the felt labels them: a longer language's words never widen the view.
    *ROW_LETTERS.values(),
    lazy_pgettext("settlement column", "scoop"),
    lazy_pgettext("settlement column", "royalties"),
    lazy_pgettext("settlement column", "foul"),
)


def _matchups_html(pairs: Sequence[ResultPair]) -> str:
    """One line a pair, in columns (each row won or lost, the scoop, royalties, a foul's penalty,
    and who wins how many points): six pairs are read at a glance."""
    heading = "".join(f"<th align='right'>&nbsp;{escape(str(column))}</th>" for column in PAIR_COLUMNS)
    pair_word, result_word = (
        escape(pgettext("settlement column", "pair")),
        escape(pgettext("settlement column", "result")),
    )
    rows = [
        f"<tr><th align='left'>{pair_word}</th>{heading}<th align='left'>&nbsp;&nbsp;{result_word}</th></tr>"
    ]
    for pair in pairs:
        first, second = escape(pair.first), escape(pair.second)
        points = pair.points
        summary = (
            _("{player} wins {points}").format(player=first, points=points) if points > 0
            else _("{player} wins {points}").format(player=second, points=-points) if points < 0
            else _("even")
        )  # fmt: skip
        figures: list[int | None] = [*(pair.rows or (None,) * len(ROWS))]
        figures += [pair.scoop, pair.royalties, pair.foul_penalty]
        cells = "".join(keep_cell(f"&nbsp;{signed(value) if value else ''}", "right") for value in figures)
        result = f"&nbsp;&nbsp;<b>{summary}</b> × {pair.unit}"
        rows.append(f"<tr>{keep_cell(f'<b>{first} – {second}</b>')}{cells}{keep_cell(result)}</tr>")
    return pairs_heading() + "<table cellpadding='1' cellspacing='0'>" + "".join(rows) + "</table>"
