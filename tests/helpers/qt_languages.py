"""The desk's and the floor's tests in another language: English set back after each, and a
window's menu titles as shown."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication, QMainWindow

from ofc_desk.i18n import Language, use_language


@pytest.fixture
def english_after() -> Iterator[None]:
    """The test's language (and Qt's translators) taken away afterwards: English again."""
    yield
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    for translator in app.property("ofc_desk_translators") or []:
        app.removeTranslator(translator)
    use_language(Language.EN)


def menu_titles(window: QMainWindow) -> list[str]:
    return [action.text() for action in window.menuBar().actions()]
