"""`alembic_version` set back passed verify (issue 25). The revision is no part of the record, but
it decides which migrations the next start runs over the history: verify holds it to what the
tables and the history show (storage/schema_revision.py). A set-back from 0007 to 0006 is shown by
migration 0007's pins (test_pinned_rules.py)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import text

from ofc_desk.cli.main import main
from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.storage import schema_revision
from ofc_desk.storage.database import Database
from ofc_desk.storage.room_schema import RoomNotReady
from tests.helpers.table_helpers import open_test_table


@contextmanager
def revision_set_to(database: Database, revision: str) -> Iterator[None]:
    """The revision set back for the test and put right after it: a start would otherwise run the
    migrations again over this database (which the suite may use again)."""
    with database.engine.begin() as connection:
        head = connection.scalar(text("SELECT version_num FROM alembic_version"))
        connection.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    try:
        yield
    finally:
        with database.engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": head})


@pytest.mark.parametrize(
    ("revision", "fault"),
    [
        ("0005", "but the database has a table account_events, which a later migration made"),
        ("0003", "but the database has a table account_events, which a later migration made"),
        ("0001", "but the database has a table account_events, which a later migration made"),
    ],
)
def test_a_revision_set_back_below_what_the_tables_show_fails_verify(
    database: Database, revision: str, fault: str, capsys: pytest.CaptureFixture[str]
) -> None:
    open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    verify_database(database)
    with revision_set_to(database, revision):
        with pytest.raises(VerifyFault) as raised:
            verify_database(database)
        assert str(raised.value) == (
            f"the schema revision reads {revision}, {fault}: alembic_version was set back, and the next"
            " start would run migrations again over a history they were already run on"
        )
        assert main(["verify", "--db", database.url]) == 1
    assert capsys.readouterr().out.startswith(f"verify failed: the schema revision reads {revision}, but")


def test_a_revision_this_program_does_not_know_fails_verify(database: Database) -> None:
    unknown = pytest.raises(
        VerifyFault, match="the schema revision reads 0099, which this ofc-desk does not know"
    )
    with revision_set_to(database, "0099"), unknown:
        verify_database(database)


def test_a_database_not_yet_upgraded_is_verified_as_it_stands(database_url: str) -> None:
    """An older schema that shows nothing of a later one is one a newer ofc-desk has not upgraded
    yet (a copy kept for the records, say): verify reads it as before."""
    database = Database(database_url, migrate=False)
    try:
        database.migrate("0006")
        assert verify_database(database).sessions == 0
    finally:
        database.dispose()


def test_the_newest_migration_file_is_named_by_the_head_revision() -> None:
    """verify, and a start, read the migrations only when the stored revision is not the newest
    file's name."""
    assert (schema_revision.newest_file(),) == tuple(schema_revision.shipped_migrations().get_heads())


def test_a_start_does_not_migrate_a_schema_whose_revision_was_set_back(database: Database) -> None:
    """What verify names, a start refuses: it would run migration 0006 again over its own tables."""
    with revision_set_to(database, "0005"):
        with pytest.raises(RoomNotReady, match="reads 0005, but the database has a table account_events"):
            Database(database.url).dispose()
        with database.engine.connect() as connection:
            assert connection.scalar(text("SELECT version_num FROM alembic_version")) == "0005"


def test_a_start_on_a_current_schema_reads_no_migration(tmp_path: Path) -> None:
    """Opening a database already at the newest migration imports no Alembic (a desk's start: a
    tenth of the time to the first key), and says where the schema stands all the same."""
    url = f"sqlite:///{tmp_path / 'current.db'}"
    Database(url).dispose()
    started = (
        "import sys\n"
        "from ofc_desk.storage.database import Database\n"
        f"database = Database({url!r})\n"
        "state = database.schema_state()\n"
        "assert state.current and state.known and database.schema_revision() == state.revision\n"
        "assert 'alembic' not in sys.modules, 'Alembic imported'\n"
    )
    subprocess.run([sys.executable, "-c", started], check=True)
