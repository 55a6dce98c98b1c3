"""`verify`'s check of the sign-offs: the accounts chain and the users table derived from it, and
in every table session opened since sign-offs began, a signature that holds by the right person
over every settlement and chip operation (the dealer) and every supervised action (the floor
supervisor who approved it). A signature covers every event before it through the hash chain, so a
rewrite made consistently through the library, with every hash recomputed, still breaks one; and
it names the accounts chain's head it was made under (migration 0008), so accounts cut or
rewritten below that head break it too.

The accounts chain is also held to the room (`storage.accounts_room.room_fault`), and `sign_in_fault`
checks the chain of PIN checks (`storage.lockout`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from functools import cache
from typing import Any

from sqlalchemy import Select, bindparam, literal, select
from sqlalchemy.orm import Session

from ofc_desk.i18n import _
from ofc_desk.service.table.actions import DEALER_SIGNED, SUPERVISED
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage.accounts import BUILTIN_REPLAY, AccountsChain, AccountsFault, AccountState, KeySpan
from ofc_desk.storage.accounts_fold import fold_accounts
from ofc_desk.storage.accounts_room import anchors_accounts, check_users_table, room_fault
from ofc_desk.storage.connections import SESSION_ID
from ofc_desk.storage.database import has_table
from ofc_desk.storage.keys import head_message, signature_holds
from ofc_desk.storage.lockout import chain_fault
from ofc_desk.storage.models import AccountEvent, EntryMark, Event, Signature, SignInAttempt, User
from ofc_desk.storage.users import Role

SIGNING_ROLES = frozenset({Role.DEALER.value, Role.SUPERVISOR.value})
_CARRIED_OUT = frozenset(
    {
        EventKind.HAND_VOIDED,
        EventKind.CHIPS_CORRECTED,
        EventKind.RULES_CHANGED,
        EventKind.HAND_CORRECTED,
        EventKind.REQUEST_DECIDED,
    }
)
"""The kinds whose payload may name a request: the supervisor's actions, and the decisions."""


_SIGNED = SUPERVISED | DEALER_SIGNED
"""The kinds `check_signed` holds to a signature; most of a session's events are of none."""
_NOBODY: dict[str, int] = {}
"""No signer (`check_signed` only reads it)."""


class SignoffFault(Exception):
    """The first sign-off that does not hold; `str()` names it."""


def read_accounts(session: Session) -> AccountsChain:
    """The accounts chain, checked, with the users table compared against it and the chain held to
    the room's tables."""
    events = session.scalars(select(AccountEvent).order_by(AccountEvent.seq)).all()
    try:
        chain = fold_accounts(events)
        check_users_table(chain.accounts, session.scalars(select(User)).all())
    except AccountsFault as fault:
        raise SignoffFault(str(fault)) from None
    disagreement = room_fault(session, chain)
    if disagreement is not None:
        raise SignoffFault(disagreement)
    return chain


def sign_in_fault(session: Session, chain: AccountsChain, set_aside: list[str]) -> str | None:
    """The first PIN check that breaks their chain (`storage.lockout`), said in words; None. An
    accepted try its key did not sign is named in `set_aside`."""
    if not anchors_accounts(session):
        return None  # a copy of a schema from before the chain, read as it stands
    columns = (SignInAttempt.id, SignInAttempt.name, SignInAttempt.role, SignInAttempt.outcome)
    rows = session.execute(
        select(*columns, SignInAttempt.at, SignInAttempt.prev_hash, SignInAttempt.hash)
        .add_columns(SignInAttempt.signature)
        .order_by(SignInAttempt.id)
    ).all()
    return chain_fault(rows, chain, set_aside)


_SIGNATURE_COLUMNS = (Signature.id, Signature.seq, Signature.hash, Signature.signer, Signature.signature)
_ACCOUNTS_NAMED = (Signature.accounts_seq, Signature.accounts_hash)
_NO_ACCOUNTS_NAMED = (literal(0).label("accounts_seq"), literal("").label("accounts_hash"))
_NO_ENTRIES_KEY = literal("").label("entries_key")


def marks_entries(session: Session) -> bool:
    """Whether the schema keeps entries' marks and their keys (migration 0013, `entry_marks`)."""
    return has_table(session, EntryMark.__tablename__)


def read_signatures(session: Session, session_id: int) -> Sequence[Any]:
    """A session's signatures as plain rows (id, seq, hash, signer, signature), for
    `check_session_signoffs`, which reads nothing itself."""
    return session.connection().execute(signatures_query(session), {SESSION_ID: session_id}).all()


