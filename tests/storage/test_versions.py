"""The version moves on with the schema: each version of OFC Desk names the newest migration it
ships (`schema_revision.RELEASED_SCHEMAS`), so a new migration without a new version fails here,
and the README says the revision and the version this program has, never a hand-written one."""

from __future__ import annotations

import re
from pathlib import Path

from ofc_desk import __version__
from ofc_desk.storage.room_schema import newest_revision
from ofc_desk.storage.schema_revision import RELEASED_SCHEMAS, shipped_migrations

README = Path(__file__).resolve().parents[2] / "README.md"


def _version(words: str) -> tuple[int, ...]:
    return tuple(int(part) for part in words.split("."))


def test_this_version_is_the_newest_release_and_names_the_newest_migration() -> None:
    assert list(RELEASED_SCHEMAS)[-1] == __version__
    assert RELEASED_SCHEMAS[__version__] == newest_revision()


def test_each_release_ships_a_newer_schema_than_the_one_before() -> None:
    versions, revisions = list(RELEASED_SCHEMAS), list(RELEASED_SCHEMAS.values())
    assert [_version(v) for v in versions] == sorted({_version(v) for v in versions})
    assert revisions == sorted(set(revisions))
    known = {script.revision for script in shipped_migrations().walk_revisions()}
    assert set(revisions) <= known


def test_the_readme_names_the_revision_and_version_of_this_program() -> None:
    readme = README.read_text(encoding="utf-8")
    previous = list(RELEASED_SCHEMAS.values())[-2]
    newest = re.findall(r"revision (\d{4}), the newest this OFC Desk \(([^)]+)\) knows", readme)
    needs = re.findall(r"at revision (\d{4}) and this OFC Desk \(([^)]+)\) needs (\d{4})", readme)
    migrated = re.findall(r"migrated from [^\"]* to revision (\d{4})", readme)
    assert newest and needs and migrated
    assert set(newest) == {(newest_revision(), __version__)}
    assert set(needs) == {(previous, __version__, newest_revision())}
    assert set(migrated) == {newest_revision()}
    mentioned = set(re.findall(r"revision (\d{4})", readme))
    assert mentioned <= {previous, newest_revision()}
