"""A session report prints in the language chosen when printing, names it, formats its numbers
and dates by it, and draws Vietnamese, Chinese and the suits with embedded fonts."""

from __future__ import annotations

import dataclasses
import io

import pytest
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph

from ofc_desk.i18n import Language, active_language
from ofc_desk.reports.pdf_common import grid_table, make_styles
from ofc_desk.reports.record import Adjustment, AdjustmentKind, RuleSetting, SessionRecord
from ofc_desk.reports.session_pdf import write_session_report
from tests.helpers.pdf_text import page_texts


def rendered(record: SessionRecord, language: Language | None) -> bytes:
    out = io.BytesIO()
    write_session_report(record, out, language)
    return out.getvalue()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (Language.VI, ("Báo cáo phiên", "Ngôn ngữ báo cáo", "Tiếng Việt", "Người chơi", "Trang 1/")),
        (Language.ZH_CN, ("场次报告", "报告语言", "简体中文", "玩家", "第 1 页，共")),
        (Language.RU, ("Отчёт о сессии", "Язык отчёта", "Русский", "Игроки", "Страница 1 из")),
    ],
)
def test_the_report_speaks_the_language_chosen_and_names_it(
    sample_record: SessionRecord, language: Language, words: tuple[str, ...]
) -> None:
    pages = page_texts(rendered(sample_record, language))
    for word in words:
        assert word in pages[0]
    assert {"♠", "♥", "♦", "♣"} <= set("".join(pages)), "the hands keep their suits"
    assert active_language() is Language.EN, "printing in another language leaves the desk's alone"


def test_numbers_and_dates_follow_the_report_language(sample_record: SessionRecord) -> None:
    record = dataclasses.replace(sample_record, unit=1500)
    english, vietnamese, chinese = (
        page_texts(rendered(record, lang))[0] for lang in (Language.EN, Language.VI, Language.ZH_CN)
    )
    assert "1,500" in english and "1.500" in vietnamese
    started = sample_record.started_at
    assert started is not None
    assert f"{started:%Y-%m-%d %H:%M} UTC" in english
    assert f"{started.year}年{started.month}月{started.day}日" in chinese


def test_a_name_in_chinese_prints_in_an_english_report_with_the_wide_font(
    sample_record: SessionRecord,
) -> None:
    first = sample_record.players[0]
    record = dataclasses.replace(
        sample_record,
        table="龍桌",
        players=(dataclasses.replace(first, name="王小明"), *sample_record.players[1:]),
    )
    pdf = rendered(record, Language.EN)
    text = page_texts(pdf)[0]
    assert "龍桌" in text and "王小明" in text and "Session report" in text
    assert b"WenQuanYi" in pdf, "the wide font is embedded"
    assert b"WenQuanYi" not in rendered(sample_record, Language.VI), "Vietnamese needs only DejaVu"


def test_the_rules_labels_and_values_print_in_the_report_language(sample_record: SessionRecord) -> None:
    record = dataclasses.replace(
        sample_record, rules=(*sample_record.rules, RuleSetting("House options", ""))
    )
    page = page_texts(rendered(record, Language.RU))[0]
    assert "Прогрессивная Фантазия да" in " ".join(page.split())
    assert "Project-Id-Version" not in page, "a blank value stays blank"


def test_a_rules_change_lists_its_settings_in_the_report_language(sample_record: SessionRecord) -> None:
    change = Adjustment(
        95,
        sample_record.started_at,
        AdjustmentKind.RULES_CHANGE,
        None,
        "Sam Floor changed the rules",
        "Dana Dealer",
        "Sam Floor",
        settings=(RuleSetting("Unit", "2"), RuleSetting("Settlement", "win-cap")),
    )
    record = dataclasses.replace(sample_record, adjustments=(*sample_record.adjustments, change))
    english, russian = ("\n".join(page_texts(rendered(record, lang))) for lang in (Language.EN, Language.RU))
    assert "Unit 2; Settlement win-cap" in " ".join(english.split())
    assert "Единица 2" in russian and "Unit 2" not in russian


def test_a_cell_wider_than_its_column_wraps_and_a_narrow_one_stays_text() -> None:
    styles = make_styles()
    long_date = "26 нояб. 2026 г. 10:10 UTC"
    table = grid_table([["Time", "Hand"], [long_date, "3"]], [20 * mm, 20 * mm], styles)
    wide, narrow = table._cellvalues[1]  # reportlab keeps the cells it was given here
    assert isinstance(wide, Paragraph) and wide.text == long_date
    assert narrow == "3"
    _, height = table.wrap(40 * mm, 1000)
    assert height > 2 * 8 * 1.25 + 10, "the wrapped date takes a second line"
