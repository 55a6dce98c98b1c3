"""The catalogs: each language's .po file, compiled in memory into stdlib gettext translations.

No .mo file is built or shipped: the .po in the tree is what runs, in a checkout, a wheel and the
bundle alike. Reading one takes a few milliseconds (benchmarks/i18n_bench.py), which is why it is
read here with a small reader of the .po syntax Babel writes rather than with Babel, whose import
alone costs more; tests/i18n/test_catalogs.py checks that both read every shipped catalog alike.
"""

from __future__ import annotations

import gettext
import io
import re
import struct
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ofc_desk.i18n.languages import Language
from ofc_desk.i18n.pseudo import PseudoTranslations

DOMAIN = "ofc_desk"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
_ESCAPE = re.compile(r"\\(.)")
_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(\".*\")\s*$")


def catalog_path(language: Language) -> Path:
    return LOCALE_DIR / language.value / "LC_MESSAGES" / f"{DOMAIN}.po"


@dataclass
class PoEntry:
    """One message of a .po file as gettext sees it."""

    context: str | None = None
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False

    @property
    def key(self) -> str:
        """The message's key in a compiled catalog: context, then id and plural id."""
        key = self.msgid if self.msgid_plural is None else f"{self.msgid}\0{self.msgid_plural}"
        return key if self.context is None else f"{self.context}\x04{key}"

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr.values())


def _unquote(quoted: str) -> str:
    return _ESCAPE.sub(lambda match: _ESCAPES.get(match[1], match[0]), quoted[1:-1])


def read_po(text: str) -> list[PoEntry]:
    """The live entries of a .po file (obsolete `#~` ones left out), header first."""
    entries: list[PoEntry] = []
    entry, part = PoEntry(), ""
    started = False

    def finish() -> None:
        nonlocal entry, started
        if started:
            entries.append(entry)
        entry, started = PoEntry(), False

    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#"):
            if started and entry.msgstr:
                finish()
            if line.startswith("#,") and "fuzzy" in line[2:].replace(",", " ").split():
                entry.fuzzy = True
            continue
        if line.startswith('"'):
            _append(entry, part, _unquote(line))
            continue
        match = _KEYWORD.match(line)
        if match is None:
            raise ValueError(f"not .po syntax: {line!r}")
        keyword, value = match[1], _unquote(match[2])
        if keyword in ("msgctxt", "msgid") and entry.msgstr:
            finish()
        started, part = True, keyword
        _append(entry, part, value, start=True)
    finish()
    return entries


def _append(entry: PoEntry, part: str, value: str, *, start: bool = False) -> None:
    if part == "msgctxt":
        entry.context = value if start else f"{entry.context}{value}"
    elif part == "msgid":
        entry.msgid = value if start else entry.msgid + value
    elif part == "msgid_plural":
        entry.msgid_plural = value if start else f"{entry.msgid_plural}{value}"
    else:
        index = int(part[7:-1]) if part != "msgstr" else 0
        entry.msgstr[index] = value if start else entry.msgstr.get(index, "") + value


def compile_mo(entries: list[PoEntry]) -> bytes:
    """The GNU .mo bytes of the translated, not fuzzy entries (and the header), as msgfmt makes them."""
    messages = {
        entry.key: "\0".join(entry.msgstr[index] for index in sorted(entry.msgstr))
        for entry in entries
        if entry.msgid == "" or (entry.translated and not entry.fuzzy)
    }
    keys = sorted(messages)
    ids = [key.encode("utf-8") for key in keys]
    strs = [messages[key].encode("utf-8") for key in keys]
    header_size = 7 * 4
    tables_size = 2 * 8 * len(keys)
    offset = header_size + tables_size
    originals: list[tuple[int, int]] = []
    translations: list[tuple[int, int]] = []
    for table, blobs in ((originals, ids), (translations, strs)):
        for blob in blobs:
            table.append((len(blob), offset))
            offset += len(blob) + 1
    out = io.BytesIO()
    out.write(struct.pack("<7I", 0x950412DE, 0, len(keys), header_size, header_size + 8 * len(keys), 0, 0))
    for length, start in originals + translations:
        out.write(struct.pack("<2I", length, start))
    for blob in ids + strs:
        out.write(blob + b"\0")
    return out.getvalue()


@cache
def translations_for(language: Language) -> gettext.NullTranslations:
    """The translations of `language`, compiled from its .po on first use and kept."""
    if language is Language.PSEUDO:
        return PseudoTranslations()
    path = catalog_path(language)
    if not path.is_file():
        return gettext.NullTranslations()  # the source language, or a catalog not yet written
    mo = compile_mo(read_po(path.read_text(encoding="utf-8")))
    return gettext.GNUTranslations(io.BytesIO(mo))
