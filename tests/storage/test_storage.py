"""Storage: schema through the migrations, durable SQLite settings, PIN hashing, the hash chain."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from pathlib import Path

import orjson
import platformdirs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import event, inspect, text

from ofc_desk.storage.account_changes import create_accounts, create_user
from ofc_desk.storage.audit import (
    GENESIS_HASH,
    canonical_json,
    event_hash,
    plain_canonical_json,
    read_json,
    spelt_canonically,
)
from ofc_desk.storage.connections import TEST_SYNCHRONOUS_VARIABLE, sqlite_synchronous
from ofc_desk.storage.database import Database, has_table
from ofc_desk.storage.models import Base
from ofc_desk.storage.pins import hash_pin, pin_matches
from ofc_desk.storage.room_schema import newest_revision
from ofc_desk.storage.users import Role, SignInError, sign_in
from tests.helpers.migrated_files import MigratedTemplate


def test_migrations_build_the_whole_schema(database_url: str) -> None:
    database = Database(database_url)
    database.migrate()  # a second run changes nothing
    tables = set(inspect(database.engine).get_table_names())
    assert set(Base.metadata.tables) <= tables
    with database.engine.connect() as connection:
        revision = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert revision == newest_revision()
    indexes = {index["name"]: index for index in inspect(database.engine).get_indexes("table_sessions")}
    assert indexes["uq_table_sessions_open_table"]["unique"]
    database.dispose()


@pytest.mark.durable
def test_sqlite_is_durable(tmp_path: Path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'desk.db'}")
    with database.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
    database.dispose()


def test_only_a_test_run_lowers_synchronous(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, migrated_template: MigratedTemplate
) -> None:
    """tests/conftest.py sets the variable for tests not marked durable; anything but OFF or
    NORMAL in it leaves the product's FULL (a setting of each connection: a copied file is as
    good as a new one)."""
    migrated_template.copy(tmp_path / "desk.db")
    database = Database(f"sqlite:///{tmp_path / 'desk.db'}")
    with database.engine.connect() as connection:
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 0  # OFF
    database.dispose()
    for value, expected in (("normal", "NORMAL"), ("full", "FULL"), ("0", "FULL"), ("", "FULL")):
        monkeypatch.setenv(TEST_SYNCHRONOUS_VARIABLE, value)
        assert sqlite_synchronous() == expected
    monkeypatch.delenv(TEST_SYNCHRONOUS_VARIABLE)
    assert sqlite_synchronous() == "FULL"


def test_default_database_lives_in_the_user_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda name: str(tmp_path / name))
    database = Database()
    assert database.url == f"sqlite:///{tmp_path / 'ofc-desk' / 'ofc-desk.db'}"
    assert (tmp_path / "ofc-desk" / "ofc-desk.db").exists()
    database.dispose()


def test_pins_are_salted_slow_hashes(migrated_database_url: str) -> None:
    database = Database(migrated_database_url)
    same_pin = "43214321"
    supervisor, _ = create_accounts(
        database, [("Sue", Role.SUPERVISOR, same_pin), ("Dan", Role.DEALER, same_pin)]
    )
    with database.engine.connect() as connection:
        stored = connection.execute(text("SELECT pin_hash FROM users ORDER BY name")).scalars().all()
    assert all(value.startswith("scrypt$") and same_pin not in value for value in stored)
    assert stored[0] != stored[1]
    assert sign_in(database, "Sue", same_pin, Role.SUPERVISOR).name == "Sue"
    with pytest.raises(SignInError, match=r"^wrong name or PIN$"):
        sign_in(database, "Sue", "1111")
    with pytest.raises(SignInError, match="there is already a user called Dan"):
        create_user(database, "Dan", Role.DEALER, "9999", approver=supervisor)
    with pytest.raises(SignInError, match="at least 4"):
        create_user(database, "Eve", Role.DEALER, "12", approver=supervisor)
    database.dispose()


def test_pin_check_refuses_other_pins() -> None:
    stored = hash_pin("2468")
    assert pin_matches("2468", stored)
    assert not pin_matches("2469", stored)
    assert not pin_matches("2468", "plain")


def test_event_hash_covers_every_field() -> None:
    fields = (GENESIS_HASH, 1, 1, "placed", "Dan", "2026-01-01T00:00:00.000000Z", '{"a":1}')
    digest = event_hash(*fields)
    assert len(digest) == 64
    assert digest == event_hash(*fields)
    for position, field in enumerate(fields):
        changed = list(fields)
        changed[position] = field + 1 if isinstance(field, int) else "x"
        assert event_hash(*changed) != digest  # type: ignore[arg-type]  # a list of str | int, each in place


def test_canonical_json_has_one_spelling() -> None:
    assert canonical_json({"b": [1, "Qh"], "a": "Ann"}) == '{"a":"Ann","b":[1,"Qh"]}'
    assert canonical_json({"a": "♥"}) == '{"a":"♥"}'


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(JSON_VALUES)
def test_canonical_json_spells_as_json_dumps_with_its_options(value: object) -> None:
    """Every stored chain fixes the spelling: the encoder built once must write what
    `json.dumps` with the canonical options writes."""
    assert canonical_json(value) == json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )


PLAIN_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(PLAIN_VALUES)
def test_plain_canonical_json_spells_as_json_dumps(value: object) -> None:
    """What the rules build (no float) is spelt by orjson exactly as the canonical spelling:
    numbers beyond 64 bits and lone surrogates, which orjson refuses, included."""
    assert plain_canonical_json(value) == json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )


def test_plain_canonical_json_escapes_every_character_as_json_does() -> None:
    every = "".join(chr(point) for point in range(0x110000) if not 0xD800 <= point < 0xE000)
    value = {every: [every, "\ud800", 2**64, -(2**63) - 1, True, None]}
    assert plain_canonical_json(value) == canonical_json(value)
    assert plain_canonical_json({1: "a"}) == canonical_json({1: "a"})  # a key that is not text


FINITE_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(FINITE_VALUES)
def test_a_payload_is_spelt_canonically_as_json_decides(value: object) -> None:
    """Orjson's spelling is asked first, but only json's canonical text passes: not orjson's own
    spelling of a float (1e-05 as 0.00001), spaces, or escapes json's canonical form has not."""
    spellings = [
        canonical_json(value),
        json.dumps(value, indent=1),
        json.dumps(value, sort_keys=True, separators=(",", ":")),
    ]
    with contextlib.suppress(TypeError):  # a number beyond 64 bits, a lone surrogate: orjson spells none
        spellings.append(orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode("utf-8"))
    for spelt in spellings:
        assert spelt_canonically(value, spelt) == (spelt == canonical_json(value))