def signatures_query(session: Session) -> Select[*tuple[Any, ...]]:
    """The query `read_signatures` reads, of this schema's columns, the session's id bound as
    `SESSION_ID`: built once a schema (`connections.SESSION_ID`)."""
    return _signatures_read(anchors_accounts(session), marks_entries(session))


@cache
def _signatures_read(named: bool, keyed: bool) -> Select[*tuple[Any, ...]]:
    accounts = _ACCOUNTS_NAMED if named else _NO_ACCOUNTS_NAMED
    return (
        select(*_SIGNATURE_COLUMNS, *accounts, Signature.entries_key if keyed else _NO_ENTRIES_KEY)
        .where(Signature.session_id == bindparam(SESSION_ID))
        .order_by(Signature.id)
    )


class HeldSignatures:
    """Whether each of a session's signature rows holds (`signature_verifies`), each checked once:
    the sign-offs and the entries' keys (`entry_marks`) both ask it of a signature that publishes
    a key, and an Ed25519 check is the costliest step of either."""

    def __init__(self, chain: AccountsChain, session_id: int) -> None:
        self.chain, self.session_id = chain, session_id
        self._found: dict[int, bool] = {}

    def __call__(self, signature: Any) -> bool:
        found = self._found.get(signature.id)
        if found is None:
            found = signature_verifies(self.chain, self.session_id, signature)
            self._found[signature.id] = found
        return found


def check_session_signoffs(
    session_id: int, events: Sequence[Event], signatures: Sequence[Any], held: HeldSignatures
) -> list[str]:
    """Raises SignoffFault naming the first sign-off that does not hold; returns a sentence for each
    signature row set aside: one that does not hold proves nothing, and anyone who may record may
    add such a row, so it is named and not counted, and the chain still verifies on the signatures
    that hold. A signature that holds over a chain no longer there is a fault: that chain was
    signed, so the one stored now was rewritten. `held` tells which signatures hold under the
    accounts chain."""
    chain = held.chain
    if session_id <= chain.sessions_before:
        return []  # opened before sign-offs began (migration 0006): it has none to check
    signed: dict[int, dict[str, int]] = defaultdict(dict)
    """Each signed event's signers that hold, with the accounts head each signature names."""
    set_aside = []
    by_seq = {event.seq: event for event in events}
    for signature in signatures:
        accounts_seq, accounts_hash = signature.accounts_seq, signature.accounts_hash
        if not held(signature):
            set_aside.append(_set_aside(session_id, signature))
            continue
        event = by_seq.get(signature.seq)
        if event is None or event.hash != signature.hash:
            said = _(
                "session {number}: {signer}'s signature on event number {seq} covers a chain that is no"
                " longer there"
            )
            raise SignoffFault(said.format(number=session_id, signer=signature.signer, seq=signature.seq))
        if accounts_seq and not chain.holds(accounts_seq, accounts_hash):
            # A signature that holds over accounts no longer there: those were signed as they stood.
            said = _(
                "event {event}: {signer}'s signature names account event {seq}, which the accounts chain"
                " no longer holds: the accounts were cut or rewritten"
            )
            raise SignoffFault(said.format(event=event.id, signer=signature.signer, seq=accounts_seq))
        floor = chain.floor(session_id, signature.seq)
        if accounts_seq < floor:
            # Made after account event `floor` was written, yet naming an older head: backdated, to
            # sign with a key or a role that was no longer this account's (it proves nothing).
            set_aside.append(_backdated(session_id, signature, floor))
            continue
        signed[signature.seq][signature.signer] = accounts_seq
    approvals: dict[int, int] = {}
    """Each approved request to the floor: the event that approved it (signed by its supervisor)."""
    for event in events:
        request = None
        if event.kind in _CARRIED_OUT:  # only these may name a request (a few in a session)
            payload = json.loads(event.payload)
            request = payload.get("request")
            if event.kind == EventKind.REQUEST_DECIDED:
                if payload.get("approved") is True:
                    approvals[request] = event.seq
                request = None
        if request is not None:
            # Carried out by the desk as the floor approved it: the approval bears the signature.
            approval = approvals.get(request)
            check_signed(event, signed.get(approval, _NOBODY) if approval is not None else _NOBODY, chain)
        elif event.kind in _SIGNED:  # the others are signed by nobody (`check_signed` passes them)
            check_signed(event, signed.get(event.seq, _NOBODY), chain)
    return set_aside


