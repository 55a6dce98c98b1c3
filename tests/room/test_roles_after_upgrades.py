"""A card room's roles after an upgrade: PIN checks recorded before their chain (migration 0008)
stop no login from signing in, and the roles' SQL, run by an administrator with psql or applied
by the owner, leaves nothing the other cannot run again."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from ofc_desk.cli.main import main
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.roles import RoomRoles, apply_roles, chained_check, room_roles_sql
from ofc_desk.storage.roles_state import roles_state
from ofc_desk.storage.users import Role, sign_in
from tests.helpers.room_logins import as_login, libpq
from tests.helpers.room_scripts import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN

pytestmark = pytest.mark.postgres

POLICY_BEHIND = "the policy on sign_in_attempts does not follow the newest chained PIN check"

OLD_CHECKS = (
    "INSERT INTO sign_in_attempts (name, role, outcome, at) VALUES"
    " ('Dana', 'dealer', 'refused', '2026-11-24T10:00:00.000000Z'),"
    " ('Dana', 'dealer', 'accepted', '2026-11-24T10:00:05.000000Z')"
)
"""Two PIN checks as a desk of migration 0005 to 0007 recorded them: no hash, no signature."""
ACCOUNTS = [(SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN), (DEALER, Role.DEALER, DEALER_PIN)]


def _apply(url: str, roles: RoomRoles) -> None:
    owner = Database(url, migrate=False)
    try:
        with owner.engine.connect() as connection:
            apply_roles(connection, room_roles_sql(connection, roles))
    finally:
        owner.dispose()


@pytest.fixture
def upgraded_room(room_url: str, roles: RoomRoles) -> Iterator[str]:
    """A room whose PIN checks began at migration 0007, upgraded to the newest schema, its
    accounts made and its roles applied."""
    owner = Database(room_url, migrate=False)
    try:
        owner.migrate("0007")
        with owner.engine.begin() as connection:
            connection.execute(text(OLD_CHECKS))
        owner.migrate()
        create_accounts(
            owner, [(SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN), (DEALER, Role.DEALER, DEALER_PIN)]
        )
    finally:
        owner.dispose()
    _apply(room_url, roles)
    yield room_url


def test_every_role_signs_in_after_pin_checks_from_before_their_chain(
    upgraded_room: str, roles: RoomRoles
) -> None:
    """The first chained check follows the genesis hash, in Python and in the row policy alike
    (before, the policy took the old row's empty hash for the head and refused every login)."""
    for login, name, pin in ((roles.table, DEALER, DEALER_PIN), (roles.floor, SUPERVISOR, SUPERVISOR_PIN)):
        desk = Database(as_login(upgraded_room, login))
        try:
            assert sign_in(desk, name, pin).name == name
        finally:
            desk.dispose()
    owner = Database(upgraded_room, migrate=False)
    try:
        assert verify_database(owner).set_aside == ()
        with owner.engine.connect() as connection:
            assert roles_state(connection, roles).current
    finally:
        owner.dispose()


def test_the_upgrade_mends_the_sign_in_policy_of_roles_applied_before(
    room_url: str, roles: RoomRoles
) -> None:
    """A room upgraded and its roles applied under 0.1.0 (the policy of then) signs in once the
    owner runs `ofc-desk db upgrade` again: migration 0010 sets the policy."""
    owner = Database(room_url, migrate=False)
    try:
        owner.migrate("0007")
        with owner.engine.begin() as connection:
            connection.execute(text(OLD_CHECKS))
        owner.migrate("0009")
        create_accounts(owner, ACCOUNTS)
        with owner.engine.connect() as connection:
            apply_roles(connection, room_roles_sql(connection, roles))
            schema = str(connection.scalar(text("SELECT quote_ident(current_schema())")))
            then = chained_check(schema).replace(" WHERE a.hash <> ''", "")
            connection.exec_driver_sql(
                f"ALTER POLICY ofc_desk_chained ON sign_in_attempts WITH CHECK ({then})"
            )
            connection.commit()
            assert POLICY_BEHIND in roles_state(connection, roles).words
        owner.migrate()
        with owner.engine.connect() as connection:
            # The policy is mended by the upgrade alone; tables of later migrations (desk_holds)
            # still take their grants from `db roles --apply`, as README's step 7 says.
            assert POLICY_BEHIND not in roles_state(connection, roles).words
            apply_roles(connection, room_roles_sql(connection, roles))
            connection.commit()
            assert roles_state(connection, roles).current
    finally:
        owner.dispose()
    _every_role_signs_in(room_url, roles)


def test_db_status_names_a_sign_in_policy_that_follows_an_unchained_check(
    upgraded_room: str, roles: RoomRoles
) -> None:
    owner = Database(upgraded_room, migrate=False)
    try:
        with owner.engine.begin() as connection:
            connection.execute(text("ALTER POLICY ofc_desk_chained ON sign_in_attempts WITH CHECK (true)"))
            state = roles_state(connection, roles)
    finally:
        owner.dispose()
    assert state.words == (
        "not current: the policy on sign_in_attempts does not follow the newest chained PIN check"
    )


@pytest.fixture
def owned_room(room_url: str, roles: RoomRoles) -> Iterator[tuple[str, str]]:
    """A room whose database and tables belong to a login that is no superuser (the room's owner,
    as `CREATE DATABASE room OWNER them` makes it), at migration
    0008 with its accounts: (the administrator's URL, the owner's URL). The administrator is the
    server's superuser, who runs the printed SQL with psql."""
    owner = f"{roles.table.removesuffix('_table')}_owner"
    with psycopg.connect(libpq(room_url), autocommit=True) as connection:
        schema = connection.execute("SELECT current_schema()").fetchone()
        assert schema is not None
        connection.execute(f"CREATE ROLE {owner} LOGIN CREATEROLE")
        connection.execute(f"ALTER DATABASE {connection.info.dbname} OWNER TO {owner}")
        connection.execute(f'ALTER SCHEMA "{schema[0]}" OWNER TO {owner}')
    owner_url = as_login(room_url, owner)
    database = Database(owner_url, migrate=False)
    try:
        database.migrate("0008")  # the next upgrade adds a table the roles get no grant on by themselves
        create_accounts(
            database, [(SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN), (DEALER, Role.DEALER, DEALER_PIN)]
        )
    finally:
        database.dispose()
    yield room_url, owner_url
    with psycopg.connect(libpq(room_url), autocommit=True) as connection:
        connection.execute(f"REASSIGN OWNED BY {owner} TO CURRENT_USER")
        connection.execute(f"DROP OWNED BY {owner}")
        connection.execute(f"DROP ROLE {owner}")


def _run_printed_sql(admin_url: str, roles: RoomRoles) -> None:
    """What README's roles step has an administrator do: print the SQL, run it with psql (which
    runs and commits each statement by itself)."""
    admin = Database(admin_url, migrate=False)
    try:
        with admin.engine.connect() as connection:
            statements = room_roles_sql(connection, roles)
    finally:
        admin.dispose()
    with psycopg.connect(libpq(admin_url), autocommit=True) as connection:
        for statement in statements:
            connection.execute(statement.encode("utf-8"))


def _upgrade_and_apply(owner_url: str, roles: RoomRoles) -> None:
    owner = Database(owner_url, migrate=False)
    try:
        owner.migrate()
        with owner.engine.connect() as connection:
            apply_roles(connection, room_roles_sql(connection, roles))
            assert roles_state(connection, roles).words.startswith("current")
    finally:
        owner.dispose()


def _every_role_signs_in(url: str, roles: RoomRoles) -> None:
    for login, name, pin in ((roles.table, DEALER, DEALER_PIN), (roles.floor, SUPERVISOR, SUPERVISOR_PIN)):
        desk = Database(as_login(url, login))
        try:
            assert sign_in(desk, name, pin).name == name
        finally:
            desk.dispose()


def test_the_owner_applies_the_roles_after_an_administrator_ran_their_sql(
    owned_room: tuple[str, str], roles: RoomRoles
) -> None:
    """Before, the administrator owned the checks at commit and the owner's `--apply` after the
    next upgrade failed: "must be owner of function ofc_desk_event_in_chain"."""
    admin_url, owner_url = owned_room
    _run_printed_sql(admin_url, roles)
    _upgrade_and_apply(owner_url, roles)
    _every_role_signs_in(owner_url, roles)


def test_an_administrator_runs_the_sql_after_the_owner_applied_it(
    owned_room: tuple[str, str], roles: RoomRoles
) -> None:
    admin_url, owner_url = owned_room
    _upgrade_and_apply(owner_url, roles)
    _run_printed_sql(admin_url, roles)
    owner = Database(owner_url, migrate=False)
    try:
        with owner.engine.connect() as connection:
            assert roles_state(connection, roles).words.startswith("current")
            apply_roles(connection, room_roles_sql(connection, roles))
    finally:
        owner.dispose()
    _every_role_signs_in(owner_url, roles)


def test_a_check_an_administrator_still_owns_is_named_and_the_owner_applies_all_the_same(
    owned_room: tuple[str, str], roles: RoomRoles
) -> None:
    """The checks an administrator made with the SQL of 0.1.0 stay theirs (only they can give
    them away); the owner's `--apply` leaves an unchanged one as it is, and `db status` says who
    must run the SQL once more."""
    admin_url, owner_url = owned_room
    _run_printed_sql(admin_url, roles)
    with psycopg.connect(libpq(admin_url), autocommit=True) as connection:
        connection.execute("ALTER FUNCTION ofc_desk_event_in_chain() OWNER TO CURRENT_USER")
        admin = connection.execute("SELECT current_user").fetchone()
    assert admin is not None
    owner = Database(owner_url, migrate=False)
    try:
        owner.migrate()
        with owner.engine.connect() as connection:
            apply_roles(connection, room_roles_sql(connection, roles))
            words = roles_state(connection, roles).words
    finally:
        owner.dispose()
    owner_login = owner_url.split("://", 1)[1].split("@", 1)[0]
    assert words == (
        f"not current: the function ofc_desk_event_in_chain belongs to {admin[0]}, not to the tables'"
        f" owner {owner_login}: {admin[0]} runs the SQL of `ofc-desk db roles` once more"
    )
    _run_printed_sql(admin_url, roles)
    _every_role_signs_in(owner_url, roles)


def test_the_roles_bind_the_room_database_to_its_own_logins(upgraded_room: str, roles: RoomRoles) -> None:
    """Roles are the server's; the room's database is not: another room's login (or any login the
    server has) may not connect to it once its roles are applied, and `db status` says when every
    login may."""
    stranger = f"{roles.table.removesuffix('_table')}_elsewhere"
    with psycopg.connect(libpq(upgraded_room), autocommit=True) as connection:
        database = connection.info.dbname
        connection.execute(f"CREATE ROLE {stranger} LOGIN")
    try:
        with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
            psycopg.connect(libpq(as_login(upgraded_room, stranger))).close()
    finally:
        with psycopg.connect(libpq(upgraded_room), autocommit=True) as connection:
            connection.execute(f"DROP ROLE {stranger}")
    _every_role_signs_in(upgraded_room, roles)
    owner = Database(upgraded_room, migrate=False)
    try:
        with owner.engine.begin() as connection:
            connection.execute(text(f"GRANT CONNECT ON DATABASE {database} TO PUBLIC"))
            connection.execute(text(f"REVOKE CONNECT ON DATABASE {database} FROM {roles.floor}"))
            words = roles_state(connection, roles).words
            connection.execute(text(f"REVOKE CONNECT ON DATABASE {database} FROM PUBLIC"))
    finally:
        owner.dispose()
    assert words == (
        f"not current: {roles.floor} may not connect to the database {database};"
        f" every login of the server may connect to the database {database}"
    )


def test_two_rooms_of_one_server_each_take_roles_of_their_own(
    migrated_room_url: str, roles: RoomRoles, capsys: pytest.CaptureFixture[str]
) -> None:
    """Roles given to two rooms' databases reach both: `db status` names the other room, and
    `--roles NAME` gives each room its own."""
    names = roles.table.removesuffix("_table")
    Database(migrated_room_url).dispose()
    second = f"{names}_second"
    with psycopg.connect(libpq(migrated_room_url), autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {second} TEMPLATE template0")
    second_url = (
        make_url(migrated_room_url).set(database=second, query={}).render_as_string(hide_password=False)
    )
    try:
        Database(second_url).dispose()
        for url in (migrated_room_url, second_url):
            assert main(["db", "roles", "--db", url, "--roles", names, "--apply"]) == 0
        capsys.readouterr()
        assert main(["--db", migrated_room_url, "db", "status", "--roles", names]) == 1
        roles_line = capsys.readouterr().out.splitlines()[2]
        for role in (roles.floor, roles.table):
            assert (
                f"{role} may connect to the database {second} too: a room there needs roles of its own"
                " (ofc-desk db roles --roles NAME)"
            ) in roles_line
        assert main(["db", "roles", "--db", second_url, "--roles", f"{names}_b", "--apply"]) == 0
        with psycopg.connect(libpq(second_url), autocommit=True) as connection:
            connection.execute(f"REVOKE CONNECT ON DATABASE {second} FROM {roles.table}, {roles.floor}")
        capsys.readouterr()
        assert main(["--db", migrated_room_url, "db", "status", "--roles", names]) == 0
        assert main(["--db", second_url, "db", "status", "--roles", f"{names}_b"]) == 0
    finally:
        with psycopg.connect(libpq(migrated_room_url), autocommit=True) as connection:
            connection.execute(f"DROP DATABASE {second} WITH (FORCE)")
            for role in (f"{names}_b_table", f"{names}_b_floor"):
                connection.execute(f"DROP ROLE IF EXISTS {role}")
