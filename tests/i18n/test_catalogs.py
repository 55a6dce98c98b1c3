"""The catalogs are complete, current and right for each language's plural rules; the runtime
reads them as Babel does; the pseudo-language and the active language behave as promised."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po as babel_read_po
from babel.numbers import format_decimal

from ofc_desk.i18n import Language, _, active_language, in_language, ngettext, pgettext, use_language
from ofc_desk.i18n.catalog import catalog_path, read_po, translations_for
from ofc_desk.i18n.formatting import number, signed_number
from ofc_desk.i18n.languages import TRANSLATED
from ofc_desk.i18n.maintain import catalog_problems, extract_template
from ofc_desk.i18n.pseudo import pseudo

SETTLED = ("{count} hand settled", "{count} hands settled")


@pytest.fixture
def english_after() -> Iterator[None]:
    yield
    use_language(Language.EN)


def test_every_product_string_is_in_every_catalog_translated_and_current() -> None:
    template = extract_template()
    assert template.get(SETTLED[0]) is not None, "the slice's strings are extracted from the source"
    problems = [problem for language in TRANSLATED for problem in catalog_problems(template, language)]
    assert problems == [], "\n".join(problems)


def test_the_check_names_missing_untranslated_fuzzy_stale_and_wrong_forms() -> None:
    template = Catalog()
    for message in ("Hand {number}", "Players", "Total", "&File", "&Edit"):
        template.add(message)
    template.add(SETTLED)
    catalog = Catalog(locale="ru")
    catalog.add("Hand {number}", "Раздача {num}")  # a field renamed
    catalog.add("Players", "")  # untranslated
    catalog.add("Total", "Итого", flags=("fuzzy",))
    catalog.add("&File", "Файл")  # the mnemonic lost
    catalog.add("&Edit", "&Правка")  # a Cyrillic key: not typed with the Latin layout cards are typed in
    catalog.add("Gone", "Ушло")  # stale: no longer in the source
    catalog.add(SETTLED, ("{count} раздача", "{count} раздачи"))  # Russian needs three forms
    problems = "\n".join(catalog_problems(template, Language.RU, catalog))
    for expected in (
        "{number}",
        "'Players' is not translated",
        "'Total' is fuzzy",
        "as many & mnemonics",
        "must keep the source's mnemonic &e",
        "'Gone' is stale",
    ):
        assert expected in problems
    assert "has 2 forms; the language has 3" in problems
    missing = Catalog(locale="vi")
    assert "'Players' is missing" in "\n".join(catalog_problems(template, Language.VI, missing))


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_runtime_reads_each_catalog_as_babel_does(language: Language) -> None:
    text = catalog_path(language).read_text(encoding="utf-8")
    ours = {entry.key: (entry.msgstr, entry.fuzzy) for entry in read_po(text) if entry.msgid}
    babel = {}
    for message in babel_read_po(io.StringIO(text)):
        if not message.id:
            continue
        ids = tuple(message.id) if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        key = "\0".join(ids) if message.context is None else f"{message.context}\x04{chr(0).join(ids)}"
        babel[key] = (dict(enumerate(strings)), message.fuzzy)
    assert ours == babel


@pytest.mark.parametrize(
    ("language", "counts", "expected"),
    [
        (Language.EN, (1, 2, 21), ("1 hand settled", "2 hands settled", "21 hands settled")),
        (
            Language.RU,
            (1, 3, 5, 21),
            ("1 раздача рассчитана", "3 раздачи рассчитаны", "5 раздач рассчитано", "21 раздача рассчитана"),
        ),
        (Language.VI, (1, 5), ("1 ván đã thanh toán", "5 ván đã thanh toán")),
        (Language.ZH_CN, (1, 5), ("已结算 1 手", "已结算 5 手")),
    ],
)
def test_plurals_follow_each_language_rules(
    language: Language, counts: tuple[int, ...], expected: tuple[str, ...]
) -> None:
    with in_language(language):
        said = tuple(ngettext(*SETTLED, count).format(count=count) for count in counts)
    assert said == expected


def test_context_tells_words_apart_and_unknown_words_stay_english() -> None:
    with in_language(Language.ZH_CN):
        assert pgettext("variant", "chinese") == "十三张"
        assert _("a sentence nobody marked") == "a sentence nobody marked"
    assert pgettext("variant", "chinese") == "chinese"


def test_the_pseudo_language_is_longer_accented_and_keeps_what_code_reads() -> None:
    for source in ("Session report · {table} · session {session}", "Corr&ect chips (supervisor)…", "Players"):
        made = pseudo(source)
        assert len(made) >= 1.3 * len(source)
        assert made.startswith("⟦") and made.endswith("⟧")
    assert pseudo("Players").strip("⟦·⟧").isalpha() and pseudo("Players").isascii() is False
    assert not any(letter in pseudo("Players settled") for letter in "aeiouy")
    assert "{table}" in pseudo("{table} — x") and pseudo("Corr&ect").count("&e") == 1
    with in_language(Language.PSEUDO):
        assert ngettext(*SETTLED, 1).format(count=1).startswith("⟦1 ĥáñđ šéţţĺéđ")


def test_another_language_is_spoken_only_inside_the_block_and_this_thread(english_after: None) -> None:
    use_language(Language.VI)
    seen_by_thread: list[Language] = []
    with in_language(Language.ZH_CN):
        assert active_language() is Language.ZH_CN
        worker = threading.Thread(target=lambda: seen_by_thread.append(active_language()))
        worker.start()
        worker.join()
    assert seen_by_thread == [Language.VI]
    assert active_language() is Language.VI
    assert translations_for(Language.VI) is translations_for(Language.VI)  # compiled once


@pytest.mark.parametrize("language", [Language.EN, *TRANSLATED])
def test_numbers_group_as_cldr_says(language: Language) -> None:
    for value in (0, 7, 999, 1000, 1234, 987654321, -35, -1234567):
        assert number(value, language) == format_decimal(value, locale=language.babel_locale)
    assert signed_number(1200, language).startswith("+") and signed_number(0, language) == "0"
