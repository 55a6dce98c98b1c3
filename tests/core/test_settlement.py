"""Table-stakes settlement (docs/rules.md §8): worked examples, order, and properties of `settle` and
`score_deal`."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_desk.core.cards import FULL_DECK, Card
from ofc_desk.core.ofc.deal import Deal, DealResult, SeatHand, score_deal
from ofc_desk.core.ofc.presets import load_preset
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.rows import SetHand
from ofc_desk.core.settlement import (
    Obligation,
    SettleFrom,
    Settlement,
    SettlementPolicy,
    pair_order,
    settle,
    settlement_order,
)

WIN_CAP, EXPOSURE = SettlementPolicy.WIN_CAP, SettlementPolicy.CHIP_EXPOSURE
SEATS = ["West", "North", "East", "South"]
NAMES = ["Ann", "Bob", "Cy", "Dee"]


# --- worked examples ---------------------------------------------------------------------------


def test_rules_win_cap_example_ann_starts_with_ten() -> None:
    stacks = {"Ann": 10, "Bob": 20, "Cy": 20, "Dee": 20}
    result = settle(
        stacks,
        [
            Obligation("Bob", "Ann", 8),
            Obligation("Ann", "Cy", 5),
            Obligation("Dee", "Ann", 9),
            Obligation("Ann", "Bob", 4),  # a later pair: Ann is complete, nothing moves
            Obligation("Cy", "Ann", 3),
        ],
        WIN_CAP,
    )
    assert [(t.owed, t.paid) for t in result.transfers] == [(8, 8), (5, 5), (9, 7), (4, 0), (3, 0)]
    assert "capped" in result.transfers[2].reason and "Ann" in result.transfers[2].reason
    assert "complete" in result.transfers[2].reason
    assert all("Ann is complete" in t.reason for t in result.transfers[3:])
    assert result.stacks_after == {"Ann": 20, "Bob": 12, "Cy": 25, "Dee": 13}


def test_rules_chip_exposure_example_a_starts_with_eight() -> None:
    stacks = {"A": 8, "B": 50, "C": 50, "D": 50}
    result = settle(
        stacks,
        [Obligation("B", "A", 6), Obligation("A", "C", 6), Obligation("D", "A", 4)],
        EXPOSURE,
    )
    assert [t.paid for t in result.transfers] == [6, 2, 0]
    assert result.stacks_after["A"] == 12
    assert "A had only 2 unused chips" in result.transfers[1].reason
    assert "A had only 0 unused chips" in result.transfers[2].reason


def test_a_loser_pays_at_most_what_is_in_front_of_them_and_can_still_win_later() -> None:
    result = settle(
        {"Ann": 30, "Bob": 12, "Cy": 30},
        [Obligation("Bob", "Ann", 20), Obligation("Bob", "Cy", 5), Obligation("Cy", "Bob", 4)],
        WIN_CAP,
    )
    assert [t.paid for t in result.transfers] == [12, 0, 4]
    assert result.transfers[0].reason == "Bob had only 12 in front of them"
    assert "Bob has no chips left" in result.transfers[1].reason
    assert result.stacks_after == {"Ann": 42, "Bob": 4, "Cy": 26}


def test_an_exact_payment_to_the_cap_also_completes_the_winner() -> None:
    result = settle(
        {"Ann": 5, "Bob": 20, "Cy": 20},
        [Obligation("Bob", "Ann", 5), Obligation("Ann", "Cy", 3)],
        WIN_CAP,
    )
    assert [t.paid for t in result.transfers] == [5, 0]
    assert "complete" in result.transfers[0].reason
    assert result.stacks_after["Ann"] == 10


def test_rules_pair_order_example_and_the_dealer_option() -> None:
    order = settlement_order(SEATS, "South", SettleFrom.LEFT_OF_DEALER)
    assert order == ["West", "North", "East", "South"]
    assert pair_order(order) == [
        ("West", "North"),
        ("West", "East"),
        ("West", "South"),
        ("North", "East"),
        ("North", "South"),
        ("East", "South"),
    ]
    assert settlement_order(SEATS, "South", SettleFrom.DEALER) == ["South", "West", "North", "East"]
    assert settlement_order(SEATS, "North", SettleFrom.LEFT_OF_DEALER) == ["East", "South", "West", "North"]


@given(seats=st.integers(2, 6), dealer=st.integers(0, 5), start=st.sampled_from(list(SettleFrom)))
def test_settlement_order_is_clockwise_from_the_chosen_seat(
    seats: int, dealer: int, start: SettleFrom
) -> None:
    names = [f"P{i}" for i in range(seats)]
    dealer_name = names[dealer % seats]
    order = settlement_order(names, dealer_name, start)
    if start is SettleFrom.LEFT_OF_DEALER:
        assert order[-1] == dealer_name
    else:
        assert order[0] == dealer_name
    first = names.index(order[0])
    assert order == names[first:] + names[:first]
    pairs = pair_order(order)
    assert pairs == [(order[i], order[j]) for i in range(seats) for j in range(i + 1, seats)]


# --- properties of settle() ------------------------------------------------------------------------


@st.composite
def stakes(draw: st.DrawFn) -> tuple[dict[str, int], list[Obligation]]:
    """Start stacks, and at most one obligation per pair, in the §8 pair order."""
    names = NAMES[: draw(st.integers(2, 4))]
    stacks = {name: draw(st.integers(0, 40)) for name in names}
    obligations = []
    for first, second in pair_order(names):
        owed = draw(st.integers(-50, 50))
        if owed > 0:
            obligations.append(Obligation(second, first, owed))
        elif owed < 0:
            obligations.append(Obligation(first, second, -owed))
    return stacks, obligations


def assert_table_stakes(
    result: Settlement, obligations: Sequence[Obligation], policy: SettlementPolicy
) -> None:
    """Every §8 guarantee, replayed transfer by transfer."""
    start = dict(result.stacks_before)
    assert sum(result.stacks_after.values()) == sum(start.values()), "chips are conserved"
    assert all(stack >= 0 for stack in result.stacks_after.values())
    assert [(t.debtor, t.creditor, t.owed) for t in result.transfers] == [
        (o.debtor, o.creditor, o.owed) for o in obligations
    ], "transfers follow the order of the obligations"
    running = dict(start)
    used = dict.fromkeys(start, 0)
    for transfer in result.transfers:
        debtor, creditor, paid = transfer.debtor, transfer.creditor, transfer.paid
        assert 0 <= paid <= transfer.owed
        assert paid <= running[debtor], "a loser pays at most what is in front of them"
        assert transfer.reason
        if paid < transfer.owed:
            assert transfer.reason != "paid in full"
        if policy is WIN_CAP:
            complete = [p for p in (debtor, creditor) if start[p] > 0 and running[p] == 2 * start[p]]
            if complete:
                assert paid == 0, f"{complete[0]} is complete and moves no chips"
            expected = min(transfer.owed, running[debtor], 2 * start[creditor] - running[creditor])
            assert paid == (0 if complete else expected)
        else:
            expected = min(transfer.owed, start[debtor] - used[debtor], start[creditor] - used[creditor])
            assert paid == expected
        running[debtor] -= paid
        running[creditor] += paid
        used[debtor] += paid
        used[creditor] += paid
    assert running == dict(result.stacks_after)
    if policy is WIN_CAP:
        assert all(running[p] <= 2 * start[p] for p in start), "no winner more than doubles"
    else:
        assert all(used[p] <= start[p] for p in start), "no chip is used twice"


@settings(max_examples=400, deadline=None)
@given(case=stakes(), policy=st.sampled_from(list(SettlementPolicy)))
def test_settle_keeps_every_table_stakes_guarantee(
    case: tuple[dict[str, int], list[Obligation]], policy: SettlementPolicy
) -> None:
    stacks, obligations = case
    assert_table_stakes(settle(stacks, obligations, policy), obligations, policy)


# --- properties of score_deal() on random finished deals --------------------------------------------


def hand_from(cards: Sequence[Card]) -> SetHand:
    return SetHand(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:13]))


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    variant = draw(st.sampled_from(list(Variant)))
    count = draw(st.integers(2, variant.structure.max_players))
    deck: list[Card] = draw(st.permutations(FULL_DECK))
    names = NAMES[:count]
    seats = tuple(
        SeatHand(
            name,
            draw(st.integers(0, 60)),
            SetHand(
                tuple(deck[13 * i : 13 * i + 3]),
                tuple(deck[13 * i + 3 : 13 * i + 8]),
                tuple(deck[13 * i + 8 : 13 * i + 13]),
            ),
        )
        for i, name in enumerate(names)
    )
    pairs = pair_order(names)
    pair_units = {
        frozenset(pair): draw(st.integers(1, 5))
        for pair in draw(st.lists(st.sampled_from(pairs), unique=True))
    }
    return Deal(
        preset=load_preset(draw(st.sampled_from(["standard", "classic", "two-point"]))),
        dealer=draw(st.sampled_from(names)),
        players=seats,
        scoring=draw(st.sampled_from([None, "1-6", "2-4"])),
        variant=variant,
        progressive=draw(st.booleans()),
        unit=draw(st.integers(1, 5)),
        pair_units=pair_units,
        settlement=draw(st.sampled_from(list(SettlementPolicy))),
        settle_from=draw(st.sampled_from(list(SettleFrom))),
        in_fantasyland=frozenset(draw(st.lists(st.sampled_from(names), unique=True))),
    )


def assert_deal_result(deal: Deal, result: DealResult) -> None:
    names = [seat.name for seat in deal.players]
    order = settlement_order(names, deal.dealer, deal.settle_from)
    assert [(m.first, m.second) for m in result.matchups] == pair_order(order)
    paying = [m for m in result.matchups if m.score.points]
    assert len(result.transfers) == len(paying), "one transfer per matchup worth points, none otherwise"
    obligations = []
    for matchup, transfer in zip(paying, result.transfers, strict=True):
        winner, loser = (
            (matchup.first, matchup.second) if matchup.score.points > 0 else (matchup.second, matchup.first)
        )
        assert (transfer.creditor, transfer.debtor) == (winner, loser)
        assert matchup.unit == deal.unit_between(matchup.first, matchup.second)
        assert transfer.owed == abs(matchup.score.points) * matchup.unit
        obligations.append(Obligation(transfer.debtor, transfer.creditor, transfer.owed))
    assert_table_stakes(result.settlement, obligations, deal.settlement)
    for player in result.players:
        net = sum(
            m.score.points if m.first == player.name else -m.score.points
            for m in result.matchups
            if player.name in (m.first, m.second)
        )
        assert player.points == net
        assert player.stack_after == result.settlement.stacks_after[player.name]
    assert sum(player.points for player in result.players) == 0


@settings(max_examples=150, deadline=None)
@given(deal=deals())
def test_score_deal_settles_random_deals_within_table_stakes(deal: Deal) -> None:
    assert_deal_result(deal, score_deal(deal))


def test_per_pair_unit_applies_to_that_pair_only() -> None:
    seats = (
        SeatHand("Ann", 100, SetHand.parse("Qs Qd 2c", "Ah Kh 9h 4h 2h", "7s 7d 7c 3s 3d")),
        SeatHand("Bob", 100, SetHand.parse("Ks 5d 2d", "Jc Jd 9c 4c 3c", "Ts 9s 8d 7h 6c")),
        SeatHand("Cy", 100, SetHand.parse("4s 5s 6d", "8h 8c 6h 6s 2s", "Qh Qc Kd Kc As")),
    )
    deal = Deal(
        preset=load_preset("standard"),
        dealer="Cy",
        players=seats,
        unit=2,
        pair_units={frozenset(("Ann", "Bob")): 5},
    )
    result = score_deal(deal)
    by_pair = {frozenset((m.first, m.second)): m for m in result.matchups}
    ann_bob = by_pair[frozenset(("Ann", "Bob"))]
    assert ann_bob.unit == 5
    assert ann_bob.score.points == 25
    assert by_pair[frozenset(("Ann", "Cy"))].unit == 2
    assert by_pair[frozenset(("Bob", "Cy"))].unit == 2
    owed = {(t.debtor, t.creditor): t.owed for t in result.transfers}
    assert owed[("Bob", "Ann")] == 125
    assert_deal_result(deal, result)
