"""Issue 35, points 1 and 2: no key is recoverable from a PIN weaker than a supervisor's, and every
signature is checked against the signer's key and role under the accounts head it names.

Vic is made a dealer with PIN 2468, given an 8-character PIN, made a supervisor, approves a void at
Table 1, and is demoted. The attacker holds a copy of the database and the project's own library:
they crack every seal with short PINs, and sign with what opens."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import select

from ofc_desk.service import SeatSetup, TableService, TableSetup
from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.store import persistence
from ofc_desk.service.table.commands import Rebuy, VoidHand
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage import keys
from ofc_desk.storage.account_changes import change_pin, change_role, create_accounts, create_user
from ofc_desk.storage.accounts import account_event_hash
from ofc_desk.storage.accounts_fold import fold_accounts
from ofc_desk.storage.audit import canonical_json
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import AccountEvent, Event, Signature, User
from ofc_desk.storage.users import Account, Role, SignInError, sign_in
from tests.helpers.forgery_helpers import recording_before_0013
from tests.helpers.table_helpers import (
    ANN_QQ,
    BOB_PLAIN,
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    DatabaseCopy,
    play_hand,
)

VIC, VIC_SHORT, VIC_LONG = "Vic", "2468", "13572468"
VIC_SHORT_AGAIN = "1357"
SHORT_GUESSES = ("0000", DEALER_PIN, VIC_SHORT, VIC_SHORT_AGAIN, "9999")
"""The attacker's candidates: a 4-digit space the test keeps tiny, the true short PINs among it."""


def vic_rises(database: Database) -> None:
    """Vic: a dealer with a 4-digit PIN, then an 8-character one, then a supervisor."""
    sue = sign_in(database, SUPERVISOR, SUPERVISOR_PIN)
    create_user(database, VIC, Role.DEALER, VIC_SHORT, approver=sue)
    change_pin(database, VIC, VIC_SHORT, VIC_LONG, sue)
    change_role(database, VIC, Role.SUPERVISOR, sue)


def cracked_keys(database: Database) -> dict[str, set[str]]:
    """Every key any seal in the database opens with a short PIN, by account: the product's own
    scrypt with each seal's stored parameters, over `SHORT_GUESSES` until one opens it (a seal is
    authenticated: it holds one key, which no other PIN opens)."""
    with database.session() as session:
        events = session.scalars(select(AccountEvent)).all()
        users = session.scalars(select(User)).all()
    seals = {(user.name, user.pin_hash, user.sealed_key) for user in users}  # each row's is an event's
    for event in events:
        payload = json.loads(event.payload)
        if "sealed_key" in payload:
            seals.add((event.name, payload["pin_hash"], payload["sealed_key"]))
    opened: dict[str, set[str]] = {}
    for name, pin_hash, sealed in seals:
        _scheme, n, r, p, salt, _digest = pin_hash.split("$")
        for guess in SHORT_GUESSES:
            derived = keys.pin_scrypt(guess, bytes.fromhex(salt), int(n), int(r), int(p))
            key = keys.unseal(sealed, derived)
            if key is not None:
                opened.setdefault(name, set()).add(keys.public_hex(key))
                break
    return opened


