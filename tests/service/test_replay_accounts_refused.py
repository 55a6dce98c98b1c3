"""`ofc-desk replay` and the room's accounts (issue 25): no message tells which account names
exist, and a refused replay stores nothing, accounts included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from ofc_desk.storage.database import Database
from ofc_desk.storage.models import AccountEvent, TableSession, User
from tests.helpers.replay_helpers import run_cli, write_script
from tests.helpers.table_helpers import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN

Capture = pytest.CaptureFixture[str]
STRANGER = "Nobody"
"""A name that is no account's, told apart from Dan and Sue by nothing a replay says."""


def two_seats(**extra: Any) -> dict[str, Any]:
    seats = [{"name": "Ann", "buy_in": 100}, {"name": "Bob", "buy_in": 100}]
    return {"table": "Table 7", "seats": seats, "hands": [], **extra}


def void_by(name: str, pin: str) -> dict[str, Any]:
    """A rebuy in hand 1 and its correction approved by `name`."""
    between = [
        {"op": "rebuy", "player": "Ann", "amount": 5},
        {"op": "correct_chips", "player": "Ann", "amount": -5, "reason": "", "supervisor": name, "pin": pin},
    ]
    return {"hands": [{"between": between}]}


def entry(name: str, role: str, pin: str | None = None) -> list[dict[str, str]]:
    return [{"name": name, "role": role} | ({"pin": pin} if pin else {})]


SCRIPTS = {
    "dealer without a PIN": lambda name: two_seats(dealer=name),
    "dealer with a wrong PIN": lambda name: two_seats(dealer=name, users=entry(name, "dealer", "9999")),
    "users entry without a PIN": lambda name: two_seats(users=entry(name, "supervisor")),
    "users entry with a wrong PIN": lambda name: two_seats(users=entry(name, "supervisor", "9999")),
    "a supervisor's wrong PIN": lambda name: two_seats(**void_by(name, "9999")),
}


@pytest.mark.parametrize("case", SCRIPTS)
def test_no_refusal_tells_an_account_name_from_a_stranger(
    tmp_path: Path, database: Database, capsys: Capture, case: str
) -> None:
    """Before, a stranger was told "Nobody has no account here" or "replay creates accounts only in an
    empty database" where an account was asked for its PIN."""
    said = {}
    for name in (DEALER if "dealer" in case else SUPERVISOR, STRANGER):
        script = SCRIPTS[case](name) | {"table": f"Table of {name}"}
        if case == "a supervisor's wrong PIN":  # dealt by Dan, the correction approved by `name`
            script["dealer"], script["users"] = DEALER, entry(DEALER, "dealer", DEALER_PIN)
        status, out, err = run_cli(
            capsys, "replay", str(write_script(tmp_path, script)), "--db", database.url
        )
        assert (status, out) == (2, "")
        said[name] = err.replace(name, "NAME")
    assert len(set(said.values())) == 1, said


def test_in_a_database_a_replay_made_only_who_dealt_there_deals_under_the_built_in_key(
    tmp_path: Path, migrated_database_url: str, capsys: Capture
) -> None:
    """Its built-in dealer deals for a name without an account: before, for any such name, so an
    account's name ("PIN needed") was told from a stranger's (dealt)."""
    made = two_seats(dealer="Yan", users=entry(SUPERVISOR, "supervisor", SUPERVISOR_PIN))
    assert run_cli(capsys, "replay", str(write_script(tmp_path, made)), "--db", migrated_database_url)[0] == 0
    said = {}
    for name in (SUPERVISOR, STRANGER):
        script = write_script(tmp_path, two_seats(dealer=name, table=f"Table of {name}"), f"{name}.json")
        status, out, err = run_cli(capsys, "replay", str(script), "--db", migrated_database_url)
        assert (status, out) == (2, "")
        said[name] = err.replace(name, "NAME")
    assert (
        said[SUPERVISOR]
        == said[STRANGER]
        == "users: NAME's PIN is needed to sign"
        + (" (a users entry, --pin-file, OFC_DESK_PINS or the prompt)\n")
    )
    again = two_seats(dealer="Yan", table="Table 8")
    assert (
        run_cli(
            capsys, "replay", str(write_script(tmp_path, again, "yan.json")), "--db", migrated_database_url
        )[0]
        == 0
    )


REFUSED_OPENINGS = {
    "a buy-in of -1": {"seats": [{"name": "Ann", "buy_in": -1}, {"name": "Bob", "buy_in": 100}]},
    "a name of 100 characters": {
        "seats": [{"name": "x" * 100, "buy_in": 100}, {"name": "Bob", "buy_in": 100}]
    },
    "a seat without a name": {"seats": [{"buy_in": 100}, {"name": "Bob", "buy_in": 100}]},
    "a button at no seat": {"button": "Cy"},
    "one player": {"seats": [{"name": "Ann", "buy_in": 100}]},
    "a variant that is none": {"variant": "bridge"},
    "a rules key of the wrong shape": {"rules": [[[]]]},
}


@pytest.mark.parametrize("change", REFUSED_OPENINGS.values(), ids=REFUSED_OPENINGS.keys())
def test_a_replay_refused_before_its_session_is_stored_stores_no_account(
    tmp_path: Path, migrated_database_url: str, capsys: Capture, change: dict[str, Any]
) -> None:
    """The audit's 48 of 1,388: a new database's accounts were stored, then the table's opening
    refused."""
    users = [
        {"name": SUPERVISOR, "role": "supervisor", "pin": SUPERVISOR_PIN},
        {"name": DEALER, "role": "dealer", "pin": DEALER_PIN},
    ]
    script = {**two_seats(dealer=DEALER, users=users), **change}
    empty = _rows(migrated_database_url)  # migrated: the accounts chain's first event, and nothing else
    status, out, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, script)), "--db", migrated_database_url
    )
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert _rows(migrated_database_url) == empty, err
    # Mended, the script makes its accounts then: none was left behind by the refusal.
    mended = write_script(tmp_path, two_seats(dealer=DEALER, users=users), "mended.json")
    assert run_cli(capsys, "replay", str(mended), "--db", migrated_database_url)[:3:2] == (0, "")


def _rows(url: str) -> list[int]:
    """How many accounts, account events and sessions are stored."""
    database = Database(url)
    try:
        with database.session() as session:
            return [
                session.scalar(select(func.count()).select_from(model)) or 0
                for model in (User, AccountEvent, TableSession)
            ]
    finally:
        database.dispose()
