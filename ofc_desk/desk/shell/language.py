"""The language of a desk or a floor window: chosen, kept in its settings, and given to Qt.

Which one speaks: the language named on the command line (`ofc-desk --lang vi`), else the one
chosen under Settings → Language (kept per machine, the desk and the floor each their own), else
the system's if the desk speaks it, else English. A choice takes effect at the next start.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QLibraryInfo, QLocale, QSettings, QTranslator
from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import QApplication, QMenu

from ofc_desk.i18n import Language, _, language_asked_for, lazy_pgettext, pgettext, use_language
from ofc_desk.i18n.languages import SOURCE, parse_language

DESK_KEY = "desk/language"
FLOOR_KEY = "floor/language"
OFFERED = (Language.EN, Language.RU, Language.VI, Language.ZH_CN, Language.PSEUDO)

# Qt's own words the desk shows: its standard buttons and a text field's context menu. Qt ships
# no Vietnamese, so these are in our catalogs too, under Qt's context (QtWords gives them to Qt).
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


def add_language_menu(menu: QMenu, settings: QSettings, key: str, said: Callable[[str], None]) -> QMenu:
    """Settings → Language: one checkable entry per language, each in its own name; choosing
    one keeps it in `settings` under `key` and says (through `said`) when it applies."""
    submenu = menu.addMenu(_("&Language"))
    group = QActionGroup(submenu)
    current = stored_language(settings, key) or start_language(settings, key)
    for language in OFFERED:
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