def test_no_seal_in_the_database_opens_a_supervisors_key_with_a_short_pin(
    database_copy: DatabaseCopy, product_scrypt_cost: tuple[int, int, int]
) -> None:
    database = database_copy(None)
    vic_rises(database)  # Vic's PINs hashed at the product's cost
    sue = sign_in(database, SUPERVISOR, SUPERVISOR_PIN)
    change_role(database, VIC, Role.DEALER, sue)  # and down, and up again
    change_pin(database, VIC, VIC_LONG, VIC_SHORT_AGAIN, sue)
    with pytest.raises(SignInError, match="too few for a floor supervisor"):
        change_role(database, VIC, Role.SUPERVISOR, sue)
    change_pin(database, VIC, VIC_SHORT_AGAIN, VIC_LONG, sue)
    change_role(database, VIC, Role.SUPERVISOR, sue)
    opened = cracked_keys(database)
    with database.session() as session:
        chain = fold_accounts(session.scalars(select(AccountEvent).order_by(AccountEvent.seq)).all())
    vic = chain.accounts[VIC]
    assert vic.role == Role.SUPERVISOR.value and vic.strong_key
    # The crack works: Vic's two keys sealed under 4 digits fall, and neither is his key now.
    assert opened[VIC] == {vic.keys[0].public_key, vic.keys[2].public_key} and len(vic.keys) == 4
    supervisors_keys = {
        state.public_key for state in chain.accounts.values() if state.role == Role.SUPERVISOR.value
    }
    assert not supervisors_keys & set().union(*opened.values())
    assert f"scrypt${product_scrypt_cost[0]}$" in vic.pin_hash


def void_signed(database: Database, name: str, key: Ed25519PrivateKey, hand: int = 1) -> None:
    """A void recorded as `name` and signed with `key`, through the library's own append."""
    service = TableService.resume(database, 1, DEALER)
    checked = service.machine.checked(EventKind.HAND_VOIDED, {"hand": hand, "reason": "", "supervisor": name})
    service._recorder.store.append(service.machine, checked, name, [Account(name, Role.SUPERVISOR, key)])


def vic_rises_and_a_hand_is_played(database: Database) -> None:
    """Vic rises (`vic_rises`), then Table 1 is opened and its first hand settled."""
    vic_rises(database)
    play_hand(open_table(database), {"Ann": ANN_QQ, "Bob": BOB_PLAIN})


@pytest.mark.xdist_group("Vic's histories")  # played once a worker: one worker runs their tests
def test_a_key_from_an_old_short_seal_signs_nothing_that_verifies(database_copy: DatabaseCopy) -> None:
    database = database_copy(vic_rises_and_a_hand_is_played)
    [old_key] = cracked_keys(database)[VIC]
    cracked = old_private_key(database, VIC, VIC_SHORT)
    assert keys.public_hex(cracked) == old_key
    void_signed(database, VIC, cracked)
    with pytest.raises(VerifyFault, match="no signature of its approving supervisor Vic"):
        verify_database(database)


def open_table(database: Database) -> TableService:
    seats = (SeatSetup("Ann", 100), SeatSetup("Bob", 100))
    return TableService.open(
        database, TableSetup("Table 1", seats, "Bob"), sign_in(database, DEALER, DEALER_PIN)
    )


def old_private_key(database: Database, name: str, pin: str) -> Ed25519PrivateKey:
    """The attacker's crack: the seal `name`'s creation stored, opened with `pin`."""
    with database.session() as session:
        created = session.scalar(
            select(AccountEvent).where(AccountEvent.name == name, AccountEvent.kind == "account_created")
        )
    assert created is not None
    payload = json.loads(created.payload)
    _scheme, n, r, p, salt, _digest = payload["pin_hash"].split("$")
    key = keys.unseal(
        payload["sealed_key"], keys.pin_scrypt(pin, bytes.fromhex(salt), int(n), int(r), int(p))
    )
    assert key is not None
    return key


def vic_voids_and_is_demoted(database: Database) -> None:
    """Vic approves a void of hand 1 at Table 1, then is demoted; hand 2 is played after."""
    vic_rises(database)
    table = open_table(database)
    play_hand(table, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    table.do(VoidHand(1, "misdeal", supervisor=VIC, pin=VIC_LONG))
    change_role(database, VIC, Role.DEALER, sign_in(database, SUPERVISOR, SUPERVISOR_PIN))
    play_hand(table, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})


@pytest.fixture
def vic_voided_and_demoted(database_copy: DatabaseCopy) -> Database:
    """`vic_voids_and_is_demoted` (played once a run): this test's copy."""
    return database_copy(vic_voids_and_is_demoted)


