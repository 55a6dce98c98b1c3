"""The translation layer every other layer may use: gettext catalogs made with Babel.

    from ofc_desk.i18n import _, ngettext, pgettext, lazy_gettext

docs/translating.md says how to mark a string, and how the catalogs are kept; docs/decisions.md
("The desk in four languages") why it is built this way.
"""

from ofc_desk.i18n.languages import Language
from ofc_desk.i18n.translate import (
    LazyText,
    _,
    active_language,
    in_language,
    language_asked_for,
    lazy_gettext,
    lazy_pgettext,
    ngettext,
    npgettext,
    pgettext,
    use_language,
)

__all__ = [
    "Language",
    "LazyText",
    "_",
    "active_language",
    "in_language",
    "language_asked_for",
    "lazy_gettext",
    "lazy_pgettext",
    "ngettext",
    "npgettext",
    "pgettext",
    "use_language",
]
