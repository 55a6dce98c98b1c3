"""PIN checks: the product's scrypt cost, one answer for every failure, the same scrypt work for
an unknown name, every try recorded, and a growing wait after five wrong PINs in a row (on a
clock the test moves: the database's own time, which no caller of the library passes)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError

from ofc_desk.service.audit.verify import verify_database
from ofc_desk.storage import keys, lockout
from ofc_desk.storage.account_changes import create_accounts, create_user
from ofc_desk.storage.database import Database
from ofc_desk.storage.lockout import attempt_hash, lockout_delay
from ofc_desk.storage.models import SignInAttempt, User
from ofc_desk.storage.users import Role, SignInError, sign_in

SUE_PIN = "43214321"


class Clock:
    """The database's time as the lockout reads it (`lockout.database_now`), moved by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 23, 21, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    moved = Clock()
    monkeypatch.setattr(lockout, "database_now", lambda _session: moved.now)
    return moved


@pytest.fixture
def accounts(migrated_database_url: str) -> Iterator[Database]:
    database = Database(migrated_database_url)
    create_accounts(database, [("Sue", Role.SUPERVISOR, SUE_PIN), ("Dan", Role.DEALER, "1234")])
    yield database
    database.dispose()


def refusal_of(database: Database, name: str, pin: str, role: Role | None = None) -> str:
    with pytest.raises(SignInError) as refused:
        sign_in(database, name, pin, role)
    return str(refused.value)


def outcomes(database: Database, name: str) -> list[str]:
    with database.session() as session:
        query = select(SignInAttempt.outcome).where(SignInAttempt.name == name).order_by(SignInAttempt.id)
        return list(session.scalars(query))


def test_an_unknown_name_a_wrong_pin_and_a_wrong_role_get_one_answer(
    accounts: Database, clock: Clock
) -> None:
    answers = {
        refusal_of(accounts, "Zoe", SUE_PIN, Role.SUPERVISOR),
        refusal_of(accounts, "Sue", "0000", Role.SUPERVISOR),
        refusal_of(accounts, "Dan", "1234", Role.SUPERVISOR),  # Dan's right PIN
    }
    assert answers == {"wrong name or PIN, or not a supervisor"}