@pytest.mark.xdist_group("Vic's histories")
def test_a_demotion_breaks_no_history(vic_voided_and_demoted: Database) -> None:
    summary = verify_database(vic_voided_and_demoted)
    assert summary.hands == 2 and summary.set_aside == ()


@pytest.mark.xdist_group("Vic's histories")
def test_a_demoted_supervisors_new_action_is_refused_live_and_caught_by_verify(
    vic_voided_and_demoted: Database,
) -> None:
    database = vic_voided_and_demoted
    with pytest.raises(SignInError, match="wrong name or PIN, or not a supervisor"):
        sign_in(database, VIC, VIC_LONG, Role.SUPERVISOR)
    vic = sign_in(database, VIC, VIC_LONG)  # a dealer now, with the same key
    assert vic.key is not None
    void_signed(database, VIC, vic.key, hand=2)
    with pytest.raises(VerifyFault, match="Vic is not a supervisor who could approve it"):
        verify_database(database)


def demotion_seq(database: Database) -> int:
    with database.session() as session:
        demotion = session.scalar(
            select(AccountEvent.seq)
            .where(AccountEvent.name == VIC, AccountEvent.kind == "role_changed")
            .order_by(AccountEvent.seq.desc())
        )
    assert demotion is not None
    return demotion


@contextmanager
def backdated(database: Database, before: str) -> Iterator[None]:
    """The attacker's library: every event dated `before` and signed naming the accounts head as
    it stood before Vic's demotion."""
    demotion = demotion_seq(database)
    with database.session() as session:
        head = session.scalar(select(AccountEvent.hash).where(AccountEvent.seq == demotion - 1))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(persistence, "accounts_head", lambda _session: (demotion - 1, head))
        patch.setattr(persistence, "utc_now", lambda: before)
        yield


@pytest.mark.xdist_group("Vic's histories")
def test_a_backdated_action_by_a_demoted_supervisor_is_caught(vic_voided_and_demoted: Database) -> None:
    database = vic_voided_and_demoted
    vic = sign_in(database, VIC, VIC_LONG)
    assert vic.key is not None
    with database.session() as session:
        when_a_supervisor = session.scalar(select(Event.at).where(Event.kind == "hand_voided"))
    assert when_a_supervisor is not None
    with backdated(database, when_a_supervisor):  # the time of Vic's true void, the head before
        void_signed(database, VIC, vic.key, hand=2)
    with pytest.raises(VerifyFault, match="no signature of its approving supervisor Vic"):
        verify_database(database)


@pytest.mark.xdist_group("Vic's histories")
def test_a_backdated_signature_beside_a_true_one_is_set_aside_and_named(
    vic_voided_and_demoted: Database,
) -> None:
    """An extra signature naming an old accounts head proves nothing: named, and the session still
    verifies on the signatures that hold (one row never silences a session)."""
    database = vic_voided_and_demoted
    table = TableService.resume(database, 1, sign_in(database, DEALER, DEALER_PIN))
    table.do(Rebuy("Ann", 10))  # a chip operation its dealer signs
    vic = sign_in(database, VIC, VIC_LONG)
    assert vic.key is not None
    with database.session() as session:
        event = session.scalars(select(Event).order_by(Event.id.desc())).first()
        old = session.scalar(select(AccountEvent).where(AccountEvent.seq == demotion_seq(database) - 1))
        assert event is not None and old is not None
        message = keys.head_message(1, event.seq, event.hash, old.seq, old.hash)
        session.add(
            Signature(
                session_id=1,
                seq=event.seq,
                hash=event.hash,
                signer=VIC,
                signature=keys.sign(vic.key, message),
                accounts_seq=old.seq,
                accounts_hash=old.hash,
            )
        )
        session.commit()
    [said] = verify_database(database).set_aside
    assert f"('Vic' on event number {event.seq}) names account event {old.seq}, though account event" in said
    assert said.endswith("it was backdated, proves nothing and is not counted")


