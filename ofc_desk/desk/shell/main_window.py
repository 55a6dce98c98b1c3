"""The desk's main window: layout and menus only (`desk/actions.py` says what the menus hold); the
controllers connect every action."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QSize, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMainWindow, QMenu, QStackedWidget, QVBoxLayout, QWidget

from ofc_desk.desk.shell.status_line import StatusLine
from ofc_desk.desk.shell.theme import DisplayOptions
from ofc_desk.desk.table.felt import FeltView
from ofc_desk.i18n import _

if TYPE_CHECKING:
    from PySide6.QtGui import QAction, QCloseEvent

    from ofc_desk.desk.action_parts import Handler, Menu
    from ofc_desk.desk.actions import ActionKey, Command, Submenu
    from ofc_desk.desk.entry.panel import EntryPanel
    from ofc_desk.desk.entry.picker import CardPicker
    from ofc_desk.desk.hand_end.between_hands import BetweenHandsPanel
    from ofc_desk.desk.hand_end.settlement_panel import SettlementPanel


class MainWindow(QMainWindow):
    ENTRY_PAGE, SETTLEMENT_PAGE, BETWEEN_HANDS_PAGE = range(3)
    closing = Signal()

    entry: EntryPanel
    picker: CardPicker
    settlement: SettlementPanel
    between_hands: BetweenHandsPanel
    menus: dict[Menu, QMenu]
    menu_actions: dict[ActionKey, QAction]
    submenus: dict[Submenu, QMenu]

    def __init__(
        self, options: DisplayOptions, parent: QWidget | None = None, *, complete: bool = True
    ) -> None:
        """With `complete=False` only the status line and the felt are built, so the window can be
        shown at once; `complete()` then adds the entry, the panels and the menus."""
        super().__init__(parent)
        self.setWindowTitle(_("OFC Desk"))
        self.setAccessibleName(_("OFC Desk"))
        self._options = options
        self.status_line = StatusLine(_("No table open — File → New table or Resume table"), self)
        self.status_line.setObjectName("statusLine")
        self.status_line.setAccessibleName(_("Status line"))
        self.requests_line = QLabel("", self)
        self.requests_line.setObjectName("requestsLine")
        self.requests_line.setAccessibleName(_("Requests to the floor"))
        self.requests_line.setWordWrap(True)
        self.requests_line.hide()
        self.felt = FeltView(options, self)
        self.bottom = QStackedWidget(self)
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(10, 6, 10, 8)
        layout.addWidget(self.status_line)
        layout.addWidget(self.requests_line)
        layout.addWidget(self.felt, 1)
        layout.addWidget(self.bottom)
        self.setCentralWidget(central)
        central.installEventFilter(self)
        self.requests_line.installEventFilter(self)
        self._central = central
        self._layout = layout
        self.is_complete = False
        if complete:
            self.complete()

    def complete(self) -> None:
        # Imported here, after the shell is on screen: the `Qt` namespace alone costs tens of ms.
        from PySide6.QtCore import Qt

        from ofc_desk.desk.entry.panel import EntryPanel
        from ofc_desk.desk.entry.picker import CardPicker
        from ofc_desk.desk.hand_end.between_hands import BetweenHandsPanel
        from ofc_desk.desk.hand_end.settlement_panel import SettlementPanel

        if self.is_complete:
            return
        # Each page is made inside the stack that shows it: a widget moved to another parent under
        # the application's style sheet is polished again, and with it everything inside it.
        entry_page = QWidget(self.bottom)
        self.entry = EntryPanel(entry_page)
        self.picker = CardPicker(self._options, entry_page)
        self.settlement = SettlementPanel(self.bottom)
        self.between_hands = BetweenHandsPanel(self.bottom)
        entry_row = QHBoxLayout(entry_page)
        entry_row.setContentsMargins(0, 0, 0, 0)
        entry_row.addWidget(self.entry, 1)
        entry_row.addWidget(self.picker, 0, Qt.AlignmentFlag.AlignTop)
        for page in (entry_page, self.settlement, self.between_hands):
            self.bottom.addWidget(page)
        self._entry_page = entry_page
        self.between_hands.message.setText(
            _("No table open: File → New table (Ctrl+N) or Resume table (Ctrl+O).")
        )
        self.bottom.currentChanged.connect(self._fit_bottom_to_page)
        self.bottom.setCurrentIndex(self.BETWEEN_HANDS_PAGE)
        self._fit_bottom_to_page(self.BETWEEN_HANDS_PAGE)
        self._build_menus()
        self.is_complete = True
        self.fit_felt()

    def show_page(self, page: int) -> None:
        self.bottom.setCurrentIndex(page)
        focus = {
            self.ENTRY_PAGE: self.entry.line,
            self.SETTLEMENT_PAGE: self.settlement.confirm_button,
            self.BETWEEN_HANDS_PAGE: self.between_hands.deal_button,
        }[page]
        focus.setFocus()

    def refusal_line(self) -> QLabel:
        """The refusal line of the page shown (see ofc_desk.desk.refusals)."""
        return {
            self.ENTRY_PAGE: self.entry.refusal,
            self.SETTLEMENT_PAGE: self.settlement.refusal,
            self.BETWEEN_HANDS_PAGE: self.between_hands.refusal,
        }[self.bottom.currentIndex()]

    def refusal_lines(self) -> tuple[QLabel, ...]:
        return (self.entry.refusal, self.settlement.refusal, self.between_hands.refusal)

    def notice_line(self) -> QLabel | None:
        """The line saying what was just done, on the page shown (the settlement has none)."""
        return {self.ENTRY_PAGE: self.entry.notice, self.BETWEEN_HANDS_PAGE: self.between_hands.notice}.get(
            self.bottom.currentIndex()
        )

    def notice_lines(self) -> tuple[QLabel, ...]:
        return (self.entry.notice, self.between_hands.notice)

    def _fit_bottom_to_page(self, index: int) -> None:
        """The bottom area as tall as the page shown, not the tallest page: the felt gets the rest,
        but for the settlement, which gets all the felt does not need (`fit_felt`)."""
        from PySide6.QtWidgets import QSizePolicy

        for page_index in range(self.bottom.count()):
            policy = QSizePolicy.Policy.Preferred if page_index == index else QSizePolicy.Policy.Ignored
            page = self.bottom.widget(page_index)
            if page is not None:
                page.setSizePolicy(policy, policy)
        settling = index == self.SETTLEMENT_PAGE
        self._layout.setStretchFactor(self.felt, 0 if settling else 1)
        self._layout.setStretchFactor(self.bottom, 1 if settling else 0)
        self.bottom.updateGeometry()

    def fit_felt(self) -> None:
        """The seats laid out for the room the window has once the settlement takes what it wants
        (`FeltView.fit`): the same size through the hand, and the settlement below them readable
        without scrolling."""
        if not self.is_complete:
            return
        central = self._central
        margins = self._layout.contentsMargins()
        spacing = self._layout.spacing()
        width = central.width() - margins.left() - margins.right()
        taken = margins.top() + margins.bottom() + self.status_line.sizeHint().height() + 2 * spacing
        if not self.requests_line.isHidden():
            taken += self.requests_line.heightForWidth(width) + spacing
        taken += self.settlement.wanted_height()
        self.felt.fit(QSize(width, central.height() - taken))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        resized = watched is self._central and event.type() == QEvent.Type.Resize
        toggled = event.type() in (QEvent.Type.Show, QEvent.Type.Hide)
        shown_or_hidden = watched is self.requests_line and toggled
        if resized or shown_or_hidden:
            self.fit_felt()
        return super().eventFilter(watched, event)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closing.emit()
        super().closeEvent(event)

    def _build_menus(self) -> None:
        from ofc_desk.desk.shell.menus import build_menus, give_keys_back_when_closed, tie_buttons

        built = build_menus(self.menuBar())
        self.menus, self.menu_actions, self.submenus = built.menus, built.actions, built.submenus
        tie_buttons(self.between_hands.buttons, self.menu_actions)
        give_keys_back_when_closed(self.menuBar())

    def action(self, key: ActionKey) -> QAction:
        """The menu entry of `key` (`desk/actions.py`)."""
        return self.menu_actions[key]

    def handlers(self) -> dict[Command, Handler]:
        """The menu commands the window answers by itself."""
        from ofc_desk.desk.actions import Command

        return {Command.PICKER: self.picker.setVisible}
