"""A page of text to read (keyboard reference, verify, about) and the choice of table to open."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ofc_desk.i18n import _


class TextDialog(QDialog):
    def __init__(self, title: str, markdown: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        self.browser = QTextBrowser(self)
        self.browser.setAccessibleName(title)
        self.browser.setOpenExternalLinks(False)
        self.browser.setMarkdown(markdown)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.button(QDialogButtonBox.StandardButton.Close).setAccessibleName(_("Close"))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(760, 620)


class ChooseTableDialog(QDialog):
    """Offer to resume an open table, or open a new one. `selected` is the row chosen at first (the
    keys are in the list); None chooses none, so Enter opens a new table."""

    def __init__(
        self, tables: Sequence[str], parent: QWidget | None = None, selected: int | None = 0
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Open a table"))
        self.setAccessibleName(_("Open a table"))
        self.tables = QListWidget(self)
        self.tables.setAccessibleName(_("Open tables"))
        self.tables.addItems(list(tables))
        # Each row whole: as wide as the widest (up to the screen), wrapped beyond, never behind a
        # sideways scroll bar.
        self.tables.setWordWrap(True)
        self.tables.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tables.setVisible(bool(tables))
        chosen = selected is not None and 0 <= selected < len(tables)
        if chosen:
            self.tables.setCurrentRow(selected or 0)
        self.tables.itemActivated.connect(lambda _item: self.accept())
        self.wants_new_table = False
        buttons = QDialogButtonBox(self)
        resume = buttons.addButton(_("Resume"), QDialogButtonBox.ButtonRole.AcceptRole)
        resume.setAccessibleName(_("Resume table"))
        resume.setEnabled(chosen)
        self.tables.currentRowChanged.connect(lambda row: resume.setEnabled(row >= 0))
        new = buttons.addButton(_("New table…"), QDialogButtonBox.ButtonRole.ActionRole)
        new.setAccessibleName(_("New table"))
        new.clicked.connect(self._choose_new)
        # Enter does what the dialog offers: resume the table chosen, or at the first start (no
        # table yet, Resume greyed out) open a new one.
        (resume if chosen else new).setDefault(True)
        self._first_keys = self.tables if chosen else new
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        cancel.setAccessibleName(_("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        caption = _("Resume an open table, or open a new one:") if tables else _("No open table yet.")
        layout.addWidget(QLabel(caption, self))
        layout.addWidget(self.tables)
        layout.addWidget(buttons)
        self._fit_rows(buttons)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # The list when a table is chosen (Up and Down choose another, Enter resumes); else New
        # table: the list would choose its first row as it took the keys, the desk's own table.
        self._first_keys.setFocus()

    def _fit_rows(self, buttons: QDialogButtonBox) -> None:
        self.tables.ensurePolished()
        metrics = self.tables.fontMetrics()
        widest = max(
            (metrics.horizontalAdvance(self.tables.item(row).text()) for row in range(self.tables.count())),
            default=0,
        )
        room = widest + 4 * metrics.averageCharWidth() + self.tables.verticalScrollBar().sizeHint().width()
        screen = self.screen().availableGeometry()
        self.resize(
            min(max(room, buttons.sizeHint().width()), screen.width() * 9 // 10), self.sizeHint().height()
        )

    def _choose_new(self) -> None:
        self.wants_new_table = True
        self.accept()
