"""Which language is spoken now, and the calls that mark and translate the product's words.

The process has one language (the desk's, the floor's or the command line's, `use_language`);
`in_language` speaks another one for a while in the current thread or task only, which is how a
report is printed in Chinese by a desk that speaks Vietnamese.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ofc_desk.i18n.catalog import translations_for
from ofc_desk.i18n.languages import SOURCE, Language

_process_language = SOURCE
_asked_for: Language | None = None
_spoken_here: ContextVar[Language | None] = ContextVar("ofc_desk_language", default=None)


def use_language(language: Language, *, asked_for: bool = False) -> None:
    """Make `language` the process's language (at start-up, before any window or output);
    `asked_for` when the person named it (`ofc-desk --lang vi`), which beats a stored choice."""
    global _process_language, _asked_for
    _process_language = language
    _asked_for = language if asked_for else None


def language_asked_for() -> Language | None:
    """The language named on the command line, if one was."""
    return _asked_for


def active_language() -> Language:
    """The language a string translated now comes out in."""
    return _spoken_here.get() or _process_language


@contextmanager
def in_language(language: Language) -> Iterator[None]:
    """Speak `language` inside the block, in this thread (or task) only."""
    token = _spoken_here.set(language)
    try:
        yield
    finally:
        _spoken_here.reset(token)


def _active() -> gettext.NullTranslations:
    return translations_for(active_language())


def _(message: str) -> str:
    """`message` in the active language."""
    return _active().gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message that fits `count` (Russian has three, Vietnamese and Chinese one);
    format the count into it yourself: `ngettext("{n} hand", "{n} hands", n).format(n=n)`."""
    return _active().ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """`message` as meant in `context` ("row" for Front the row, "button" for a button's Front)."""
    return _active().pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, count: int) -> str:
    return _active().npgettext(context, singular, plural, count)


class LazyText:
    """A marked message translated only when shown: for module-level constants, which are built
    at import, before any language is chosen. `str(x)` or `f"{x}"` gives it in the language
    active then; it is no `str` (mypy says so where one is needed)."""

    __slots__ = ("context", "message")

    def __init__(self, message: str, context: str | None = None) -> None:
        self.message = message
        self.context = context

    def __str__(self) -> str:
        return _(self.message) if self.context is None else pgettext(self.context, self.message)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"LazyText({self.message!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LazyText) and (self.message, self.context) == (other.message, other.context)

    def __hash__(self) -> int:
        return hash((self.message, self.context))


def lazy_gettext(message: str) -> LazyText:
    return LazyText(message)


def lazy_pgettext(context: str, message: str) -> LazyText:
    return LazyText(message, context)
