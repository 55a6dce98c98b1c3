"""The languages the desk speaks, how each is named, and which one a system asks for."""

from __future__ import annotations

import os
from collections.abc import Mapping
from enum import StrEnum


class Language(StrEnum):
    """A language of the desk, by its gettext catalog's name."""

    EN = "en"
    RU = "ru"
    VI = "vi"
    ZH_CN = "zh_CN"
    PSEUDO = "en_XA"
    """Every English string accented and made about 40% longer, to find text that is cut off."""

    @property
    def native_name(self) -> str:
        """How the language names itself: what a reader looks for in a list of languages."""
        return NATIVE_NAMES[self]

    @property
    def babel_locale(self) -> str:
        """The CLDR locale its numbers, dates and plural rules come from."""
        return BABEL_LOCALES.get(self, self.value)


SOURCE = Language.EN
"""The language the code is written in: it has no catalog."""
TRANSLATED = (Language.RU, Language.VI, Language.ZH_CN)
"""The languages with a catalog in ofc_desk/i18n/locale."""

NATIVE_NAMES = {
    Language.EN: "English",
    Language.RU: "Русский",
    Language.VI: "Tiếng Việt",
    Language.ZH_CN: "简体中文",
    Language.PSEUDO: "Ƥşéûđô (en_XA)",
}
BABEL_LOCALES = {Language.ZH_CN: "zh_Hans_CN", Language.PSEUDO: "en"}

# Locale names that mean one of our languages though they are not spelt as it is.
_ALIASES = {
    "zh": Language.ZH_CN,
    "zh_hans": Language.ZH_CN,
    "zh_sg": Language.ZH_CN,
    "pseudo": Language.PSEUDO,
}


def parse_language(name: str) -> Language | None:
    """The language a locale name means, or None if the desk does not speak it.

    >>> parse_language("ru_RU.UTF-8"), parse_language("zh-Hans-CN"), parse_language("zh_TW")
    (<Language.RU: 'ru'>, <Language.ZH_CN: 'zh_CN'>, None)
    >>> parse_language("vi"), parse_language("C.UTF-8"), parse_language("en_XA")
    (<Language.VI: 'vi'>, None, <Language.PSEUDO: 'en_XA'>)
    """
    spelt = name.split(".")[0].split("@")[0].replace("-", "_").lower()
    by_value = {language.value.lower(): language for language in Language}
    if spelt in by_value:
        return by_value[spelt]
    if spelt in _ALIASES:
        return _ALIASES[spelt]
    parts = spelt.split("_")
    if parts[0] == "zh":
        # Simplified script or a region that writes it; Taiwan, Hong Kong and Macau write traditional.
        return Language.ZH_CN if ("hans" in parts or parts[-1] in {"cn", "sg", "my"}) else None
    return by_value.get(parts[0])


def language_from_environment(environ: Mapping[str, str] | None = None) -> Language:
    """The language the environment asks for, read as gettext reads it (LANGUAGE, LC_ALL,
    LC_MESSAGES, LANG, the first that is set); English when it names none the desk speaks.

    >>> language_from_environment({"LANG": "vi_VN.UTF-8"})
    <Language.VI: 'vi'>
    >>> language_from_environment({"LC_ALL": "de_DE.UTF-8", "LANG": "ru_RU.UTF-8"})
    <Language.EN: 'en'>
    """
    environ = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if not value:
            continue
        # LANGUAGE may list several, best first ("vi:en"); the others hold one locale.
        for name in value.split(":") if variable == "LANGUAGE" else [value]:
            if (language := parse_language(name)) is not None:
                return language
        if variable != "LANGUAGE":
            return SOURCE
    return SOURCE
