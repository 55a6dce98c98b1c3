"""The closed game's other payments (docs/rules.md §11): the `pool` and `pusoy-single-winner`
presets, the pool's row winners and the single winner figure by figure, aces and misset hands under
them, the no-pictures special, and the surrender, declaration and contradictory presets they
refuse with a sentence that says why."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_desk.core.cards import FULL_DECK, parse_cards
from ofc_desk.core.chinese.deal import ChineseDeal, ChineseDealResult, ChineseSeat, score_chinese_deal
from ofc_desk.core.chinese.deal_input import chinese_deal_from_json
from ofc_desk.core.chinese.hand import ChineseHand, EntryRefused, entry_from_action
from ofc_desk.core.chinese.payment import NO_DECLARATIONS, NO_SURRENDER, Payment
from ofc_desk.core.chinese.presets import chinese_preset_from_dict, load_chinese_preset
from ofc_desk.core.chinese.schemes import payment_scheme
from ofc_desk.core.chinese.showdown import Entry, show
from ofc_desk.core.chinese.specials import SpecialKind, makes
from ofc_desk.core.deal_input import DealInputError
from ofc_desk.core.presets import Game, PresetError, preset_names
from ofc_desk.core.rows import SetHand

# The seed text's pool of four: Ann the best front, Bob the best middle, Cy the best back.
SEED_POOL = {
    "Ann": {"front": "As Ah Kc", "middle": "2s 2h 3s 3h 4c", "back": "5s 5h 5d 6c 7c"},
    "Bob": {"front": "Ks Kh Qc", "middle": "4s 4h 4d 8c 9c", "back": "8d 9d Th Jd Qd"},
    "Cy": {"front": "Qs Qh Jc", "middle": "6h 6d 7h 7d 2c", "back": "Ts Td Tc 9h 9s"},
    "Dee": {"front": "2d 3c 5c", "middle": "8h 8s 3d 6s 7s", "back": "Ac Ad Jh Js Kd"},
}
# X's three aces in front lie over a high-card middle: misset. Y and Z tie the front (kings with a
# deuce), Y has the best middle, Z the best back.
MISSET_POOL = {
    "X": {"front": "As Ah Ad", "middle": "2c 3d 5h 7s 8h", "back": "Qc Qd 4c 6h 8c"},
    "Y": {"front": "Ks Kh 2d", "middle": "Js Jh Jd 3c 3h", "back": "Tc Td Th Ts 4d"},
    "Z": {"front": "Kc Kd 2h", "middle": "9s 9h 9c 4s 4h", "back": "5d 6d 7d 8d 9d"},
}
# P and Q tie the front, P wins the middle, Q the back: nobody wins two rows. P holds three aces.
SPLIT = {
    "P": {"front": "Ah Kh 3c", "middle": "Qs Qh Qd Ac As", "back": "2s 3s 4s 5s 6s"},
    "Q": {"front": "Ad Kd 3d", "middle": "Js Jh Jd 6c 6d", "back": "8c 9c Tc Jc Qc"},
}


def deal(rules: str, dealer: str, hands: dict[str, dict[str, Any]], **options: Any) -> dict[str, Any]:
    players = [{"name": name, "stack": 100, **hand} for name, hand in hands.items()]
    return {"variant": "chinese", "rules": rules, "dealer": dealer, "players": players, **options}


def scored(rules: str, dealer: str, hands: dict[str, dict[str, Any]], **options: Any) -> ChineseDealResult:
    return score_chinese_deal(chinese_deal_from_json(deal(rules, dealer, hands, **options)))


def net(result: ChineseDealResult) -> dict[str, int]:
    return {player.name: player.stack_after - player.stack_before for player in result.players}


def test_the_shipped_presets_are_chinese_basic_but_for_the_payment_and_no_surrender() -> None:
    basic, pool, pusoy = (
        load_chinese_preset(name) for name in ("chinese-basic", "pool", "pusoy-single-winner")
    )
    assert (pool.payment.payment, pool.payment.numbers()) == (Payment.POOL, {"pool_row": 1, "pool_scoop": 3})
    assert (pusoy.payment.payment, pusoy.payment.numbers()) == (Payment.SINGLE_WINNER, {"stake": 1})
    assert basic.payment.payment is Payment.PAIRS
    assert pool.surrender is None and pusoy.surrender is None and basic.surrender == 1
    for preset in (pool, pusoy):
        assert (preset.scheme, preset.bonuses, preset.specials, preset.bank, preset.aces, preset.rake) == (
            basic.scheme,
            basic.bonuses,
            basic.specials,
            basic.bank,
            basic.aces,
            basic.rake,
        )
        assert chinese_preset_from_dict(preset.to_dict()) == preset


def test_the_seed_pool_of_four_each_rows_winner_collects_four_units() -> None:
    result = scored("pool", "Dee", SEED_POOL)
    assert result.payment_outcome is not None
    assert result.payment_outcome.row_winners == ("Ann", "Bob", "Cy")
    # Each put 3 units in (12); each row's winner collects a third, 4 units, 3 of them won.
    pool_picture = {name: 4 * result.payment_outcome.row_winners.count(name) - 3 for name in SEED_POOL}
    assert net(result) == pool_picture == {"Ann": 1, "Bob": 1, "Cy": 1, "Dee": -3}
    assert {transfer.settlement_pass.value for transfer in result.transfers_made} == {"rest"}


def test_a_pair_moves_only_its_own_rows_net() -> None:
    """Between two row winners the rows cancel: a pair result is pool_row × (rows A won − rows B
    won), and nothing moves between Ann and Bob, who each won one row."""
    result = scored("pool", "Dee", SEED_POOL)
    by_pair = {(m.first, m.second): m.score.rows for m in result.matchups}
    assert by_pair == {
        ("Ann", "Bob"): 0,
        ("Ann", "Cy"): 0,
        ("Ann", "Dee"): 1,
        ("Bob", "Cy"): 0,
        ("Bob", "Dee"): 1,
        ("Cy", "Dee"): 1,
    }
    assert [(t.debtor, t.creditor, t.owed) for t in result.transfers] == [
        ("Dee", "Ann", 1),
        ("Dee", "Bob", 1),
        ("Dee", "Cy", 1),
    ]
    assert [t.why for t in result.transfers_made] == [
        "the pool: Ann won the front",
        "the pool: Bob won the middle",
        "the pool: Cy won the back",
    ]


def test_a_scoop_of_the_pool_collects_pool_scoop_more_from_everyone() -> None:
    hands = {
        "Ann": {"front": "Ah Ad Kc", "middle": "Ks Kh Kd 9s 9h", "back": "3s 3h 3d 3c 2c"},
        "Bob": {"front": "2s 2h Qc", "middle": "4s 4h 4d 8c 9c", "back": "8d 9d Th Jd Qd"},
        "Cy": {"front": "Qs Qh Jc", "middle": "6h 6d 7h 7d 2d", "back": "Ts Td Tc 5s 5h"},
        "Dee": {"front": "4c 5c 6c", "middle": "5d 6s 7c 7s 8h", "back": "8s Jh Js Ac As"},
    }
    result = scored("pool", "Dee", hands)
    assert result.payment_outcome is not None and result.payment_outcome.row_winners == ("Ann",) * 3
    # 1 a row and 3 for the scoop (the shipped pool_scoop) from each of the other three.
    assert net(result) == {"Ann": 18, "Bob": -6, "Cy": -6, "Dee": -6}
    assert {t.why for t in result.transfers_made} == {"the pool: Ann won all three rows"}
    no_scoop = scored("pool", "Dee", hands, house_options={"pool_scoop": 0})
    assert net(no_scoop) == {"Ann": 9, "Bob": -3, "Cy": -3, "Dee": -3}


def test_misset_hands_are_left_out_and_a_tie_wins_nobody_the_row() -> None:
    result = scored("pool", "Z", MISSET_POOL)
    assert result.player("X").shown.misset
    # X's trips would take the front; left out, Y and Z tie it: nobody wins it, nothing is split.
    assert result.payment_outcome is not None
    assert result.payment_outcome.row_winners == (None, "Y", "Z")
    assert net(result) == {"X": -2, "Y": 1, "Z": 1}


def test_under_pool_a_house_pool_row_of_two() -> None:
    result = scored("pool", "Z", MISSET_POOL, house_options={"pool_row": 2, "pool_scoop": 0})
    assert net(result) == {"X": -4, "Y": 2, "Z": 2}


def test_every_hand_misset_wins_nobody_anything() -> None:
    misset = {"front": "As Ah Ad", "middle": "2c 3d 5h 7s 8h", "back": "Qc Qd 4c 6h 8c"}
    also = {"front": "Ks Kh Kd", "middle": "2s 3s 4h 6d 9c", "back": "Jc Jd 5c 7c 9d"}
    result = scored("pool", "B", {"A": misset, "B": also})
    assert result.payment_outcome is not None and result.payment_outcome.row_winners == (None, None, None)
    assert result.transfers == ()


def test_the_single_winner_collects_the_stake_from_everyone() -> None:
    # Bob's kings and trips beat every other front and middle; Ann wins only one row against him.
    result = scored("pusoy-single-winner", "Dee", SEED_POOL, unit=5)
    assert result.payment_outcome is not None and result.payment_outcome.winner == "Bob"
    assert net(result) == {"Ann": -5, "Bob": 15, "Cy": -5, "Dee": -5}
    assert [(t.debtor, t.creditor, t.owed) for t in result.transfers] == [
        ("Ann", "Bob", 5),
        ("Cy", "Bob", 5),
        ("Dee", "Bob", 5),
    ]
    assert {t.why for t in result.transfers_made} == {
        "Bob won the deal: two rows or more against every other player"
    }


def test_nobody_wins_the_deal_and_only_the_aces_move() -> None:
    result = scored("pusoy-single-winner", "Q", SPLIT)
    assert result.payment_outcome is not None and result.payment_outcome.winner is None
    assert result.transfers == ()
    with_aces = scored("pusoy-single-winner", "Q", SPLIT, house_options={"aces": True})
    # Three aces against one: 6 − 1 = 5 units, in the one pass.
    assert [(t.debtor, t.creditor, t.owed) for t in with_aces.transfers] == [("Q", "P", 5)]
    assert [t.why for t in with_aces.transfers_made] == ["aces: P 3, Q 1"]


def test_aces_are_added_to_each_pairs_pool_result() -> None:
    result = scored("pool", "Q", SPLIT, house_options={"aces": True})
    # P won the middle, Q the back, the front tied: the rows cancel, the aces do not.
    matchup = result.matchups[0]
    assert (matchup.score.rows, matchup.score.aces, matchup.score.rest) == (0, 5, 5)


def test_a_misset_hand_loses_every_row_to_the_single_winner() -> None:
    hands = {"X": MISSET_POOL["X"], "Y": MISSET_POOL["Y"]}
    result = scored("pusoy-single-winner", "Y", hands, house_options={"stake": 3})
    assert result.payment_outcome is not None and result.payment_outcome.winner == "Y"
    assert net(result) == {"X": -3, "Y": 3}


@pytest.mark.parametrize("rules", ["pool", "pusoy-single-winner"])
def test_a_surrender_or_a_declaration_is_refused_with_the_reason(rules: str) -> None:
    preset = load_chinese_preset(rules)
    hand = ChineseHand(preset, ("Ann", "Bob"))
    with pytest.raises(EntryRefused, match=f"^{NO_SURRENDER}$"):
        hand.enter("Ann", Entry.surrender())
    cards = [str(card) for card in parse_cards("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As")]
    with pytest.raises(EntryRefused, match=f"^{NO_DECLARATIONS}$"):
        entry_from_action(preset, "Ann", {"declare": "one-suit", "cards": cards})
    with pytest.raises(DealInputError, match=f"players\\[0\\] \\(Ann\\).surrender: {NO_SURRENDER}$"):
        chinese_deal_from_json(deal(rules, "Bob", {"Ann": {"surrender": True}, "Bob": SEED_POOL["Bob"]}))
    declared = {"declare": "six-pairs", "cards": "2s 2h 3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 9d"}
    with pytest.raises(DealInputError, match=f"players\\[0\\] \\(Ann\\).declare: {NO_DECLARATIONS}$"):
        chinese_deal_from_json(deal(rules, "Bob", {"Ann": declared, "Bob": SEED_POOL["Bob"]}))


def test_a_pairs_preset_with_a_null_surrender_refuses_a_surrender_too() -> None:
    preset = chinese_preset_from_dict(load_chinese_preset("chinese-basic").to_dict(), {"surrender": None})
    assert ChineseHand(preset, ("Ann", "Bob")).can_enter("Ann", Entry.surrender()) is False
    bob = Entry.set_rows(SetHand.parse("Ks Kh Qc", "4s 4h 4d 8c 9c", "8d 9d Th Jd Qd"))
    refused = ChineseDeal(
        preset, "Bob", (ChineseSeat("Ann", 10, Entry.surrender()), ChineseSeat("Bob", 10, bob))
    )
    with pytest.raises(ValueError, match=f"Ann: {NO_SURRENDER}"):
        score_chinese_deal(refused)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"payment": "pool"}, f"preset.surrender must be null under payment pool: {NO_SURRENDER}"),
        (
            {"payment": "single-winner", "surrender": None, "specials": [{"kind": "dragon", "units": 13}]},
            f"preset.specials must be empty under payment single-winner: {NO_DECLARATIONS}",
        ),
        (
            {"payment": "pool", "surrender": None, "bank": True},
            "preset.bank must be false under payment pool",
        ),
        ({"payment": "pairs-and-pool"}, "preset.payment must be one of pairs, pool, single-winner"),
        ({"payment": "pool", "surrender": None, "pool_row": -1}, "preset.pool_row must be a whole number"),
        (
            {"payment": "single-winner", "surrender": None, "stake": "one"},
            "preset.stake must be a whole number",
        ),
    ],
)
def test_contradictory_house_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(PresetError, match=message.replace("(", r"\(").replace(")", r"\)")):
        chinese_preset_from_dict(load_chinese_preset("chinese-basic").to_dict(), options)


def test_a_pairs_table_may_become_a_pool_table_by_house_options() -> None:
    options: dict[str, object] = {"payment": "pool", "surrender": None, "specials": []}
    result = scored("chinese-typical", "Dee", SEED_POOL, house_options=options)
    assert result.preset.payment.numbers() == {"pool_row": 1, "pool_scoop": 0}
    # chinese-typical's row bonuses play no part at a pool table.
    assert net(result) == {"Ann": 1, "Bob": 1, "Cy": 1, "Dee": -3}


def test_no_pictures_holds_aces_and_tens_but_no_jack_queen_or_king() -> None:
    assert makes(SpecialKind.NO_PICTURES, parse_cards("As Ah Ts Th 9s 9h 8s 8h 7s 7h 2c 3c 4c"))
    for picture in ("Jc", "Qc", "Kc"):
        assert not makes(
            SpecialKind.NO_PICTURES, parse_cards(f"As Ah Ts Th 9s 9h 8s 8h 7s 7h 2c 3c {picture}")
        )


def test_no_pictures_is_in_no_shipped_preset() -> None:
    for name in preset_names(Game.CHINESE):
        assert load_chinese_preset(name).special(SpecialKind.NO_PICTURES) is None


@st.composite
def shown_hands(draw: st.DrawFn) -> tuple[Any, dict[str, Any], list[tuple[str, str]]]:
    rules = draw(st.sampled_from(["pool", "pusoy-single-winner", "chinese-typical", "malayan"]))
    preset = chinese_preset_from_dict(load_chinese_preset(rules).to_dict(), {"aces": draw(st.booleans())})
    names = ["Ann", "Bob", "Cy", "Dee"][: draw(st.integers(2, 4))]
    deck = draw(st.permutations(FULL_DECK))
    shown = {}
    for seat, name in enumerate(names):
        cards = list(deck[13 * seat : 13 * seat + 13])
        if draw(st.booleans()):
            cards.sort(key=lambda card: card.rank.order)
        shown[name] = show(SetHand(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])), preset)
    pairs = [(first, second) for i, first in enumerate(names) for second in names[i + 1 :]]
    return preset, shown, pairs


@settings(max_examples=120, deadline=None)
@given(case=shown_hands())
def test_every_payments_pair_results_are_antisymmetric(case: tuple[Any, dict[str, Any], list[Any]]) -> None:
    preset, shown, pairs = case
    scheme = payment_scheme(preset.payment.payment)
    bank = next(iter(shown)) if preset.bank else None
    there = scheme.score(preset, shown, pairs, bank)
    back = scheme.score(preset, shown, [(second, first) for first, second in pairs], bank)
    for first, second in pairs:
        forth, again = there.scores[first, second], back.scores[second, first]
        assert (again.special, again.rest) == (-forth.special, -forth.rest)
        assert again.outcome == (None if forth.outcome is None else tuple(-row for row in forth.outcome))
    assert there.outcome == back.outcome


@settings(max_examples=120, deadline=None)
@given(case=shown_hands())
def test_at_most_one_player_wins_a_single_winner_deal(case: tuple[Any, dict[str, Any], list[Any]]) -> None:
    _, shown, pairs = case
    preset = load_chinese_preset("pusoy-single-winner")
    scored = payment_scheme(Payment.SINGLE_WINNER).score(preset, shown, pairs, None)
    paid = {name for pair, score in scored.scores.items() for name in pair if score.rows}
    winner = scored.outcome.winner if scored.outcome else None
    assert paid == (set(shown) if winner else set())
