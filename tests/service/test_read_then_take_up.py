"""A desk may read a table while its dealer signs in (`read_table`) and take it up once they are in
(`take_up_table`): the table taken up is the table as stored then, what was recorded between the
two included, and a table another desk holds is refused as a resume is (issue 39)."""

from __future__ import annotations

import pytest

from ofc_desk.service import resume_table
from ofc_desk.service.front.queries import read_table, take_up_table
from ofc_desk.service.room.desk_holds import TableHeld, ThisDesk
from ofc_desk.service.table.commands import StartHand
from ofc_desk.storage.database import Database
from tests.helpers.table_helpers import dealer, open_test_table, play_hand, play_streets


def test_what_was_recorded_between_the_read_and_the_take_up_is_in_the_table(database: Database) -> None:
    service = open_test_table(database, [("Ann", 500), ("Bob", 500), ("Cy", 500)], "Cy")
    play_hand(service, {})
    service.do(StartHand())
    folded = read_table(database, service.session_id)
    play_streets(service, {})  # recorded by the desk that let the table go meanwhile
    taken = take_up_table(folded, dealer(database))
    assert taken.snapshot() == service.snapshot()
    assert taken.snapshot() == resume_table(database, service.session_id, dealer(database)).snapshot()


def test_a_table_held_by_another_desk_is_refused_at_the_take_up(database: Database) -> None:
    service = open_test_table(database, [("Ann", 500), ("Bob", 500)], "Bob")
    folded = read_table(database, service.session_id)
    resume_table(database, service.session_id, dealer(database), ThisDesk("PIT-1", "token-1"))
    with pytest.raises(TableHeld):
        take_up_table(folded, dealer(database), ThisDesk("PIT-2", "token-2"))
