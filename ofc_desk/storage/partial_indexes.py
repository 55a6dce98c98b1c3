"""The models' partial indexes (an index over the rows a WHERE holds), given their WHERE in the terms
of each database's dialect as it is opened. Apart from `storage.models` so that opening a database
does not load SQLAlchemy's ORM and the models (a floor's first listing reads without them, issue
39); either may come first: an index made after a database opened gets that dialect's WHERE then."""

from __future__ import annotations

from sqlalchemy import Index, text

PARTIAL_INDEX_DIALECTS = frozenset({"sqlite", "postgresql"})
"""The databases whose indexes take a WHERE (a partial index): both the room's and a desk's."""
_partial_indexes: list[tuple[Index, str]] = []
_dialects_opened: set[str] = set()


def partial_index(name: str, *columns: str, where: str, unique: bool = False) -> Index:
    """An index over the rows `where` holds. Its WHERE is given to the index for the dialect of a
    database when one is opened (`give_partial_indexes_their_where`), not here: naming
    `postgresql_where` at import made SQLAlchemy load its whole PostgreSQL dialect (to check the
    option) into every desk on SQLite, tens of milliseconds of its start. The schema itself is
    made by the migrations (0003, 0008), which say the same WHERE."""
    index = Index(name, *columns, unique=unique)
    _partial_indexes.append((index, where))
    # Each side writes, then reads the other's: a database opened on another thread meanwhile
    # is seen here or sees this index (a copy: that thread may add to the set as this reads it).
    for dialect_name in tuple(_dialects_opened):
        _give_where(index, where, dialect_name)
    return index


def give_partial_indexes_their_where(dialect_name: str) -> None:
    """The partial indexes' WHERE said in `dialect_name`'s terms (`sqlite_where`, …), for
    Alembic's view of the models on that database, those made so far and any made later; a
    dialect without partial indexes gets none. Said again by every database opened: the same
    clause each time."""
    if dialect_name not in PARTIAL_INDEX_DIALECTS:
        return
    _dialects_opened.add(dialect_name)
    for index, where in tuple(_partial_indexes):
        _give_where(index, where, dialect_name)


def _give_where(index: Index, where: str, dialect_name: str) -> None:
    options = index.dialect_options[dialect_name]
    if options.get("where") is None:
        options["where"] = text(where)
