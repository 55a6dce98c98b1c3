"""The stored tables. Events are the truth; hands, transfers and the chip ledger are derived rows
kept for reports and history, and `verify` re-derives them from the events to catch any change."""

from sqlalchemy import BigInteger, CheckConstraint, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from ofc_desk.storage.partial_indexes import partial_index

HASH_LENGTH = 64
NAME_COLUMN = 80


class Base(DeclarativeBase):
    pass


class User(Base):
    """A dealer or floor supervisor; the PIN is kept only as a salted scrypt hash."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    role: Mapped[str] = mapped_column(String(20))
    pin_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[str] = mapped_column(String(40))
    public_key: Mapped[str] = mapped_column(String(HASH_LENGTH), server_default="")
    sealed_key: Mapped[str] = mapped_column(String(200), server_default="")
    account_seq: Mapped[int] = mapped_column(server_default="0")
    """The account event that last set this row (the row is derived from `account_events`)."""


class AccountEvent(Base):
    """One account's creation or change, hash-chained and signed by the supervisor who approved it
    (ofc_desk.storage.accounts)."""

    __tablename__ = "account_events"

    seq: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(20))
    name: Mapped[str] = mapped_column(String(NAME_COLUMN))
    approved_by: Mapped[str] = mapped_column(String(NAME_COLUMN))
    at: Mapped[str] = mapped_column(String(40))
    payload: Mapped[str] = mapped_column(Text)
    prev_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    signature: Mapped[str] = mapped_column(String(128))


class Signature(Base):
    """A dealer's or supervisor's Ed25519 signature over a table session's chain head."""

    __tablename__ = "signatures"
    __table_args__ = (Index("ix_signatures_session", "session_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("table_sessions.id"))
    seq: Mapped[int]
    hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    signer: Mapped[str] = mapped_column(String(NAME_COLUMN))
    signature: Mapped[str] = mapped_column(String(128))
    accounts_seq: Mapped[int] = mapped_column(server_default="0")
    """The accounts chain's head it was signed under (migration 0008; 0 before: none named)."""
    accounts_hash: Mapped[str] = mapped_column(String(HASH_LENGTH), server_default="")
    entries_key: Mapped[str] = mapped_column(String(HASH_LENGTH), server_default="")
    """The top of the hash chain whose links mark the signer's desk's entries from this event on
    (migration 0013; "" when the signature publishes none: `service.store.entry_marks`)."""


class SignInAttempt(Base):
    """One PIN check, accepted or not, for the audit and the lockout (append-only, migration 0005).
    `name` is the name as typed (an unknown one too); `role` the role asked for, or "". From
    migration 0008 the tries are a hash chain in `id` order, and an accepted one is signed by the
    account's key (ofc_desk.storage.lockout)."""

    __tablename__ = "sign_in_attempts"
    __table_args__ = (
        Index("ix_sign_in_attempts_name", "name", "id"),
        # The lockout reads a name's checks, never the tries it made wait (a flood of them).
        partial_index("ix_sign_in_checks", "name", "id", where="outcome <> 'waiting'"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_COLUMN))
    role: Mapped[str] = mapped_column(String(20))
    outcome: Mapped[str] = mapped_column(String(20))
    at: Mapped[str] = mapped_column(String(40))
    prev_hash: Mapped[str] = mapped_column(String(HASH_LENGTH), server_default="")
    hash: Mapped[str] = mapped_column(String(HASH_LENGTH), server_default="")
    signature: Mapped[str] = mapped_column(String(128), server_default="")


class TableSession(Base):
    """One table from opening to closing. `head_seq`/`head_hash` pin the end of its event chain,
    so removing events from the end is caught too."""

    __tablename__ = "table_sessions"
    __table_args__ = (
        # One open session per table (migration 0003): two desks opening it at once cannot both.
        partial_index("uq_table_sessions_open_table", "table_name", where="closed_at IS NULL", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_name: Mapped[str] = mapped_column(String(120), index=True)
    opened_at: Mapped[str] = mapped_column(String(40))
    closed_at: Mapped[str | None] = mapped_column(String(40))
    head_seq: Mapped[int]
    head_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))


class Event(Base):
    """One accepted action, hash-chained to the one before it in the same session."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("session_id", "seq", name="uq_events_session_seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("table_sessions.id"))
    seq: Mapped[int]
    kind: Mapped[str] = mapped_column(String(40))
    actor: Mapped[str] = mapped_column(String(80))
    at: Mapped[str] = mapped_column(String(40))
    payload: Mapped[str] = mapped_column(Text)
    prev_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    hash: Mapped[str] = mapped_column(String(HASH_LENGTH))


class HandRow(Base):
    """A settled hand with its `ofc-desk score` result, written by the settlement event."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("session_id", "number", name="uq_hands_session_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("table_sessions.id"))
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    number: Mapped[int]
    button: Mapped[str] = mapped_column(String(80))
    fantasyland: Mapped[str] = mapped_column(Text)
    result: Mapped[str] = mapped_column(Text)
    rake: Mapped[str] = mapped_column(Text)
    jackpot: Mapped[int] = mapped_column(BigInteger)
    settled_at: Mapped[str] = mapped_column(String(40))


class TransferRow(Base):
    """One ordered chip transfer of a settled hand: owed, paid and why it was cut."""

    __tablename__ = "transfers"
    __table_args__ = (UniqueConstraint("hand_id", "ordinal", name="uq_transfers_hand_ordinal"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"))
    ordinal: Mapped[int]
    from_player: Mapped[str] = mapped_column(String(80))
    to_player: Mapped[str] = mapped_column(String(80))
    owed: Mapped[int] = mapped_column(BigInteger)
    paid: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(Text)


class LedgerRow(Base):
    """One chip movement on a stack (buy-in, rebuy, cash-out, hand, rake, void, correction)."""

    __tablename__ = "chip_ledger"
    __table_args__ = (Index("ix_chip_ledger_session", "session_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("table_sessions.id"))
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    hand_number: Mapped[int | None]
    player: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(20))
    amount: Mapped[int] = mapped_column(BigInteger)
    note: Mapped[str] = mapped_column(Text)


class JackpotMove(Base):
    """One change of the room's jackpot pool (migration 0009): a hand's drop, a supervisor's seed,
    an award, a void giving them back. Derived from its event, like the chip ledger; `pool_after`
    is the room's pool once it is made, written under the pool's lock, and never below 0."""

    __tablename__ = "jackpot_moves"
    __table_args__ = (
        CheckConstraint("pool_after >= 0", name="ck_jackpot_moves_pool"),
        # A report reads one session's rows (migration 0014).
        Index("ix_jackpot_moves_session", "session_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("table_sessions.id"))
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    hand_number: Mapped[int | None]
    kind: Mapped[str] = mapped_column(String(20))
    chips: Mapped[int] = mapped_column(BigInteger)
    pool_after: Mapped[int] = mapped_column(BigInteger)


class EntryMark(Base):
    """An entry's mark (migration 0013): the next link of the hash chain its desk's key published,
    written in the entry's own transaction, so an entry another login appended carries none
    (`service.store.entry_marks`)."""

    __tablename__ = "entry_marks"
    __table_args__ = (Index("ix_entry_marks_session", "session_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("table_sessions.id"))
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    seq: Mapped[int]
    mark: Mapped[str] = mapped_column(String(HASH_LENGTH))


class DeskHold(Base):
    """The desk that holds an open table (migration 0011): a lease, not history, so it is the one
    row a desk updates and deletes. `token` tells one desk process from another on the same
    machine; `desk` is the machine's name, said to whoever finds the table held."""

    __tablename__ = "desk_holds"

    session_id: Mapped[int] = mapped_column(
        ForeignKey("table_sessions.id"), primary_key=True, autoincrement=False
    )
    desk: Mapped[str] = mapped_column(String(120))
    dealer: Mapped[str] = mapped_column(String(120))
    since: Mapped[str] = mapped_column(String(40))
    token: Mapped[str] = mapped_column(String(64))
