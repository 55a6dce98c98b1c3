"""Issue 35, point 4: nothing a login can write resets the lockout, and no clock the caller holds
moves it. After 5 wrong PINs for Sue, the attacker writes what a login may (chained rows through
the library, as the file's owner or a role could) or moves the library's clock; the right PIN
still waits, and `verify` names each row written to reset the count."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from ofc_desk.service.audit.verify import verify_database
from ofc_desk.storage import account_changes, lockout
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.lockout import Attempt, attempt_hash
from ofc_desk.storage.models import SignInAttempt
from ofc_desk.storage.users import Role, SignInError, sign_in

SUE_PIN = "43214321"
WAITING = "too many wrong PINs for this name"


class DatabaseTime:
    """The database's time as the lockout reads it (`lockout.database_now`), moved by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)

    def text(self) -> str:
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@pytest.fixture
def database_time(monkeypatch: pytest.MonkeyPatch) -> DatabaseTime:
    moved = DatabaseTime()
    monkeypatch.setattr(lockout, "database_now", lambda _session: moved.now)
    return moved


@pytest.fixture
def locked_out(migrated_database_url: str, database_time: DatabaseTime) -> Iterator[Database]:
    """Sue, after 5 wrong PINs: her next try waits."""
    database = Database(migrated_database_url)
    create_accounts(database, [("Sue", Role.SUPERVISOR, SUE_PIN), ("Dan", Role.DEALER, "1234")])
    for _ in range(5):
        with pytest.raises(SignInError, match="wrong name or PIN"):
            sign_in(database, "Sue", "0000")
    yield database
    database.dispose()


def right_pin_answer(database: Database) -> str:
    try:
        sign_in(database, "Sue", SUE_PIN)
    except SignInError as refused:
        return str(refused)
    return "accepted"


def chain_rows(database: Database, outcome: str, at: str, count: int = 1) -> None:
    """Rows for Sue chained as the lockout chains them, with any outcome and time: what the
    file's owner, or a role whose check holds a row to its hash, may add."""
    with database.session() as session:
        for _ in range(count):
            last = session.scalar(select(SignInAttempt.hash).order_by(SignInAttempt.id.desc()).limit(1))
            assert last is not None
            digest = attempt_hash(last, "Sue", "", outcome, at)
            session.add(
                SignInAttempt(name="Sue", role="", outcome=outcome, at=at, prev_hash=last, hash=digest)
            )
            session.flush()
        session.commit()


def test_chained_keyless_rows_push_no_wrong_pin_out_of_the_count(
    locked_out: Database, database_time: DatabaseTime
) -> None:
    chain_rows(locked_out, Attempt.KEYLESS.value, database_time.text(), count=lockout.CHECKS_READ + 4)
    assert WAITING in right_pin_answer(locked_out)
    said = verify_database(locked_out).set_aside
    assert len(said) == lockout.CHECKS_READ + 4
    assert said[0].endswith(
        "records the right PIN of an account without a key, but Sue always had one: written to reset"
        " the count of wrong PINs, which it does not"
    )


def test_rows_of_outcomes_no_check_writes_push_no_wrong_pin_out(
    locked_out: Database, database_time: DatabaseTime
) -> None:
    chain_rows(locked_out, Attempt.WAITING.value, database_time.text(), count=lockout.CHECKS_READ + 4)
    assert WAITING in right_pin_answer(locked_out)


def test_a_wrong_pin_dated_long_ago_shortens_no_wait(locked_out: Database) -> None:
    chain_rows(locked_out, Attempt.REFUSED.value, "2020-01-01T00:00:00.000000Z")
    # 6 wrong PINs: a minute's wait, from the 5th (not 30 s from 2020)
    assert right_pin_answer(locked_out).endswith("try again in 1 min 0 s")
    [said] = verify_database(locked_out).set_aside
    assert said.endswith(
        "is dated before the PIN check before it: one of the two was written to move a wait,"
        " which it does not"
    )


def test_a_row_dated_ahead_locks_no_one_out_for_good(
    locked_out: Database, database_time: DatabaseTime
) -> None:
    chain_rows(locked_out, Attempt.REFUSED.value, "2099-01-01T00:00:00.000000Z")
    assert right_pin_answer(locked_out).endswith("try again in 1 min 0 s")  # the 6th, at the 5th's time
    database_time.now += timedelta(seconds=60)
    assert right_pin_answer(locked_out) == "accepted"


def test_a_batch_of_rows_dated_ahead_keeps_no_one_waiting_for_good(
    locked_out: Database, database_time: DatabaseTime
) -> None:
    chain_rows(
        locked_out, Attempt.REFUSED.value, "2099-01-01T00:00:00.000000Z", count=lockout.CHECKS_READ + 1
    )
    assert right_pin_answer(locked_out).endswith("try again in 15 min 0 s")  # from the 5th wrong PIN
    database_time.now += lockout.LONGEST_DELAY
    assert right_pin_answer(locked_out) == "accepted"


def test_a_clock_moved_ahead_checks_no_pin(locked_out: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The library takes no clock (`sign_in(clock=…)` checked 12 of 12 guesses), and the one it
    keeps for account events moves nothing: the lockout reads the database's time."""
    with pytest.raises(TypeError):
        sign_in(locked_out, "Sue", SUE_PIN, clock=lambda: datetime.now(UTC) + timedelta(days=1))  # type: ignore[call-arg]
    monkeypatch.setattr(account_changes, "system_clock", lambda: datetime.now(UTC) + timedelta(days=1))
    answers = [right_pin_answer(locked_out) for _ in range(12)]
    assert all(WAITING in answer for answer in answers), answers
    with locked_out.session() as session:
        tries = session.scalars(select(SignInAttempt.outcome).where(SignInAttempt.name == "Sue")).all()
    assert tries.count(Attempt.WAITING.value) == 12  # the call refused for its clock made no try
