"""The language of a desk or a floor window: chosen, kept in its settings, and given to Qt.

Which one speaks: the language named on the command line (`ofc-desk --lang vi`), else the one
chosen under Settings → Language (kept per machine, the desk and the floor each their own), else
the system's if the desk speaks it, else English. A choice takes effect at the next start.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTranslator
from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import QApplication, QMenu

from ofc_desk.i18n import Language, _, language_asked_for, lazy_pgettext, pgettext, use_language
from ofc_desk.i18n.languages import SOURCE, parse_language

DESK_KEY = "desk/language"
FLOOR_KEY = "floor/language"
OFFERED = (Language.EN, Language.RU, Language.VI, Language.ZH_CN)
PSEUDO_WANTED = "OFC_DESK_PSEUDO"
"""Set (to anything) for a developer's Settings → Language to offer the pseudo-language as well;
`--lang en_XA` speaks it whatever this says."""

# Qt's own words the desk shows: its standard buttons, a text field's context menu, the file and
# print dialogs. Qt ships no Vietnamese, so these are in our catalogs too, under Qt's context
# (QtWords gives them to Qt, before Qt's own files), each with the Latin key of the English.
# Each is written out: Babel extracts a literal string, never a variable.
QT_WORDS = (
    lazy_pgettext("QPlatformTheme", "OK"),
    lazy_pgettext("QPlatformTheme", "Cancel"),
    lazy_pgettext("QPlatformTheme", "Close"),
    lazy_pgettext("QPlatformTheme", "Save"),
    lazy_pgettext("QPlatformTheme", "Apply"),
    lazy_pgettext("QPlatformTheme", "&Yes"),
    lazy_pgettext("QPlatformTheme", "&No"),
    lazy_pgettext("QLineEdit", "&Undo"),
    lazy_pgettext("QLineEdit", "&Redo"),
    lazy_pgettext("QLineEdit", "Cu&t"),
    lazy_pgettext("QLineEdit", "&Copy"),
    lazy_pgettext("QLineEdit", "&Paste"),
    lazy_pgettext("QLineEdit", "Delete"),
    lazy_pgettext("QLineEdit", "Select All"),
    # The file and print dialogs, drawn by Qt (never the system's: `draw_dialogs_ourselves`). Qt's own
    # files leave some out ("&Look in:") and underline Cyrillic keys; these come first.
    lazy_pgettext("QPlatformTheme", "Open"),
    lazy_pgettext("QFileDialog", "&Look in:"),
    lazy_pgettext("QFileDialog", "File &name:"),
    lazy_pgettext("QFileDialog", "Files of &type:"),
    lazy_pgettext("QFileDialog", "&Open"),
    lazy_pgettext("QFileDialog", "&Save"),
    lazy_pgettext("QFileDialog", "&Choose"),
    lazy_pgettext("QFileDialog", "Back"),
    lazy_pgettext("QFileDialog", "Forward"),
    lazy_pgettext("QFileDialog", "Parent Directory"),
    lazy_pgettext("QFileDialog", "Create New Folder"),
    lazy_pgettext("QFileDialog", "List View"),
    lazy_pgettext("QFileDialog", "Detail View"),
    lazy_pgettext("QFileDialog", "&New Folder"),
    lazy_pgettext("QFileDialog", "&Delete"),
    lazy_pgettext("QFileDialog", "&Rename"),
    lazy_pgettext("QFileDialog", "Show &hidden files"),
    lazy_pgettext("QFileDialog", "All Files (*)"),
    lazy_pgettext("QFileSystemModel", "Name"),
    lazy_pgettext("QFileSystemModel", "Size"),
    lazy_pgettext("QFileSystemModel", "Type"),
    lazy_pgettext("QFileSystemModel", "Date Modified"),
    lazy_pgettext("QFileSystemModel", "Computer"),
    lazy_pgettext("QAbstractFileIconProvider", "Folder"),
    lazy_pgettext("QAbstractFileIconProvider", "Drive"),
    lazy_pgettext("QAbstractFileIconProvider", "Unknown"),
    # TRANSLATORS: a file's type in the file dialog; %1 is its suffix: "pdf File".
    lazy_pgettext("QAbstractFileIconProvider", "%1 File"),
    lazy_pgettext("QPrintDialog", "Print"),
    lazy_pgettext("QPrintDialog", "&Print"),
    lazy_pgettext("QPrintDialog", "&Options >>"),
    lazy_pgettext("QPrintDialog", "&Options <<"),
    lazy_pgettext("QPrintDialog", "Local file"),
    lazy_pgettext("QPrintDialog", "Write PDF file"),
    lazy_pgettext("QPrintDialog", "Print to File (PDF)"),
    lazy_pgettext("QPrintDialog", "All Pages"),
    lazy_pgettext("QPrintDialog", "Odd Pages"),
    lazy_pgettext("QPrintDialog", "Even Pages"),
    lazy_pgettext("QPrintWidget", "Printer"),
    lazy_pgettext("QPrintWidget", "&Name:"),
    lazy_pgettext("QPrintWidget", "P&roperties"),
    lazy_pgettext("QPrintWidget", "Location:"),
    lazy_pgettext("QPrintWidget", "Type:"),
    lazy_pgettext("QPrintWidget", "Output &file:"),
    lazy_pgettext("QPrintSettingsOutput", "Copies"),
    lazy_pgettext("QPrintSettingsOutput", "Copies:"),
    lazy_pgettext("QPrintSettingsOutput", "Collate"),
    lazy_pgettext("QPrintSettingsOutput", "Reverse"),
    lazy_pgettext("QPrintSettingsOutput", "Options"),
    lazy_pgettext("QPrintSettingsOutput", "Print range"),
    lazy_pgettext("QPrintSettingsOutput", "Print all"),
    lazy_pgettext("QPrintSettingsOutput", "Pages from"),
    lazy_pgettext("QPrintSettingsOutput", "to"),
    lazy_pgettext("QPrintSettingsOutput", "Current Page"),
    lazy_pgettext("QPrintSettingsOutput", "Selection"),
    lazy_pgettext("QPrintSettingsOutput", "Color Mode"),
    lazy_pgettext("QPrintSettingsOutput", "Color"),
    lazy_pgettext("QPrintSettingsOutput", "Grayscale"),
    lazy_pgettext("QPrintSettingsOutput", "Double Sided Printing"),
    lazy_pgettext("QPrintSettingsOutput", "Off"),
    lazy_pgettext("QPrintSettingsOutput", "Long side binding"),
    lazy_pgettext("QPrintSettingsOutput", "Short side binding"),
    lazy_pgettext("QPrintSettingsOutput", "Page &Set:"),
    lazy_pgettext("QPrintSettingsOutput", "Pages"),
    lazy_pgettext("QPrintSettingsOutput", "Output Settings"),
    # The print dialog's Properties page (its paper, layout and CUPS job options): Qt asks for
    # them as for the first page's words; the paper sizes' names ("A4") stay as Qt gives them.
    lazy_pgettext("QPrintPropertiesDialog", "Printer Properties"),
    lazy_pgettext("QPrintPropertiesDialog", "Job Options"),
    lazy_pgettext("QPrintPropertiesWidget", "Page"),
    lazy_pgettext("QPrintPropertiesWidget", "Advanced"),
    lazy_pgettext("QPrintPropertiesWidget", "There are conflicts in some options. Please fix them."),
    lazy_pgettext("QPageSetupWidget", "Paper"),
    lazy_pgettext("QPageSetupWidget", "Page size:"),
    lazy_pgettext("QPageSetupWidget", "Width:"),
    lazy_pgettext("QPageSetupWidget", "Height:"),
    lazy_pgettext("QPageSetupWidget", "Paper source:"),
    lazy_pgettext("QPageSetupWidget", "Orientation"),
    lazy_pgettext("QPageSetupWidget", "Portrait"),
    lazy_pgettext("QPageSetupWidget", "Landscape"),
    lazy_pgettext("QPageSetupWidget", "Reverse landscape"),
    lazy_pgettext("QPageSetupWidget", "Reverse portrait"),
    lazy_pgettext("QPageSetupWidget", "Margins"),
    lazy_pgettext("QPageSetupWidget", "top margin"),
    lazy_pgettext("QPageSetupWidget", "left margin"),
    lazy_pgettext("QPageSetupWidget", "right margin"),
    lazy_pgettext("QPageSetupWidget", "bottom margin"),
    lazy_pgettext("QPageSetupWidget", "Page Layout"),
    lazy_pgettext("QPageSetupWidget", "Page &order:"),
    lazy_pgettext("QPageSetupWidget", "Pages &per sheet:"),
    lazy_pgettext("QPageSetupWidget", "Millimeters (mm)"),
    lazy_pgettext("QPageSetupWidget", "Inches (in)"),
    lazy_pgettext("QPageSetupWidget", "Points (pt)"),
    lazy_pgettext("QPageSetupWidget", "Custom"),
    lazy_pgettext("QPrintDialog", "Left to Right, Top to Bottom"),
    lazy_pgettext("QPrintDialog", "Left to Right, Bottom to Top"),
    lazy_pgettext("QPrintDialog", "Right to Left, Bottom to Top"),
    lazy_pgettext("QPrintDialog", "Right to Left, Top to Bottom"),
    lazy_pgettext("QPrintDialog", "Bottom to Top, Left to Right"),
    lazy_pgettext("QPrintDialog", "Bottom to Top, Right to Left"),
    lazy_pgettext("QPrintDialog", "Top to Bottom, Left to Right"),
    lazy_pgettext("QPrintDialog", "Top to Bottom, Right to Left"),
    lazy_pgettext("QCupsJobWidget", "Job"),
    lazy_pgettext("QCupsJobWidget", "Job Control"),
    lazy_pgettext("QCupsJobWidget", "Scheduled &printing:"),
    lazy_pgettext("QCupsJobWidget", "&Billing information:"),
    lazy_pgettext("QCupsJobWidget", "Job &priority:"),
    lazy_pgettext("QCupsJobWidget", "Banner Pages"),
    lazy_pgettext("QCupsJobWidget", "&Start:"),
    lazy_pgettext("QCupsJobWidget", "&End:"),
    lazy_pgettext("QCupsJobWidget", "Print Immediately"),
    lazy_pgettext("QCupsJobWidget", "Hold Indefinitely"),
    lazy_pgettext("QCupsJobWidget", "Day (06:00 to 17:59)"),
    lazy_pgettext("QCupsJobWidget", "Night (18:00 to 05:59)"),
    lazy_pgettext("QCupsJobWidget", "Second Shift (16:00 to 23:59)"),
    lazy_pgettext("QCupsJobWidget", "Third Shift (00:00 to 07:59)"),
    lazy_pgettext("QCupsJobWidget", "Weekend (Saturday to Sunday)"),
    lazy_pgettext("QCupsJobWidget", "Specific Time"),
    lazy_pgettext("QCupsJobWidget", "None"),
    lazy_pgettext("QCupsJobWidget", "Standard"),
    lazy_pgettext("QCupsJobWidget", "Unclassified"),
    lazy_pgettext("QCupsJobWidget", "Confidential"),
    lazy_pgettext("QCupsJobWidget", "Classified"),
    lazy_pgettext("QCupsJobWidget", "Secret"),
    lazy_pgettext("QCupsJobWidget", "Top Secret"),
)


def system_language() -> Language:
    """The first language of the system's that the desk speaks, else English."""
    for name in [*QLocale.system().uiLanguages(), QLocale.system().name()]:
        if (language := parse_language(name)) is not None:
            return language
    return SOURCE


