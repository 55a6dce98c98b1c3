"""Sign-offs that prove themselves: what a person with the library, the command line or the database
file can no longer do unseen. Each rewrite here first drops the append-only triggers, as the owner
of the file could, and recomputes every hash, as a careful forger would."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from ofc_desk.service import TableService
from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.table.commands import CorrectChips, HandOver, Settle, VoidHand
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage import append_only
from ofc_desk.storage.account_changes import change_pin, change_role
from ofc_desk.storage.audit import GENESIS_HASH, event_hash
from ofc_desk.storage.database import Database
from ofc_desk.storage.keys import head_message, sign
from ofc_desk.storage.models import Event, Signature, TableSession
from ofc_desk.storage.users import Role, SignInError, sign_in
from tests.helpers.replay_helpers import run_cli, write_script
from tests.helpers.table_helpers import (
    ANN_QQ,
    BOB_PLAIN,
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    DatabaseCopy,
    dealer,
    open_test_table,
    play_hand,
)

# Their history is played once a worker: one worker runs them all.
pytestmark = pytest.mark.xdist_group("sign-offs history")

Capture = pytest.CaptureFixture[str]


def a_correction_a_void_and_a_hand(database: Database) -> None:
    """A correction of +5 and a void, both approved by Sue, then one more settled hand; the
    triggers are lifted."""
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    service.do(CorrectChips("Bob", 5, "miscount", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    play_hand(service, {})
    service.do(VoidHand(2, "misdeal", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    play_hand(service, {})
    verify_database(database)
    with database.engine.begin() as connection:
        append_only.remove_all(connection)


@pytest.fixture
def history(database_copy: DatabaseCopy) -> Database:
    """`a_correction_a_void_and_a_hand` (played once a run): this test's copy to rewrite."""
    return database_copy(a_correction_a_void_and_a_hand)


def rechain(session: Session) -> None:
    """Recompute every hash and the session's head after an edit, in order of `seq`."""
    previous = GENESIS_HASH
    for event in session.scalars(select(Event).order_by(Event.seq)).all():
        event.prev_hash = previous
        event.hash = event_hash(
            previous, event.session_id, event.seq, event.kind, event.actor, event.at, event.payload
        )
        previous = event.hash
    session.flush()
    session.scalars(select(TableSession)).one().head_hash = previous


def event_of(session: Session, kind: EventKind) -> Event:
    first = session.scalars(select(Event).where(Event.kind == kind.value).order_by(Event.seq)).first()
    assert first is not None
    return first


def correction_made_500(session: Session) -> None:
    event = event_of(session, EventKind.CHIPS_CORRECTED)
    event.payload = event.payload.replace('"amount":5,', '"amount":500,')
    session.execute(text("UPDATE chip_ledger SET amount = 500 WHERE event_id = :id"), {"id": event.id})
    rechain(session)


def void_removed(session: Session) -> None:
    void = event_of(session, EventKind.HAND_VOIDED)
    session.execute(text("DELETE FROM chip_ledger WHERE event_id = :id"), {"id": void.id})
    session.execute(text("DELETE FROM signatures WHERE seq = :seq"), {"seq": void.seq})
    session.delete(void)
    session.flush()
    for later in session.scalars(select(Event).where(Event.seq > void.seq).order_by(Event.seq)):
        later.seq -= 1
        session.flush()
    session.scalars(select(TableSession)).one().head_seq -= 1
    rechain(session)


def cards_swapped(session: Session) -> None:
    event = event_of(session, EventKind.PLACED)
    payload = json.loads(event.payload)
    payload["cards"][0], payload["cards"][1] = payload["cards"][1], payload["cards"][0]
    event.payload = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    rechain(session)


def actor_changed(session: Session) -> None:
    event_of(session, EventKind.PLACED).actor = "Mallory"
    rechain(session)


def time_changed(session: Session) -> None:
    event_of(session, EventKind.HAND_STARTED).at = "2026-01-01T00:00:00.000000Z"
    rechain(session)


@pytest.mark.parametrize(
    "rewrite",
    [correction_made_500, void_removed, cards_swapped, actor_changed, time_changed],
    ids=lambda f: f.__name__,
)
def test_a_consistent_rewrite_through_the_library_breaks_a_signature(
    history: Database, rewrite: Callable[[Session], None]
) -> None:
    with history.session() as session:
        rewrite(session)
        session.commit()
    with pytest.raises(VerifyFault, match="signature"):
        verify_database(history)


