"""`ofc-desk db roles`: a desk's login records a whole session, and PostgreSQL itself refuses it
anything else (rewriting or deleting events, altering the schema)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import errors
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ProgrammingError

from ofc_desk.cli.main import main
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.oversight.floor_decisions import decide_at_the_floor, seed_at_the_floor
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.store.pool_ledger import room_pool
from ofc_desk.service.table.commands import Request, StartHand, VoidHand
from ofc_desk.service.terms.events import FLOOR_WRITTEN, EventKind
from ofc_desk.storage.account_changes import change_pin, create_user, set_up_first_key
from ofc_desk.storage.database import Database
from ofc_desk.storage.lockout import attempt_hash
from ofc_desk.storage.pins import hash_pin
from ofc_desk.storage.roles import FLOOR_EVENT_KINDS, RoomRoles, apply_roles, room_roles_sql
from ofc_desk.storage.roles_state import roles_state
from ofc_desk.storage.users import Role, SignInError, sign_in
from tests.helpers.jackpot_awards import award_replay_script
from tests.helpers.migrated_files import MigratedTemplate
from tests.helpers.ofc_test_databases import needs_server
from tests.helpers.pooled_schemas import STRUCTURE, RoomSchemaPool, migrated_schema, schema_of
from tests.helpers.room_logins import as_login, libpq, own_roles, owner_sets_up_the_room
from tests.helpers.room_scripts import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN, table_script

DANA = ("Dana", "dealer", "1234")

# `recorded_room` is made once a worker (module scope): one worker runs the module's tests.
pytestmark = [pytest.mark.postgres, pytest.mark.xdist_group("roles' recorded room")]


@pytest.fixture
def room(migrated_room_url: str, roles: RoomRoles) -> Iterator[str]:
    """A migrated card room with its accounts, the roles applied once: applied again they leave
    the room as they found it (`test_the_roles_applied_again_leave_the_room_as_they_found_it`),
    and the module's `recorded_room` is refused everything on roles applied twice."""
    owner_sets_up_the_room(migrated_room_url, roles)
    yield migrated_room_url


@dataclass(frozen=True)
class SharedRoom:
    url: str
    roles: RoomRoles


@pytest.fixture(scope="module")
def recorded_room(
    request: pytest.FixtureRequest, postgres_url: str | None, room_schemas: RoomSchemaPool | None
) -> Iterator[SharedRoom]:
    """A `room` (roles of its own) with two tables recorded at the table role (`_recorded_room`),
    made once for the module's tests that only check that a role is refused something: a refused
    statement leaves the room as it was, so each such test sees the room every other one does."""
    with (
        migrated_schema(request, postgres_url, room_schemas) as url,
        own_roles(needs_server(postgres_url)) as roles,
    ):
        owner_sets_up_the_room(url, roles, times=2)
        _recorded_room(url, roles)
        yield SharedRoom(url, roles)


def _refused(url: str, role: str, statement: str) -> str:
    """PostgreSQL's refusal of `statement` run as `role` (the test fails if it runs)."""
    with (
        psycopg.connect(libpq(as_login(url, role))) as connection,
        pytest.raises(errors.InsufficientPrivilege) as refusal,
    ):
        connection.execute(statement)
    return str(refusal.value)


def test_a_desk_logged_in_as_the_table_role_records_a_whole_session(room: str, roles: RoomRoles) -> None:
    desk = Database(as_login(room, roles.table))  # starts as a desk does: the migration check included
    try:
        output = run_replay(desk, table_script("T1", 6, extras=True, close=True), resume=False)
        summary = verify_database(desk)
    finally:
        desk.dispose()
    assert len(output["hands"]) == 6
    assert "1 session" in summary.line()
    with psycopg.connect(libpq(room)) as owner:
        closed = owner.execute("SELECT closed_at IS NOT NULL FROM table_sessions").fetchone()
        kinds = {kind for (kind,) in owner.execute("SELECT kind FROM events")}
    assert closed == (True,)
    assert {"hand_voided", "chips_corrected", "cashed_out", "session_closed"} <= kinds


