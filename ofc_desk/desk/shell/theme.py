"""Colours, sizes and the stored display settings of the desk.

Built for casino lighting: a calm dark-green felt, white card faces with big ranks, one loud
colour (amber) reserved for whose turn it is and one (red) for refusals and fouls.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

ZOOM_STEPS = (80, 90, 100, 115, 130, 150, 175, 200)
DEFAULT_ZOOM = 100


class ThemeName(StrEnum):
    DARK = "dark"
    LIGHT = "light"


@dataclass(frozen=True, slots=True)
class Palette:
    """The colours of one theme, as the style sheet and the felt's painting name them."""

    window: str
    text: str
    muted: str
    felt: str
    felt_rim: str
    seat: str
    seat_text: str
    turn: str
    turn_text: str
    prompt: str
    """Whose turn, in words on the window's background: the turn's amber, darker where that is light."""
    slot: str
    card: str
    card_edge: str
    card_back: str
    refusal: str
    ok: str
    foul: str
    game_mark: str
    """A game's own badge on a seat (`seatface.SeatMarks`), whichever game's."""
    button_disc: str
    input_bg: str
    alternate_row: str
    """Every other row of a table (the record views), a shade off `input_bg`."""
    disabled: str
    """What cannot be used now (a greyed menu entry, button or box): still legible, plainly dimmer
    than the muted text of what can."""


PALETTES: dict[ThemeName, Palette] = {
    ThemeName.DARK: Palette(
        window="#15181c", text="#f2f2ee", muted="#a9b0b6", felt="#1d5a3c", felt_rim="#0f3524",
        seat="#22272d", seat_text="#f2f2ee", turn="#ffb300", turn_text="#1a1300", prompt="#ffb300",
        slot="#3a434c", card="#fbfbf7", card_edge="#c9c9c0", card_back="#2d4a8a",
        refusal="#ff6b5e", ok="#7ddc8a", foul="#ff4d3d", game_mark="#c78bff",
        button_disc="#fbfbf7", input_bg="#0d0f12",
        alternate_row="#1d2228", disabled="#5c646c",
    ),
    ThemeName.LIGHT: Palette(
        window="#eef0ec", text="#111416", muted="#4d565e", felt="#2e7d52", felt_rim="#1d5a3c",
        seat="#ffffff", seat_text="#111416", turn="#ffb300", turn_text="#1a1300", prompt="#8a5a00",
        slot="#d3d8dc", card="#ffffff", card_edge="#7b8186", card_back="#2d4a8a",
        refusal="#c0271a", ok="#1e7a32", foul="#d42414", game_mark="#7b2fc0",
        button_disc="#ffffff", input_bg="#ffffff",
        alternate_row="#e9edf0", disabled="#9aa1a7",
    ),
}  # fmt: skip

TWO_COLOUR_SUITS = {"s": "#111111", "h": "#d0021b", "d": "#d0021b", "c": "#111111"}
FOUR_COLOUR_SUITS = {"s": "#111111", "h": "#d0021b", "d": "#0b5ed7", "c": "#138a36"}


