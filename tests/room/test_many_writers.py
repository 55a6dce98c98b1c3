"""Many writers, one truth: two desks opening one table at once, and a desk whose database
connection is killed in the middle of recording an action. Nothing is lost or doubled, the loser
is told why in plain words, and the desk carries on without being restarted."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from functools import partial

import psycopg
import pytest
from sqlalchemy import Connection, event, func, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from ofc_desk.service import ActionRefused, SeatSetup, TableRules, TableService, TableSetup
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.oversight.floor_decisions import decide_at_the_floor
from ofc_desk.service.table.commands import (
    Command,
    CorrectChips,
    DecideRequest,
    Rebuy,
    Request,
    Settle,
    StartHand,
)
from ofc_desk.service.table.games.ofc.commands import Place, Reveal
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, TableSession
from ofc_desk.storage.users import Role, sign_in
from tests.helpers.concurrent_calls import at_once
from tests.helpers.room_scripts import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN, example_script

pytestmark = pytest.mark.postgres
OPENINGS = 5  # races run; each one a fresh table name


@pytest.fixture
def room(migrated_room_url: str) -> Iterator[Database]:
    database = Database(migrated_room_url)
    create_accounts(
        database, [(SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN), (DEALER, Role.DEALER, DEALER_PIN)]
    )
    yield database
    database.dispose()


def _setup(name: str) -> TableSetup:
    script = example_script()
    seats = tuple(SeatSetup(seat["name"], seat["buy_in"]) for seat in script["seats"])
    return TableSetup(name, seats, script["button"], TableRules.from_json(script))


def test_two_desks_opening_one_table_at_once_one_wins_the_other_is_told(room: Database) -> None:
    desks = [Database(room.url), Database(room.url)]  # two table machines, two connections
    dana = sign_in(room, DEALER, DEALER_PIN)
    try:
        for race in range(1, OPENINGS + 1):
            name = f"T{race}"
            outcomes = at_once([partial(TableService.open, desk, _setup(name), dana) for desk in desks])
            opened = [o for o in outcomes if isinstance(o, TableService)]
            refused = [o for o in outcomes if isinstance(o, ActionRefused)]
            assert (len(opened), len(refused)) == (1, 1), outcomes
            session_id = opened[0].session_id
            assert str(refused[0]) == (
                f"{name} already has an open session ({session_id}): resume it, or close it first"
            )
    finally:
        for desk in desks:
            desk.dispose()
    with room.session() as session:
        per_table = session.execute(
            select(TableSession.table_name, func.count()).group_by(TableSession.table_name)
        ).all()
        events = session.scalar(select(func.count()).select_from(Event))
    assert sorted(per_table) == [(f"T{race}", 1) for race in range(1, OPENINGS + 1)]
    assert events == OPENINGS  # one table_opened each, nothing from the loser
    assert f"{OPENINGS} sessions" in verify_database(room).line()


RACES = 4


def test_a_desk_and_the_floor_deciding_one_request_at_once_one_wins_the_other_is_told(
    room: Database,
) -> None:
    """The desk's supervisor declines while the floor approves, released together, four times
    over: each request is decided exactly once, the other is told who decided first, and the desk
    deals on throughout."""
    floor = Database(room.url)  # the floor view's own connections
    desk = TableService.open(room, _setup("T1"), sign_in(room, DEALER, DEALER_PIN))
    try:
        for number in range(1, RACES + 1):
            desk.do(Request(CorrectChips("Ann", number, "r"), "count"))
            sue = (SUPERVISOR, SUPERVISOR_PIN)
            outcomes = at_once([
                partial(decide_at_the_floor, floor, desk.session_id, number, True, *sue),
                partial(desk.do, DecideRequest(number, False, supervisor=sue[0], pin=sue[1])),
            ])  # fmt: skip
            refused = [o for o in outcomes if isinstance(o, ActionRefused)]
            assert len(refused) == 1, outcomes
            assert re.fullmatch(
                rf"request #{number} was already (approved|declined) by {SUPERVISOR}", str(refused[0])
            )
            desk.catch_up()
        decided = [request.decision for request in desk.machine.requests.values()]
        assert all(decision is not None for decision in decided) and len(decided) == RACES
        desk.carry_out_approved()
    finally:
        floor.dispose()
    with room.session() as session:
        kinds = session.scalars(select(Event.kind).where(Event.session_id == desk.session_id)).all()
    assert kinds.count(EventKind.REQUEST_DECIDED) == RACES
    verify_database(room)


class _KillAtCommit:
    """Terminates the desk's server connection (pg_terminate_backend) just before the next
    COMMIT goes out: the action's transaction never reaches the database."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.armed = False
        self.killed = 0
        admin = make_url(database.url).set(drivername="postgresql")
        self.admin_url = admin.render_as_string(hide_password=False)
        event.listen(database.engine, "commit", self._before_commit)

    def _before_commit(self, connection: Connection) -> None:
        if not self.armed:
            return
        self.armed = False
        # psycopg's connection, which SQLAlchemy types as any DB-API connection or none.
        pid = connection.connection.dbapi_connection.info.backend_pid  # type: ignore[union-attr]
        _terminate(self.admin_url, [pid])
        self.killed += 1