def _what_the_roles_set(url: str, roles: RoomRoles) -> tuple[object, list[Any], list[Any], list[Any]]:
    """Everything applying the roles sets, read from the catalog: the schema's structure with
    every grant, policy, function and trigger (`STRUCTURE`), who may connect to the database,
    the two roles' attributes and memberships."""
    names = [roles.table, roles.floor]
    with psycopg.connect(libpq(url)) as owner:
        structure = owner.execute(STRUCTURE, {"schema": schema_of(url)}).fetchone()
        database = owner.execute("SELECT datacl::text FROM pg_database WHERE datname = current_database()")
        attributes = owner.execute(
            "SELECT rolname, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin, rolreplication,"
            " rolconnlimit, rolbypassrls, rolconfig FROM pg_roles WHERE rolname = ANY(%(names)s) ORDER BY 1",
            {"names": names},
        )
        memberships = owner.execute(
            "SELECT roleid::regrole::text, member::regrole::text FROM pg_auth_members WHERE"
            " roleid::regrole::text = ANY(%(names)s) OR member::regrole::text = ANY(%(names)s) ORDER BY 1, 2",
            {"names": names},
        )
        return structure, database.fetchall(), attributes.fetchall(), memberships.fetchall()


def test_the_roles_applied_again_leave_the_room_as_they_found_it(room: str, roles: RoomRoles) -> None:
    """The roles' SQL is re-runnable: run again on a room whose roles are current, it runs and
    changes nothing it sets (so each `room` applies them once)."""
    first = _what_the_roles_set(room, roles)
    owner = Database(room, migrate=False)
    try:
        with owner.engine.connect() as connection:
            apply_roles(connection, room_roles_sql(connection, roles))
        with owner.engine.connect() as connection:
            assert roles_state(connection, roles).current
    finally:
        owner.dispose()
    assert _what_the_roles_set(room, roles) == first
    assert len(first[2]) == 2 and first[0] is not None  # both roles read, and the schema


def test_the_table_role_cannot_rewrite_or_delete_events(recorded_room: SharedRoom) -> None:
    room, roles = recorded_room.url, recorded_room.roles
    rewrite = "UPDATE events SET actor = 'x'"
    assert "permission denied for table events" in _refused(room, roles.table, rewrite)
    assert "permission denied for table events" in _refused(room, roles.table, "DELETE FROM events")
    assert "permission denied" in _refused(room, roles.table, "TRUNCATE events")
    assert "permission denied" in _refused(room, roles.table, "DELETE FROM chip_ledger")
    assert "permission denied" in _refused(room, roles.table, "UPDATE hands SET jackpot = 0")
    # Only the columns the event flow moves: never which table a session is.
    assert "permission denied" in _refused(room, roles.table, "UPDATE table_sessions SET table_name = 'x'")


@pytest.mark.parametrize("which", ["table", "floor"])
@pytest.mark.parametrize(
    "statement",
    [
        "ALTER TABLE events ADD COLUMN note TEXT",
        "DROP TABLE events",
        "CREATE TABLE shadow (id INTEGER)",
        "CREATE FUNCTION nothing() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END'",
    ],
)
def test_neither_role_can_change_the_schema(recorded_room: SharedRoom, which: str, statement: str) -> None:
    roles = recorded_room.roles
    role = roles.table if which == "table" else roles.floor
    message = _refused(recorded_room.url, role, statement)
    assert "must be owner" in message or "permission denied" in message


def test_the_floor_reads_everything_and_records_only_decisions_on_requests(
    room: str, roles: RoomRoles
) -> None:
    desk = Database(as_login(room, roles.table))
    run_replay(desk, table_script("T1", 2, extras=False, close=False), resume=False)
    desk.dispose()
    floor = create_engine(as_login(room, roles.floor))
    insert = (  # the next event of the table's chain: the only one a role may insert
        "INSERT INTO events (session_id, seq, kind, actor, at, payload, prev_hash, hash) "
        "SELECT 1, head_seq + 1, :kind, 'Sam', 'now', '{}', head_hash, 'y' FROM table_sessions"
    )
    with floor.begin() as connection:
        head_seq = connection.scalar(text("SELECT head_seq FROM table_sessions"))
        assert connection.scalar(text("SELECT count(*) FROM events")) == head_seq
        assert connection.scalar(text("SELECT count(*) FROM chip_ledger")) > 0
        connection.execute(text(insert), {"kind": EventKind.REQUEST_DECIDED.value})
        connection.rollback()
    with floor.begin() as connection, pytest.raises(ProgrammingError, match="row-level security"):
        connection.execute(text(insert), {"kind": EventKind.HAND_VOIDED.value})
    floor.dispose()
    assert "permission denied" in _refused(room, roles.floor, "UPDATE events SET actor = 'x'")
    assert "permission denied" in _refused(room, roles.floor, "DELETE FROM events")
    assert "permission denied" in _refused(room, roles.floor, "INSERT INTO chip_ledger DEFAULT VALUES")
    assert "permission denied" in _refused(room, roles.floor, "UPDATE table_sessions SET closed_at = 'x'")
    assert set(FLOOR_EVENT_KINDS) == {kind.value for kind in FLOOR_WRITTEN}


