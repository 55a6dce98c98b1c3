"""What a forger with the database file does to the accounts: writes an accounts chain of their own
choosing, every hash recomputed, every event they hold a key for signed, and the users table made
to agree with it, as the owner of the file can once the append-only triggers are dropped. And what
an older schema held, for today's code to record into it as a desk of then would have."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import select, text

from ofc_desk.service.store import persistence
from ofc_desk.storage import append_only, keys
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.accounts import account_event_hash
from ofc_desk.storage.audit import GENESIS_HASH, canonical_json, utc_now
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import AccountEvent
from ofc_desk.storage.pins import hash_pin
from ofc_desk.storage.users import Account, Role
from tests.helpers.table_helpers import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN

_KEY_FIELDS = ("pin_hash", "public_key", "sealed_key")


@dataclass
class Forged:
    """One account event as the forger writes it; `signer` signs it (None: left unsigned)."""

    kind: str
    name: str
    payload: dict[str, Any]
    approved_by: str = ""
    signer: Ed25519PrivateKey | None = None
    at: str = field(default_factory=utc_now)


def stored_payloads(database: Database) -> dict[str, dict[str, Any]]:
    """Each account's role and keys as its creation stored them: what a forger keeps."""
    with database.session() as session:
        events = session.scalars(select(AccountEvent).where(AccountEvent.kind == "account_created")).all()
    return {event.name: json.loads(event.payload) for event in events}


def attackers_account(name: str, pin: str, role: Role = Role.SUPERVISOR) -> tuple[Account, dict[str, Any]]:
    """An account of the forger's own: its key, and a payload holding it sealed with `pin`."""
    key = keys.new_private_key()
    pin_hash = hash_pin(pin)
    salt = bytes.fromhex(pin_hash.split("$")[4])
    n, r, p = (int(part) for part in pin_hash.split("$")[1:4])
    derived = keys.pin_scrypt(pin, salt, n, r, p)
    payload = {
        "role": role.value,
        "pin_hash": pin_hash,
        "public_key": keys.public_hex(key),
        "sealed_key": keys.seal(key, derived),
        "long_pin": True,
    }
    return Account(name, role, key), payload


def write_accounts_chain(database: Database, events: list[Forged]) -> None:
    """Replace the accounts chain and the users table with `events` and what they give."""
    users: dict[str, dict[str, Any]] = {}
    with database.engine.begin() as connection:
        append_only.remove_all(connection)
        connection.execute(text("DELETE FROM account_events"))
        connection.execute(text("DELETE FROM users"))
        previous = GENESIS_HASH
        for seq, event in enumerate(events, start=1):
            payload = canonical_json(event.payload)
            digest = account_event_hash(
                previous, seq, event.kind, event.name, event.approved_by, event.at, payload
            )
            signature = keys.sign(event.signer, keys.account_message(seq, digest)) if event.signer else ""
            connection.execute(
                text(
                    "INSERT INTO account_events (seq, kind, name, approved_by, at, payload, prev_hash, hash,"
                    " signature) VALUES (:seq, :kind, :name, :by, :at, :payload, :prev, :hash, :signature)"
                ),
                {
                    "seq": seq,
                    "kind": event.kind,
                    "name": event.name,
                    "by": event.approved_by,
                    "at": event.at,
                    "payload": payload,
                    "prev": previous,
                    "hash": digest,
                    "signature": signature,
                },
            )
            _derive_user(users, seq, event)
            previous = digest
        for name, row in users.items():
            connection.execute(
                text(
                    "INSERT INTO users"
                    " (name, role, pin_hash, created_at, public_key, sealed_key, account_seq) VALUES"
                    " (:name, :role, :pin_hash, :created_at, :public_key, :sealed_key, :account_seq)"
                ),
                {"name": name, **row},
            )


def _derive_user(users: dict[str, dict[str, Any]], seq: int, event: Forged) -> None:
    if event.kind in ("account_created", "account_imported"):
        users[event.name] = {
            "role": event.payload["role"],
            "created_at": event.at,
            "public_key": "",
            "sealed_key": "",
        }
    elif event.kind == "role_changed":
        users[event.name]["role"] = event.payload["role"]
    elif event.kind not in ("pin_changed", "key_added"):
        return  # a migration's mark
    users[event.name].update({name: event.payload[name] for name in _KEY_FIELDS if name in event.payload})
    users[event.name]["account_seq"] = seq


COLUMNS_OF_0008 = {
    "signatures": {
        "accounts_seq": "INTEGER NOT NULL DEFAULT 0",
        "accounts_hash": "VARCHAR(64) NOT NULL DEFAULT ''",
    },
    "sign_in_attempts": {
        column: "VARCHAR(128) NOT NULL DEFAULT ''" for column in ("prev_hash", "hash", "signature")
    },
}
COLUMNS_OF_0013 = {"signatures": {"entries_key": "VARCHAR(64) NOT NULL DEFAULT ''"}}
"""The column migration 0013 adds that today's code names in every signature it writes (a desk
of then wrote no key in it, and no entry's mark: `EventStore` writes none in a schema without
`entry_marks`)."""


@contextmanager
def recording_as_of(database: Database, revision: str) -> Iterator[None]:
    """Today's code recording into a schema older than migration 0008 what a desk of then would:
    the test accounts made, signatures naming no accounts head, PIN checks outside any chain (the
    columns 0008 adds are there while it records, and dropped with what they held afterwards)."""
    database.migrate(revision)
    _columns_of_0008(database, added=True)
    accounts = [(SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN), (DEALER, Role.DEALER, DEALER_PIN)]
    create_accounts(database, accounts)
    with pytest.MonkeyPatch.context() as before:
        before.setattr(persistence, "accounts_head", lambda session: (0, ""))
        yield
    _columns_of_0008(database, added=False)


@contextmanager
def recording_before_0013(database: Database) -> Iterator[None]:
    """Today's code recording into a schema from 0008 to 0012 what a desk of then would: the
    column migration 0013 adds is there while it records, and dropped with what it held
    afterwards (a desk of then wrote no key in it)."""
    _columns(database, COLUMNS_OF_0013.items(), added=True)
    yield
    _columns(database, COLUMNS_OF_0013.items(), added=False)


def _columns_of_0008(database: Database, *, added: bool) -> None:
    _columns(database, (*COLUMNS_OF_0008.items(), *COLUMNS_OF_0013.items()), added=added)


def _columns(database: Database, added_by: Iterable[tuple[str, dict[str, str]]], *, added: bool) -> None:
    with database.engine.begin() as connection:
        for table, columns in added_by:
            for column, spelled in columns.items():
                change = f"ADD COLUMN {column} {spelled}" if added else f"DROP COLUMN {column}"
                connection.exec_driver_sql(f"ALTER TABLE {table} {change}")
