"""PIN hashes: a salted scrypt hash of each PIN (`keys.pin_scrypt`), whose run's output also gives
the key that seals an account's private key (`keys.seal`), and the check of a PIN against one.
`users` stores and checks PINs only through these.
"""

from __future__ import annotations

import hmac
import secrets

from ofc_desk.storage import keys


def hash_pin(pin: str) -> str:
    return pin_material(pin)[0]


def pin_material(pin: str) -> tuple[str, bytes]:
    """A new salted PIN hash, and the scrypt output whose second half seals a private key."""
    salt = secrets.token_bytes(16)
    n, r, p = keys.scrypt_cost()
    derived = keys.pin_scrypt(pin, salt, n, r, p)
    digest = derived[: keys.DIGEST_BYTES]
    return f"scrypt${n}${r}${p}${salt.hex()}${digest.hex()}", derived


def derive(pin: str, stored: str) -> bytes | None:
    """The scrypt output of `pin` under `stored`'s salt when `pin` is the right PIN, else None."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return None
        derived = keys.pin_scrypt(pin, bytes.fromhex(salt), int(n), int(r), int(p))
    except ValueError:
        return None
    return derived if hmac.compare_digest(derived[: keys.DIGEST_BYTES].hex(), digest) else None


def pin_matches(pin: str, stored: str) -> bool:
    return derive(pin, stored) is not None


def dummy_hash() -> str:
    """What an unknown name's PIN is checked against: a hash of no PIN, with the parameters a new
    account's takes, so the check does the same scrypt work."""
    salt, digest = secrets.token_hex(16), secrets.token_hex(keys.DIGEST_BYTES)
    n, r, p = keys.scrypt_cost()
    return f"scrypt${n}${r}${p}${salt}${digest}"
