"""Settings: database URL (used from the next start), rule presets (read only), zoom, theme, deck."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ofc_desk.core.games import PRESET_LOADERS
from ofc_desk.core.presets import Game, PresetError, preset_names, presets_dir
from ofc_desk.desk.dialogs.attempt import offer_labelled
from ofc_desk.desk.shell.theme import ZOOM_STEPS, DisplayOptions, ThemeName
from ofc_desk.i18n import LazyText, _, lazy_pgettext

THEME_WORDS: dict[ThemeName, LazyText] = {
    ThemeName.DARK: lazy_pgettext("theme", "dark"),
    ThemeName.LIGHT: lazy_pgettext("theme", "light"),
}
"""Every theme in the reader's words (its value is what the settings store)."""


class SettingsDialog(QDialog):
    def __init__(
        self, options: DisplayOptions, database_url: str, in_use_url: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Settings"))
        self.setAccessibleName(_("Settings"))
        self.database_url = QLineEdit(database_url, self)
        self.database_url.setAccessibleName(_("Database URL"))
        self.database_url.setPlaceholderText(_("empty: the default SQLite file"))
        self.zoom = QComboBox(self)
        self.zoom.setAccessibleName(_("Card and text size"))
        self.zoom.addItems([f"{step} %" for step in ZOOM_STEPS])
        nearest = min(ZOOM_STEPS, key=lambda step: abs(step - options.zoom_percent))
        self.zoom.setCurrentIndex(ZOOM_STEPS.index(nearest))
        self.theme = QComboBox(self)
        self.theme.setAccessibleName(_("Theme"))
        offer_labelled(self.theme, THEME_WORDS.items(), options.theme)
        self.four_colour = QCheckBox(_("Four-colour deck (♦ blue, ♣ green)"), self)
        self.four_colour.setAccessibleName(_("Four-colour deck"))
        self.four_colour.setChecked(options.four_colour)
        form = QFormLayout()
        form.addRow(_("Database URL"), self.database_url)
        in_use = _("In use now: {url}\nA new URL is used from the next start.").format(url=in_use_url)
        form.addRow("", QLabel(in_use, self))
        form.addRow(_("Size"), self.zoom)
        form.addRow(_("Theme"), self.theme)
        form.addRow("", self.four_colour)
        self.presets = QListWidget(self)
        self.presets.setAccessibleName(_("Rules presets"))
        self.preset_text = QPlainTextEdit(self)
        self.preset_text.setReadOnly(True)
        self.preset_text.setAccessibleName(_("Preset details"))
        self.presets.currentTextChanged.connect(self._show_preset)
        self.presets.addItems(preset_names())
        splitter = QSplitter(self)
        splitter.addWidget(self.presets)
        splitter.addWidget(self.preset_text)
        splitter.setStretchFactor(1, 3)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setAccessibleName(_("OK"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setAccessibleName(_("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(
            QLabel(_("Rules presets (read only; a table's preset is chosen when it opens):"), self)
        )
        layout.addWidget(splitter, 1)
        layout.addWidget(buttons)
        self.resize(820, 640)
        if self.presets.count():
            self.presets.setCurrentRow(0)

    def chosen_options(self) -> DisplayOptions:
        return DisplayOptions(
            theme=ThemeName(self.theme.currentData()),
            four_colour=self.four_colour.isChecked(),
            zoom_percent=ZOOM_STEPS[self.zoom.currentIndex()],
        )

    def _show_preset(self, name: str) -> None:
        if not name:
            return
        try:
            PRESET_LOADERS[Game.OFC](name)  # refuses a preset the rules core would not accept
            # The shipped file as written (RulesPreset.to_dict() fails on its read-only mappings).
            text = (presets_dir() / f"{name}.json").read_text(encoding="utf-8")
        except (PresetError, OSError) as error:
            text = str(error)
        self.preset_text.setPlainText(text)
