"""One chain for the room: each session's opening links to the session before it, and anchors
kept elsewhere prove the database still holds the heads they recorded.

The tampers drop the append-only triggers first, as the owner of the database could."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlalchemy import select, text

from ofc_desk.reports.loader import load_session_record
from ofc_desk.reports.session_pdf import write_session_report
from ofc_desk.reports.shift import ShiftWindow, shift_report
from ofc_desk.reports.shift_pdf import write_shift_report
from ofc_desk.reports.table_close_pdf import write_table_close_report
from ofc_desk.service import SeatSetup, TableRules, TableService, TableSetup
from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.room.room_chain import append_anchor, room_head
from ofc_desk.service.table.commands import Settle, StartHand
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.storage import append_only
from ofc_desk.storage.audit import GENESIS_HASH
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, TableSession
from tests.helpers.pdf_text import page_texts
from tests.helpers.replay_helpers import run_cli
from tests.helpers.table_helpers import ANN_QQ, BOB_PLAIN, DatabaseCopy, dealer, play_hand

# The room of three (`copied_room`) is played once a worker: one worker runs this module and
# test_verify_workers, which copies it too.
pytestmark = pytest.mark.xdist_group("room chain history")


def open_table(database: Database, name: str) -> TableService:
    seats = (SeatSetup("Ann", 100), SeatSetup("Bob", 100))
    return TableService.open(database, TableSetup(name, seats, "Bob", TableRules()), dealer(database))


def three_tables(database: Database) -> None:
    """Three tables, each opened after the one before it played a hand."""
    for name in ("Table 1", "Table 2", "Table 3"):
        play_hand(open_table(database, name), {"Ann": ANN_QQ, "Bob": BOB_PLAIN})


@pytest.fixture
def copied_room(database_copy: DatabaseCopy) -> tuple[Database, list[int]]:
    """The three tables (played once a test process): this test's copy to tamper with, and its
    sessions in the order they opened (test_verify_workers takes it too)."""
    database = database_copy(three_tables)
    with database.session() as session:
        ids = list(session.scalars(select(TableSession.id).order_by(TableSession.id)))
    assert len(ids) == 3
    return database, ids


def as_owner(database: Database, *statements: str, **values: object) -> None:
    with database.engine.begin() as connection:
        append_only.remove_all(connection)
        for statement in statements:
            connection.execute(text(statement), values)


def delete_session(database: Database, session_id: int) -> None:
    as_owner(
        database,
        "DELETE FROM transfers WHERE hand_id IN (SELECT id FROM hands WHERE session_id = :id)",
        "DELETE FROM chip_ledger WHERE session_id = :id",
        "DELETE FROM hands WHERE session_id = :id",
        "DELETE FROM signatures WHERE session_id = :id",
        "DELETE FROM entry_marks WHERE session_id = :id",
        "DELETE FROM events WHERE session_id = :id",
        "DELETE FROM table_sessions WHERE id = :id",
        id=session_id,
    )


def cut_to_opening(database: Database, session_id: int) -> None:
    """Cut a session back to its opening and move its head there, as a careful forger would."""
    with database.session() as session:
        opening = session.scalars(
            select(Event.hash).where(Event.session_id == session_id, Event.seq == 1)
        ).one()
    as_owner(
        database,
        "DELETE FROM transfers WHERE hand_id IN (SELECT id FROM hands WHERE session_id = :id)",
        "DELETE FROM chip_ledger WHERE session_id = :id"
        " AND event_id <> (SELECT MIN(id) FROM events WHERE session_id = :id)",
        "DELETE FROM hands WHERE session_id = :id",
        "DELETE FROM signatures WHERE session_id = :id AND seq > 1",
        "DELETE FROM entry_marks WHERE session_id = :id AND seq > 1",
        "DELETE FROM events WHERE session_id = :id AND seq > 1",
        "UPDATE table_sessions SET head_seq = 1, head_hash = :head WHERE id = :id",
        id=session_id,
        head=opening,
    )


def test_each_opening_links_to_the_head_of_the_session_before_it(database: Database) -> None:
    first = open_table(database, "Table 1")
    play_hand(first, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    head_when_second_opened = first.snapshot().last_event_hash
    second = open_table(database, "Table 2")
    with database.session() as session:
        links = dict(session.execute(select(Event.session_id, Event.prev_hash).where(Event.seq == 1)).all())
    assert links[first.snapshot().session_id] == GENESIS_HASH  # the first table of the database
    assert links[second.snapshot().session_id] == head_when_second_opened
    verify_database(database)


def test_a_deleted_session_breaks_the_room_chain(copied_room: tuple[Database, list[int]]) -> None:
    database, (first, second, third) = copied_room
    delete_session(database, second)
    with pytest.raises(
        VerifyFault, match=f"session {third}'s opening links to .* session {first} no longer holds"
    ):
        verify_database(database)


def test_a_session_cut_short_below_the_next_ones_link_breaks_the_room_chain(
    copied_room: tuple[Database, list[int]],
) -> None:
    database, (first, second, _) = copied_room
    cut_to_opening(database, first)
    with pytest.raises(VerifyFault, match=f"session {second}'s opening links to .*deleted or cut short"):
        verify_database(database)


def test_the_newest_session_cut_short_is_caught_by_an_anchor(
    copied_room: tuple[Database, list[int]], tmp_path: Path
) -> None:
    database, (*_, newest) = copied_room
    anchors = tmp_path / "anchors.txt"
    head = append_anchor(database, anchors)
    assert head is not None and head.session_id == newest
    assert verify_database(database, anchors).anchors == 1
    cut_to_opening(database, newest)
    verify_database(database)  # nothing links to the newest session's tail: only the anchor knows
    with pytest.raises(
        VerifyFault, match=f"event {head.seq} of session {newest} is no longer in the database"
    ):
        verify_database(database, anchors)


def test_openings_at_once_on_two_desks_link_in_turn(database: Database) -> None:
    opened: list[int] = []
    errors: list[BaseException] = []

    def open_one(name: str) -> None:
        try:
            opened.append(open_table(database, name).snapshot().session_id)
        except BaseException as error:  # reported below, not lost in the thread
            errors.append(error)

    threads = [threading.Thread(target=open_one, args=(f"Table {n}",)) for n in range(1, 5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and len(opened) == 4
    verify_database(database)


def test_anchor_and_verify_anchors_from_the_command_line(
    copied_room: tuple[Database, list[int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database, _ = copied_room
    database_url = database.url
    anchors = tmp_path / "anchors.txt"
    status, out, _ = run_cli(capsys, "anchor", "--db", database_url, "--to", str(anchors))
    head = room_head(database)
    assert status == 0 and head is not None and out == f"anchored {head.line()}\n"
    assert anchors.read_text(encoding="utf-8") == head.line() + "\n"
    status, out, _ = run_cli(capsys, "verify", "--db", database_url, "--anchors", str(anchors))
    assert status == 0 and "every anchored head present (1 anchor)" in out
    anchors.write_text(head.line() + "\nnot an anchor\n", encoding="utf-8")
    status, out, err = run_cli(capsys, "verify", "--db", database_url, "--anchors", str(anchors))
    assert (status, out) == (2, "") and "line 2 is not an anchor" in err


def test_anchor_refuses_a_database_with_no_table(
    migrated_database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Database(migrated_database_url).dispose()
    status, _, err = run_cli(capsys, "anchor", "--db", migrated_database_url, "--to", str(tmp_path / "a.txt"))
    assert status == 1 and "nothing to anchor" in err and not (tmp_path / "a.txt").exists()


def test_a_desk_with_an_anchor_file_anchors_every_event_it_records(
    database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each confirmed street too: a live hand is anchored as it is dealt, not only when settled."""
    anchors = tmp_path / "share" / "anchors.txt"
    anchors.parent.mkdir()
    monkeypatch.setenv("OFC_DESK_ANCHOR_FILE", str(anchors))
    service = open_table(database, "Table 1")
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN}, settle=False)
    with database.session() as session:
        hashes = session.scalars(select(Event.hash).order_by(Event.seq)).all()
    lines = anchors.read_text(encoding="utf-8").splitlines()
    assert [line.split()[5] for line in lines] == hashes and service.anchor_fault is None
    not_a_folder = tmp_path / "share-gone"
    not_a_folder.write_text("", encoding="utf-8")  # the share's mount point, now a plain file
    service.anchor_file = not_a_folder / "anchors.txt"
    service.do(Settle())
    assert service.anchor_fault is not None and "hand settled, but not anchored" in service.anchor_fault
    assert service.snapshot().hand_number == 2  # the settlement stands
    assert verify_database(database, anchors).anchors == len(hashes)