def _terminate(admin_url: str, pids: list[int]) -> None:
    """pg_terminate_backend, then wait until the server has really dropped them (it only signals),
    so that nothing the desk sends next can slip through on the old connection."""
    with psycopg.connect(admin_url, autocommit=True) as admin:
        for pid in pids:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = ANY(%s)", (pids,)).fetchone():
            admin.execute("SELECT pg_sleep(0.01)")


@pytest.mark.parametrize("killed_at", ["a street", "the settlement"])
def test_a_desk_whose_connection_is_killed_mid_commit_carries_on(room: Database, killed_at: str) -> None:
    script = example_script()
    service = TableService.open(room, _setup("T1"), sign_in(room, DEALER, DEALER_PIN))
    killer = _KillAtCommit(room)
    for number, hand in enumerate(script["hands"][:3], start=1):
        for op in hand.get("between", ()):
            service.do(Rebuy(op["player"], op["amount"]))
        service.do(StartHand())
        actions = hand["actions"]
        for index, action in enumerate(actions):
            entry_of = Reveal if len(action["cards"].split()) >= 13 else Place
            entry = entry_of(action["player"], action["cards"], action["rows"])
            if number == 2 and index == len(actions) // 2 and killed_at == "a street":
                _refused_by_the_dropped_connection(service, killer, entry)
            service.do(entry)
        if number == 2 and killed_at == "the settlement":
            _refused_by_the_dropped_connection(service, killer, Settle())
        service.do(Settle())
    assert killer.killed == 1
    with room.session() as session:
        seqs = session.scalars(select(Event.seq).where(Event.session_id == service.session_id)).all()
    assert sorted(seqs) == list(range(1, len(seqs) + 1))  # no gap, nothing twice
    summary = verify_database(room)
    assert "3 hands" in summary.line()


def _refused_by_the_dropped_connection(
    service: TableService,
    killer: _KillAtCommit,
    command: Command,
) -> None:
    before = service.snapshot()
    killer.armed = True
    with pytest.raises(OperationalError):
        service.do(command)
    # The service rebuilt the table from what is stored, on a new connection: as it was.
    assert service.snapshot() == before


def test_a_connection_dropped_between_actions_is_replaced_without_a_word(
    migrated_room_url: str, room: Database
) -> None:
    """The server restarted, or a network link dropped, while the dealer waited for a card: the
    next action goes through on a new connection, the dealer sees nothing."""
    name = f"ofc_test_desk_{uuid.uuid4().hex[:12]}"
    desk = Database(f"{migrated_room_url}&application_name={name}", migrate=False)
    service = TableService.open(desk, _setup("T1"), sign_in(room, DEALER, DEALER_PIN))
    service.do(StartHand())
    admin_url = make_url(room.url).set(drivername="postgresql").render_as_string(hide_password=False)
    for action in example_script()["hands"][0]["actions"][:4]:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            pids = [
                pid
                for (pid,) in admin.execute(
                    "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (name,)
                )
            ]
        assert len(pids) == 1  # the desk's one pooled connection, idle between actions
        _terminate(admin_url, pids)
        service.do(Place(action["player"], action["cards"], action["rows"]))
    desk.dispose()
    assert service.snapshot().hand_number == 1
    assert "1 session, 6 events" in verify_database(room).line()
