"""A session recorded with the desk in Russian holds the same record as one recorded in English,
verifies, and its report prints in English and in Chinese from the same database (issue 29).

The words the record keeps in English (a row's hand name, a transfer's reason) print as stored in
English and are said again from the data in the other languages (reports/spoken.py)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from ofc_desk.i18n import Language, in_language, use_language
from ofc_desk.reports.loader import load_session_record
from ofc_desk.reports.session_pdf import write_session_report
from ofc_desk.reports.spoken import hand_words, reason_words
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, HandRow, TransferRow
from tests.helpers.pdf_text import squeezed_text
from tests.helpers.report_sessions import example_script, new_database, play_script


@pytest.fixture
def english_after() -> Iterator[None]:
    yield
    use_language(Language.EN)


def short_stacked_script() -> dict[str, Any]:
    """Two example hands with Ann and Cy short of chips: in hand 2 Cy owes Ann and has nothing
    left, a payment the settlement records as "nothing paid: Cy has no chips left"."""
    script = example_script()
    for seat in script["seats"]:
        if seat["name"] in ("Ann", "Cy"):
            seat["buy_in"] = 8
    script["hands"] = script["hands"][:2]
    return script


def record_in(language: Language, url: str) -> None:
    """Play the script as the desk does, speaking `language` (the desk sets the process's)."""
    use_language(language)
    try:
        database = new_database(url)
        play_script(database, short_stacked_script())
        database.dispose()
    finally:
        use_language(Language.EN)


def stored(url: str) -> tuple[list[tuple[Any, ...]], ...]:
    """What the record holds, without the times and the hashes made of them: the events, each
    settled hand's result (the `ofc-desk score` JSON, hand names included) and its transfers."""
    database = Database(url)
    try:
        with database.session() as session:
            events = session.execute(
                select(Event.session_id, Event.seq, Event.kind, Event.actor, Event.payload).order_by(
                    Event.session_id, Event.seq
                )
            ).all()
            hands = session.execute(select(HandRow.number, HandRow.result).order_by(HandRow.number)).all()
            transfers = session.execute(
                select(
                    TransferRow.hand_id,
                    TransferRow.ordinal,
                    TransferRow.from_player,
                    TransferRow.to_player,
                    TransferRow.owed,
                    TransferRow.paid,
                    TransferRow.reason,
                ).order_by(TransferRow.hand_id, TransferRow.ordinal)
            ).all()
    finally:
        database.dispose()
    return [tuple(row) for row in events], [tuple(row) for row in hands], [tuple(row) for row in transfers]


def pdf_text(url: str, language: Language) -> str:
    buffer = io.BytesIO()
    write_session_report(load_session_record(url), buffer, language)
    return squeezed_text(buffer.getvalue())


def test_a_session_recorded_in_russian_verifies_and_prints_in_english_and_in_chinese(
    tmp_path: Path, english_after: None
) -> None:
    russian, english = f"sqlite:///{tmp_path / 'ru.db'}", f"sqlite:///{tmp_path / 'en.db'}"
    record_in(Language.RU, russian)
    record_in(Language.EN, english)
    assert stored(russian) == stored(english), "the record holds data, never the desk's language"
    transfers = stored(russian)[2]
    assert "nothing paid: Cy has no chips left" in {transfer[-1] for transfer in transfers}

    database = Database(russian)
    try:
        verify_database(database)  # raises VerifyFault on any fault
    finally:
        database.dispose()

    record = load_session_record(russian)
    first_rows = [row.hand for row in record.hands[0].seats[0].rows]
    in_english, in_chinese = pdf_text(russian, Language.EN), pdf_text(russian, Language.ZH_CN)

    assert "Session report" in in_english and "Report language English" in in_english
    assert "nothing paid: Cy has no chips left" in in_english
    assert all(name in in_english for name in first_rows), "English prints the stored hand names"

    assert "场次报告" in in_chinese and "报告语言 简体中文" in in_chinese
    assert "未支付：Cy 已没有筹码" in in_chinese and "nothing paid" not in in_chinese
    with in_language(Language.ZH_CN):
        said = [hand_words(row.cards, row.hand) for row in record.hands[0].seats[0].rows]
    assert all(name in in_chinese for name in said)
    for english_word in ("-high", "pair of", "two pair", "Session report", "Hand 1", "won 6 points"):
        assert english_word not in in_chinese


@pytest.mark.parametrize(
    ("stored_reason", "russian", "chinese"),
    [
        ("paid in full", "выплачено полностью", "全额支付"),
        (
            "capped: Cy reached the win cap of 2000",
            "урезано лимитом: Cy достиг лимита выигрыша 2\xa0000",
            "封顶：Cy 已达赢额封顶 2,000",
        ),
        (
            "capped: Lee Ann reached the win cap of 20 and is complete",
            "урезано лимитом: Lee Ann достиг лимита выигрыша 20 и выбыл из расчёта",
            "封顶：Lee Ann 已达赢额封顶 20，不再参与",
        ),
        (
            "nothing moves: Bo is complete (reached the win cap of 40)",
            "ничего не переходит: Bo выбыл из расчёта (достиг лимита выигрыша 40)",
            "无转移：Bo 已不再参与（已达赢额封顶 40）",
        ),
        (
            "Bob had only 7 in front of them; Ann reached the win cap of 50 and is complete",
            "у Bob было только 7 перед собой; Ann достиг лимита выигрыша 50 и выбыл из расчёта",
            "Bob 面前只有 7；Ann 已达赢额封顶 50，不再参与",
        ),
        (
            "Dee had only 3 unused chips of the 10 at the start",
            "у Dee было только 3 неиспользованных фишек из 10 на начало",
            "Dee 开局的 10 中只剩 3 个未用筹码",
        ),
        (
            "Dee had only 3 unused chips of the 10 to cover the win",
            "у Dee было только 3 неиспользованных фишек из 10, чтобы покрыть выигрыш",
            "Dee 的 10 中只剩 3 个未用筹码来承接赢额",
        ),
        ("a reason no settlement writes", "a reason no settlement writes", "a reason no settlement writes"),
    ],
)
def test_a_stored_reason_is_said_again_from_its_pattern(
    stored_reason: str, russian: str, chinese: str
) -> None:
    assert reason_words(stored_reason) == stored_reason, "English prints the stored reason"
    with in_language(Language.RU):
        assert reason_words(stored_reason) == russian
    with in_language(Language.ZH_CN):
        assert reason_words(stored_reason) == chinese


@pytest.mark.parametrize(
    ("cards", "stored_name", "vietnamese", "chinese"),
    [
        (("Qs", "Qd", "2c"), "pair of queens", "đôi Q", "一对 Q"),
        (("Ks", "Kd", "9c", "9d", "2d"), "two pair, kings and nines", "thú K và 9", "两对 K 和 9"),
        (("7s", "7d", "7c", "3s", "3d"), "sevens full of threes", "cù lũ 7 và 3", "葫芦 7 带 3"),
        (("Ah", "Kh", "9h", "4h", "2h"), "ace-high flush", "thùng A", "A 高同花"),
        (("Ts", "Js", "Qs", "Ks", "As"), "royal flush", "thùng phá sảnh thượng", "皇家同花顺"),
        (
            ("7s", "5d", "4c", "3h", "2s"),
            "seven-five low (7-5-4-3-2)",
            "7-5 thấp (7-5-4-3-2)",
            "7-5 低牌（7-5-4-3-2）",
        ),
        # Cards whose name is not the stored one are never named anew: the stored name stands.
        (("2s", "3d", "4c"), "pair of queens", "pair of queens", "pair of queens"),
        ((), "", "", ""),
    ],
)
def test_a_rows_hand_is_named_from_its_cards(
    cards: tuple[str, ...], stored_name: str, vietnamese: str, chinese: str
) -> None:
    assert hand_words(cards, stored_name) == stored_name
    with in_language(Language.VI):
        assert hand_words(cards, stored_name) == vietnamese
    with in_language(Language.ZH_CN):
        assert hand_words(cards, stored_name) == chinese
