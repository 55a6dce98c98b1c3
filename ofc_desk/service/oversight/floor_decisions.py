"""What the floor view writes: a supervisor's decision on a table's request, or a seed of the room's
jackpot pool, appended to a table's chain and signed with the supervisor's key, while the table's
desk goes on recording.

The desk and the floor may decide the same request at once: the chain takes one of them, and the
other is told who decided first ("request #2 was already approved by Sue"). A desk action stored
between the floor's reading and its write only means reading the table again and deciding after it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ofc_desk.i18n import _
from ofc_desk.i18n.formatting import number as said_number
from ofc_desk.service.store.persistence import CHANGED_ELSEWHERE, EventStore
from ofc_desk.service.store.pool_ledger import room_pool
from ofc_desk.service.store.unrecorded import refused_unrecorded
from ofc_desk.service.table.actions.spec import CheckedAction
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import EventPayload, RawPayload
from ofc_desk.storage.audit import canonical_json
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account, Role, SignInError, sign_in

ATTEMPTS = 5
"""Readings of a busy table before the floor gives up and says so."""


def decide_at_the_floor(
    database: Database,
    session_id: int,
    request: int,
    approved: bool,
    supervisor: str,
    pin: str,
    note: str = "",
) -> str:
    """Approve or decline `request` at the table of `session_id`; the sentence that says it was
    done, or `ActionRefused` saying why not (a wrong PIN, a request already decided)."""
    account = _supervisor(database, supervisor, pin, _("a floor supervisor must decide this: {problem}"))
    raw = {"request": request, "approved": approved, "note": note, "supervisor": account.name}
    machine = _append_signed(database, session_id, EventKind.REQUEST_DECIDED, raw, account)
    if machine is None:
        said = _("the table kept recording while request #{number} was decided: try again")
        raise ActionRefused(said.format(number=request))
    if approved:
        said = _("request #{number} at {table} approved by {supervisor}")
    else:
        said = _("request #{number} at {table} declined by {supervisor}")
    return said.format(number=request, table=machine.table, supervisor=account.name)


def seed_at_the_floor(database: Database, session_id: int, chips: int, supervisor: str, pin: str) -> str:
    """Seed the room's jackpot pool with the house's `chips`, recorded between hands in the chain of
    the table of `session_id` and signed with the supervisor's key (docs/rules.md §11); the sentence
    that says it was done, or `ActionRefused` saying why not (a wrong PIN, a hand being dealt)."""
    account = _supervisor(database, supervisor, pin, _("a floor supervisor must approve this: {problem}"))
    raw = {"chips": chips, "supervisor": account.name}
    machine = _append_signed(database, session_id, EventKind.JACKPOT_SEEDED, raw, account)
    if machine is None:
        raise ActionRefused(_("the table kept recording while the jackpot was seeded: try again"))
    return _("{supervisor} seeded the room's jackpot with {chips} at {table}: it holds {pool}").format(
        supervisor=account.name,
        chips=said_number(chips),
        table=machine.table,
        pool=said_number(room_pool(database)),
    )


def _supervisor(database: Database, name: str, pin: str, refusal: str) -> Account:
    """The supervisor the PIN signs in, or `ActionRefused` with `refusal` naming the problem."""
    try:
        with refused_unrecorded():
            return sign_in(database, name, pin, Role.SUPERVISOR)
    except SignInError as error:
        raise ActionRefused(refusal.format(problem=error)) from None


@dataclass(frozen=True)
class _Attempt:
    """A floor action whose write failed without saying whether it was stored."""

    url: str
    session_id: int
    kind: EventKind
    raw: str
    actor: str


@dataclass(frozen=True)
class _Written:
    head_seq: int
    """The head of the table's chain the action was written on: if stored, it is after it."""
    payload: EventPayload


_unsure: dict[_Attempt, _Written] = {}
"""The floor's attempts whose commit may have been made though its answer was lost, by this process:
the same action asked again is first looked for in the chain, so it is stored once."""


def _append_signed(
    database: Database, session_id: int, kind: EventKind, raw: RawPayload, account: Account
) -> TableMachine | None:
    """`kind` appended to the table's chain, signed by `account`: the table as it stands after it,
    or None when the desk kept recording through every attempt. A failed transaction leaves
    nothing stored and its machine is dropped: `ActionRefused` says so. An attempt that failed
    without an answer is found in the chain when asked again, and not stored twice."""
    attempt = _Attempt(str(database.url), session_id, kind, canonical_json(dict(raw)), account.name)
    for _reading in range(ATTEMPTS):
        try:
            with refused_unrecorded():
                store, machine = EventStore.load(database, session_id)
                written = _unsure.pop(attempt, None)
                if written and store.stored_since(written.head_seq, kind, written.payload, account.name):
                    return machine  # the commit whose answer was lost was made: once is enough
                checked = machine.checked(kind, raw)
                _append_or_remember(store, machine, attempt, checked, account)
        except ActionRefused as refusal:
            if str(refusal) != str(CHANGED_ELSEWHERE):
                raise
            continue  # the desk recorded something meanwhile: read the table again
        return machine
    return None


def _append_or_remember(
    store: EventStore, machine: TableMachine, attempt: _Attempt, checked: CheckedAction, account: Account
) -> None:
    """Append the action; remember it when the database failed without refusing it (its commit
    may have been made): a refusal stored nothing."""
    head_seq = store.head_seq
    try:
        store.append(machine, checked, account.name, [account])
    except ActionRefused:
        raise
    except BaseException:
        _unsure[attempt] = _Written(head_seq, checked.payload)
        raise
