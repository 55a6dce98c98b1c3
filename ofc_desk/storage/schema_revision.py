"""Whether a database's schema revision (`alembic_version`) says what its tables and history say.

The revision records no action of a table, so it is not part of the record; but it decides which
migrations the next start runs, and over which history. Set back, it would have a start run again
a migration that already ran: migration 0007 would append a second pin to every session that named
a preset, with the preset files as they read that day, and a migration that adds a table would stop
every desk from starting. So `verify` holds the revision to the evidence: a table or column a
later migration made, or an event a later migration wrote (its actor is "migration NNNN"), says the
revision was set back. A database at an older revision that shows nothing of a later one is one a
newer program has not upgraded yet: it is verified as it stands, as before.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, create_engine, inspect, text

from ofc_desk.i18n import _

if TYPE_CHECKING:  # Alembic is imported when a migration is read or run, not at each start
    from alembic.runtime.migration import RevisionStep
    from alembic.script import ScriptDirectory

RELEASED_SCHEMAS: dict[str, str] = {"0.1.0": "0009", "0.2.0": "0013", "0.3.0": "0014"}
"""Each version of OFC Desk, oldest first, with the newest migration it ships. A version once
released keeps its entry; a new migration comes with a new version ([project].version in
pyproject.toml) and its entry here, which tests/storage/test_versions.py holds to the migrations
and to the README's words."""
MIGRATIONS = Path(__file__).with_name("migrations")
"""The Alembic migrations this program ships."""
MIGRATION_ACTOR = "migration "
"""How an event appended by a migration names its actor ("migration 0007")."""


def upgrade(connection: Connection, revision: str) -> None:
    """Alembic's `upgrade` to `revision` on `connection`, with the migrations this process read
    already (`shipped_migrations`): Alembic's own command reads and compiles every migration script
    again at each call, a fifth of migrating a new SQLite file. What it runs is the command's own:
    the environment (migrations/env.py) and each step its revision map gives."""
    from alembic.config import Config
    from alembic.runtime.environment import EnvironmentContext

    config, script = Config(), shipped_migrations()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection  # what migrations/env.py runs on

    def steps(current: str, _context: object) -> list[RevisionStep]:
        return script._upgrade_revs(revision, current)  # as `alembic.command.upgrade` asks

    with EnvironmentContext(config, script, fn=steps, destination_rev=revision):
        script.run_env()


def revision_fault(connection: Connection) -> str | None:
    """Why the schema revision cannot be what it says, in words; None when it can."""
    if _at_newest(connection):
        return None  # no need to import Alembic or read the migrations (a tenth of a second each)
    from alembic.runtime.migration import MigrationContext
    from alembic.script.revision import RevisionError
    from alembic.util import CommandError

    stored = MigrationContext.configure(connection).get_current_heads()
    script = shipped_migrations()
    heads = set(script.get_heads())
    if set(stored) == heads:
        return None
    said = ", ".join(stored) or _("none")
    try:
        later = [
            revision.revision
            for revision in script.iterate_revisions("heads", stored or "base")
            if revision.revision not in stored
        ]
    except (CommandError, RevisionError):
        return _(
            "the schema revision reads {revision}, which this ofc-desk does not know (it knows up to"
            " {known}): verify the database with the ofc-desk that wrote it"
        ).format(revision=said, known=", ".join(sorted(heads)))
    mark = _written_by_migration(connection, set(later)) or _made_later(connection, stored)
    if mark is None:
        return None
    return _(
        "the schema revision reads {revision}, but {mark}: alembic_version was set back, and the next"
        " start would run migrations again over a history they were already run on"
    ).format(revision=said, mark=mark)


def _at_newest(connection: Connection) -> bool:
    """Whether `alembic_version` holds the newest migration and nothing else, read as Alembic reads
    its heads."""
    if not inspect(connection).has_table("alembic_version"):
        return False
    stored = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    return stored == [newest_file()]


def _written_by_migration(connection: Connection, later: set[str]) -> str | None:
    actors = connection.execute(
        text("SELECT DISTINCT actor FROM events WHERE actor LIKE :prefix"), {"prefix": MIGRATION_ACTOR + "%"}
    ).scalars()
    for actor in sorted(actors):
        if actor.removeprefix(MIGRATION_ACTOR) in later:
            return _("the history holds events that {actor} appended").format(actor=actor)
    return None


def _made_later(connection: Connection, stored: tuple[str, ...]) -> str | None:
    """A table or column of the database that the schema at `stored` does not have."""
    expected = _schema_at(stored)
    found = inspect(connection)
    for table in sorted(found.get_table_names()):
        if table not in expected:
            return _("the database has a table {table}, which a later migration made").format(table=table)
        extra = sorted({column["name"] for column in found.get_columns(table)} - expected[table])
        if extra:
            return _("the table {table} has a column {column}, which a later migration made").format(
                table=table, column=extra[0]
            )
    return None


@cache
def newest_file() -> str:
    """The revision of the newest migration file: each is named by its revision (0007_…)."""
    names = sorted(path.name.partition("_")[0] for path in (MIGRATIONS / "versions").glob("[0-9]*_*.py"))
    return names[-1] if names else ""


def pending_migrations(revision: str | None) -> list[str]:
    """The migrations an upgrade from `revision` (None: no tables yet) runs, in their order."""
    later = shipped_migrations().iterate_revisions("heads", revision or "base")
    return [script.revision for script in reversed(list(later)) if script.revision != revision]


@cache
def shipped_migrations() -> ScriptDirectory:
    """The migrations this program ships, read once a process (here and by `database`)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(MIGRATIONS))


@cache
def _schema_at(revisions: tuple[str, ...]) -> dict[str, frozenset[str]]:
    """Each table of the schema the migrations make up to `revisions`, with its columns: built
    in memory, once a process."""
    scratch = create_engine("sqlite://")
    try:
        with scratch.begin() as connection:
            for revision in revisions:
                upgrade(connection, revision)
            made = inspect(connection)
            return {
                table: frozenset(column["name"] for column in made.get_columns(table))
                for table in made.get_table_names()
            }
    finally:
        scratch.dispose()