def _desk_at_the_table_role(room: str, roles: RoomRoles, hands: int) -> TableService:
    """T1 replayed for `hands` hands at the desks' login, and resumed there by its dealer."""
    desk_database = Database(as_login(room, roles.table))
    run_replay(desk_database, table_script("T1", hands, extras=False, close=False), resume=False)
    return TableService.resume(desk_database, 1, sign_in(desk_database, DEALER, DEALER_PIN))


def test_a_supervisor_at_the_floor_role_approves_a_request_the_desk_carries_out(
    room: str, roles: RoomRoles
) -> None:
    desk = _desk_at_the_table_role(room, roles, hands=2)
    desk.do(Request(VoidHand(1, "misdeal"), "cards exposed"))
    floor = Database(as_login(room, roles.floor))
    try:
        said = decide_at_the_floor(floor, 1, 1, True, SUPERVISOR, SUPERVISOR_PIN)
    finally:
        floor.dispose()
    assert said == "request #1 at T1 approved by Sam"
    desk.catch_up()
    assert desk.carry_out_approved() == ["request #1 done: void hand 1, approved by Sam"]
    verify_database(desk.database)
    desk.database.dispose()


def test_a_supervisor_at_the_floor_role_seeds_the_room_jackpot_between_hands(
    room: str, roles: RoomRoles
) -> None:
    """The seed's event and its row of the room's pool, at the floor's login; the desk folds it in."""
    desk = _desk_at_the_table_role(room, roles, hands=1)
    floor = Database(as_login(room, roles.floor))
    try:
        said = seed_at_the_floor(floor, 1, 1500, SUPERVISOR, SUPERVISOR_PIN)
    finally:
        floor.dispose()
    assert said == "Sam seeded the room's jackpot with 1,500 at T1: it holds 1,500"
    assert desk.catch_up() and room_pool(desk.database) == 1500
    desk.do(StartHand())  # the desk records on after the floor's seed
    verify_database(desk.database)
    desk.database.dispose()
    assert "permission denied" in _refused(room, roles.floor, "DELETE FROM jackpot_moves")


def test_db_roles_prints_the_sql_for_the_database_schema(
    migrated_room_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    Database(migrated_room_url).dispose()
    assert main(["db", "roles", "--db", migrated_room_url]) == 0
    sql = capsys.readouterr().out
    schema = make_url(migrated_room_url).query["options"]
    assert isinstance(schema, str)
    name = schema.removeprefix("-csearch_path=")
    assert f'REVOKE CREATE ON SCHEMA "{name}" FROM PUBLIC;' in sql
    assert "CREATE ROLE ofc_desk_table LOGIN" in sql
    assert "CREATE ROLE ofc_desk_floor LOGIN" in sql
    assert f'GRANT UPDATE (head_seq, head_hash, closed_at, opened_at) ON "{name}".table_sessions' in sql
    assert "DELETE" not in sql and "TRUNCATE" not in sql


def test_db_roles_refuses_sqlite_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], migrated_template: MigratedTemplate
) -> None:
    migrated_template.copy(tmp_path / "desk.db")  # a desk's file, at the newest migration
    url = f"sqlite:///{tmp_path}/desk.db"
    assert main(["db", "roles", "--db", url]) == 2
    assert capsys.readouterr().err == (
        "ofc-desk db roles: roles are for a PostgreSQL card room: SQLite has no roles or grants\n"
    )


def test_applying_the_roles_again_takes_back_any_grant_given_by_hand(room: str, roles: RoomRoles) -> None:
    with psycopg.connect(libpq(room), autocommit=True) as owner:
        owner.execute(f"GRANT UPDATE, DELETE ON events TO {roles.table}")
    database = Database(room, migrate=False)
    with database.engine.connect() as connection:
        apply_roles(connection, room_roles_sql(connection, roles))
    database.dispose()
    assert "permission denied for table events" in _refused(room, roles.table, "DELETE FROM events")


