"""The print dialog's Properties page in the desk's language (issue 36): its tabs, paper, layout
and job options come from our catalogs (`QT_WORDS`), as the dialog's first page does; Qt ships no
Vietnamese. Only the paper sizes' names ("A4") stay as Qt gives them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QGroupBox, QLabel, QTabWidget, QWidget
from pytestqt.qtbot import QtBot

from ofc_desk.desk.shell.language import install_language
from ofc_desk.i18n import Language

ENGLISH = {
    "Printer Properties",
    "Page",
    "Job Options",
    "Paper",
    "Page size:",
    "Width:",
    "Height:",
    "Orientation",
    "Portrait",
    "Landscape",
    "Margins",
    "Page Layout",
    "Page &order:",
    "Pages &per sheet:",
    "Millimeters (mm)",
    "Left to Right, Top to Bottom",
    "Job Control",
    "Scheduled &printing:",
    "Banner Pages",
    "Print Immediately",
}
"""Words the page shows in English (the last test checks that it does)."""


def _words_of(dialog: QWidget) -> set[str]:
    """What the reader sees: the title, tabs, group titles, labels, buttons and list items."""
    shown = {dialog.windowTitle()}
    for widget in dialog.findChildren(QWidget):
        if isinstance(widget, QAbstractButton | QLabel):
            shown.add(widget.text())
        elif isinstance(widget, QGroupBox):
            shown.add(widget.title())
        elif isinstance(widget, QTabWidget):
            shown |= {widget.tabText(index) for index in range(widget.count())}
        elif isinstance(widget, QComboBox):
            shown |= {widget.itemText(index) for index in range(widget.count())}
    return shown


def _properties_words(qtbot: QtBot) -> set[str]:
    printer = QPrinter()  # the dialog does not keep it alive
    printing = QPrintDialog(printer)
    qtbot.addWidget(printing)
    printing.show()
    properties = printing.findChild(QAbstractButton, "properties")  # Qt's name for its P&roperties
    assert properties is not None and properties.isEnabled()
    shown: set[str] = set()

    def read_and_close() -> None:
        page = QApplication.activeModalWidget()
        assert page is not None and page is not printing
        shown.update(_words_of(page))
        page.close()

    QTimer.singleShot(0, read_and_close)
    properties.click()  # the page is modal: read and closed from the event loop
    printing.close()
    return shown


@pytest.mark.usefixtures("english_after")
@pytest.mark.parametrize("language", [Language.RU, Language.VI, Language.ZH_CN], ids=lambda lang: lang.value)
def test_the_print_properties_page_speaks_the_desks_language(qtbot: QtBot, language: Language) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    install_language(app, language)
    shown = _properties_words(qtbot)
    assert len(shown) > 20, "the page was read"
    assert not shown & ENGLISH, sorted(shown & ENGLISH)


@pytest.mark.usefixtures("english_after")
def test_in_english_the_page_shows_the_words_we_translate(qtbot: QtBot) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    install_language(app, Language.EN)
    shown = _properties_words(qtbot)
    assert shown >= ENGLISH, sorted(ENGLISH - shown)
