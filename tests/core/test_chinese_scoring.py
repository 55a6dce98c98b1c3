"""Closed Chinese poker scoring and settlement (docs/rules.md §10 with §8): the worked examples of
the issue, bank games, bonus modes, schemes, surrender, specials and aces, figure by figure."""

from __future__ import annotations

from typing import Any

import pytest

from ofc_desk.core.chinese.deal import ChineseDealResult, score_chinese_deal
from ofc_desk.core.chinese.deal_input import chinese_deal_from_json

SEED_A = {"front": "6s 6h 6d", "middle": "4s 4h 4d 9s 9h", "back": "Ks Kh Kd 8s 8h"}
SEED_B = {"front": "Qs Qh 7d", "middle": "Js Jh Jd 2s 2h", "back": "5s 5h 5d 5c Ad"}
# Hands without any bonus row, used where only rows and schemes matter.
HIGH = {"front": "Ks Qd 4c", "middle": "9s 9d 5c 3h 2d", "back": "Js Jd 8c 7h 6d"}
LOW = {"front": "Jh 7d 3c", "middle": "8s 8d 6c 4h 2c", "back": "Ts Td 7c 5h 3s"}
TOP = {"front": "As Qh 5d", "middle": "Kh Kd 6h 5s 2h", "back": "Ac Ad 9h 8h 4d"}
STRAIGHT_BACK = {"front": "Qc 4s 2s", "middle": "Ah Tc 7s 6s 3d", "back": "9c Th Jc Qs Kc"}
# The same strength as HIGH in every row, other suits: every row ties.
HIGH_AGAIN = {"front": "Kh Qh 4d", "middle": "9h 9c 5d 3s 2c", "back": "Jh Jc 8d 7s 6h"}
CY_HAND = {"front": "Tc 7d 3c", "middle": "8s 8h 6c 4h 2h", "back": "Ts Td 7c 5h 3d"}
DRAGON = {"declare": "dragon", "cards": "2h 3d 4s 5d 6s 7s 8h 9c Tc Jc Qc Kd Ah"}
MISSET = {"front": "Ah Ad 2c", "middle": "Kc Qc 9d 7d 3c", "back": "Js Jc 8h 6c 4s"}


def player(name: str, stack: int = 100, /, **hand: object) -> dict[str, Any]:
    return {"name": name, "stack": stack, **hand}


def scored(rules: str, dealer: str, *players: dict[str, Any], **options: Any) -> ChineseDealResult:
    deal = {"variant": "chinese", "rules": rules, "dealer": dealer, "players": list(players), **options}
    return score_chinese_deal(chinese_deal_from_json(deal))


def moves(result: ChineseDealResult) -> list[tuple[str, str, int, int]]:
    return [(t.debtor, t.creditor, t.owed, t.paid) for t in result.transfers]


def points(result: ChineseDealResult) -> dict[str, int]:
    return {p.name: p.points for p in result.players}


def test_the_seed_example_a_pays_b_three_units_under_chinese_typical() -> None:
    result = scored("chinese-typical", "B", player("A", **SEED_A), player("B", **SEED_B))
    assert moves(result) == [("A", "B", 3, 3)]
    matchup = result.matchups[0]
    assert (matchup.first, matchup.score.outcome, matchup.score.rest) == ("A", (1, -1, -1), -3)
    a_rows = result.player("A").shown.rows
    assert a_rows is not None and [row.bonus for row in a_rows] == [3, 2, 0]
    assert points(result) == {"A": -3, "B": 3}


def test_the_hawaiian_gardens_settlement_a_pays_only_two_and_ends_with_twelve() -> None:
    # A deals; A scoops B, C scoops A (and B, but not D, so no scoop-all); chip-exposure.
    result = scored(
        "hawaiian-gardens",
        "A",
        player("A", 8, **HIGH),
        player("B", 20, **LOW),
        player("C", 20, **TOP),
        player("D", 20, **STRAIGHT_BACK),
        settlement="chip-exposure",
        settle_from="dealer",
    )
    transfers = moves(result)
    assert transfers[:3] == [("B", "A", 6, 6), ("A", "C", 6, 2), ("D", "A", 1, 0)]
    assert result.player("A").stack_after == 12
    assert sum(p.stack_after for p in result.players) == 68


