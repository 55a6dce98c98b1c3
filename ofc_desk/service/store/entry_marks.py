"""Each desk's entries at a table bound to that desk (issue 35): a street, a showdown, an undo, a new
hand, a seat sitting out or in, a request to the floor, none of which its dealer signs one by one.

Every desk login may append the next event of any open table's chain (a desk resumes any table),
and the database cannot tell one desk from another: they share one login. What binds an entry to
the desk that holds the table is a secret only that desk has. When a desk takes a table (opens it,
resumes it, or a new dealer takes it over) it draws a random seed and hashes it `CHAIN_LENGTH`
times; the last hash is its key, which the dealer signs with their own key in a signature at the
table (`signatures.entries_key`: at the opening, or beside the desk's first entry). Each entry the
desk records then carries, in its own transaction, the link before the last one revealed (an
`entry_marks` row): anyone can check that it hashes to the link before it, and nobody without the
seed can make the next one. An entry appended at another desk's login carries no such mark, and
`verify` names it (`check_entries`). Checking costs one SHA-256 an entry, where a signature an
entry would cost an Ed25519 check each (about 0.1 ms, or a long session's `verify` three times
over).

A session whose opening signature publishes no key (every one recorded before migration 0013, or
opened under a bare name that signs nothing) is checked as before.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Select, bindparam, select
from sqlalchemy.orm import Session

from ofc_desk.i18n import _
from ofc_desk.service.store.signoffs import (
    HeldSignatures,
    SignoffFault,
    dealer_signer,
    marks_entries,
    read_accounts,
    read_signatures,
)
from ofc_desk.service.table.actions import SPECS
from ofc_desk.service.table.actions.spec import Signer
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage.connections import SESSION_ID
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import EntryMark, Event, Signature
from ofc_desk.storage.users import Account

MARKED: Final = frozenset(spec.kind for spec in SPECS if spec.signer is Signer.NOBODY) - {
    EventKind.RULES_PINNED
}
"""The kinds a desk records that no signature of their own covers: each carries its desk's mark.
(`rules_pinned` is the migration's, written once to old sessions.)"""
CHAIN_LENGTH: Final = 2048
"""Marks a key gives before the desk publishes another (a few milliseconds of hashing)."""


def link(mark: str) -> str:
    """The link a mark follows: its SHA-256 (a mark that is not 32 bytes of hex follows none)."""
    try:
        raw = bytes.fromhex(mark)
    except ValueError:
        return ""
    return hashlib.sha256(raw).hexdigest() if len(raw) == 32 else ""


# ---------------------------------------------------------------------- the desk's part
@dataclass(frozen=True)
class EntryStamp:
    """What an entry's transaction writes beside it: its mark, and the key with the dealer's
    signature when this is the first entry under the key."""

    mark: str
    key: str
    signer: Account


class DeskMarks:
    """One desk's chain of marks for one dealer (its seed never leaves this object)."""

    def __init__(self, dealer: Account) -> None:
        self.dealer = dealer
        self._seed = secrets.token_bytes(32)
        self._hashed: list[bytes] | None = None
        self._used = 0
        self.published = False

    @property
    def _links(self) -> list[bytes]:
        """The seed and its `CHAIN_LENGTH` hashes in turn, hashed when the key or a mark is first
        asked for: a desk that takes a table (a resume, a takeover, a hand-over) publishes its key
        only with its first entry, and many take a table and record none."""
        if self._hashed is None:
            self._hashed = hash_chain(self._seed)
        return self._hashed

    @classmethod
    def for_dealer(cls, dealer: Account | None) -> DeskMarks | None:
        """A new chain for a dealer whose key signs; None for one without (nothing is marked)."""
        return cls(dealer) if dealer is not None and dealer.key is not None else None

    @property
    def key(self) -> str:
        return self._links[-1].hex()

    def stamp(self) -> EntryStamp:
        """The next entry's mark (the same until `confirm`: an entry refused takes none)."""
        return EntryStamp(self._links[-2 - self._used].hex(), "" if self.published else self.key, self.dealer)

    def confirm(self) -> DeskMarks:
        """The stamp was stored; the chain to use next (a new one when this one is spent)."""
        self._used += 1
        self.published = True
        return self if self._used < CHAIN_LENGTH else DeskMarks(self.dealer)


def stamp_row(session_id: int, event_id: int, seq: int, stamp: EntryStamp) -> dict[str, object]:
    """The `entry_marks` row's values the entry's stamp gives."""
    return {"session_id": session_id, "event_id": event_id, "seq": seq, "mark": stamp.mark}


def hash_chain(seed: bytes) -> list[bytes]:
    """`seed` and its `CHAIN_LENGTH` SHA-256 hashes in turn, as bytes: `link` of each one's hex is
    the one before it. Each is said in hex only when stamped: a hex round trip at every step was
    half the cost."""
    links = [seed]
    step = seed
    for _step in range(CHAIN_LENGTH):
        step = hashlib.sha256(step).digest()
        links.append(step)
    return links


# ---------------------------------------------------------------------- verify's part
def read_marks(session: Session, session_id: int) -> Sequence[Any]:
    """A session's marks as plain rows (id, seq, mark); none before migration 0013."""
    query = marks_query(session)
    return () if query is None else session.connection().execute(query, {SESSION_ID: session_id}).all()


_MARKS_READ = (
    select(EntryMark.id, EntryMark.seq, EntryMark.mark)
    .where(EntryMark.session_id == bindparam(SESSION_ID))
    .order_by(EntryMark.id)
)


def marks_query(session: Session) -> Select[int, int, str] | None:
    """The query `read_marks` reads, the session's id bound as `SESSION_ID` (built once:
    `connections.SESSION_ID`); None in a schema from before migration 0013 (no marks)."""
    return _MARKS_READ if marks_entries(session) else None


@dataclass
class _Key:
    """An entries key a signature published: the event it signed, its signer, the key."""

    seq: int
    signer: str
    head: str


class EntryFault(Exception):
    """An entry its desk did not mark; `str()` names it."""


def check_entries(
    session_id: int,
    events: Sequence[Any],
    signatures: Sequence[Any],
    marks: Sequence[Any],
    held: HeldSignatures,
) -> list[str]:
    """Raises EntryFault naming the first entry no key of its dealer's desk marks, in a session whose
    opening publishes a key; returns a sentence for each mark row set aside (one no entry needs,
    which any login that records may add). `held` tells which signatures hold under the accounts
    chain (the sign-offs' check, made once for both)."""
    chain = held.chain
    keys = _keys(session_id, events, signatures, held)
    by_seq: dict[int, list[Any]] = {}
    for mark in marks:
        by_seq.setdefault(mark.seq, []).append(mark)
    if any(key.seq == 1 for key in keys):
        heads = {key.head: key for key in keys}
        signers: dict[str, str] = {}
        for event in events:
            if event.kind in MARKED:
                signer = signers.get(event.actor) or signers.setdefault(
                    event.actor, dealer_signer(event.actor, chain)
                )
                _marked(event, signer, by_seq.pop(event.seq, []), heads, by_seq)
    said = _("session {session}: entry mark row {row} (event number {seq}) marks no entry: it is not counted")
    return [
        said.format(session=session_id, row=mark.id, seq=mark.seq)
        for rows in by_seq.values()
        for mark in rows
    ]


def _keys(
    session_id: int, events: Sequence[Any], signatures: Sequence[Any], held: HeldSignatures
) -> list[_Key]:
    """The keys published in signatures that hold over an event the session holds, under the key
    their signer held under the accounts head they name, and are not backdated (`signoffs`)."""
    hashes = {event.seq: event.hash for event in events}
    keys = []
    for signature in signatures:
        entries_key = getattr(signature, "entries_key", "")
        if (
            entries_key
            and hashes.get(signature.seq) == signature.hash
            and signature.accounts_seq >= held.chain.floor(session_id, signature.seq)
            and held(signature)
        ):
            keys.append(_Key(signature.seq, signature.signer, entries_key))
    return keys


def _marked(
    event: Any, signer: str, candidates: list[Any], heads: dict[str, _Key], left: dict[int, list[Any]]
) -> None:
    """Advance the key of the entry's dealer that its mark follows (`heads`: each key by the last
    link it revealed); the other candidates stay `left` (set aside)."""
    for position, mark in enumerate(candidates):
        key = heads.get(link(mark.mark))
        if key is not None and key.seq <= event.seq and key.signer == signer:
            del heads[key.head]
            key.head = mark.mark
            heads[mark.mark] = key
            if len(candidates) > 1:  # one mark, as nearly always: nothing left
                left[event.seq] = candidates[:position] + candidates[position + 1 :]
            return
    said = _(
        "event {event}: {kind} by {actor} carries no mark of the desk that holds the table: it was"
        " recorded at another desk's login"
    )
    raise EntryFault(said.format(event=event.id, kind=event.kind, actor=event.actor))


def keyed_session(database: Database, session_id: int) -> bool:
    """Whether the session's opening publishes a key (`check_entries` holds its entries to marks
    only then), so that a desk taking it marks what it records; False in a schema from before
    migration 0013."""
    with database.snapshot() as session:
        if not marks_entries(session):
            return False
        opening = select(Signature.id).where(
            Signature.session_id == session_id, Signature.seq == 1, Signature.entries_key != ""
        )
        return session.scalar(opening.limit(1)) is not None


def foreign_entry(database: Database, session_id: int) -> str | None:
    """Why a desk taking the table should call the floor: an entry of its chain no desk of the
    table marked (`check_entries`); None when every entry is marked, or nothing says it must be."""
    with database.snapshot() as session:
        if not marks_entries(session):
            return None  # a schema from before migration 0013 (a test recording as a desk of then)
        events = session.execute(
            select(Event.id, Event.seq, Event.kind, Event.actor, Event.hash)
            .where(Event.session_id == session_id)
            .order_by(Event.seq)
        ).all()
        try:
            chain = read_accounts(session)
        except SignoffFault:
            return None  # nobody signs in at such a room: sign-in says why
        signatures, marks = read_signatures(session, session_id), read_marks(session, session_id)
    try:
        check_entries(session_id, events, signatures, marks, HeldSignatures(chain, session_id))
    except EntryFault as fault:
        return _("this table holds an entry another desk's login recorded ({fault}): call the floor").format(
            fault=fault
        )
    return None