def test_the_report_prints_the_rooms_head_when_it_was_read(
    copied_room: tuple[Database, list[int]], tmp_path: Path
) -> None:
    database, (first, *_) = copied_room
    record = load_session_record(database, session_id=first)
    head = room_head(database)
    assert head is not None and head.session_id != first and record.room_head == head.line()
    pdf = tmp_path / "report.pdf"
    write_session_report(record, str(pdf))
    printed = "".join(page_texts(pdf)).replace("\n", "")
    assert head.hash in printed


def test_the_table_close_and_shift_reports_print_the_rooms_head(
    copied_room: tuple[Database, list[int]], tmp_path: Path
) -> None:
    database, (first, *_) = copied_room
    head = room_head(database)
    assert head is not None
    close_pdf, shift_pdf = tmp_path / "close.pdf", tmp_path / "shift.pdf"
    write_table_close_report(load_session_record(database, session_id=first), str(close_pdf), None)
    write_shift_report(shift_report(database, ShiftWindow(None, None)), str(shift_pdf))
    for pdf in (close_pdf, shift_pdf):
        printed = "".join(page_texts(pdf))
        assert head.hash in printed.replace("\n", ""), pdf.name


def first_street(service: TableService, cards: str) -> None:
    """The player to act places five cards on their back row."""
    turn = service.snapshot().to_act
    assert turn is not None and turn.place == 5
    service.do(Place(turn.player, cards, ["back"] * 5))


