"""Issue 25's forgeries through the accounts chain, by someone who knows no supervisor's PIN: each is
caught by `verify` wherever the signatures can tell, and by an anchor taken before it in any case.

The history: Sue (supervisor), Flo (a second supervisor) and Dan (dealer); Table 1 and Table 2,
each with a settled hand, Table 2's opening linked to Table 1's head. A forgery ends with a void
recorded as the supervisor the forger made (by the library's own append, as SQL would: the live
sign-in refuses them all)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from ofc_desk.service import SeatSetup, TableService, TableSetup
from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.room.room_chain import append_anchor, missing_anchor
from ofc_desk.service.table.commands import VoidHand
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage import append_only, keys
from ofc_desk.storage.account_changes import (
    _create_in,
    change_role,
    create_accounts,
    create_user,
    set_up_first_key,
)
from ofc_desk.storage.accounts import AccountKind, account_event_hash
from ofc_desk.storage.audit import canonical_json
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import AccountEvent
from ofc_desk.storage.pins import hash_pin
from ofc_desk.storage.users import Account, Role, SignInError, builtin_replay_account, sign_in
from tests.helpers.forgery_helpers import Forged, attackers_account, stored_payloads, write_accounts_chain
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

pytestmark = pytest.mark.xdist_group("accounts forgeries history")

FLO, FLO_PIN = "Flo", "24682468"
MALLORY_PIN = "13579135"


def two_tables_and_two_supervisors(database: Database) -> None:
    create_user(
        database, FLO, Role.SUPERVISOR, FLO_PIN, approver=sign_in(database, SUPERVISOR, SUPERVISOR_PIN)
    )
    for name in ("Table 1", "Table 2"):
        seats = (SeatSetup("Ann", 100), SeatSetup("Bob", 100))
        table = TableService.open(
            database, TableSetup(name, seats, "Bob"), sign_in(database, DEALER, DEALER_PIN)
        )
        play_hand(table, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})


@pytest.fixture
def room(database_copy: DatabaseCopy, tmp_path: Path) -> tuple[Database, Path]:
    """This test's copy of the history, and an anchor taken of it before the forgery."""
    database = database_copy(two_tables_and_two_supervisors)
    anchors = tmp_path / "anchors.txt"
    append_anchor(database, anchors)
    return database, anchors


def void_as(database: Database, supervisor: Account, session_id: int = 1) -> None:
    """A void of hand 1 recorded as `supervisor` and signed with the key the forger gave them."""
    service = TableService.resume(database, session_id, DEALER)
    checked = service.machine.checked(
        EventKind.HAND_VOIDED, {"hand": 1, "reason": "", "supervisor": supervisor.name}
    )
    service._recorder.store.append(service.machine, checked, supervisor.name, [supervisor])


def anchor_fault(database: Database, anchors: Path) -> str:
    with database.session() as session:
        return missing_anchor(session, anchors) or ""


Rewrite = Callable[[Database], Account]


def imports(database: Database, change: Callable[[dict[str, dict[str, object]]], None]) -> list[Forged]:
    """Migration 0006's imports of the real accounts, keys kept, as `change` leaves them."""
    payloads = stored_payloads(database)
    change(payloads)
    return [Forged("account_imported", name, payload) for name, payload in payloads.items()]


def marks(sessions_before: int = 0) -> list[Forged]:
    return [
        Forged("signoffs_started", "", {"sessions_before": sessions_before}),
        Forged("approvals_required", "", {"migration": "0008"}),
    ]


def a_supervisor_of_ones_own(database: Database) -> Account:
    mallory, payload = attackers_account("Mallory", MALLORY_PIN)
    write_accounts_chain(database, [*imports(database, lambda p: p.update(Mallory=payload)), *marks()])
    return mallory


def a_dealer_promoted(database: Database) -> Account:
    dan, payload = attackers_account(DEALER, MALLORY_PIN)

    def promoted(payloads: dict[str, dict[str, object]]) -> None:
        payloads[DEALER] = payload  # the dealer's key replaced too: the forger knows no PIN

    write_accounts_chain(database, [*imports(database, promoted), *marks()])
    return dan


def a_supervisors_key_replaced(database: Database) -> Account:
    sue, payload = attackers_account(SUPERVISOR, MALLORY_PIN)
    write_accounts_chain(database, [*imports(database, lambda p: p.update({SUPERVISOR: payload})), *marks()])
    return sue


