"""Whose turn it is in an OFC hand (docs/rules.md §6), held to the rule in its plainest words for
any seating, Fantasyland players, variant and plan, with entries taken back along the way: the
regular players street by street in acting order, then each Fantasyland set in acting order.
(`HandState` works the turn out from each player's progress, once an entry; `verify` asks it for
every entry of a long session.)"""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given
from hypothesis import strategies as st

from ofc_desk.core.cards import FULL_DECK
from ofc_desk.core.ofc.hand import Entry, HandState, OfcTurn, Stage
from ofc_desk.core.ofc.streets import StreetPlan
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.rows import DISCARD, ROW_SIZE, ROWS, Placement

NAMES = ("Ann", "Bob", "Cy")
FANTASYLAND_CARDS = 14


def turns_in_words(order: tuple[str, ...], fantasyland: set[str], plan: StreetPlan) -> list[OfcTurn]:
    """Every turn of the hand, in order, as the rule says it."""
    streets = len(plan.takes)
    turns = []
    for street in range(streets):
        take, discard = plan.takes[street], plan.discards[street]
        face_down = plan.face_down_last and street == streets - 1
        stage = Stage.FACE_DOWN_REVEAL if face_down else Stage.STREET
        turns += [
            OfcTurn(name, stage, street + 1, take, take - discard, discard)
            for name in order
            if name not in fantasyland
        ]
    set_hand = 13
    return turns + [
        OfcTurn(name, Stage.FANTASYLAND_SET, 0, FANTASYLAND_CARDS, set_hand, FANTASYLAND_CARDS - set_hand)
        for name in order
        if name in fantasyland
    ]


def entry_for(hand: HandState, turn: OfcTurn, deck: Iterator[int]) -> Entry:
    """The turn's cards from the deck, placed front to back where there is room, the rest discarded."""
    held = {row: len(cards) for row, cards in hand.players[turn.player].rows.items()}
    rows: list[Placement] = []
    for _ in range(turn.place):
        row = next(row for row in ROWS if held[row] < ROW_SIZE[row])
        held[row] += 1
        rows.append(row)
    rows += [DISCARD] * turn.discard
    return Entry(turn.player, tuple(FULL_DECK[next(deck)] for _ in rows), tuple(rows))


@given(
    players=st.integers(min_value=2, max_value=3),
    in_fantasyland=st.sets(st.sampled_from(NAMES)),
    variant=st.sampled_from([Variant.REGULAR, Variant.PINEAPPLE]),
    face_down_last=st.booleans(),
    taken_back=st.sets(st.integers(min_value=0, max_value=20)),
)
def test_the_turns_follow_the_acting_order_street_by_street_then_the_fantasyland_sets(
    players: int, in_fantasyland: set[str], variant: Variant, face_down_last: bool, taken_back: set[int]
) -> None:
    order = NAMES[:players]
    fantasyland = {name: FANTASYLAND_CARDS for name in order if name in in_fantasyland}
    plan = StreetPlan.for_variant(variant, face_down_last)
    hand = HandState(1, order[-1], order, fantasyland, dict.fromkeys(order, 100), plan, variant)
    deck = iter(range(len(FULL_DECK)))
    for step, turn in enumerate(turns_in_words(order, set(fantasyland), plan)):
        assert hand.turn() == turn
        entry = entry_for(hand, turn, deck)
        hand.verify_enter(entry, fantasyland=turn.stage is Stage.FANTASYLAND_SET)
        hand.apply(entry)
        if step in taken_back:
            assert hand.undo() == entry
            assert hand.turn() == turn
            hand.apply(entry)
    assert hand.turn() is None and hand.complete