def _set_aside(session_id: int, signature: Any) -> str:
    said = _(
        "session {number}: signature row {row} ({signer} on event number {seq}) does not hold: it proves"
        " nothing and is not counted"
    )
    return said.format(number=session_id, row=signature.id, signer=repr(signature.signer), seq=signature.seq)


def key_named(chain: AccountsChain, signer: str, accounts_seq: int) -> KeySpan | None:
    """The key `signer` held under the accounts head a signature names; a signature from before
    migration 0008 names none, and was made before any key rotated (migration 0012)."""
    account = chain.accounts.get(signer)
    if account is None:
        return None
    return account.key_under(accounts_seq or chain.rotate_from or len(chain.hashes))


def signature_verifies(chain: AccountsChain, session_id: int, signature: Any) -> bool:
    """Whether a signature row (seq, hash, signer, signature, accounts_seq, accounts_hash,
    entries_key) holds over the head it names, under the key its signer held under the accounts
    head it names (`key_named`); what it is held to beside that is each caller's."""
    key = key_named(chain, signature.signer, signature.accounts_seq)
    if key is None:
        return False
    message = head_message(
        session_id,
        signature.seq,
        signature.hash,
        signature.accounts_seq,
        signature.accounts_hash,
        signature.entries_key,
    )
    return signature_holds(key.public_key, message, signature.signature)


def _backdated(session_id: int, signature: Any, floor: int) -> str:
    said = _(
        "session {number}: signature row {row} ({signer} on event number {seq}) names account event"
        " {named}, though account event {floor} was written before that event: it was backdated, proves"
        " nothing and is not counted"
    )
    return said.format(
        number=session_id,
        row=signature.id,
        signer=repr(signature.signer),
        seq=signature.seq,
        named=signature.accounts_seq,
        floor=floor,
    )


def _role_when_signed(account: AccountState, event: Event, accounts_seq: int | None) -> str | None:
    """The account's role under the accounts head its signature names: its position in the record,
    not a time anyone may write. A signature from before migration 0008 names none: the event's
    time then."""
    return account.role_under(accounts_seq) if accounts_seq else account.role_at(event.at)


def _a_supervisors_key(chain: AccountsChain, account: AccountState, accounts_seq: int | None) -> bool:
    """From migration 0012's mark on, a key once sealed under a short PIN signs no supervisor's act."""
    if not chain.rotate_from or not accounts_seq or accounts_seq < chain.rotate_from:
        return True
    key = account.key_under(accounts_seq)
    return key is not None and key.strong


def dealer_signer(actor: str, chain: AccountsChain) -> str:
    """Whose key signs (and marks) an entry of `actor`: theirs, or the built-in replay key for a
    replayed session's dealer without an account, who deals under it."""
    builtin = chain.accounts.get(BUILTIN_REPLAY)
    if actor not in chain.accounts and builtin is not None and builtin.builtin:
        return BUILTIN_REPLAY
    return actor


def check_signed(event: Event, signers: dict[str, int], chain: AccountsChain) -> None:
    """`signers` are those who signed the event, or for an action carried out on an approval from
    the floor, those who signed the approval, each with the accounts head their signature names."""
    kind = event.kind  # a stored kind that is none of the service's is the fold's to name
    if kind in SUPERVISED:
        supervisor = json.loads(event.payload).get("supervisor")
        account = chain.accounts.get(event.actor)
        named = signers.get(event.actor)
        if (
            supervisor != event.actor
            or account is None
            or account.builtin
            or _role_when_signed(account, event, named) != Role.SUPERVISOR.value
            or not _a_supervisors_key(chain, account, named)
        ):
            said = _("event {event}: {actor} is not a supervisor who could approve it")
            raise SignoffFault(said.format(event=event.id, actor=event.actor))
        if event.actor not in signers:
            said = _("event {event}: no signature of its approving supervisor {actor}")
            raise SignoffFault(said.format(event=event.id, actor=event.actor))
    elif kind in DEALER_SIGNED:
        signer = dealer_signer(event.actor, chain)
        account = chain.accounts.get(signer)
        if account is None or _role_when_signed(account, event, signers.get(signer)) not in SIGNING_ROLES:
            said = _("event {event}: {actor} has no account that could sign it")
            raise SignoffFault(said.format(event=event.id, actor=event.actor))
        if signer not in signers:
            raise SignoffFault(
                _("event {event}: no signature of its dealer {actor}").format(
                    event=event.id, actor=event.actor
                )
            )
