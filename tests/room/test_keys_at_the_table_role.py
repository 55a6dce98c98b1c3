"""Issue 35 at a card room's desk login (`ofc_desk_table`): a key from an old short-PIN seal, a
demoted supervisor's backdated void, and rows written to reset the lockout, each tried with the
project's own library as the table role; `verify` catches each, and a demotion breaks no history."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import select

from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.oversight.floor_decisions import _append_signed
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.store import persistence
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage import keys, lockout
from ofc_desk.storage.account_changes import change_pin, change_role, create_accounts, create_user
from ofc_desk.storage.database import Database
from ofc_desk.storage.lockout import Attempt
from ofc_desk.storage.models import AccountEvent, Event
from ofc_desk.storage.roles import RoomRoles, apply_roles, room_roles_sql
from ofc_desk.storage.users import Account, Role, SignInError, sign_in
from tests.helpers.room_logins import as_login
from tests.helpers.room_scripts import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN, table_script

pytestmark = pytest.mark.postgres

VIC, VIC_SHORT, VIC_LONG = "Vic", "2468", "13572468"


@pytest.fixture
def desk(migrated_room_url: str, roles: RoomRoles) -> Iterator[Database]:
    """A card room where Vic rose from a 4-digit dealer to a supervisor; T1 played 2 hands at the
    desks' login. The owner keeps the accounts; the test works at the table role."""
    owner = Database(migrated_room_url)
    sam, _dan = create_accounts(
        owner, [(SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN), (DEALER, Role.DEALER, DEALER_PIN)]
    )
    create_user(owner, VIC, Role.DEALER, VIC_SHORT, approver=sam)
    change_pin(owner, VIC, VIC_SHORT, VIC_LONG, sam)
    change_role(owner, VIC, Role.SUPERVISOR, sam)
    with owner.engine.connect() as connection:
        apply_roles(connection, room_roles_sql(connection, roles))
    owner.dispose()
    database = Database(as_login(migrated_room_url, roles.table))
    run_replay(database, table_script("T1", 2, extras=False, close=False), resume=False)
    yield database
    database.dispose()


def old_seal_opened(database: Database) -> Ed25519PrivateKey:
    """The attacker's crack of Vic's creation seal with the 4-digit PIN, with its stored parameters."""
    with database.session() as session:
        created = session.scalar(
            select(AccountEvent).where(AccountEvent.name == VIC, AccountEvent.kind == "account_created")
        )
    assert created is not None
    payload = json.loads(created.payload)
    _scheme, n, r, p, salt, _digest = payload["pin_hash"].split("$")
    derived = keys.pin_scrypt(VIC_SHORT, bytes.fromhex(salt), int(n), int(r), int(p))
    key = keys.unseal(payload["sealed_key"], derived)
    assert key is not None
    return key


def void_signed(database: Database, key: Ed25519PrivateKey, hand: int) -> None:
    service = TableService.resume(database, 1, sign_in(database, DEALER, DEALER_PIN))
    checked = service.machine.checked(EventKind.HAND_VOIDED, {"hand": hand, "reason": "", "supervisor": VIC})
    service._recorder.store.append(service.machine, checked, VIC, [Account(VIC, Role.SUPERVISOR, key)])


def test_a_void_signed_with_the_key_of_an_old_short_seal_fails_verify(desk: Database) -> None:
    void_signed(desk, old_seal_opened(desk), hand=1)
    with pytest.raises(VerifyFault, match="no signature of its approving supervisor Vic"):
        verify_database(desk)


def test_a_demotion_breaks_no_history_and_a_backdated_void_is_caught(
    desk: Database, migrated_room_url: str
) -> None:
    vic = sign_in(desk, VIC, VIC_LONG, Role.SUPERVISOR)
    assert vic.key is not None
    void_signed(desk, vic.key, hand=1)  # Vic's true void, signed as a supervisor
    owner = Database(migrated_room_url)
    change_role(owner, VIC, Role.DEALER, sign_in(owner, SUPERVISOR, SUPERVISOR_PIN))
    owner.dispose()
    assert verify_database(desk).hands == 2
    with desk.session() as session:
        before = session.scalars(select(AccountEvent).order_by(AccountEvent.seq.desc()).offset(1)).first()
        true_void_at = session.scalar(select(Event.at).where(Event.kind == "hand_voided"))
    assert before is not None and true_void_at is not None
    with pytest.MonkeyPatch.context() as patch:  # after the demotion, dated and signed as before it
        patch.setattr(persistence, "accounts_head", lambda _session: (before.seq, before.hash))
        patch.setattr(persistence, "utc_now", lambda: true_void_at)
        void_signed(desk, vic.key, hand=2)
    with pytest.raises(VerifyFault, match="no signature of its approving supervisor Vic"):
        verify_database(desk)


def test_chained_keyless_rows_at_the_table_role_reset_no_count(desk: Database) -> None:
    for _ in range(5):
        with pytest.raises(SignInError, match="wrong name or PIN"):
            sign_in(desk, SUPERVISOR, "00000000")
    for _ in range(lockout.CHECKS_READ + 1):
        with lockout.name_held(desk, SUPERVISOR) as session:
            lockout.record(session, SUPERVISOR, "", Attempt.KEYLESS)
    with pytest.raises(SignInError, match="too many wrong PINs for this name"):
        sign_in(desk, SUPERVISOR, SUPERVISOR_PIN)
    said = verify_database(desk).set_aside
    assert len(said) == lockout.CHECKS_READ + 1
    assert all(f"but {SUPERVISOR} always had one" in sentence for sentence in said)


def test_a_jackpot_seed_signed_with_the_key_of_an_old_short_seal_at_the_floor_role_fails_verify(
    desk: Database, migrated_room_url: str, roles: RoomRoles
) -> None:
    """The issue's million-chip seed: the floor's login appends it, signed with the cracked key."""
    floor = Database(as_login(migrated_room_url, roles.floor))
    try:
        raw = {"chips": 1_000_000, "supervisor": VIC}
        assert _append_signed(
            floor, 1, EventKind.JACKPOT_SEEDED, raw, Account(VIC, Role.SUPERVISOR, old_seal_opened(floor))
        )
    finally:
        floor.dispose()
    with pytest.raises(VerifyFault, match="no signature of its approving supervisor Vic"):
        verify_database(desk)