@dataclass(frozen=True, slots=True)
class DisplayOptions:
    """The dealer's display settings: theme, four-colour deck and zoom."""

    theme: ThemeName = ThemeName.DARK
    four_colour: bool = True
    zoom_percent: int = DEFAULT_ZOOM

    @property
    def palette(self) -> Palette:
        return PALETTES[self.theme]

    @property
    def suit_colours(self) -> dict[str, str]:
        return FOUR_COLOUR_SUITS if self.four_colour else TWO_COLOUR_SUITS

    def scaled(self, pixels: int) -> int:
        return max(1, pixels * self.zoom_percent // 100)

    def zoomed(self, steps: int) -> DisplayOptions:
        """One step bigger (+1) or smaller (-1) along ZOOM_STEPS."""
        nearest = min(range(len(ZOOM_STEPS)), key=lambda i: abs(ZOOM_STEPS[i] - self.zoom_percent))
        index = max(0, min(len(ZOOM_STEPS) - 1, nearest + steps))
        return replace(self, zoom_percent=ZOOM_STEPS[index])


def application_stylesheet(options: DisplayOptions) -> str:
    colours = options.palette
    base = options.scaled(15)
    return f"""
    QWidget {{ background: {colours.window}; color: {colours.text}; font-size: {base}px; }}
    QLineEdit, QSpinBox, QComboBox, QTableView, QListView, QPlainTextEdit, QTextBrowser {{
        background: {colours.input_bg}; color: {colours.text};
        border: 1px solid {colours.muted}; padding: 4px; }}
    QTableView {{ alternate-background-color: {colours.alternate_row};
        selection-background-color: {colours.turn}; selection-color: {colours.turn_text}; }}
    QLineEdit#cardEntry {{ font-size: {options.scaled(26)}px; font-weight: 600; padding: 6px;
        border: 2px solid {colours.turn}; }}
    QLineEdit#setEntry {{ font-size: {options.scaled(22)}px; font-weight: 600; padding: 4px; }}
    QLineEdit#setEntry:focus {{ padding: 3px; }}
    QLabel#refusal {{ color: {colours.refusal}; font-size: {options.scaled(18)}px; font-weight: 600; }}
    QLabel#notice {{ color: {colours.ok}; font-size: {options.scaled(18)}px; font-weight: 600; }}
    QLabel#statusLine {{ font-size: {options.scaled(16)}px; font-weight: 600; }}
    QLabel#requestsLine {{ font-size: {options.scaled(16)}px; font-weight: 600; color: {colours.prompt}; }}
    QLabel#prompt {{ font-size: {options.scaled(20)}px; font-weight: 700; color: {colours.prompt}; }}
    QLabel#staged {{ font-size: {options.scaled(18)}px; color: {colours.muted}; }}
    QPushButton, QToolButton {{ background: {colours.seat}; color: {colours.text};
        border: 1px solid {colours.muted}; padding: 5px 10px; }}
    QHeaderView::section {{ background: {colours.seat}; color: {colours.text}; padding: 4px; }}
    QCheckBox::indicator {{ width: {options.scaled(16)}px; height: {options.scaled(16)}px;
        border: 2px solid {colours.text}; background: {colours.input_bg}; }}
    QCheckBox::indicator:checked {{ background: {colours.turn}; border-color: {colours.text}; }}
    QMenuBar::item:selected, QMenu::item:selected {{
        background: {colours.turn}; color: {colours.turn_text}; }}
    {_focus_marks(colours)}
    {_disabled_look(colours)}
    """


def _focus_marks(colours: Palette) -> str:
    """Where the keys go, in the turn's amber on every widget that takes them: a dealer who tabs
    through a dialog sees which field, box or button Enter and the arrows act on. The thicker
    border takes a pixel of padding, so nothing moves when the keys move on."""
    return f"""
    QLineEdit:focus, QSpinBox:focus, QComboBox:focus, QTableView:focus, QListView:focus,
    QPlainTextEdit:focus, QTextBrowser:focus {{ border: 2px solid {colours.turn}; padding: 3px; }}
    QPushButton:focus, QToolButton:focus {{ border: 2px solid {colours.turn}; padding: 4px 9px; }}
    QCheckBox:focus {{ color: {colours.prompt}; }}
    QCheckBox::indicator:focus {{ border-color: {colours.turn}; }}
    """


def _disabled_look(colours: Palette) -> str:
    """What cannot be used now is dimmed wherever it is: a menu entry, a button, a box, a field.
    (Qt's own greying is lost under a style sheet that sets every widget's colour.)"""
    return f"""
    QWidget:disabled {{ color: {colours.disabled}; }}
    QMenuBar::item:disabled, QMenu::item:disabled {{ color: {colours.disabled}; }}
    QPushButton:disabled, QToolButton:disabled, QLineEdit:disabled, QSpinBox:disabled,
    QComboBox:disabled {{ color: {colours.disabled}; border-color: {colours.disabled}; }}
    QCheckBox:disabled {{ color: {colours.disabled}; }}
    QCheckBox::indicator:disabled {{ border-color: {colours.disabled}; background: {colours.window}; }}
    """


def use_stylesheet(app: QApplication, options: DisplayOptions) -> None:
    """Give the application the style sheet for `options`, unless it has it already: Qt
    repolishes every widget at each call, even for the sheet it has."""
    sheet = application_stylesheet(options)
    if app.styleSheet() != sheet:
        app.setStyleSheet(sheet)


class DisplaySettingsStore:
    """Display options and the database URL, kept in the user's Qt settings."""

    def __init__(self, settings: QSettings | None = None) -> None:
        self._settings = settings or QSettings("OFC Desk", "ofc-desk")

    @property
    def settings(self) -> QSettings:
        """The settings file itself, which the desk's other stores share."""
        return self._settings

    def load(self) -> DisplayOptions:
        theme_text = str(self._settings.value("display/theme", ThemeName.DARK.value))
        theme = ThemeName(theme_text) if theme_text in set(ThemeName) else ThemeName.DARK
        four = str(self._settings.value("display/four_colour", "true")).lower() == "true"
        try:
            zoom = int(str(self._settings.value("display/zoom_percent", DEFAULT_ZOOM)))
        except ValueError:
            zoom = DEFAULT_ZOOM
        return DisplayOptions(theme, four, max(ZOOM_STEPS[0], min(ZOOM_STEPS[-1], zoom)))

    def save(self, options: DisplayOptions) -> None:
        self._settings.setValue("display/theme", options.theme.value)
        self._settings.setValue("display/four_colour", "true" if options.four_colour else "false")
        self._settings.setValue("display/zoom_percent", options.zoom_percent)

    def database_url(self) -> str:
        return str(self._settings.value("database/url", "") or "")

    def save_database_url(self, url: str) -> None:
        self._settings.setValue("database/url", url)