def test_a_room_upgraded_with_a_supervisor_key_from_a_short_seal_approves_nothing_until_a_new_pin(
    database_url: str,
) -> None:
    """A room whose Vic rose before migration 0012 (the same key sealed again under the long PIN):
    the key his first seal holds is his supervisor's key until the upgrade. After it, that key is
    no supervisor's: live, Vic approves nothing; in the record, a void signed with the cracked key
    fails `verify`; his own change to a new PIN gives him a key that approves again."""
    database = Database(database_url, migrate=False)
    database.migrate("0009")
    create_accounts(
        database, [(SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN), (DEALER, Role.DEALER, DEALER_PIN)]
    )
    vic_rises(database)  # before the mark: the PIN change seals the same key again
    with recording_before_0013(database):  # a desk of 0009 publishes no key of marks
        table = open_table(database)
        play_hand(table, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    cracked, vic = old_private_key(database, VIC, VIC_SHORT), sign_in(database, VIC, VIC_LONG)
    assert vic.key is not None and keys.public_hex(cracked) == keys.public_hex(vic.key)
    database.dispose()
    database = Database(database_url)  # the upgrade
    with pytest.raises(SignInError, match="Vic's key was once sealed under a PIN shorter than 8 characters"):
        sign_in(database, VIC, VIC_LONG, Role.SUPERVISOR)
    with pytest.raises(SignInError, match="Vic's key was once sealed under a PIN shorter than 8 characters"):
        create_user(database, "Zed", Role.DEALER, "5555", approver=sign_in(database, VIC, VIC_LONG))
    void_signed(database, VIC, cracked)
    with pytest.raises(VerifyFault, match="Vic is not a supervisor who could approve it"):
        verify_database(database)
    change_pin(database, VIC, VIC_LONG, "97531864", sign_in(database, VIC, VIC_LONG))  # his own
    assert sign_in(database, VIC, "97531864", Role.SUPERVISOR).name == VIC
    database.dispose()


def append_signed_by_sue(database: Database, kind: str, name: str, payload: dict[str, object]) -> None:
    """An account event the library would not write, signed by a supervisor (the forger holds
    Sue's key, or is Sue), appended with the triggers in place (an insert is allowed)."""
    sue = sign_in(database, SUPERVISOR, SUPERVISOR_PIN)
    assert sue.key is not None
    with database.session() as session:
        last = session.scalars(select(AccountEvent).order_by(AccountEvent.seq.desc())).first()
        assert last is not None
        seq, at, body = last.seq + 1, "2026-12-06T10:00:00.000000Z", canonical_json(payload)
        digest = account_event_hash(last.hash, seq, kind, name, SUPERVISOR, at, body)
        session.add(
            AccountEvent(
                seq=seq,
                kind=kind,
                name=name,
                approved_by=SUPERVISOR,
                at=at,
                payload=body,
                prev_hash=last.hash,
                hash=digest,
                signature=keys.sign(sue.key, keys.account_message(seq, digest)),
            )
        )
        session.commit()


@pytest.mark.parametrize(
    ("kind", "payload", "fault"),
    [
        (
            "pin_changed",
            {"pin_hash": "", "sealed_key": "", "room": {"newest_session": 0, "open": {}}},
            "a PIN change gives the account a new key",
        ),
        ("role_changed", {"role": "dealer"}, "does not say where the room stood when it was written"),
    ],
    ids=["a PIN change keeping the key", "no room position"],
)
def test_account_events_the_library_never_writes_break_the_chain(
    database_copy: DatabaseCopy, kind: str, payload: dict[str, object], fault: str
) -> None:
    database = database_copy(None)
    append_signed_by_sue(database, kind, DEALER, payload)
    with pytest.raises(VerifyFault, match=fault):
        verify_database(database)
    with pytest.raises(SignInError, match="accounts do not verify"):
        sign_in(database, DEALER, DEALER_PIN)
