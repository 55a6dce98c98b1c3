"""Shared test set-up. Qt must see the offscreen platform before it loads.

SQLite commits without waiting for the disk (`synchronous=OFF`) in every test but those marked
`durable` (processes killed, sessions resumed, the durable settings themselves), which run with
the product's `synchronous=FULL`; PostgreSQL likewise (`synchronous_commit`, in
tests/helpers/ofc_test_databases.py). Nothing a test checks depends on a power cut, which is all that
tells the two apart; on a disk slow to sync, waiting for it is most of the suite's time. Export
OFC_DESK_TEST_SQLITE_SYNCHRONOUS=FULL to run everything durably.
"""

import compileall
import contextlib
import functools
import os
import sys
from collections.abc import Iterator

import pytest

import ofc_desk
from ofc_desk.storage import keys
from ofc_desk.storage.connections import TEST_SYNCHRONOUS_VARIABLE
from ofc_desk.storage.desk_cache import CACHE_VARIABLE
from tests.helpers import xdist_groups

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault(TEST_SYNCHRONOUS_VARIABLE, "OFF")


PRODUCT_SCRYPT_COST = keys.scrypt_cost()
SUITE_SCRYPT_N = 2**10


def pytest_configure(config: pytest.Config) -> None:
    """The run's first process (xdist's controller, not its workers) compiles the package's
    bytecode, once: a machine that sets PYTHONDONTWRITEBYTECODE (this one does) has every worker
    and every `python -m ofc_desk` the tests start compile it from source again, a quarter of a
    second of CPU a process. Python still checks each file's bytecode against its source, so an
    edited module is compiled afresh; a package folder the run may not write to is left alone.

    Every test process also keeps the bytecode of what it imports from here on: the test modules
    as pytest rewrites their asserts (into `__pycache__`, under a name of pytest's own) and the
    tests' helpers. Rewriting every test module again cost each worker about 5 s of CPU a run,
    half of its collection; pytest reads a rewritten module's bytecode back only while its source
    is unchanged. Processes the tests start keep the machine's setting."""
    if not hasattr(config, "workerinput"):
        with contextlib.suppress(OSError):
            compileall.compile_dir(os.path.dirname(ofc_desk.__file__), quiet=2)
    sys.dont_write_bytecode = False
    import_as_the_desk_does()


def import_as_the_desk_does() -> None:
    """Every test process imports past PySide6's feature hook, as the desk and the floor do
    (`ofc_desk.desk.pyside_features`): pytest-qt loads PySide6 into each of them, and the hook
    then ran two Python functions around every import statement of the run (a quarter of a
    million in the core's property tests alone). Fresh desk processes the tests start check the
    product's own take-off (tests/desk/test_what_a_resume_loads.py)."""
    import ofc_desk.desk.pyside_features  # noqa: F401  (importing it takes the hook off)


@pytest.fixture(autouse=True, scope="session")
def desk_cache_of_the_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """What a desk keeps for itself (checkpoints of long sessions) goes to this run's temporary
    folder, never the user's cache (processes the tests start inherit it)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_VARIABLE, str(tmp_path_factory.mktemp("desk-cache")))
        yield


@pytest.fixture(autouse=True, scope="session")
def cheaper_pin_scrypt() -> Iterator[None]:
    """The suite's new PIN hashes take scrypt at N = 2**10, not the product's 2**14 (a sixteenth
    of the work and memory), and each output is remembered per test process. The cost is the
    product's on purpose (45 ms a PIN here), and the suite makes hundreds of accounts (every
    replay into a new database makes its script's) and signs them in thousands of times: every
    hash, sign-in, PIN check and unsealing still runs, with the parameters each hash records.
    `product_scrypt_cost` gives a test the product's cost; processes the tests start use it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(keys, "SCRYPT_N", SUITE_SCRYPT_N)
        patch.setattr(keys, "pin_scrypt", functools.lru_cache(maxsize=None)(keys.pin_scrypt))
        yield


@pytest.fixture
def product_scrypt_cost(monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, int]:
    """New PIN hashes at the product's scrypt cost for this test: (N, r, p)."""
    monkeypatch.setattr(keys, "SCRYPT_N", PRODUCT_SCRYPT_COST[0])
    return PRODUCT_SCRYPT_COST


@pytest.fixture(autouse=True)
def durable_when_marked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A `durable` test (and every process it starts) runs with the product's own settings."""
    if request.node.get_closest_marker("durable"):
        monkeypatch.delenv(TEST_SYNCHRONOUS_VARIABLE, raising=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """Delete the widgets a Qt test closed before the next test starts. pytest-qt closes them and
    asks for `deleteLater`, which outside an event loop waits for the next test that runs one: the
    windows of every test before it pile up, and each new window's style sheet then repolishes
    them all (most of a desk test's time)."""
    result = yield
    if "PySide6.QtWidgets" in sys.modules:
        from PySide6.QtCore import QCoreApplication, QEvent

        if QCoreApplication.instance() is not None:
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return result


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `xdist_group` share a worker (tests/helpers/xdist_groups.py says why this is
    needed under pytest 9)."""
    xdist_groups.keep_groups_together(config, items)
