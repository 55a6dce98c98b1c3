"""Shared test set-up. Qt must see the offscreen platform before it loads.

SQLite commits without waiting for the disk (`synchronous=OFF`) in every test but those marked
`durable` (processes killed, sessions resumed, the durable settings themselves), which run with
the product's `synchronous=FULL`; PostgreSQL likewise (`synchronous_commit`, in
storage/ofc_test_databases.py). Nothing a test checks depends on a power cut, which is all that
tells the two apart; on a disk slow to sync, waiting for it is most of the suite's time. Export
OFC_DESK_TEST_SQLITE_SYNCHRONOUS=FULL to run everything durably.
"""

import os

import pytest

from ofc_desk.storage.database import TEST_SYNCHRONOUS_VARIABLE

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault(TEST_SYNCHRONOUS_VARIABLE, "OFF")


@pytest.fixture(autouse=True)
def durable_when_marked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A `durable` test (and every process it starts) runs with the product's own settings."""
    if request.node.get_closest_marker("durable"):
        monkeypatch.delenv(TEST_SYNCHRONOUS_VARIABLE, raising=False)