def test_an_upgraded_account_gets_its_key_from_a_supervisor_and_never_from_the_table_role(
    room_url: str, roles: RoomRoles
) -> None:
    """Accounts made before sign-offs (schema 0005) are imported without keys, and cannot sign in
    until a supervisor's signed approval gives them one. The table role writes no account: not a
    `key_added` with someone else's key for a keyless supervisor (issue 25's forgery (c)), not a
    user's key columns. The owner's set-up gives the first supervisor a key; she approves the rest."""
    owner = Database(room_url, migrate=False)
    owner.migrate("0005")
    with owner.engine.begin() as connection:
        for name, role, pin in (("Sam", "supervisor", "98769876"), ("Flo", "supervisor", "24682468"), DANA):
            connection.execute(
                text("INSERT INTO users (name, role, pin_hash, created_at) VALUES (:n, :r, :h, :at)"),
                {"n": name, "r": role, "h": hash_pin(pin), "at": "2026-11-01T18:00:00.000000Z"},
            )
    owner.migrate()
    with owner.engine.connect() as connection:
        apply_roles(connection, room_roles_sql(connection, roles))
    desk = Database(as_login(room_url, roles.table))
    try:
        with pytest.raises(SignInError, match="no key since an upgrade"):
            sign_in(desk, "Dana", "1234")
        forged = (
            "INSERT INTO account_events"
            " (seq, kind, name, approved_by, at, payload, prev_hash, hash, signature)"
            " SELECT max(seq) + 1, 'key_added', 'Flo', 'Flo', 'now', '{}', '', '', '' FROM account_events"
        )
        assert "permission denied for table account_events" in _refused(room_url, roles.table, forged)
        keyed = "UPDATE users SET public_key = 'ab', sealed_key = 'cd' WHERE name = 'Flo'"
        assert "permission denied for table users" in _refused(room_url, roles.table, keyed)
        with pytest.raises(SignInError, match="records tables, not accounts: the room's owner sets up"):
            set_up_first_key(desk, "Sam", "98769876", "98769876")
        sam = set_up_first_key(owner, "Sam", "98769876", "98769876")
        with pytest.raises(SignInError, match="records tables, not accounts"):
            change_pin(desk, "Dana", "1234", "1234", sign_in(desk, "Sam", "98769876"))
        change_pin(owner, "Dana", "1234", "1234", sam)
        assert sign_in(desk, "Dana", "1234").key is not None
        verify_database(desk)
    finally:
        desk.dispose()
        owner.dispose()


# ------------------------------------------------------------------ no one row silences a session
# A desk's login could insert a bogus signature or ledger row for any session, after which that
# session never verified and none of its reports printed (issue 25). Each role now inserts only
# what its own events need; a signature that does not hold is set aside by verify, named.
def _recorded_room(room: str, roles: RoomRoles) -> None:
    """Two tables at the table role: T1 closed after 2 hands, T2 open after 1."""
    desk = Database(as_login(room, roles.table))
    try:
        run_replay(desk, table_script("T1", 2, extras=False, close=True), resume=False)
        run_replay(desk, table_script("T2", 1, extras=False, close=False), resume=False)
    finally:
        desk.dispose()


def _event_after_head(session: int, step: int = 1, prev_hash: str = "head_hash") -> str:
    """An event `step` numbers after a session's head, following `prev_hash`."""
    return (
        "INSERT INTO events (session_id, seq, kind, actor, at, payload, prev_hash, hash)"
        f" SELECT {session}, head_seq + {step}, 'sat_out', 'Dana', 'now', '{{}}', {prev_hash}, 'y'"
        f" FROM table_sessions WHERE id = {session}"
    )


