"""A desk's chain of entry marks (`entry_marks.DeskMarks`), hashed as bytes and written out in hex
only when stamped: every mark it hands out is one `link` (what `verify` checks) from the one before
it, back to the key it publishes, and a spent chain gives a new one."""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ofc_desk.service.store.entry_marks import CHAIN_LENGTH, DeskMarks, link
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
