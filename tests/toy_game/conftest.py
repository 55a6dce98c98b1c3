"""The toy game's fixtures; a new SQLite file is a copy of one the migrations built once a process
(tests/helpers/migrated_files.py): the toy game plays and reports, the migrations are tests/storage's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers.migrated_files import migrated_files, migrated_template  # noqa: F401 (fixtures)
from tests.toy_game.register import toy_registered


@pytest.fixture
def toy() -> Iterator[None]:
    """The toy game registered for this test only."""
    with toy_registered():
        yield