ONE_ROW_INSERTS = {
    "a signature over an event the session does not hold": (
        "INSERT INTO signatures (session_id, seq, hash, signer, signature) VALUES (2, 999, 'x', 'Dana', 'ab')"
    ),
    "a signature over a hash the event does not have": (
        "INSERT INTO signatures (session_id, seq, hash, signer, signature)"
        " SELECT 2, seq, 'x', 'Dana', 'ab' FROM events WHERE session_id = 2 AND seq = 1"
    ),
    "a chip ledger row for a recorded event": (
        "INSERT INTO chip_ledger (session_id, event_id, hand_number, player, kind, amount, note)"
        " SELECT 2, id, NULL, 'Ann', 'rebuy', 1000, '' FROM events WHERE session_id = 2 AND seq = 1"
    ),
    "a hand row taking the next hand's number": (
        "INSERT INTO hands (session_id, event_id, number, button, fantasyland, result, rake, jackpot,"
        " settled_at) SELECT 2, id, 2, 'Ann', '{}', '{}', '{}', 0, at FROM events"
        " WHERE session_id = 2 AND kind = 'hand_settled'"
    ),
    "a transfer row for a settled hand": (
        "INSERT INTO transfers (hand_id, ordinal, from_player, to_player, owed, paid, reason)"
        " SELECT id, 99, 'Ann', 'Bob', 5, 5, '' FROM hands WHERE session_id = 2"
    ),
    "an event after the head of a closed session": _event_after_head(1),
    "an event two after an open session's head": _event_after_head(2, step=2),
    "an event that does not follow the head": _event_after_head(2, prev_hash="'x'"),
}


@pytest.mark.parametrize("statement", ONE_ROW_INSERTS.values(), ids=ONE_ROW_INSERTS.keys())
def test_the_table_role_may_not_insert_a_row_no_event_of_its_own_needs(
    recorded_room: SharedRoom, statement: str
) -> None:
    assert "row-level security" in _refused(recorded_room.url, recorded_room.roles.table, statement)


COMMITTED_ALONE = {
    "the next event, with the head left where it was": (
        _event_after_head(2),
        "of session 2 lies beyond its chain head",
    ),
    "a session row without its opening": (
        "INSERT INTO table_sessions (table_name, opened_at, head_seq, head_hash)"
        " VALUES ('T9', 'now', 0, 'x')",
        "is recorded only with its opening event",
    ),
    "a closed session row": (
        "INSERT INTO table_sessions (table_name, opened_at, closed_at, head_seq, head_hash)"
        " VALUES ('T9', 'now', 'now', 0, 'x')",
        "is recorded only with its opening event",
    ),
}


@pytest.mark.parametrize(("statement", "refusal"), COMMITTED_ALONE.values(), ids=COMMITTED_ALONE.keys())
def test_an_event_or_a_session_row_is_refused_at_commit_without_the_head_moved_onto_it(
    recorded_room: SharedRoom, statement: str, refusal: str
) -> None:
    """An event beyond the head took the next number the desk would write (the table stopped), a
    session row alone held its table "open" and was linked to by every later session."""
    room = recorded_room.url
    with (
        psycopg.connect(libpq(as_login(room, recorded_room.roles.table))) as connection,
        pytest.raises(errors.RaiseException) as raised,
    ):
        connection.execute(statement)
        connection.commit()
    assert refusal in str(raised.value)
    desk = Database(room)
    try:
        assert "2 sessions" in verify_database(desk).line()
    finally:
        desk.dispose()


def test_the_floor_may_sign_only_an_event_the_session_holds(recorded_room: SharedRoom) -> None:
    statement = ONE_ROW_INSERTS["a signature over an event the session does not hold"]
    assert "row-level security" in _refused(recorded_room.url, recorded_room.roles.floor, statement)


