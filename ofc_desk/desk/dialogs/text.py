"""A page of text to read (keyboard reference, verify, about) and the choice of table to open."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)


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
        buttons.button(QDialogButtonBox.StandardButton.Close).setAccessibleName("Close")
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(760, 620)


class ChooseTableDialog(QDialog):
    """Offer to resume an open table, or open a new one."""

    def __init__(self, tables: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Open a table")
        self.setAccessibleName("Open a table")
        self.tables = QListWidget(self)
        self.tables.setAccessibleName("Open tables")
        self.tables.addItems(list(tables))
        if tables:
            self.tables.setCurrentRow(0)
        self.tables.itemActivated.connect(lambda _item: self.accept())
        self.wants_new_table = False
        buttons = QDialogButtonBox(self)
        resume = buttons.addButton("Resume", QDialogButtonBox.ButtonRole.AcceptRole)
        resume.setAccessibleName("Resume table")
        resume.setEnabled(bool(tables))
        new = buttons.addButton("New table…", QDialogButtonBox.ButtonRole.ActionRole)
        new.setAccessibleName("New table")
        new.clicked.connect(self._choose_new)
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        cancel.setAccessibleName("Cancel")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        caption = "Resume an open table, or open a new one:" if tables else "No open table yet."
        layout.addWidget(QLabel(caption, self))
        layout.addWidget(self.tables)
        layout.addWidget(buttons)

    def _choose_new(self) -> None:
        self.wants_new_table = True
        self.accept()
