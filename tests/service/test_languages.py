"""The service speaks the reader's language: a refusal, an audit-log sentence and a count are
made in the language active where they are asked for (issue 29), from the same stored events."""

from __future__ import annotations

import pytest

from ofc_desk.i18n import Language, in_language
from ofc_desk.service import ActionRefused, TableService, audit_log
from ofc_desk.service.store.sentences import audit_sentence
from ofc_desk.service.table.commands import Rebuy, StartHand
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.service.terms.events import EventKind, LedgerKind
from ofc_desk.storage.database import Database
from tests.helpers.table_helpers import open_test_table


@pytest.fixture
def pineapple(database: Database) -> TableService:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy", variant="pineapple")
    service.do(StartHand())
    service.do(Place("Ann", "As Kd 7h Qs 2s", "back back middle middle front"))
    return service


def refusal(service: TableService, cards: str, rows: str) -> str:
    with pytest.raises(ActionRefused) as caught:
        service.check_typing(Place("Bob", cards, rows))
    return str(caught.value)


def test_a_refusal_is_said_in_the_active_language(pineapple: TableService) -> None:
    assert refusal(pineapple, "Qs", "front") == "Qs is already in Ann's middle"
    with in_language(Language.RU):
        assert refusal(pineapple, "Qs", "front") == "Qs уже лежит у игрока Ann: средний ряд"
        assert refusal(pineapple, "Jh Jh", "front back") == "Jh введена дважды"
    with in_language(Language.ZH_CN):
        assert refusal(pineapple, "Qs", "front") == "Qs 已在 Ann 的中道"
    assert refusal(pineapple, "Qs", "front") == "Qs is already in Ann's middle"


def test_an_audit_sentence_is_made_when_read_in_the_readers_language(pineapple: TableService) -> None:
    records = audit_log(pineapple.database, pineapple.session_id)
    placed = next(record for record in records if record.kind == EventKind.PLACED)
    assert audit_sentence(placed) == "Ann: As back, Kd back, 7h middle, Qs middle, 2s front"
    with in_language(Language.RU):
        assert audit_sentence(placed) == "Ann: As нижний, Kd нижний, 7h средний, Qs средний, 2s верхний"
    with in_language(Language.ZH_CN):
        assert audit_sentence(placed) == "Ann: As 尾道, Kd 尾道, 7h 中道, Qs 中道, 2s 头道"


def test_a_count_takes_the_russian_form_its_number_needs(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    amounts = (1, 3, 5, 21)
    for amount in amounts:
        service.do(Rebuy("Ann", amount))
    rebuys = [r for r in audit_log(database, service.session_id) if r.kind == EventKind.REBOUGHT]
    with in_language(Language.RU):
        said = [audit_sentence(record) for record in rebuys]
    assert said == [
        "Ann сделал ребай на 1 фишку",
        "Ann сделал ребай на 3 фишки",
        "Ann сделал ребай на 5 фишек",
        "Ann сделал ребай на 21 фишку",
    ]
    assert [audit_sentence(record) for record in rebuys] == [
        "Ann rebought 1 chip",
        "Ann rebought 3 chips",
        "Ann rebought 5 chips",
        "Ann rebought 21 chips",
    ]


def test_the_record_holds_no_sentence_whatever_the_language(database: Database) -> None:
    with in_language(Language.RU):
        service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
        service.do(Rebuy("Ann", 1000))
    payloads = [record.payload for record in audit_log(database, service.session_id)]
    assert {"player": "Ann", "amount": 1000} in payloads
    rebuy = next(r for r in audit_log(database, service.session_id) if r.kind == EventKind.REBOUGHT)
    with in_language(Language.VI):
        assert audit_sentence(rebuy) == "Ann đã mua thêm 1.000 chip"


@pytest.mark.parametrize("kind", list(LedgerKind))
def test_every_ledger_kind_has_its_words_in_each_language(kind: LedgerKind) -> None:
    """The records browser shows the chip ledger's kinds by these words: a new kind without them
    would fail here, not show its stored word to a Russian supervisor."""
    english = str(kind.label)
    with in_language(Language.RU):
        russian = str(kind.label)
    assert english and russian != english
