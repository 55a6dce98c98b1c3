"""The pseudo-language en_XA: the English source accented and about 40% longer, made on the fly.

It is no catalog: every string the code marks is transformed as it is asked for, so a string added
today is pseudo-translated today. Run the desk in it (`ofc-desk --lang en_XA`, or Settings →
Language) to see what a longer language would cut off, and what was never marked (it stays plain
English). Placeholders (`{count}`, `%(name)s`, `%d`), markup (`<b>`, `&amp;`) and a menu's
mnemonic letter (`&File`) are kept as they are, so the result formats and works like the source.
"""

from __future__ import annotations

import gettext
import re

GROWTH = 0.4
_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒğĥíĵķĺɱñóƥʠŕšţúʋŵẋýžÁƁÇĐÉƑĞĤÍĴĶĹṀÑÓƤǪŔŠŢÚṾŴẊÝŽ",
)
# Kept as written: format fields, printf fields, markup tags and entities, and "&" with the
# mnemonic letter after it ("&&" is a literal ampersand in Qt); "&" before a field leaves the field
# whole, or `.format` would miss it.
_KEPT = re.compile(
    r"\{[^{}]*\}|%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[a-z]|%[-#0 +]*\d*(?:\.\d+)?[a-z%]|<[^<>]*>|&\w+;|&&|&[^{]"
)


def pseudo(message: str) -> str:
    """`message` accented, in brackets, padded to about 140% of its length.

    >>> pseudo("&File")
    '⟦&Fíĺé·⟧'
    >>> pseudo("{count} hands settled")
    '⟦{count} ĥáñđš šéţţĺéđ······⟧'
    >>> pseudo("&{number} seat").format(number=2)
    '⟦&2 šéáţ····⟧'
    """
    if not message:
        return message
    pieces, last = [], 0
    for match in _KEPT.finditer(message):
        pieces.append(message[last : match.start()].translate(_ACCENTED))
        pieces.append(match[0])
        last = match.end()
    pieces.append(message[last:].translate(_ACCENTED))
    padding = max(1, round(len(message) * GROWTH) - 2)
    return "⟦" + "".join(pieces) + "·" * padding + "⟧"


class PseudoTranslations(gettext.NullTranslations):
    """Translations into the pseudo-language, with English's plural rule."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)