def test_in_a_bank_game_a_tied_row_goes_to_the_bank() -> None:
    result = scored(
        "malayan", "Bob", player("Ann", **HIGH), player("Bob", **HIGH_AGAIN), player("Cy", **CY_HAND)
    )
    bank_pairs = [(m.first, m.second, m.score.outcome) for m in result.matchups]
    assert bank_pairs == [("Cy", "Bob", (-1, -1, -1)), ("Ann", "Bob", (-1, -1, -1))]
    assert moves(result) == [("Cy", "Bob", 3, 3), ("Ann", "Bob", 3, 3)]
    # The bank is the dealer: with Ann dealing the same ties go Ann's way.
    result = scored(
        "malayan", "Ann", player("Ann", **HIGH), player("Bob", **HIGH_AGAIN), player("Cy", **CY_HAND)
    )
    assert ("Bob", "Ann", 3, 3) in moves(result)
    # Without a bank the tied rows are worth nothing.
    assert moves(scored("chinese-basic", "Bob", player("Ann", **HIGH), player("Bob", **HIGH_AGAIN))) == []


def test_a_surrender_pays_each_opponent_and_a_declarer_takes_it_instead_of_its_special() -> None:
    result = scored(
        "hawaiian-gardens",
        "Ann",
        player("Ann", surrender=True),
        player("Bob", **HIGH),
        player("Cy", surrender=True),
        player("Dee", **DRAGON),
    )
    by_pair = {(m.first, m.second): m.score for m in result.matchups}
    assert by_pair["Bob", "Cy"].total == 3  # Cy surrendered to Bob
    assert by_pair["Cy", "Dee"].total == -3  # the declarer receives the surrender, not 13
    assert by_pair["Cy", "Ann"].total == 0  # two surrenders exchange nothing
    assert by_pair["Bob", "Dee"].special == -13
    assert points(result) == {"Ann": -6, "Bob": 3 + 3 - 13, "Cy": -6, "Dee": 13 + 3 + 3}
    assert not any(p.shown.misset for p in result.players)


@pytest.mark.parametrize(
    ("rules", "bob_gets"),
    [("hawaiian-gardens", 6 - 4), ("chinese-typical", 0), ("vietnamese", 0)],
    ids=["difference", "higher, the same kind", "higher, kinds in the list's order"],
)
def test_special_against_special(rules: str, bob_gets: int) -> None:
    six_pairs = {"declare": "six-pairs", "cards": "2s 2h 3s 3h 4s 4h 5s 5h 6s 6h 7s 7h Ks"}
    all_red = {"declare": "all-one-colour", "cards": "2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ah"}
    if rules == "chinese-typical":
        all_red = {"declare": "six-pairs", "cards": "2d 2c 3d 3c 4d 4c 5d 5c 6d 6c 7d 7c Kd"}
    if rules == "vietnamese":
        # five-pairs-and-trips (6) is later in the list than six-pairs (3): it takes its 6.
        all_red = {"declare": "five-pairs-and-trips", "cards": "2d 2c 8s 3d 3c 4d 4c 5d 5c 6d 6c 8h 8d"}
        bob_gets = 6
    result = scored(rules, "Ann", player("Ann", **six_pairs), player("Bob", **all_red))
    assert points(result) == {"Ann": -bob_gets, "Bob": bob_gets}
    assert result.matchups[0].score.rest == 0


def test_under_higher_the_list_order_decides_even_between_equal_units() -> None:
    three_flushes = {"declare": "three-flushes", "cards": "2s 5s 9s 2h 4h 7h Th Kh 3d 6d 8d Jd Qd"}
    six_pairs = {"declare": "six-pairs", "cards": "2c 2d 3c 3s 4c 4s 5c 5d 6c 6s 7c 7s Ks"}
    # chinese-typical lists six-pairs before three-flushes, both 3 units.
    result = scored("chinese-typical", "Ann", player("Ann", **three_flushes), player("Bob", **six_pairs))
    assert result.matchups[0].score.special == -3  # Bob, left of the dealer, is first
    assert result.matchups[0].first == "Bob"


def test_bonus_modes() -> None:
    quads_back = {"front": "Kc Qc 2c", "middle": "Jh Jc 8d 7s 6h", "back": "9s 9h 9d 9c 3d"}
    plain = {"front": "As Kd 3s", "middle": "Qs Qh Td 4s 2h", "back": "Ts Th 8s 8h 5c"}
    # instead: Ann wins the back with quads (4), loses front and middle: 4 - 2 = 2.
    instead = scored("chinese-typical", "Bob", player("Ann", **quads_back), player("Bob", **plain))
    assert instead.matchups[0].score.rest == 2
    # extra (majority scheme): Bob wins 2 rows to 1: majority 1 to Bob, Ann's back bonus 4 on top.
    extra = scored("hawaiian-gardens", "Bob", player("Ann", **quads_back), player("Bob", **plain))
    assert extra.matchups[0].score.rest == -1 + 4
    # always (malayan, Bob banks): rows 1 - 2, plus Ann's back bonus 4 whatever the row's result.
    always = scored("malayan", "Bob", player("Ann", **quads_back), player("Bob", **plain))
    assert always.matchups[0].score.rest == 1 - 2 + 4


