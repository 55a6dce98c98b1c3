"""`verify` re-scores a Chinese poker session's hands beside its fold, as an OFC session's
(`games.chinese.rescoring`): each hand's deal goes to the second process, and a stored result the
core would not give is named there, though the fold went on with it."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from ofc_desk.service.audit import verify_session
from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.table.commands import Settle, SitIn, SitOut, StartHand
from ofc_desk.service.table.games.chinese.commands import Show
from ofc_desk.storage import append_only
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import HandRow
from tests.helpers.beside import hands_sent, rescored_beside
from tests.helpers.chinese_hands import ROWS, SEED_A, SEED_B
from tests.helpers.table_helpers import DatabaseCopy, open_test_table

SIX_PAIRS = "Tc Td 9c 9d 8c 8d 7c 7h 3c 3d 2c 2d Ac"
CY_SET = "3h 7s Ah 8d 9c Tc Jc Qc 2c 3c 4c 6c Kc"
"""By rows: ace high; a straight to the queen; a flush (none of Ann's SEED_A or Bob's SEED_B)."""

# Their history is played once a worker: one worker runs them all.
pytestmark = pytest.mark.xdist_group("chinese rescoring history")


def chinese_session(database: Database) -> None:
    """Three hands: a surrender; a declared six pairs with Cy sitting out (his pair unit with Ann
    not dealt); every hand set. The triggers are lifted, for a test to tamper."""
    service = open_test_table(
        database,
        [("Ann", 100), ("Bob", 100), ("Cy", 100)],
        "Cy",
        variant="chinese",
        rules="chinese-typical",
        pair_units=[{"players": ["Ann", "Cy"], "unit": 2}],
    )
    service.do(StartHand())
    service.do(Show("Ann", SEED_A, ROWS))
    service.do(Show("Bob", SEED_B, ROWS))
    service.do(Show("Cy", surrender=True))
    service.do(Settle())
    service.do(SitOut("Cy"))
    service.do(StartHand())
    service.do(Show("Ann", SIX_PAIRS, (), declare="six-pairs"))
    service.do(Show("Bob", SEED_B, ROWS))
    service.do(Settle())
    service.do(SitIn("Cy"))
    service.do(StartHand())
    service.do(Show("Ann", SEED_A, ROWS))
    service.do(Show("Bob", SEED_B, ROWS))
    service.do(Show("Cy", CY_SET, ROWS))
    service.do(Settle())
    with database.engine.begin() as connection:
        append_only.remove_all(connection)


@pytest.fixture
def history(database_copy: DatabaseCopy) -> Database:
    """The three hands (played once a run): this test's copy to tamper with."""
    return database_copy(chinese_session)


def test_an_untampered_chinese_session_verifies_with_its_hands_rescored_beside(
    history: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = verify_database(history)
    assert summary.hands == 3
    rescored_beside(monkeypatch)
    assert verify_database(history) == summary
    monkeypatch.setattr(verify_session, "rescore", hands_sent)
    with pytest.raises(VerifyFault, match=r"^chinese 1 chinese 2 chinese 3$"):
        verify_database(history)  # every hand was sent to the second process


TAMPERS = {
    1: ('"bonus":', '"bonus":9'),  # Ann's three sixes in front: a bonus settling does not read
    2: ('"for":"', '"for":"not '),  # the words on a transfer of the declared six pairs
    3: ('"hand":"', '"hand":"two '),  # a row's hand in words
}


@pytest.mark.parametrize("number", TAMPERS)
@pytest.mark.parametrize("beside", [False, True], ids=["one process", "rescored beside"])
def test_a_stored_chinese_result_the_rules_would_not_give_is_named(
    history: Database, monkeypatch: pytest.MonkeyPatch, number: int, beside: bool
) -> None:
    old, new = TAMPERS[number]
    with history.session() as session:
        hand = session.scalars(select(HandRow).where(HandRow.number == number)).one()
        assert old in hand.result
        hand.result = hand.result.replace(old, new, 1)
        session.commit()
    if beside:
        rescored_beside(monkeypatch)
    with pytest.raises(VerifyFault, match=f"^hand {number}: stored result differs from the rules$"):
        verify_database(history)
    if beside:  # the fold went on with the stored result: only the re-scoring beside it sees it
        monkeypatch.setattr(verify_session, "rescore", lambda stored, hands: None)
        assert verify_database(history).hands == 3