def sessions_before_raised(database: Database) -> Account:
    """The imports as migration 0006 wrote them (no keys), every session said to be from before
    sign-offs (none signature-checked), and a supervisor of one's own keyed as the room's set-up."""
    mallory, payload = attackers_account("Mallory", MALLORY_PIN)

    def keyless(payloads: dict[str, dict[str, object]]) -> None:
        payloads["Mallory"] = payload
        for name, held in payloads.items():
            payloads[name] = {"role": held["role"], "pin_hash": held["pin_hash"]}

    key_added = {**payload, "long_pin": True}
    del key_added["role"]
    forged = [*imports(database, keyless), *marks(sessions_before=2)]
    write_accounts_chain(
        database, [*forged, Forged("key_added", "Mallory", key_added, "Mallory", mallory.key)]
    )
    return mallory


@pytest.mark.parametrize(
    ("rewrite", "fault"),
    [
        (
            a_supervisor_of_ones_own,
            "account event 1: an imported account holds its role and PIN hash, no key",
        ),
        (a_dealer_promoted, "an imported account holds its role and PIN hash, no key"),
        (a_supervisors_key_replaced, "an imported account holds its role and PIN hash, no key"),
        (sessions_before_raised, "session 2 was opened after sign-offs began"),
    ],
    ids=lambda value: getattr(value, "__name__", ""),
)
def test_accounts_rewritten_as_imports_are_caught_with_or_without_an_anchor(
    room: tuple[Database, Path], rewrite: Rewrite, fault: str
) -> None:
    database, anchors = room
    forger = rewrite(database)
    with pytest.raises(SignInError, match="accounts do not verify"):
        sign_in(database, forger.name, MALLORY_PIN, Role.SUPERVISOR)  # live, nobody signs in
    void_as(database, forger)
    with pytest.raises(VerifyFault, match=fault):
        verify_database(database)
    assert "the accounts were cut or rewritten after they were anchored" in anchor_fault(database, anchors)


def test_a_demotion_cut_off_the_accounts_tail_is_caught_by_a_later_signature_and_the_anchor(
    room: tuple[Database, Path],
) -> None:
    database, anchors = room
    change_role(database, FLO, Role.DEALER, sign_in(database, SUPERVISOR, SUPERVISOR_PIN))
    append_anchor(database, anchors)
    table = TableService.resume(database, 2, sign_in(database, DEALER, DEALER_PIN))
    play_hand(table, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})  # the dealer's signature names the demotion
    with database.engine.begin() as connection:
        append_only.remove_all(connection)
        demotion = connection.scalar(text("SELECT max(seq) FROM account_events"))
        connection.execute(text("DELETE FROM account_events WHERE seq = :seq"), {"seq": demotion})
        created = connection.scalar(text("SELECT seq FROM account_events WHERE name = :n"), {"n": FLO})
        connection.execute(
            text("UPDATE users SET role = 'supervisor', account_seq = :seq WHERE name = :n"),
            {"seq": created, "n": FLO},
        )
    table.do(
        VoidHand(2, "cut", supervisor=FLO, pin=FLO_PIN)
    )  # live, the cut chain holds: only the record can tell
    with pytest.raises(
        VerifyFault, match=f"names account event {demotion}, which the accounts chain no longer"
    ):
        verify_database(database)
    assert "account event" in anchor_fault(database, anchors)


def test_a_key_added_for_a_keyless_supervisor_by_anyone_but_a_supervisor_does_not_hold(
    database_url: str,
) -> None:
    """A room an upgrade left with Flo keyless: with no trigger dropped, a `key_added` with the
    forger's key, signed by it, is written for her (the table role of a card room may not even
    write it: tests/room/test_roles.py). The chain refuses it: only a supervisor approves a key."""
    database = Database(database_url, migrate=False)
    database.migrate("0005")
    with database.engine.begin() as connection:
        for name, role, pin in ((SUPERVISOR, "supervisor", SUPERVISOR_PIN), (FLO, "supervisor", FLO_PIN)):
            connection.execute(
                text("INSERT INTO users (name, role, pin_hash, created_at) VALUES (:n, :r, :h, :at)"),
                {"n": name, "r": role, "h": hash_pin(pin), "at": "2026-11-01T18:00:00.000000Z"},
            )
    database.migrate()
    set_up_first_key(database, SUPERVISOR, SUPERVISOR_PIN, SUPERVISOR_PIN)  # the room's own set-up
    flo, payload = attackers_account(FLO, MALLORY_PIN)
    del payload["role"]
    assert flo.key is not None
    with database.session() as session:
        last = session.scalars(select(AccountEvent).order_by(AccountEvent.seq.desc())).first()
        assert last is not None
        seq, at, body = last.seq + 1, "2026-11-26T10:00:00.000000Z", canonical_json(payload)
        digest = account_event_hash(last.hash, seq, AccountKind.KEY_ADDED.value, FLO, FLO, at, body)
        signature = keys.sign(flo.key, keys.account_message(seq, digest))
        added = {
            "kind": AccountKind.KEY_ADDED.value,
            "name": FLO,
            "approved_by": FLO,
            "at": at,
            "payload": body,
        }
        session.add(AccountEvent(seq=seq, **added, prev_hash=last.hash, hash=digest, signature=signature))
        session.commit()
    with database.engine.begin() as connection:  # the users trigger lets a row follow an event
        connection.execute(
            text(
                "UPDATE users SET public_key = :k, sealed_key = :s, pin_hash = :h, account_seq = :q"
                " WHERE name = :n"
            ),
            {
                "k": payload["public_key"],
                "s": payload["sealed_key"],
                "h": payload["pin_hash"],
                "q": seq,
                "n": FLO,
            },
        )
    with pytest.raises(SignInError, match="accounts do not verify"):
        sign_in(database, FLO, MALLORY_PIN, Role.SUPERVISOR)
    with pytest.raises(VerifyFault, match="Flo cannot give themselves a key: a supervisor approves it"):
        verify_database(database)
    database.dispose()