def test_a_float_orjson_spells_otherwise_is_not_canonical() -> None:
    for value in ({"chips": 1e-05}, [1e-09, 2.5], {"a": 1e16}):
        assert spelt_canonically(value, canonical_json(value))
        assert not spelt_canonically(value, orjson.dumps(value).decode("utf-8").replace("e+", "e"))
    assert not spelt_canonically({"chips": 1e-05}, '{"chips":0.00001}')


@given(st.integers(1, 10**9), st.integers(1, 10**9), st.text(), st.text(), st.text(), st.text())
def test_event_hash_is_the_sha256_of_the_canonical_content(
    session_id: int, seq: int, kind: str, actor: str, at: str, payload: str
) -> None:
    content = {"session": session_id, "seq": seq, "kind": kind, "actor": actor, "at": at, "payload": payload}
    spelt = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    expected = hashlib.sha256((GENESIS_HASH + spelt).encode("utf-8")).hexdigest()
    assert event_hash(GENESIS_HASH, session_id, seq, kind, actor, at, payload) == expected


@given(JSON_VALUES, st.sampled_from(["", " ", "\n", "x", "]"]))
def test_stored_json_reads_as_json_loads_reads_it(value: object, around: str) -> None:
    for spelt in (
        canonical_json(value),
        json.dumps(value, indent=1),
        around + canonical_json(value) + around,
    ):
        try:
            expected = json.loads(spelt)
        except ValueError as refused:
            with pytest.raises(ValueError, match=re.escape(str(refused))):
                read_json(spelt)
        else:
            assert read_json(spelt) == expected


def test_a_field_stored_with_another_type_is_hashed_as_its_json() -> None:
    """A value put in by hand with another type (an integer time) hashes as its own JSON, never as
    the text it resembles."""
    as_text = event_hash(GENESIS_HASH, 1, 1, "placed", "Dan", "5", "{}")
    as_number = event_hash(GENESIS_HASH, 1, 1, "placed", "Dan", 5, "{}")  # type: ignore[arg-type]  # on purpose
    spelt = '{"actor":"Dan","at":5,"kind":"placed","payload":"{}","seq":1,"session":1}'
    assert as_number == hashlib.sha256((GENESIS_HASH + spelt).encode("utf-8")).hexdigest() != as_text


def _indexes(database: Database, table: str) -> dict[str, list[str | None]]:
    indexes = inspect(database.engine).get_indexes(table)
    return {index["name"] or "": index["column_names"] for index in indexes}


def test_migration_0014_finds_a_session_s_pool_rows_by_an_index(database_url: str) -> None:
    database = Database(database_url, migrate=False)
    database.migrate("0013")
    assert "ix_jackpot_moves_session" not in _indexes(database, "jackpot_moves")
    database.migrate()
    assert _indexes(database, "jackpot_moves")["ix_jackpot_moves_session"] == ["session_id", "id"]
    database.dispose()


def test_a_session_asks_the_database_once_whether_a_table_exists(migrated_database_url: str) -> None:
    database = Database(migrated_database_url)
    statements: list[str] = []

    def sent(_connection: object, _cursor: object, statement: str, *_: object) -> None:
        statements.append(statement)

    event.listen(database.engine, "before_cursor_execute", sent)
    asked = []
    with database.session() as session:
        for table, there in (("jackpot_moves", True), ("no_such_table", False)):
            for _ in range(2):
                assert has_table(session, table) is there
                asked.append(len(statements))
    # Each table's first answer is asked of the database; its second is not.
    first, again, other, other_again = asked
    assert 0 < first == again < other == other_again
    database.dispose()
