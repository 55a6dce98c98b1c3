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
    """Offer to resume an open table, or open a new one."""

    def __init__(self, tables: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Open a table"))
        self.setAccessibleName(_("Open a table"))
        self.tables = QListWidget(self)
        self.tables.setAccessibleName(_("Open tables"))
        self.tables.addItems(list(tables))
        if tables:
            self.tables.setCurrentRow(0)
        self.tables.itemActivated.connect(lambda _item: self.accept())
        self.wants_new_table = False
        buttons = QDialogButtonBox(self)
        resume = buttons.addButton(_("Resume"), QDialogButtonBox.ButtonRole.AcceptRole)
        resume.setAccessibleName(_("Resume table"))
        resume.setEnabled(bool(tables))
        new = buttons.addButton(_("New table…"), QDialogButtonBox.ButtonRole.ActionRole)
        new.setAccessibleName(_("New table"))
        new.clicked.connect(self._choose_new)
        # Enter does what the dialog offers: resume the table chosen, or at the first start (no
        # table yet, Resume greyed out) open a new one.
        (resume if tables else new).setDefault(True)
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        cancel.setAccessibleName(_("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        caption = _("Resume an open table, or open a new one:") if tables else _("No open table yet.")
        layout.addWidget(QLabel(caption, self))
        layout.addWidget(self.tables)
        layout.addWidget(buttons)

    def _choose_new(self) -> None:
        self.wants_new_table = True
        self.accept()
