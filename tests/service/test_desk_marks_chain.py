"""A desk's chain of entry marks (`entry_marks.DeskMarks`), hashed as bytes and written out in hex
only when stamped: every mark it hands out is one `link` (what `verify` checks) from the one before
it, back to the key it publishes, and a spent chain gives a new one."""

from __future__ import annotations

import hashlib
import secrets

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ofc_desk.service.store import entry_marks
from ofc_desk.service.store.entry_marks import CHAIN_LENGTH, DeskMarks, hash_chain, link
from ofc_desk.storage.users import Account, Role


def test_every_mark_links_to_the_one_before_it_back_to_the_key_and_a_spent_chain_gives_a_new_one() -> None:
    dealer = Account("Dana", Role.DEALER, Ed25519PrivateKey.generate())
    marks = DeskMarks(dealer)
    key = marks.key
    assert len(key) == 64 and bytes.fromhex(key)
    assert marks.stamp() == marks.stamp()  # the same until confirmed
    assert marks.stamp().key == key and marks.stamp().signer is dealer  # published with the first entry

    chain, before = marks, key
    for used in range(CHAIN_LENGTH):
        stamp = chain.stamp()
        assert link(stamp.mark) == before, used
        assert stamp.key == ("" if used else key)
        before, chain = stamp.mark, chain.confirm()

    assert chain is not marks and chain.dealer is dealer
    assert chain.key != key and chain.stamp().key == chain.key  # a new key, published with its first
    assert link(chain.stamp().mark) == chain.key


def test_a_chain_hashed_when_first_asked_gives_the_marks_the_hex_chain_gave_from_the_same_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed = bytes(range(32))
    monkeypatch.setattr(secrets, "token_bytes", lambda size: seed[:size])
    hashed: list[bytes] = []

    def counted(seed: bytes) -> list[bytes]:
        hashed.append(seed)
        return hash_chain(seed)

    monkeypatch.setattr(entry_marks, "hash_chain", counted)
    # The chain as it was made before it was hashed as bytes: hex in, SHA-256, hex out, each step.
    hex_chain = [seed.hex()]
    for _step in range(CHAIN_LENGTH):
        hex_chain.append(hashlib.sha256(bytes.fromhex(hex_chain[-1])).hexdigest())

    dealer = Account("Dana", Role.DEALER, Ed25519PrivateKey.generate())
    marks = DeskMarks(dealer)
    assert hashed == []  # a desk that takes a table and records nothing hashes nothing
    assert marks.key == hex_chain[-1]
    chain, stamps = marks, []
    for _used in range(CHAIN_LENGTH):
        stamps.append(chain.stamp().mark)
        chain = chain.confirm()
    assert stamps == hex_chain[-2::-1]
    assert chain is not marks  # spent: its successor is not hashed until asked for
    assert hashed == [seed]  # once for the whole chain
