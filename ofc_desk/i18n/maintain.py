"""Keeping the catalogs: extract the marked strings with Babel, update every .po, check them.

    python -m ofc_desk.i18n.maintain update    # after marking strings: new ones appear, empty
    python -m ofc_desk.i18n.maintain check     # what the completeness test checks, as a list

The template (.pot) is made in memory and never committed: it would change with every edit
anywhere. The .po files are written sorted by message, with file names but no line numbers,
so that engineers adding strings in different files touch different lines (docs/translating.md).
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from gettext import c2py
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from ofc_desk.i18n.catalog import catalog_path
from ofc_desk.i18n.languages import TRANSLATED, Language

PACKAGE = Path(__file__).resolve().parents[1]
ROOT = PACKAGE.parent
KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "lazy_gettext": None,
    "lazy_pgettext": ((1, "c"), 2),
}
"""The calls that mark a string (ofc_desk.i18n), in Babel's notation: which arguments are the
message, its plural and its context."""
COMMENT_TAG = "TRANSLATORS:"
NOT_SCANNED = ("i18n", "storage/migrations")
"""Folders of the package whose strings are never the product's words."""
WIDTH = 100
FIXED_DATE = datetime(2025, 1, 1, tzinfo=UTC)
"""The dates a new catalog's header carries: a real date would change on every update."""
_FIELDS = re.compile(r"\{[^{}]*\}|%\([^)]*\)[a-z]|%[a-z]")


def source_files() -> list[Path]:
    skipped = [PACKAGE / folder for folder in NOT_SCANNED]
    return sorted(
        path for path in PACKAGE.rglob("*.py") if not any(path.is_relative_to(folder) for folder in skipped)
    )


def extract_template(files: Iterable[Path] | None = None) -> Catalog:
    """Every marked string of the product's source, as a template catalog."""
    template = Catalog(project="OFC Desk", creation_date=FIXED_DATE, fuzzy=False)
    for path in files if files is not None else source_files():
        location = path.relative_to(ROOT).as_posix()
        found = extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=(COMMENT_TAG,), strip_comment_tags=True
        )
        for lineno, message, comments, context in found:
            template.add(message, None, [(location, lineno)], auto_comments=comments, context=context)
    return template


def read_catalog(language: Language) -> Catalog:
    path = catalog_path(language)
    if not path.is_file():
        return Catalog(
            locale=language.value, project="OFC Desk", version="", copyright_holder="OFC Desk developers",
            msgid_bugs_address="", last_translator="OFC Desk developers", language_team="OFC Desk developers",
            header_comment=f"# The {language.native_name} catalog of OFC Desk (docs/translating.md).",
            creation_date=FIXED_DATE, revision_date=FIXED_DATE, fuzzy=False,
        )  # fmt: skip
    with path.open("rb") as po:
        return read_po(po, locale=language.value)


def po_text(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(
        out, catalog, width=WIDTH, sort_output=True, ignore_obsolete=True, include_previous=True,
        include_lineno=False,
    )  # fmt: skip
    return out.getvalue()


def update_catalogs(template: Catalog | None = None) -> list[Path]:
    """Bring every .po up to the source: new strings in, gone ones out, changed ones fuzzy
    (with the old translation to start from). Returns the files that changed."""
    template = template or extract_template()
    changed = []
    for language in TRANSLATED:
        catalog = read_catalog(language)
        catalog.update(template, update_creation_date=False)
        _drop_stale_previous_ids(catalog)
        path = catalog_path(language)
        text = po_text(catalog)
        if not path.is_file() or path.read_bytes() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text)
            changed.append(path)
    return changed


def _drop_stale_previous_ids(catalog: Catalog) -> None:
    """Keep the English a string had before only while it is fuzzy (the translator's starting
    point). Babel reads a `#|` line written back by another tool as a translator's comment
    (`# | msgid …`), which then stands over an unrelated entry: those go too."""
    for message in catalog:
        if not message.fuzzy:
            message.previous_id = []
        comments = message.user_comments
        message.user_comments = [comment for comment in comments if not comment.startswith("| msg")]


def _fields(text: str) -> list[str]:
    return sorted(_FIELDS.findall(text))


def _mnemonics(text: str) -> int:
    return text.replace("&&", "").count("&")


def mnemonic_key(text: str) -> str:
    """The key after a text's `&` (lower case), or "" if it has none."""
    plain = text.replace("&&", "")
    index = plain.find("&")
    return plain[index + 1 : index + 2].lower() if index >= 0 else ""


