"""What a Chinese payment is for and why a hand fouled, stored in English in the result, said
again in the reader's language from the stored words (core/chinese/purpose_words.py, reports/spoken.py);
English and an unknown sentence print as stored (issue 29)."""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from ofc_desk.i18n import Language, in_language
from ofc_desk.reports.spoken import foul_words, why_words
from tests.fixtures.recorded_room.observe import load_dump

ROOM = Path(__file__).parents[1] / "fixtures" / "recorded_room" / "room.sql"
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


@pytest.mark.parametrize(
    ("stored", "payer", "payee", "russian", "chinese"),
    [
        ("Cy's six pairs (3 units)", "Ann", "Cy", "Cy: шесть пар (3 единицы)", "Cy 的六对半（3 单位）"),
        ("Cy's six pairs (1 units)", "Ann", "Cy", "Cy: шесть пар (1 единица)", "Cy 的六对半（1 单位）"),
        (
            "Cy's dragon against Ann's six pairs",
            "Ann",
            "Cy",
            "Cy: дракон против Ann: шесть пар",
            "Cy 的一条龙对 Ann 的六对半",
        ),
        ("Bob surrendered", "Bob", "Ann", "Bob сдался", "Bob 已投降"),
        (
            "rows: Ann won 2, Bob won 1; aces: Ann 2, Bob 0",
            "Bob",
            "Ann",
            "ряды: Ann выиграл 2, Bob выиграл 1; тузы: Ann 2, Bob 0",
            "各道：Ann 赢 2 道，Bob 赢 1 道；A：Ann 2 张，Bob 0 张",
        ),
        (
            "Bob scooped Ann, whose hand is misset, with row bonuses",
            "Ann",
            "Bob",
            "Bob сделал скуп против Ann, у которого фол (неверная расстановка), с бонусами за ряды",
            "Bob 打枪倒水的 Ann，含各道奖励",
        ),
        (
            "the pool: Ann won the middle and the back, Bob won the front",
            "Bob",
            "Ann",
            "пул: Ann выиграл: средний и нижний, Bob выиграл: верхний",
            "彩池：Ann 赢中道和尾道, Bob 赢头道",
        ),
        (
            "Cy won the deal: two rows or more against every other player",
            "Ann",
            "Cy",
            "Cy выиграл раздачу: два ряда или больше против каждого игрока",
            "Cy 赢下本手：对每位其他玩家赢两道或以上",
        ),
        # The house variants that paid (§13): a bonus by rank, a multiplier by scoop count.
        (
            "Ann scooped Bob, with row bonuses, Ann's front paid 6 by rank, ×3 for 2 scoops",
            "Bob",
            "Ann",
            "Ann сделал скуп против Bob, с бонусами за ряды, верхний у Ann оплачен по рангу: 6, "
            "×3 за 2 скупа",
            "Ann 打枪 Bob，含各道奖励，Ann 的头道按点数付 6，打枪 2 家 ×3",
        ),
        (
            "Bob scooped Cy, ×2 for 1 scoop",
            "Cy",
            "Bob",
            "Bob сделал скуп против Cy, ×2 за 1 скуп",
            "Bob 打枪 Cy，打枪 1 家 ×2",
        ),
        # A name with the sentence's own words in it is matched whole, as the payer's and payee's.
        ("Ann won 2's six pairs (3 units)", "Bob", "Ann won 2", "Ann won 2: шесть пар (3 единицы)", None),
        # Words the core never writes, or names that are not the payment's: as stored.
        ("Cy's lucky hand (3 units)", "Ann", "Cy", None, None),
        ("Bob surrendered", "Cy", "Ann", None, None),
        ("the pool: Dee won the front", "Bob", "Ann", None, None),
    ],
)
def test_a_payments_purpose_is_said_again_from_its_sentence(
    stored: str, payer: str, payee: str, russian: str | None, chinese: str | None
) -> None:
    assert why_words(stored, payer, payee) == stored, "English prints it as stored"
    with in_language(Language.RU):
        assert why_words(stored, payer, payee) == (russian or stored)
    if chinese is not None:
        with in_language(Language.ZH_CN):
            assert why_words(stored, payer, payee) == chinese


def test_every_purpose_a_recorded_room_stores_is_said_again(tmp_path: Path) -> None:
    """The core's own sentences, as a database of both games holds them, not the test's copies."""
    load_dump(ROOM, tmp_path / "room.db")
    with closing(sqlite3.connect(tmp_path / "room.db")) as connection:
        results = [json.loads(text) for (text,) in connection.execute("SELECT result FROM hands")]
    transfers = [t for result in results for t in result.get("transfers", ()) if t.get("for")]
    assert len({t["for"] for t in transfers}) >= 5, "the room holds payments of several kinds"
    for transfer in transfers:
        names = {transfer["from"], transfer["to"]}
        for language in (Language.RU, Language.VI, Language.ZH_CN, Language.PSEUDO):
            with in_language(language):
                said = why_words(transfer["for"], transfer["from"], transfer["to"])
            assert said != transfer["for"], f"{said!r} in {language.value}"
            # Vietnamese is written in Latin letters; the others show no English word but the names.
            english = [word for word in LATIN_WORD.findall(said) if word not in names]
            assert language is Language.VI or not english, (
                f"{transfer['for']!r} in {language.value}: {said!r}"
            )


@pytest.mark.parametrize(
    ("stored", "vietnamese", "chinese"),
    [
        ("the middle is weaker than the front", "hàng giữa yếu hơn hàng trên", "中道比头道小"),
        ("the middle is not a ten-high or better low", "hàng giữa không phải bài thấp 10 trở xuống", None),
        ("the rows are odd", "the rows are odd", "the rows are odd"),
    ],
)
def test_a_fouls_reason_is_said_again_from_its_rows(
    stored: str, vietnamese: str, chinese: str | None
) -> None:
    assert foul_words(stored) == stored
    with in_language(Language.VI):
        assert foul_words(stored) == vietnamese
    if chinese is not None:
        with in_language(Language.ZH_CN):
            assert foul_words(stored) == chinese


def test_the_pseudo_language_says_the_stored_words_again_so_its_screen_run_sees_them() -> None:
    with in_language(Language.PSEUDO):
        said = foul_words("the back is weaker than the middle")
    assert said.startswith("⟦") and not LATIN_WORD.search(
        said.replace("⟦", " ").replace("⟧", " ").replace("·", "")
    )
