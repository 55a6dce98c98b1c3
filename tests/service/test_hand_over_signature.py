"""The hand-over's signature (issue 25): deleting the outgoing dealer's signature of a mid-hand
shift change passed verify and the floor's anchor, a signature row that nothing required. The
hand-over is an event of the chain, signed by the dealer leaving (docs/decisions.md)."""

from __future__ import annotations

import pytest
from sqlalchemy import select, text

from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.table.commands import HandOver, Settle, StartHand
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.storage import append_only
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, Signature
from ofc_desk.storage.users import sign_in
from tests.helpers.table_helpers import ANN_QQ, BOB_PLAIN, DEALER, SUPERVISOR, SUPERVISOR_PIN, open_test_table


def test_deleting_the_hand_over_signature_of_a_mid_hand_shift_change_fails_verify(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    queues = {name: plan.placements() for name, plan in {"Ann": ANN_QQ, "Bob": BOB_PLAIN}.items()}
    service.do(StartHand())
    entered = 0
    while (turn := service.snapshot().to_act) is not None:
        placed = [queues[turn.player].pop(0) for _ in range(turn.place)]
        service.do(Place(turn.player, [card for card, _ in placed], [str(row) for _, row in placed]))
        entered += 1
        if entered == 2:  # the hand is being dealt: the next dealer takes over
            service.do(HandOver(sign_in(database, SUPERVISOR, SUPERVISOR_PIN)))
    service.do(Settle())
    verify_database(database)
    with database.session() as session:
        handed_over = session.scalars(
            select(Event).where(Event.actor == DEALER).order_by(Event.seq.desc())
        ).first()
        assert handed_over is not None
        signature = session.scalars(
            select(Signature).where(Signature.seq == handed_over.seq, Signature.signer == DEALER)
        ).one()
    with database.engine.begin() as connection:  # as the owner of the database could
        append_only.remove_all(connection)
        connection.execute(text("DELETE FROM signatures WHERE id = :id"), {"id": signature.id})
    with pytest.raises(VerifyFault, match=f"event {handed_over.id}: no signature of its dealer {DEALER}"):
        verify_database(database)