def test_a_misset_hand_loses_every_row_and_its_opponent_is_paid_its_bonuses() -> None:
    bonuses = {"front": "7s 7h 7c", "middle": "8s 8d 8c 5h 5d", "back": "Ts Th Td Tc 4h"}
    result = scored("chinese-typical", "Bob", player("Ann", **bonuses), player("Bob", **MISSET))
    score = result.matchups[0].score
    assert result.player("Bob").shown.misset and not result.player("Ann").shown.misset
    assert (score.outcome, score.rest) == ((1, 1, 1), 3 + 2 + 4)
    # Two misset hands exchange nothing.
    other_misset = {"front": "Kh Kd 3d", "middle": "Qh Jd 9c 7c 2s", "back": "Ts 8c 6d 5s 4c"}
    both = scored("chinese-basic", "Bob", player("Ann", **other_misset), player("Bob", **MISSET))
    assert (both.matchups[0].score.outcome, both.matchups[0].score.total) == ((0, 0, 0), 0)


def test_sweep_overall_point_and_scoop_multipliers() -> None:
    options = {"house_options": {"sweep": 3, "overall_point": 1}}
    result = scored("chinese-basic", "Bob", player("Ann", **HIGH), player("Bob", **LOW), **options)
    assert result.matchups[0].score.rest == 3 + 3 + 1
    # Vietnamese: a scoop doubles; scooping every opponent (two or more) triples.
    single = scored("vietnamese", "Bob", player("Ann", **HIGH), player("Bob", **LOW))
    assert single.matchups[0].score.rest == 3 * 2
    everyone = scored("vietnamese", "Cy", player("Ann", **TOP), player("Bob", **LOW), player("Cy", **HIGH))
    assert [m.score.rest for m in everyone.matchups] == [3 * 3, 3 * 3, -3 * 2]


def test_the_majority_scheme() -> None:
    two_to_one = scored("hawaiian-gardens", "Bob", player("Ann", **HIGH), player("Bob", **STRAIGHT_BACK))
    assert two_to_one.matchups[0].score.rest == 1  # Ann won 2 rows to 1
    scoop = scored("hawaiian-gardens", "Bob", player("Ann", **HIGH), player("Bob", **LOW))
    assert scoop.matchups[0].score.rest == 6
    everyone = scored(
        "hawaiian-gardens", "Cy", player("Ann", **TOP), player("Bob", **LOW), player("Cy", **HIGH)
    )
    assert [m.score.rest for m in everyone.matchups] == [9, 9, -6]


def test_aces_when_the_house_plays_them() -> None:
    three_aces = {"front": "Ks Qd 4c", "middle": "As Ad 5c 3h 2d", "back": "Jh Js Jd Ac 6d"}
    one_ace = {"front": "Ah 7d 3c", "middle": "8s 8d 6c 4h 2c", "back": "Ts Td 7c 5h 3s"}
    aces = {"house_options": {"aces": True}}
    result = scored("hawaiian-gardens", "Bob", player("Ann", **three_aces), player("Bob", **one_ace), **aces)
    score = result.matchups[0].score
    assert score.aces == 6 - 1  # Ann holds three aces, Bob one
    assert score.rest == 1 + 5  # Ann won 2 rows to 1
    assert (
        scored("hawaiian-gardens", "Bob", player("Ann", **three_aces), player("Bob", **one_ace))
        .matchups[0]
        .score.aces
        == 0
    )


def test_the_special_pass_settles_first_and_its_used_chips_carry_into_the_rest() -> None:
    result = scored(
        "chinese-typical",
        "Ann",
        player("Ann", 10, **HIGH),
        player("Bob", 100, **DRAGON),
        player("Cy", 100, **LOW),
    )
    # Order from the dealer's left: Bob, Cy, Ann. Special pass Bob–Cy, Bob–Ann; then Cy–Ann.
    assert moves(result) == [("Cy", "Bob", 13, 13), ("Ann", "Bob", 13, 10), ("Cy", "Ann", 3, 3)]
    assert [t.settlement_pass.value for t in result.transfers_made] == ["special", "special", "rest"]
    assert result.player("Ann").stack_after == 3
