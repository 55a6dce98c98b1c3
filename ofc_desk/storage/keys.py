"""Sign-offs that prove themselves: every account's Ed25519 key pair, its private key sealed with a
key derived from the PIN, and the signatures over a chain's head.

One scrypt run serves both the PIN check and the seal: its first 32 bytes are the stored PIN
digest (`pins.hash_pin`), the next 32 the key that seals the private key (ChaCha20-Poly1305), so
signing in costs no more than it did.
"""

from __future__ import annotations

import hashlib
import secrets

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
DIGEST_BYTES = 32
_NONCE_BYTES = 12
SIGNATURE_CONTEXT = b"ofc-desk sign-off v1\n"


def scrypt_cost() -> tuple[int, int, int]:
    """The scrypt parameters (N, r, p) a new PIN hash takes (and records). Read at each use: the
    test suite lowers N for the accounts it makes by the hundred (tests/conftest.py)."""
    return SCRYPT_N, SCRYPT_R, SCRYPT_P


def pin_scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    """64 bytes: the PIN digest, then the sealing key."""
    return hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=2 * DIGEST_BYTES)


def new_private_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def public_hex(key: Ed25519PrivateKey) -> str:
    # The raw bytes by the key's own method: naming `serialization`'s encodings imports its PEM and
    # SSH loaders too, about 30 M instructions of a desk's launch (issue 39.3).
    return key.public_key().public_bytes_raw().hex()


def seal(key: Ed25519PrivateKey, derived: bytes) -> str:
    """The private key encrypted under the sealing half of `pin_scrypt`'s output."""
    raw = key.private_bytes_raw()
    nonce = secrets.token_bytes(_NONCE_BYTES)
    sealed = ChaCha20Poly1305(derived[DIGEST_BYTES:]).encrypt(nonce, raw, None)
    return f"chacha20poly1305${nonce.hex()}${sealed.hex()}"


def unseal(sealed: str, derived: bytes) -> Ed25519PrivateKey | None:
    """The private key, or None when `derived` (from a wrong PIN) does not open it."""
    try:
        scheme, nonce, data = sealed.split("$")
        if scheme != "chacha20poly1305":
            return None
        cipher = ChaCha20Poly1305(derived[DIGEST_BYTES:])
        raw = cipher.decrypt(bytes.fromhex(nonce), bytes.fromhex(data), None)
    except (ValueError, InvalidTag):
        return None
    return Ed25519PrivateKey.from_private_bytes(raw)


def sign(key: Ed25519PrivateKey, message: str) -> str:
    return key.sign(SIGNATURE_CONTEXT + message.encode("utf-8")).hex()


def signature_holds(public: str, message: str, signature: str) -> bool:
    """Whether `signature` is `public`'s over `message`. Checked by libsodium (PyNaCl): the same
    Ed25519, in half the instructions of OpenSSL's check, the largest single cost of `verify`'s
    work a hand; and it also refuses the weak keys and signatures (small-order points, a key not in
    canonical form) that no key pair of `new_private_key` gives (docs/decisions.md, "Signatures
    are checked by libsodium")."""
    try:
        VerifyKey(bytes.fromhex(public)).verify(
            SIGNATURE_CONTEXT + message.encode("utf-8"), bytes.fromhex(signature)
        )
    except (ValueError, TypeError, BadSignatureError):
        return False
    return True


def head_message(
    session_id: int,
    seq: int,
    head_hash: str,
    accounts_seq: int = 0,
    accounts_hash: str = "",
    entries_key: str = "",
) -> str:
    """What a dealer or supervisor signs at a table: its chain's head, which covers every event
    before it through the hash chain, and the accounts chain's head it was signed under (which
    covers every account event before it; a signature from before migration 0008 names none); a
    dealer taking the table also signs the key that marks their desk's entries (migration 0013)."""
    table = f"session {session_id} event {seq} {head_hash}"
    signed = f"{table} accounts {accounts_seq} {accounts_hash}" if accounts_seq else table
    return f"{signed} entries {entries_key}" if entries_key else signed


def account_message(seq: int, event_hash: str) -> str:
    return f"accounts event {seq} {event_hash}"


def sign_in_message(attempt_hash: str) -> str:
    """What an account's key signs when its PIN is accepted: the sign-in's place in the chain of
    PIN checks, so the record of an accepted PIN cannot be made without the PIN."""
    return f"sign-in {attempt_hash}"