def test_a_forger_holding_the_keys_is_still_caught_by_the_rules(history: Database) -> None:
    """Even a dealer and a supervisor who re-sign a rewritten chain cannot make the hand add up."""
    keys = {
        name: sign_in(history, name, pin)
        for name, pin in ((DEALER, DEALER_PIN), (SUPERVISOR, SUPERVISOR_PIN))
    }
    with history.session() as session:
        cards_swapped(session)
        by_seq = {event.seq: event for event in session.scalars(select(Event))}
        for signature in session.scalars(select(Signature)):
            signature.hash = by_seq[signature.seq].hash
            signer = keys[signature.signer].key
            assert signer is not None
            message = head_message(
                1,
                signature.seq,
                signature.hash,
                signature.accounts_seq,
                signature.accounts_hash,
                signature.entries_key,
            )
            signature.signature = sign(signer, message)
        session.commit()
    with pytest.raises(VerifyFault, match="differs from the rules"):
        verify_database(history)


USERS_TAMPERS = {
    "promote the dealer": ("UPDATE users SET role = 'supervisor' WHERE name = 'Dan'", "Dan's row differs"),
    "replace a PIN hash": (
        "UPDATE users SET pin_hash = (SELECT pin_hash FROM users WHERE name = 'Dan') WHERE name = 'Sue'",
        "Sue's row differs",
    ),
    "insert a supervisor": (
        "INSERT INTO users (name, role, pin_hash, created_at, public_key, sealed_key, account_seq)"
        " SELECT 'Mallory', 'supervisor', pin_hash, created_at, public_key, sealed_key, account_seq"
        " FROM users WHERE name = 'Dan'",
        "Mallory has no account event",
    ),
}


@pytest.mark.parametrize("tamper", USERS_TAMPERS, ids=list(USERS_TAMPERS))
def test_the_users_table_is_checked_against_the_accounts_chain(history: Database, tamper: str) -> None:
    statement, fault = USERS_TAMPERS[tamper]
    with history.engine.begin() as connection:
        connection.execute(text(statement))
    with pytest.raises(VerifyFault, match=fault):
        verify_database(history)


def test_a_forged_account_event_does_not_hold(history: Database) -> None:
    with history.engine.begin() as connection:
        last = connection.execute(
            text("SELECT seq, hash, signature FROM account_events ORDER BY seq DESC")
        ).first()
        assert last is not None
        connection.execute(
            text(
                "INSERT INTO account_events"
                " (seq, kind, name, approved_by, at, payload, prev_hash, hash, signature) VALUES"
                " (:seq, 'role_changed', 'Dan', 'Sue', '2026-11-23T22:00:00.000000Z',"
                " :payload, :prev, :hash, :sig)"
            ),
            {
                "seq": last.seq + 1,
                "payload": '{"role":"supervisor"}',
                "prev": last.hash,
                "hash": "0" * 64,
                "sig": last.signature,
            },
        )
    with pytest.raises(VerifyFault, match=f"account event {last.seq + 1} was altered"):
        verify_database(history)


def test_append_of_a_supervised_event_without_a_signature_fails_verify(database: Database) -> None:
    """The library's `EventStore.append` takes any checked action; only Sue's key makes it hold."""
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    checked = service.machine.checked(
        EventKind.CHIPS_CORRECTED, {"player": "Ann", "amount": 500, "reason": "tip", "supervisor": SUPERVISOR}
    )
    service._recorder.store.append(service.machine, checked, SUPERVISOR)
    with pytest.raises(VerifyFault, match="no signature of its approving supervisor Sue"):
        verify_database(database)


def test_a_supervisor_action_signed_by_a_dealer_fails_verify(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    checked = service.machine.checked(
        EventKind.CHIPS_CORRECTED, {"player": "Ann", "amount": 500, "reason": "tip", "supervisor": SUPERVISOR}
    )
    service._recorder.store.append(service.machine, checked, SUPERVISOR, [dealer(database)])
    with pytest.raises(VerifyFault, match="no signature of its approving supervisor Sue"):
        verify_database(database)


def test_a_table_dealt_without_a_key_fails_verify(database: Database) -> None:
    from ofc_desk.service import SeatSetup, TableSetup

    setup = TableSetup("Table 7", (SeatSetup("Ann", 100), SeatSetup("Bob", 100)), "Bob")
    TableService.open(database, setup, DEALER)  # a bare name: nothing signs
    with pytest.raises(VerifyFault, match="no signature of its dealer Dan"):
        verify_database(database)


def test_a_hand_over_is_signed_by_the_dealer_leaving(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN}, settle=False)
    service.do(HandOver(sign_in(database, SUPERVISOR, SUPERVISOR_PIN)))
    with database.session() as session:
        head = session.scalars(select(TableSession)).one().head_seq
        signers = session.scalars(select(Signature.signer).where(Signature.seq == head)).all()
    assert signers == [DEALER]
    service.do(Settle())
    verify_database(database)