def test_pins_take_the_products_scrypt_cost_and_an_unknown_name_costs_the_same(
    product_scrypt_cost: tuple[int, int, int], accounts: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    with accounts.session() as session:
        stored = set(session.scalars(select(User.pin_hash)))
    assert {tuple(int(part) for part in pin_hash.split("$")[1:4]) for pin_hash in stored} == {(2**14, 8, 1)}
    assert product_scrypt_cost == (2**14, 8, 1)
    assert sign_in(accounts, "Dan", "1234").key is not None  # the PIN checked, the key unsealed

    costs: list[tuple[int, int, int]] = []
    real = keys.pin_scrypt

    def counted(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
        costs.append((n, r, p))
        return real(pin, salt, n, r, p)

    monkeypatch.setattr(keys, "pin_scrypt", counted)
    for name in ("Zoe", "Sue", "Ann\x00" + "x" * 300):
        with pytest.raises(SignInError):
            sign_in(accounts, name, "0000")
    assert costs == [product_scrypt_cost] * 3


def test_five_wrong_pins_then_a_wait_that_doubles_up_to_15_minutes(accounts: Database, clock: Clock) -> None:
    for _ in range(5):
        assert refusal_of(accounts, "Sue", "0000") == "wrong name or PIN"
    # Even the right PIN waits now, and is not checked.
    waiting = "too many wrong PINs for this name: try again in 30 s"
    assert refusal_of(accounts, "Sue", SUE_PIN) == waiting
    clock.advance(29)
    assert "try again in 1 s" in refusal_of(accounts, "Sue", SUE_PIN)
    clock.advance(1)
    assert refusal_of(accounts, "Sue", "0000") == "wrong name or PIN"  # the sixth
    assert "try again in 1 min 0 s" in refusal_of(accounts, "Sue", SUE_PIN)
    clock.advance(60)
    assert sign_in(accounts, "Sue", SUE_PIN).name == "Sue"  # and the count starts again
    assert refusal_of(accounts, "Sue", "0000") == "wrong name or PIN"
    tries = ["refused"] * 5 + ["waiting", "waiting", "refused", "waiting", "accepted", "refused"]
    assert outcomes(accounts, "Sue") == tries


def test_the_wait_grows_the_same_for_an_unknown_name(accounts: Database, clock: Clock) -> None:
    """Otherwise the lockout itself would tell which names are accounts."""
    for _ in range(5):
        refusal_of(accounts, "Zoe", "0000")
    assert "try again in 30 s" in refusal_of(accounts, "Zoe", "0000")
    assert outcomes(accounts, "Zoe") == [*["refused"] * 5, "waiting"]


def test_the_delay_doubles_from_30_seconds_to_a_cap_of_15_minutes() -> None:
    delays = [lockout_delay(wrong).total_seconds() for wrong in range(4, 12)]
    assert delays == [0, 30, 60, 120, 240, 480, 900, 900]
    assert lockout_delay(10_000) == timedelta(minutes=15)


def test_the_record_of_tries_cannot_be_rewritten(accounts: Database) -> None:
    refusal_of(accounts, "Sue", "0000")
    with accounts.engine.connect() as connection, pytest.raises(DBAPIError, match="append-only"):
        connection.execute(text("DELETE FROM sign_in_attempts"))


def test_account_names_are_trimmed_and_held_to_one_limit(accounts: Database) -> None:
    sue = sign_in(accounts, "Sue", SUE_PIN)
    assert create_user(accounts, "  Ann ", Role.DEALER, "5555", approver=sue).name == "Ann"
    assert sign_in(accounts, "Ann  ", "5555").name == "Ann"
    with pytest.raises(SignInError, match="there is already a user called Ann"):
        create_user(accounts, "Ann ", Role.DEALER, "5555", approver=sue)
    with pytest.raises(SignInError, match="at most 40 characters"):
        create_user(accounts, "x" * 41, Role.DEALER, "5555", approver=sue)
    with pytest.raises(SignInError, match="control character"):
        create_user(accounts, "Ann\x00", Role.DEALER, "5555", approver=sue)


def test_tries_made_while_waiting_are_not_checks_however_many(accounts: Database, clock: Clock) -> None:
    """A flood of tries during the wait gets no PIN checked: the wait counts checks, not tries."""
    for _ in range(5):
        refusal_of(accounts, "Sue", "0000")
    for _ in range(70):
        assert "try again in 30 s" in refusal_of(accounts, "Sue", "0000")
    clock.advance(30)
    assert refusal_of(accounts, "Sue", "0000") == "wrong name or PIN"
    assert "try again in 1 min 0 s" in refusal_of(accounts, "Sue", SUE_PIN)


def test_sixteen_tries_at_once_after_four_wrong_pins_get_one_pin_checked(
    accounts: Database, clock: Clock
) -> None:
    for _ in range(4):
        refusal_of(accounts, "Sue", "0000")
    start, answers = threading.Barrier(16), []

    def guess() -> None:
        start.wait()
        try:
            sign_in(accounts, "Sue", "0000")
        except SignInError as refused:
            answers.append(str(refused))

    threads = [threading.Thread(target=guess) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == ["too many wrong PINs for this name: try again in 30 s"] * 15 + [
        "wrong name or PIN"
    ]
    assert outcomes(accounts, "Sue") == ["refused"] * 5 + ["waiting"] * 15


def test_an_accepted_try_not_signed_by_the_accounts_key_neither_resets_the_count_nor_verifies(
    accounts: Database,
    clock: Clock,
) -> None:
    """Any database login may insert a row into the record of PIN checks: an accepted one written
    without the account's key (which only its PIN unseals) counts as a wrong PIN, and `verify`
    names it."""
    for _ in range(5):
        refusal_of(accounts, "Sue", "0000")
    with accounts.session() as session:
        last = session.scalar(select(SignInAttempt.hash).order_by(SignInAttempt.id.desc()).limit(1))
        assert last is not None
        at = clock.now.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        digest = attempt_hash(last, "Sue", "", "accepted", at)
        session.add(
            SignInAttempt(name="Sue", role="", outcome="accepted", at=at, prev_hash=last, hash=digest)
        )
        session.commit()
    assert "try again in 1 min 0 s" in refusal_of(accounts, "Sue", SUE_PIN)
    # Named and set aside, not a fault: one such row would otherwise fail the room's verify for good.
    [said] = verify_database(accounts).set_aside
    assert said.endswith(
        "records an accepted PIN that Sue's key did not sign: it proves nothing, and the lockout"
        " counts it as a wrong PIN"
    )