def stored_language(settings: QSettings, key: str) -> Language | None:
    return parse_language(str(settings.value(key, "") or ""))


def start_language(settings: QSettings, key: str) -> Language:
    return language_asked_for() or stored_language(settings, key) or system_language()


class QtWords(QTranslator):
    """Qt's strings from our catalogs, consulted before Qt's own files (and the pseudo-language)."""

    def translate(
        self, context: str, source_text: str, disambiguation: str | None = None, n: int = -1
    ) -> str | None:
        # None, not "": Qt takes an empty string as the translation ("Ctrl+%1" would print as "").
        if n >= 0 or not source_text:
            return None  # Qt's "%n" plurals stay with Qt's own files
        translated = pgettext(context, source_text)
        return translated if translated != source_text else None


def draw_dialogs_ourselves() -> None:
    """Qt draws its file and print dialogs itself, in the desk's language: the system's own would
    speak the system's (and Qt's words for Vietnamese come from our catalogs). Said by the desk's
    session and the floor as they build their windows, not with the language before the desk's
    first window: naming the attribute builds every enum of Qt's namespace (about 24 ms), which that
    window does without."""
    from PySide6.QtCore import Qt

    QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs, True)


def install_language(app: QApplication, language: Language) -> None:
    """Speak `language` from now on: our catalogs, Qt's `qtbase_*.qm` where Qt has one (Russian,
    Chinese), and our own catalog's Qt words on top (Vietnamese has no qtbase file)."""
    use_language(language, asked_for=language_asked_for() is language)
    translators: list[QTranslator] = []
    if language is not SOURCE:
        qt_files = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        qtbase = QTranslator(app)
        if qtbase.load(f"qtbase_{language.value}", qt_files):
            translators.append(qtbase)
        translators.append(QtWords(app))
    for translator in translators:
        app.installTranslator(translator)
    app.setProperty("ofc_desk_translators", translators)  # kept alive with the application


def offered_languages() -> tuple[Language, ...]:
    """The languages Settings → Language offers: the pseudo-language only to a developer."""
    return (*OFFERED, Language.PSEUDO) if os.environ.get(PSEUDO_WANTED) else OFFERED


def add_language_menu(menu: QMenu, settings: QSettings, key: str, said: Callable[[str], None]) -> QMenu:
    """Settings → Language: one checkable entry per language, each in its own name; choosing
    one keeps it in `settings` under `key` and says (through `said`) when it applies."""
    submenu = menu.addMenu(_("&Language"))
    group = QActionGroup(submenu)
    current = stored_language(settings, key) or start_language(settings, key)
    for language in offered_languages():
        action = submenu.addAction(language.native_name)
        action.setCheckable(True)
        action.setChecked(language is current)
        action.setData(language.value)
        group.addAction(action)
    group.triggered.connect(lambda action: _choose(settings, key, Language(action.data()), said))
    return submenu


def _choose(settings: QSettings, key: str, language: Language, said: Callable[[str], None]) -> None:
    settings.setValue(key, language.value)
    said(_("Language: {language}, from the next start.").format(language=language.native_name))