def message_problems(language: Language, message: Message) -> list[str]:
    """What is wrong with one translated message: forms, placeholders, mnemonics."""
    ids = [str(part) for part in (message.id if isinstance(message.id, (list, tuple)) else (message.id,))]
    strings = [
        str(part or "")
        for part in (message.string if isinstance(message.string, (list, tuple)) else (message.string,))
    ]
    name = f"{language}: {ids[0]!r}"
    if message.fuzzy:
        return [f"{name} is fuzzy (check the translation, then drop the fuzzy flag)"]
    if not all(strings):
        return [f"{name} is not translated"]
    problems = []
    forms = get_plural(language.babel_locale).num_plurals if len(ids) > 1 else 1
    if len(strings) != forms:
        problems.append(f"{name} has {len(strings)} forms; the language has {forms}")
    for string in strings:
        if _fields(string) != _fields(ids[-1]):
            problems.append(f"{name}: {string!r} does not keep the fields {_fields(ids[-1])}")
        if _mnemonics(string) != _mnemonics(ids[0]):
            problems.append(f"{name}: {string!r} must have as many & mnemonics as the source")
        elif mnemonic_key(string) != mnemonic_key(ids[0]):
            # The dealer types cards with a Latin layout: a Cyrillic key cannot be pressed, and the
            # keyboard reference names the same key in every language.
            problems.append(f"{name}: {string!r} must keep the source's mnemonic &{mnemonic_key(ids[0])}")
    return problems


def _key(message: Message) -> tuple[str | None, str | tuple[str, ...]]:
    """A message by its context and id (a plural message's id is its two forms)."""
    return message.context, tuple(message.id) if isinstance(message.id, (list, tuple)) else message.id


PLURAL_SAMPLE = range(1000)
"""Counts enough to tell two plural rules apart: the rules look at the last two or three digits."""


def same_plural_forms(found: str, expected: str) -> bool:
    """Whether two Plural-Forms headers pick the same form for every count. Babel releases spell
    CLDR's rules differently (2.19 writes Russian's `n % 100 < 12 || n % 100 > 14` where 2.18 wrote
    `n%100<10 || n%100>=20`), and a catalog must not go stale with the Babel installed.

    >>> same_plural_forms("nplurals=1; plural=0;", "nplurals=1; plural=0;")
    True
    >>> same_plural_forms("nplurals=2; plural=(n != 1);", "nplurals=2; plural=(n > 1);")
    False
    """
    rules = []
    for header in (found, expected):
        settings = dict(part.strip().split("=", 1) for part in header.split(";") if "=" in part)
        rules.append((settings.get("nplurals", "").strip(), c2py(settings.get("plural", "0").strip())))
    (found_count, found_rule), (expected_count, expected_rule) = rules
    return found_count == expected_count and all(found_rule(n) == expected_rule(n) for n in PLURAL_SAMPLE)


def catalog_problems(template: Catalog, language: Language, catalog: Catalog | None = None) -> list[str]:
    """Everything that keeps `language`'s catalog (default: its shipped .po) from being complete
    and current."""
    catalog = catalog if catalog is not None else read_catalog(language)
    problems = []
    expected = get_plural(language.babel_locale).plural_forms
    if not same_plural_forms(catalog.plural_forms, expected):
        problems.append(f"{language}: Plural-Forms is {catalog.plural_forms!r}, CLDR says {expected!r}")
    wanted = {_key(message) for message in template if message.id}
    present = set()
    for message in catalog:
        if not message.id:
            continue
        present.add(_key(message))
        if _key(message) not in wanted:
            problems.append(f"{language}: {_key(message)[1]!r} is stale: no such string in the source")
        else:
            problems += message_problems(language, message)
    for _context, message_id in sorted(wanted - present, key=str):
        problems.append(f"{language}: {message_id!r} is missing: python -m ofc_desk.i18n.maintain update")
    if catalog.obsolete:
        problems.append(f"{language}: {len(catalog.obsolete)} obsolete entries (#~): run the update")
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    command = (list(sys.argv[1:] if argv is None else argv) or ["check"])[0]
    template = extract_template()
    if command == "update":
        for path in update_catalogs(template):
            print(f"updated {path.relative_to(ROOT)}")
        command = "check"
    if command != "check":
        print("usage: python -m ofc_desk.i18n.maintain [update|check]", file=sys.stderr)
        return 2
    problems = [problem for language in TRANSLATED for problem in catalog_problems(template, language)]
    print("\n".join(problems) or f"{len(template)} strings, every catalog complete")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
