"""The one QApplication of a desk or a floor, named and with its icon, under a UTF-8 locale: apart
from the desk's window (`shell.app`), so the floor makes its application without loading the desk's
main window, felt and status line before it lists the room (issue 39, point 3)."""

from __future__ import annotations

import contextlib
import locale
import os
import sys
from collections.abc import MutableMapping

from PySide6.QtGui import QFontDatabase, QIcon
from PySide6.QtWidgets import QApplication

import ofc_desk.desk.pyside_features  # noqa: F401  (before the rest of ofc_desk)
from ofc_desk.core.resources import WIDE_FONT_FILE, resources_dir

_WIDE_FONT_OFFERED = "ofc_desk_wide_font_offered"


def application() -> QApplication:
    existing = QApplication.instance()
    if not isinstance(existing, QApplication):
        use_a_utf8_locale(os.environ)
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    _identify(app)
    return app


def use_a_utf8_locale(environment: MutableMapping[str, str]) -> None:
    """Qt needs a UTF-8 locale: under a plain one (`LC_ALL=C`, or no LANG where Python does not
    make it UTF-8 by itself) it warns on every start and switches to C.UTF-8 alone. Said first:
    the characters in UTF-8, the language (what LC_ALL or LANG named) left as it was."""
    chosen = environment.get("LC_ALL") or environment.get("LC_CTYPE") or environment.get("LANG", "")
    if ".utf8" in chosen.lower().replace("-", ""):
        return
    language = environment.pop("LC_ALL", "")  # it would beat LC_CTYPE
    if language not in ("", "C", "POSIX"):
        environment["LC_MESSAGES"] = language
    environment["LC_CTYPE"] = "C.UTF-8"
    with contextlib.suppress(locale.Error):  # also when the language's own locale is not installed
        locale.setlocale(locale.LC_CTYPE, "C.UTF-8")


def _identify(app: QApplication) -> None:
    """Name and icon, also on an application someone else made (a test runner's)."""
    app.setApplicationName("OFC Desk")
    app.setOrganizationName("OFC Desk")
    # Matches resources/ofc-desk.desktop, so Wayland and the menu entry pair the window with it.
    app.setDesktopFileName("ofc-desk")
    if app.windowIcon().isNull():
        icon = resources_dir() / "icons" / "ofc-desk-256.png"
        if icon.is_file():
            app.setWindowIcon(QIcon(str(icon)))
    _offer_the_wide_font(app)


def _offer_the_wide_font(app: QApplication) -> None:
    """Offers Qt the shipped font with Chinese as a fallback, so the zh_CN desk and a player's
    name written in Chinese (in any language) draw on a machine with no CJK font of its own
    instead of as empty boxes. The system's fonts stay first: Qt turns to it only for characters
    they lack. Once an application (the font is the application's; about 4 ms)."""
    if app.property(_WIDE_FONT_OFFERED):
        return
    font = resources_dir() / "fonts" / WIDE_FONT_FILE
    if font.is_file():
        QFontDatabase.addApplicationFont(str(font))
    app.setProperty(_WIDE_FONT_OFFERED, True)
