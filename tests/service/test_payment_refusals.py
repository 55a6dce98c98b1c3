"""At a `pool` or `single-winner` table nobody surrenders (docs/rules.md §11): the service says so
before the desk offers it, and refuses one with the reason."""

from __future__ import annotations

import pytest

from ofc_desk.service.table.commands import StartHand
from ofc_desk.service.table.games.chinese.commands import Show
from ofc_desk.service.table.games.chinese.game import plays_surrender
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.storage.database import Database
from tests.helpers.table_helpers import open_test_table

SEATS = (("Ann", 50), ("Bob", 50), ("Cy", 50))


@pytest.mark.parametrize(
    ("preset", "plays"), [("pool", False), ("pusoy-single-winner", False), ("chinese-basic", True)]
)
def test_only_a_table_whose_preset_plays_a_surrender_offers_one(
    database: Database, preset: str, plays: bool
) -> None:
    service = open_test_table(database, SEATS, "Cy", variant="chinese", rules=preset)
    service.do(StartHand())
    assert plays_surrender(service.machine) is plays
    if not plays:
        with pytest.raises(ActionRefused, match="plays no surrender"):
            service.do(Show("Ann", surrender=True))


def test_an_ofc_table_offers_no_surrender(database: Database) -> None:
    service = open_test_table(database, SEATS[:2], "Bob")
    assert not plays_surrender(service.machine)
