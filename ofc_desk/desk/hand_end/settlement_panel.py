"""The end of a hand: each pair's breakdown and the ordered chip transfers, then Confirm.

It shows the service's scored result (the core's `HandResult` of the hand) and what Confirm will
leave (the service's `SettlementPreview`: stacks after the rake and an award, the rake per player,
the room's pool) as they are; the desk adds no arithmetic of its own. The hands and pairs are drawn
by the hand's game's part (`DeskGame.settlement_html`), the rake line, the transfers and the
jackpot here for every game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut, QTextDocument
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ofc_desk.core.results import HandResult
from ofc_desk.desk import refusals
from ofc_desk.desk.games import desk_game
from ofc_desk.desk.games.base import TableAsked
from ofc_desk.desk.hand_end.between_hands import press_focused_button
from ofc_desk.desk.refusals import refusal_label
from ofc_desk.desk.shell.theme import PALETTES, DisplayOptions, ThemeName
from ofc_desk.i18n import _
from ofc_desk.service.terms.snapshot import SettlementPreview


@dataclass(frozen=True, slots=True)
class Inks:
    """The two colours the settlement marks with, from the theme: readable on its background."""

    foul: str = PALETTES[ThemeName.DARK].foul
    capped: str = PALETTES[ThemeName.DARK].prompt


HOLD_KEYS = ("Ctrl+Return", "Ctrl+Enter")
QWIDGETSIZE_MAX = (1 << 24) - 1
"""Qt's widest width: a label's height on one line."""
WANTED_LINES = 15
"""Lines of text the settlement wants in view below its title and buttons: four players' hands and
their six pairs; beside them, the page's whole height, six transfers with what each was for."""


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
        self._shown: tuple[int, HandResult, TableAsked | None, SettlementPreview | None] | None = None
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
        self._left = left
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(left, 3)
        layout.addWidget(self.transfers, 2)

    def wanted_height(self) -> int:
        """How tall the page wants to be to show a four-player hand without scrolling (the window
        lays the felt out in the rest: `MainWindow.fit_felt`)."""
        for widget in (self, self.title, self.confirm_button, self.details):
            widget.ensurePolished()
        lines = self._lines_height(WANTED_LINES)
        frame = 2 * self.details.frameWidth() + 2 * int(self.details.document().documentMargin())
        # Everything above the details as laid out (the title, the buttons, the refusal's line and
        # the spacing between them), the title on one line whatever its words: the felt is fitted
        # before the settlement's title is said, and a hint that changed with it cut the last pair.
        rows = [self.title.heightForWidth(QWIDGETSIZE_MAX), self.confirm_button.sizeHint().height()]
        if not self.refusal.isHidden():
            rows.append(max(self.refusal.sizeHint().height(), self.refusal.fontMetrics().lineSpacing()))
        above = sum(rows) + len(rows) * self._left.spacing()
        return above + lines + frame

    def _lines_height(self, count: int) -> int:
        """`count` lines of the page's words as the details draw them: in Chinese the glyphs come
        from a taller fallback font than the one the metrics speak of, and a four-player hand's
        pairs were cut short even on a 1920x1080 screen."""
        sample = QTextDocument()
        sample.setDefaultFont(self.details.font())
        sample.setDocumentMargin(0)
        sample.setPlainText("\n".join([f"Ág {self.title.text()}"] * count))
        return max(self.details.fontMetrics().lineSpacing() * count, math.ceil(sample.size().height()))

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
        table: TableAsked | None = None,
        preview: SettlementPreview | None = None,
    ) -> None:
        """`table`: the table the hand was scored at, which its game's part reads (what a Chinese
        preset pays); `preview`: what
        Confirm will leave (the service's `settlement_preview`): each stack is shown after the
        rake and an award, as the felt will show it."""
        # The lines are loaded at the first hand's end, not with the window: they escape their
        # words with `html`, which loads its entity tables (issue 39.3, ready to type).
        from ofc_desk.desk.hand_end.payment_lines import jackpot_html
        from ofc_desk.desk.hand_end.transfer_lines import transfers_html

        self._shown = (hand_number, result, table, preview)
        self.title.setText(
            _("Hand {number} complete — check and confirm the settlement").format(number=hand_number)
        )
        if preview is not None:
            final = tuple(
                seat._replace(stack_after=preview.stack_after(seat.name, seat.stack_after))
                for seat in result.seats
            )
            result = result._replace(seats=final)
        details = desk_game(result.game).settlement_html(result, table, self.inks.foul)
        details += rake_html(preview)
        self.details.setHtml(details)
        jackpot = preview.jackpot if preview is not None else None
        self.transfers.setHtml(
            transfers_html(result.transfers, self.inks.capped) + jackpot_html(jackpot, before_settling=True)
        )
        refusals.show_on(self.refusal, "")


def rake_html(preview: SettlementPreview | None) -> str:
    """The house's take, player by player, before Confirm: the stacks above are after it."""
    rake = preview.rake if preview is not None else None
    if preview is None or rake is None or not rake.total:
        return ""
    each = ", ".join(f"{name} {chips}" for name, chips in rake.per_player if chips)
    line = _("Rake {total} ({each}); jackpot drop {drop}; jackpot pool {pool}").format(
        total=rake.total, each=each, drop=rake.jackpot, pool=preview.jackpot_pool
    )
    from html import escape  # at a hand's end, as `show_result` loads the lines

    return f"<p>{escape(line)}</p>"


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