def test_where_only_the_built_in_replay_dealer_dealt_the_room_is_set_up_once(
    migrated_database_url: str,
) -> None:
    """A replay without users leaves only the built-in dealer, whom nobody signs in as: it approves
    nothing, the room's set-up makes its first supervisor (who signs their own creation, after the
    replayed table, which only the built-in key signed), and no one makes themselves one after."""
    database = Database(migrated_database_url)
    script = {
        "table": "T1",
        "seats": [{"name": "Ann", "buy_in": 100}, {"name": "Bob", "buy_in": 100}],
        "hands": [],
    }
    run_replay(database, script, resume=False)
    builtin = builtin_replay_account(database)
    assert builtin is not None
    with pytest.raises(SignInError, match="a floor supervisor, signed in, must approve this"):
        create_user(database, "Eve", Role.SUPERVISOR, MALLORY_PIN, approver=builtin)
    create_accounts(database, [("Eve", Role.SUPERVISOR, MALLORY_PIN)])
    verify_database(database)
    with pytest.raises(SignInError, match="this room has accounts already"):
        create_accounts(database, [("Mal", Role.SUPERVISOR, MALLORY_PIN)])
    with database.session() as session:  # the library's own self-signed creation, forced
        _create_in(session, "Mal", Role.SUPERVISOR, MALLORY_PIN, None)
        session.commit()
    with pytest.raises(SignInError, match="accounts do not verify"):
        sign_in(database, "Eve", MALLORY_PIN, Role.SUPERVISOR)
    database.dispose()


def test_no_supervisor_makes_themselves_after_a_table_was_recorded(migrated_database_url: str) -> None:
    """A table recorded under a bare name in a room without accounts, then a supervisor's
    self-signed creation forced in: verify says the set-up came after the table."""
    database = Database(migrated_database_url)
    setup = TableSetup("T1", (SeatSetup("Ann", 100), SeatSetup("Bob", 100)), "Ann")
    TableService.open(database, setup, "Dana")
    with pytest.raises(SignInError, match="this room has recorded tables already"):
        create_accounts(database, [("Eve", Role.SUPERVISOR, MALLORY_PIN)])
    with database.session() as session:
        _create_in(session, "Eve", Role.SUPERVISOR, MALLORY_PIN, None)
        session.commit()
    with pytest.raises(VerifyFault, match="signed their own creation after session 1 was recorded"):
        verify_database(database)
    database.dispose()


def test_live_sign_in_and_approvals_trust_the_accounts_chain_not_the_users_row(
    room: tuple[Database, Path],
) -> None:
    """Sue's row given the forger's PIN hash and sealed key: her PIN is still the chain's, and an
    approver made up with Sue's name and the forger's key signs nothing."""
    database, _ = room
    forged_sue, payload = attackers_account(SUPERVISOR, MALLORY_PIN)
    with database.engine.begin() as connection:
        append_only.remove_all(connection)
        connection.execute(
            text("UPDATE users SET pin_hash = :h, sealed_key = :s WHERE name = :n"),
            {"h": payload["pin_hash"], "s": payload["sealed_key"], "n": SUPERVISOR},
        )
    table = TableService.resume(database, 1, sign_in(database, DEALER, DEALER_PIN))
    with pytest.raises(ActionRefused, match="wrong name or PIN, or not a supervisor"):
        table.do(VoidHand(1, "forged", supervisor=SUPERVISOR, pin=MALLORY_PIN))
    with database.session() as session:
        before = session.scalar(select(func.max(AccountEvent.seq)))
    with pytest.raises(SignInError, match="a floor supervisor, signed in, must approve this"):
        create_user(database, "Eve", Role.SUPERVISOR, MALLORY_PIN, approver=forged_sue)
    with database.session() as session:
        assert session.scalar(select(func.max(AccountEvent.seq))) == before
    assert sign_in(database, SUPERVISOR, SUPERVISOR_PIN, Role.SUPERVISOR).name == SUPERVISOR
