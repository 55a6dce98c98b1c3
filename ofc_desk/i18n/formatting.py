"""Numbers, chip amounts and times as a reader of the active language writes them (Babel, CLDR).

English keeps the house style the reports have always printed ("1,234,567", "2026-11-21 14:03 UTC"),
so an English report reads as before; the other languages take CLDR's: "1 234 567" in Russian,
"1.234.567" in Vietnamese, "21 нояб. 2026 г. 14:03 UTC".
"""

from __future__ import annotations

from datetime import datetime
from functools import cache

from ofc_desk.i18n.languages import Language
from ofc_desk.i18n.translate import active_language


def _locale(language: Language | None) -> str:
    return (language or active_language()).babel_locale


@cache
def _group_symbol(locale: str) -> str:
    from babel.numbers import get_group_symbol

    return str(get_group_symbol(locale))


def number(value: int, language: Language | None = None) -> str:
    """A whole number with the language's grouping: 1234567 -> '1,234,567' in English.

    The four languages group by threes from the first thousand (CLDR; the test checks it against
    Babel's `format_decimal`), so only the separator differs: a report of thousands of amounts
    asks Babel once per language, not once per amount.

    >>> number(1234567, Language.VI), number(-35, Language.EN), number(1234, Language.RU)
    ('1.234.567', '-35', '1\xa0234')
    """
    grouped = f"{value:,}"
    separator = group_separator(language)
    return grouped if separator == "," else grouped.replace(",", separator)


def group_separator(language: Language | None = None) -> str:
    """The character the language groups thousands with in `number`.

    >>> group_separator(Language.EN), group_separator(Language.VI), group_separator(Language.RU)
    (',', '.', '\xa0')
    """
    locale = _locale(language)
    return "," if locale == "en" else _group_symbol(locale)


def signed_number(value: int, language: Language | None = None) -> str:
    """A gain or a loss: '+1,200', '-35', '0'."""
    if not value:
        return "0"
    return ("+" if value > 0 else "-") + number(abs(value), language)


def date_time(moment: datetime, language: Language | None = None) -> str:
    """A moment to the minute, with 'UTC' when it is one (the record keeps UTC).

    >>> from datetime import timezone
    >>> at = datetime(2026, 11, 21, 14, 3, tzinfo=timezone.utc)
    >>> date_time(at, Language.EN), date_time(at, Language.ZH_CN)
    ('2026-11-21 14:03 UTC', '2026年11月21日 14:03 UTC')
    """
    language = language or active_language()
    suffix = " UTC" if moment.tzinfo is not None and moment.utcoffset() is not None else ""
    if language in (Language.EN, Language.PSEUDO):
        return moment.strftime("%Y-%m-%d %H:%M") + suffix
    from babel.dates import format_date

    return f"{format_date(moment, 'medium', locale=language.babel_locale)} {moment:%H:%M}{suffix}"