def test_roles_and_pins_change_only_by_a_supervisors_signed_event(database: Database) -> None:
    sue, dan = sign_in(database, SUPERVISOR, SUPERVISOR_PIN), dealer(database)
    with pytest.raises(SignInError, match="a floor supervisor, signed in, must approve this"):
        change_role(database, DEALER, Role.SUPERVISOR, dan)
    change_pin(database, DEALER, DEALER_PIN, "8642", sue)
    with pytest.raises(SignInError):
        sign_in(database, DEALER, DEALER_PIN)
    assert sign_in(database, DEALER, "8642").name == DEALER
    with pytest.raises(SignInError, match="too few for a floor supervisor: change it first"):
        change_role(database, DEALER, Role.SUPERVISOR, sue)
    change_pin(database, DEALER, "8642", "86428642", sue)
    change_role(database, DEALER, Role.SUPERVISOR, sue)
    assert sign_in(database, DEALER, "86428642", Role.SUPERVISOR).name == DEALER
    verify_database(database)


def test_a_self_made_supervisor_is_refused_on_an_existing_database(
    tmp_path: Path, migrated_database_url: str, capsys: Capture
) -> None:
    """Issue 12: a script naming `mallory` a supervisor, run with --resume on a real database."""
    database = Database(migrated_database_url)
    script = {
        "table": "Table 7",
        "seats": [{"name": "Ann", "buy_in": 100}, {"name": "Bob", "buy_in": 100}],
        "users": [{"name": "Flo", "role": "supervisor", "pin": "24682468"}],
        "hands": [],
    }
    assert (
        run_cli(capsys, "replay", str(write_script(tmp_path, script)), "--db", migrated_database_url)[0] == 0
    )
    script["users"] = [{"name": "mallory", "role": "supervisor", "pin": "0000"}]
    script["hands"] = [
        {
            "between": [
                {
                    "op": "correct_chips",
                    "player": "Ann",
                    "amount": 100,
                    "reason": "",
                    "supervisor": "mallory",
                    "pin": "0000",
                }
            ]
        }
    ]
    status, out, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, script)), "--db", migrated_database_url, "--resume"
    )
    assert (status, out) == (2, "")
    assert err == (
        "users: mallory: wrong name or PIN, or not a supervisor; a replay makes accounts only in an"
        " empty database\n"
    )
    assert run_cli(capsys, "verify", "--db", migrated_database_url)[0] == 0
    database.dispose()


def test_a_script_naming_no_accounts_deals_as_the_builtin_replay_dealer(
    tmp_path: Path, migrated_database_url: str, capsys: Capture
) -> None:
    script: dict[str, Any] = {
        "table": "Table 7",
        "seats": [{"name": "Ann", "buy_in": 100}, {"name": "Bob", "buy_in": 100}],
        "hands": [{"between": [{"op": "rebuy", "player": "Ann", "amount": 5}]}],
    }
    assert (
        run_cli(capsys, "replay", str(write_script(tmp_path, script)), "--db", migrated_database_url)[0] == 0
    )
    script["hands"].append({"between": [{"op": "rebuy", "player": "Bob", "amount": 5}]})
    status, _, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, script)), "--db", migrated_database_url, "--resume"
    )
    assert (status, err) == (0, "")
    database = Database(migrated_database_url)
    with database.session() as session:
        actors = set(session.scalars(select(Event.actor)))
    assert actors == {"replay"}
    # It can deal, never approve: not even with its empty PIN.
    with pytest.raises(SignInError):
        sign_in(database, "replay", "", Role.SUPERVISOR)
    verify_database(database)
    database.dispose()


def test_an_existing_account_needs_its_pin_from_a_file_or_the_environment(
    tmp_path: Path, database: Database, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = database.url
    script = {
        "table": "Table 7",
        "dealer": DEALER,
        "seats": [{"name": "Ann", "buy_in": 100}, {"name": "Bob", "buy_in": 100}],
        "hands": [],
    }
    path = write_script(tmp_path, script)
    status, _, err = run_cli(capsys, "replay", str(path), "--db", url)
    assert status == 2 and err.startswith("users: Dan's PIN is needed to sign")
    pins = tmp_path / "pins.json"
    pins.write_text(json.dumps({DEALER: "9999"}))
    status, _, err = run_cli(capsys, "replay", str(path), "--db", url, "--pin-file", str(pins))
    assert (status, err) == (2, "users: Dan: wrong name or PIN\n")  # the PIN is never repeated
    monkeypatch.setenv("OFC_DESK_PINS", json.dumps({DEALER: DEALER_PIN}))
    status, _, err = run_cli(capsys, "replay", str(path), "--db", url)
    assert (status, err) == (0, "")
    verify_database(database)