def cut_last_event(database: Database, session_id: int) -> None:
    """Delete a live hand's last street and move the session's head back onto the one before it."""
    with database.session() as session:
        head, before = session.scalars(
            select(Event).where(Event.session_id == session_id).order_by(Event.seq.desc()).limit(2)
        ).all()
    as_owner(
        database,
        "DELETE FROM entry_marks WHERE event_id = :id",
        "DELETE FROM events WHERE id = :id",
        "UPDATE table_sessions SET head_seq = :seq, head_hash = :hash WHERE id = :session",
        id=head.id,
        seq=before.seq,
        hash=before.hash,
        session=session_id,
    )


def test_a_street_cut_from_a_live_hand_is_caught_by_the_anchor_the_desk_wrote_with_it(
    database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    anchors = tmp_path / "anchors.txt"
    monkeypatch.setenv("OFC_DESK_ANCHOR_FILE", str(anchors))
    table = open_table(database, "Table 1")
    table.do(StartHand())
    first_street(table, "2c 3c 4c 5c 6c")
    first_street(table, "2d 3d 4d 5d 6d")
    cut_last_event(database, table.session_id)
    verify_database(database)  # a hand still being dealt: nothing but the anchor knows its tail
    with pytest.raises(VerifyFault, match="event 4 of session 1 is no longer in the database"):
        verify_database(database, anchors)


def test_an_older_open_table_cut_after_a_newer_one_linked_it_is_caught_by_the_floors_anchor(
    database: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older = open_table(database, "Table 1")
    older.do(StartHand())
    first_street(older, "2c 3c 4c 5c 6c")
    open_table(database, "Table 2")  # links to the older table's head as it stands
    first_street(older, "2d 3d 4d 5d 6d")
    anchors = tmp_path / "anchors.txt"
    assert run_cli(capsys, "anchor", "--db", database.url, "--to", str(anchors))[0] == 0
    line = anchors.read_text(encoding="utf-8")
    assert "session 2 event 1 " in line and "session 1 event 4 " in line and " accounts " in line
    cut_last_event(database, older.session_id)
    verify_database(database)  # the link is below the cut: only the older table's anchored head knows
    with pytest.raises(VerifyFault, match="event 4 of session 1 is no longer in the database"):
        verify_database(database, anchors)


def test_an_anchor_written_before_accounts_were_anchored_is_still_read(
    database: Database, tmp_path: Path
) -> None:
    table = open_table(database, "Table 1")
    play_hand(table, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    head = room_head(database)
    assert head is not None
    anchors = tmp_path / "anchors.txt"
    anchors.write_text(
        f"{head.at} session {head.session_id} event {head.seq} {head.hash} Table 1\n", encoding="utf-8"
    )
    assert verify_database(database, anchors).anchors == 1
