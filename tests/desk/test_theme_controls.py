"""Controls a dealer must read at a glance in either theme: a tick box, checked or not."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QCheckBox
from pytestqt.qtbot import QtBot

from ofc_desk.desk.shell.theme import DisplayOptions, ThemeName, application_stylesheet
from tests.desk.test_record_views import contrast


def indicator_colours(box: QCheckBox) -> set[str]:
    """The colours painted in the tick box's indicator, the square left of its text."""
    image = box.grab().toImage()
    side = min(image.height(), 24)
    return {image.pixelColor(x, y).name() for x in range(side) for y in range(image.height())}


@pytest.mark.parametrize("theme", list(ThemeName))
def test_a_tick_box_shows_its_edge_and_its_state_in_both_themes(theme: ThemeName, qtbot: QtBot) -> None:
    options = DisplayOptions(theme=theme)
    colours = options.palette
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    before = app.styleSheet()
    app.setStyleSheet(application_stylesheet(options))
    try:
        box = QCheckBox("Progressive Fantasyland")
        qtbot.addWidget(box)
        box.show()
        unchecked = indicator_colours(box)
        box.setChecked(True)
        checked = indicator_colours(box)
    finally:
        app.setStyleSheet(before)
    # The edge stands out from the window as WCAG asks of a control's boundary (3:1)...
    assert QColor(colours.text).name() in unchecked
    assert contrast(QColor(colours.text), QColor(colours.window)) >= 3
    # ...and a checked box is filled where an unchecked one is not.
    assert QColor(colours.turn).name() in checked - unchecked
