"""A card room's PostgreSQL server fails around each kind of action (issue 34): stopped before the
action or while it commits, and the desk's connection cut while it commits or while the dealer
waits. The action is refused in words that say nothing was recorded, the desk holds the table as
stored (whether or not the server answers), and once the server is back the same action is
accepted by the same desk, without a restart: stored once, nothing else, and `verify` passes.

One throw-away server for the module (`StoppableServer`: never the shared one), stopped and started
by the tests; each test deals at a table in a room of its own, a schema as the migrations leave it
that the module's pool resets after the test (tests/helpers/pooled_schemas.py) to its template's
rows, the migrations' and the two accounts (made once, as the SQLite fault tests' file is): in one
room shared by the module, each test's `verify` checked again every table the tests before it had
left (its cost grew with each test: half the module's CPU)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import psycopg
import pytest
from sqlalchemy import Connection, event
from sqlalchemy.engine import make_url

from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.terms.snapshot import SettlementPreview
from ofc_desk.storage.database import Database
from tests.helpers.fault_scenarios import (
    SCENARIOS,
    Prepared,
    Scenario,
    check_recorded_once,
    refused_as_stored,
    stored_events,
    with_accounts,
)
from tests.helpers.pooled_schemas import RoomSchemaPool
from tests.helpers.stoppable_postgres import NO_BINARIES, StoppableServer, stoppable_server

pytestmark = [pytest.mark.postgres, pytest.mark.xdist_group("postgres faults")]
APPLICATION = "ofc-desk-faults"


@pytest.fixture(scope="module")
def server() -> Iterator[StoppableServer]:
    with stoppable_server() as started:
        if started is None:
            pytest.skip(NO_BINARIES)
        yield started


@pytest.fixture(scope="module")
def schemas(server: StoppableServer) -> Iterator[RoomSchemaPool]:
    with ExitStack() as cleanup:
        yield RoomSchemaPool(server.url, cleanup, template_rows=with_accounts)


@pytest.fixture
def room(server: StoppableServer, schemas: RoomSchemaPool) -> Iterator[Database]:
    """The test's own room with the accounts (made once, in the pool's template, and copied with its
    rows); its schema given back with the server running."""
    url = schemas.take()
    database = Database(
        make_url(url).update_query_dict({"application_name": APPLICATION}).render_as_string(False)
    )
    yield database
    database.dispose()
    if not server.running:
        server.start()
    schemas.give_back(url)


@pytest.fixture
def running(server: StoppableServer) -> Iterator[StoppableServer]:
    """The server, running again after the test whatever happened in it."""
    yield server
    if not server.running:
        server.start()


class AtTheEventsCommit:
    """Runs `fault` once, just before the COMMIT of the next transaction that inserts an event
    (not a sign-in attempt's own commit before it): the action's transaction never reaches the
    server."""

    def __init__(self, database: Database, fault: Callable[[int], None]) -> None:
        self.fault = fault
        self.writing_an_event = False
        self.fired = 0
        self.engine = database.engine
        event.listen(self.engine, "before_cursor_execute", self._statement)
        event.listen(self.engine, "commit", self._before_commit)

    def _statement(self, _connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        self.writing_an_event |= statement.lstrip().upper().startswith("INSERT INTO EVENTS")

    def _before_commit(self, connection: Connection) -> None:
        if self.writing_an_event and not self.fired:
            self.fired += 1
            # psycopg's connection, which SQLAlchemy types as any DB-API connection or none.
            self.fault(connection.connection.dbapi_connection.info.backend_pid)  # type: ignore[union-attr]
        self.writing_an_event = False

    def remove(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._statement)
        event.remove(self.engine, "commit", self._before_commit)


def _prepare(scenario: Scenario, room: Database) -> tuple[Prepared, list[tuple[int, str, str, str]]]:
    prepared = scenario.prepare(room)
    return prepared, stored_events(room, prepared.desk.session_id)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=str)
def test_the_server_stopped_before_the_action(
    running: StoppableServer, room: Database, scenario: Scenario
) -> None:
    prepared, before = _prepare(scenario, room)
    shown = prepared.desk.snapshot()
    running.stop()
    said = refused_as_stored(prepared, shown)
    assert said.startswith("the database did not answer (")
    refused_as_stored(prepared, shown)  # still down: refused again, the table still as stored
    running.start()
    check_recorded_once(room, prepared, scenario, before)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=str)
def test_the_server_stopped_while_the_action_commits(
    running: StoppableServer, room: Database, scenario: Scenario
) -> None:
    """The desk's machine has taken the event when the server goes, and cannot read it back."""
    prepared, before = _prepare(scenario, room)
    shown = prepared.desk.snapshot()
    stopper = AtTheEventsCommit(room, lambda _pid: running.stop())
    try:
        said = refused_as_stored(prepared, shown)
    finally:
        stopper.remove()
    assert stopper.fired == 1 and not running.running
    assert said.startswith("the database did not answer (")
    refused_as_stored(prepared, shown)
    running.start()
    check_recorded_once(room, prepared, scenario, before)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=str)
def test_the_connection_cut_while_the_action_commits(
    running: StoppableServer, room: Database, scenario: Scenario
) -> None:
    prepared, before = _prepare(scenario, room)
    shown = prepared.desk.snapshot()
    cutter = AtTheEventsCommit(room, lambda pid: running.terminate([pid]))
    try:
        said = refused_as_stored(prepared, shown)
    finally:
        cutter.remove()
    assert cutter.fired == 1
    assert said.startswith("the database did not answer (")
    check_recorded_once(room, prepared, scenario, before)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=str)
def test_a_connection_cut_while_the_dealer_waits_is_not_seen(
    running: StoppableServer, room: Database, scenario: Scenario
) -> None:
    prepared, before = _prepare(scenario, room)
    _cut_the_rooms_connections(running)
    check_recorded_once(room, prepared, scenario, before)


def _cut_the_rooms_connections(server: StoppableServer) -> None:
    with psycopg.connect(server.libpq(), autocommit=True) as admin:
        pids = [
            pid
            for (pid,) in admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (APPLICATION,)
            )
        ]
    assert pids  # the room's pooled connections, idle between actions
    server.terminate(pids)


def test_what_the_desk_reads_for_an_award_table_while_the_server_is_down(
    running: StoppableServer, room: Database
) -> None:
    """The status line's pool and the settlement page's award are database reads the desk makes
    at every redraw, the one after a refusal too: while the server is down they say nothing
    (the refusal says why) instead of failing the redraw, and say their figures once it is back."""
    (award,) = (scenario for scenario in SCENARIOS if scenario.name == "award settlement")
    prepared, _before = _prepare(award, room)
    desk = prepared.desk
    answered = _pool_shown(desk)
    assert answered[0] is not None and answered[1] is not None
    running.stop()
    refused_as_stored(prepared, desk.snapshot())
    assert _pool_shown(desk) == (None, None)
    running.start()
    assert _pool_shown(desk) == answered


def _pool_shown(desk: TableService) -> tuple[str | None, SettlementPreview | None]:
    """The status line's pool and the settlement page's award, from one reading as a redraw's."""
    pool = desk.pool_shown()
    return desk.jackpot_words(pool), desk.settlement_preview(pool)