def test_a_signature_that_does_not_hold_is_set_aside_and_the_report_still_prints(
    room: str, roles: RoomRoles, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a role may still insert, a signature row over a real event whose bytes prove nothing,
    is named by verify and not counted; the session verifies and its report prints."""
    _recorded_room(room, roles)
    with psycopg.connect(libpq(as_login(room, roles.table))) as connection:
        row = connection.execute(
            "INSERT INTO signatures (session_id, seq, hash, signer, signature) SELECT 2, seq, hash, 'Sam',"
            " repeat('0', 128) FROM events WHERE session_id = 2 AND kind = 'hand_settled' RETURNING id, seq"
        ).fetchone()
    assert row is not None
    said = f"session 2: signature row {row[0]} ('Sam' on event number {row[1]}) does not hold"
    assert main(["verify", "--db", room]) == 0
    out = capsys.readouterr().out
    assert "1 row set aside (below)" in out and f"set aside: {said}" in out
    assert main(["report", "--db", room, "--session", "2", "--out", str(tmp_path / "t2.pdf")]) == 0
    assert said in capsys.readouterr().err and (tmp_path / "t2.pdf").stat().st_size > 0


def test_db_status_says_when_the_roles_lack_what_holds_their_inserts_to_their_events(
    room: str, roles: RoomRoles
) -> None:
    """A room whose roles were applied before these checks is told to apply them again."""
    owner = Database(room, migrate=False)
    try:
        with owner.engine.begin() as connection:
            assert roles_state(connection, roles).current
            connection.execute(text("DROP POLICY ofc_desk_signs ON signatures"))
            connection.execute(text("DROP TRIGGER ofc_desk_event_in_chain ON events"))
            connection.execute(text("ALTER POLICY ofc_desk_desk_records ON events WITH CHECK (true)"))
            state = roles_state(connection, roles)
    finally:
        owner.dispose()
    assert not state.current
    assert state.words.startswith(
        "not current: the desk's policy on events does not hold it to the next event of a chain;"
        " signatures lacks its policy ofc_desk_signs;"
        " events lacks its check at commit ofc_desk_event_in_chain"
    )


def _sign_in_row(prev_hash: str, hash_: str, name: str = "Dana", outcome: str = "refused") -> str:
    return (
        "INSERT INTO sign_in_attempts (name, role, outcome, at, prev_hash, hash)"
        f" SELECT '{name}', '', '{outcome}', '2026-11-25T10:00:00.000000Z', {prev_hash}, {hash_}"
    )


NEWEST = "(SELECT hash FROM sign_in_attempts ORDER BY id DESC LIMIT 1)"


@pytest.mark.parametrize(
    "statement",
    [
        _sign_in_row(NEWEST, "''"),
        _sign_in_row("'x'", "'y'"),
        _sign_in_row(NEWEST, "'not its hash'"),
        _sign_in_row(NEWEST, "'y'", outcome="guessed"),
    ],
    ids=["outside the chain", "after no check", "a hash that is not its own", "no outcome the lockout knows"],
)
def test_a_pin_check_is_inserted_only_as_the_next_link_of_their_chain(
    room: str, roles: RoomRoles, statement: str
) -> None:
    """One such row made the room's verify fail for good (the chain of PIN checks broken)."""
    owner = Database(room)
    sign_in(owner, "Dana", "1234")  # a check recorded: the chain has a head
    owner.dispose()
    for role in (roles.table, roles.floor):
        assert "row-level security" in _refused(room, role, statement)


def test_an_accepted_pin_check_no_key_signed_is_set_aside_and_counted_as_wrong(
    room: str, roles: RoomRoles
) -> None:
    """What a role may still insert, a chained accepted try without its key's signature: verify
    names it and goes on; the lockout counts it as a wrong PIN (tests/storage/test_sign_in.py).
    Names the SQL hash must spell as Python does: an accent, a quote, an emoji."""
    owner = Database(room)
    sam = sign_in(owner, "Sam", "98769876", Role.SUPERVISOR)
    create_user(owner, 'Zoë "Z" 😀', Role.DEALER, "5678", approver=sam)
    owner.dispose()
    desk = Database(as_login(room, roles.table))
    try:
        assert sign_in(desk, 'Zoë "Z" 😀', "5678").key is not None  # recorded through the role's check
        with desk.engine.connect() as connection:
            last = connection.scalar(text(f"SELECT {NEWEST}"))
        at = "2026-11-25T10:00:00.000000Z"
        forged = _sign_in_row(
            f"'{last}'", f"'{attempt_hash(str(last), 'Dana', '', 'accepted', at)}'", outcome="accepted"
        )
        with psycopg.connect(libpq(as_login(room, roles.table)), autocommit=True) as connection:
            connection.execute(forged)
        said, dated = verify_database(desk).set_aside
    finally:
        desk.dispose()
    assert "records an accepted PIN that Dana's key did not sign" in said
    assert dated.endswith(
        "is dated before the PIN check before it: one of the two was written to move a wait,"
        " which it does not"
    )


def test_a_desk_logged_in_as_the_table_role_seeds_and_pays_the_room_jackpot(
    room: str, roles: RoomRoles
) -> None:
    """The room's pool is derived rows of the desk's own events: the table role writes them."""
    desk = Database(as_login(room, roles.table))
    try:
        output = run_replay(desk, award_replay_script("T1", seed=1000), resume=False)
        verify_database(desk)
    finally:
        desk.dispose()
    assert output["hands"][0]["result"]["jackpot"]["pool_before"] == 1000
    assert "permission denied" in _refused(room, roles.table, "UPDATE jackpot_moves SET chips = 0")
