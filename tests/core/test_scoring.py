"""Points between two players (docs/rules.md §5): 1-6, 2-4, two-point, fouls, royalties, antisymmetry."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_desk.core.cards import FULL_DECK, Card
from ofc_desk.core.ofc.presets import RulesPreset, load_preset, preset_from_dict
from ofc_desk.core.ofc.scoring import HandReport, MatchupScore, evaluate_hand, score_matchup
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.rows import SetHand

STANDARD = load_preset("standard")

# A beats B 2-1: front A-high over Q-high, middle pair of nines under two pair, back full house over
# flush. Royalties: A 6 (back full house), B 4 (back flush).
TWO_ONE_WINNER = SetHand.parse("Ah Kd 2c", "9s 9d 5c 6h 7s", "Js Jd Jc 4s 4d")
TWO_ONE_LOSER = SetHand.parse("Qh Jh 3c", "Ts Td 8c 8h 2s", "Ks Qs 8s 6s 3s")
# A scoops B: the worked example of the issue (Ann 21 in royalties, Bob 2).
SCOOPER = SetHand.parse("Qs Qd 2c", "Ah Kh 9h 4h 2h", "7s 7d 7c 3s 3d")
SCOOPED = SetHand.parse("Ks 5d 2d", "Jc Jd 9c 4c 3c", "Ts 9s 8d 7h 6c")
# Fouled: the middle (pair of jacks) is weaker than the front (queens); a royal flush in the back.
FOULED = SetHand.parse("Qs Qd 2c", "Jh Jd 9h 4h 2h", "Tc Jc Qc Kc Ac")


def report(hand: SetHand, preset: RulesPreset = STANDARD, variant: Variant = Variant.REGULAR) -> HandReport:
    return evaluate_hand(hand, preset, variant)


def matchup(
    first: SetHand, second: SetHand, scoring: str | None = None, preset: RulesPreset = STANDARD
) -> MatchupScore:
    system = preset.scoring_system(scoring)
    return score_matchup(report(first, preset), report(second, preset), system, preset)


def test_one_six_two_rows_to_one_is_worth_one_plus_the_royalty_difference() -> None:
    score = matchup(TWO_ONE_WINNER, TWO_ONE_LOSER, "1-6")
    assert score.rows == (1, -1, 1)
    assert score.scoop == 0
    assert score.royalties == 6 - 4
    assert score.points == 1 + 2


def test_one_six_scoop_is_worth_six_plus_royalties() -> None:
    score = matchup(SCOOPER, SCOOPED, "1-6")
    assert score.rows == (1, 1, 1)
    assert score.scoop == 3
    assert score.points == 6 + 21 - 2


def test_two_four_counts_one_for_the_majority_of_rows() -> None:
    assert matchup(TWO_ONE_WINNER, TWO_ONE_LOSER, "2-4").points == 1 + 1 + 2
    scoop = matchup(SCOOPER, SCOOPED, "2-4")
    assert scoop.points == 3 + 1 + 19
    assert scoop.scoop == 1


def test_tied_rows_score_nothing_and_do_not_count_toward_a_scoop() -> None:
    # The same ranks in other suits (no flushes involved): every row ties.
    first = SetHand.parse("Ah Kd 2c", "9s 9d 5c 6h 7s", "Js Jd Jc 4s 4d")
    second = SetHand.parse("As Kc 2d", "9h 9c 5d 6s 7d", "Qd Qc Qh 4h 4c")
    score = matchup(first, second, "1-6")
    assert score.rows == (0, 0, -1)
    assert score.points == -1 + (6 - 6), "queens full and jacks full both pay 6"
    one_win_two_ties = matchup(first, SetHand.parse("As Kc 2d", "9h 9c 5d 6s 7d", "Jh 3d 3c 3h 4h"), "2-4")
    assert one_win_two_ties.rows == (0, 0, 1)
    assert one_win_two_ties.points == 1 + 1 + 6


def test_two_point_preset_pays_two_a_row_and_six_for_a_sweep() -> None:
    two_point = load_preset("two-point")
    assert matchup(TWO_ONE_WINNER, TWO_ONE_LOSER, preset=two_point).points == 2 + (6 - 4)
    sweep = matchup(SCOOPER, SCOOPED, preset=two_point)
    # Royalties on two-point: Ann QQ 7 + flush 8 + full house 6; Bob straight 2.
    assert sweep.points == 6 + 21 - 2


def test_winner_only_royalties_count_only_on_rows_won() -> None:
    preset = preset_from_dict(STANDARD.source, {"winner_only_royalties": True})
    score = matchup(TWO_ONE_WINNER, TWO_ONE_LOSER, preset=preset)
    assert score.royalties == 6, "A's full house won its row; B's flush lost and pays nothing"
    assert score.points == 1 + 6
    reverse = matchup(TWO_ONE_LOSER, TWO_ONE_WINNER, preset=preset)
    assert reverse.points == -score.points


def test_a_foul_pays_the_penalty_plus_the_clean_players_royalties() -> None:
    fouled = report(FOULED)
    assert fouled.foul and fouled.royalties == 0, "the royal flush earns nothing in a fouled hand"
    score = matchup(SCOOPER, FOULED)
    assert score.rows == (1, 1, 1)
    assert score.penalty == 6
    assert score.royalties == 21
    assert score.points == 6 + 21
    assert score.fouled == (False, True)
    assert matchup(FOULED, SCOOPER).points == -(6 + 21)


def test_the_foul_penalty_is_preset_data() -> None:
    preset = preset_from_dict(STANDARD.source, {"foul_penalty": 10})
    assert matchup(SCOOPED, FOULED, preset=preset).points == 10 + 2
    assert matchup(SCOOPED, FOULED, "2-4", preset=preset).points == 10 + 2


def test_two_fouled_players_exchange_nothing() -> None:
    other_foul = SetHand.parse("Ks Kd 3c", "Th Td 9s 4s 2s", "As Ah 6c 7c 8d")
    score = matchup(FOULED, other_foul)
    assert score.fouled == (True, True)
    assert score.points == 0
    assert score.rows == (0, 0, 0)


def test_deuce_to_seven_lower_middle_wins_the_row() -> None:
    first = SetHand.parse("Qs Qd Ac", "7h 5d 4c 3s 2h", "Ks Kd Kc 8s 9d")
    second = SetHand.parse("Js Jd Ad", "8h 6d 4d 3c 2d", "9h 9c 9s Th Tc")
    preset = STANDARD
    score = score_matchup(
        report(first, variant=Variant.DEUCE_TO_SEVEN_PINEAPPLE),
        report(second, variant=Variant.DEUCE_TO_SEVEN_PINEAPPLE),
        preset.scoring_system("1-6"),
        preset,
    )
    assert score.rows == (1, 1, -1)
    # Royalties: first QQ 7 + 7-5-4-3-2 8; second JJ 6 + eight-high 2 + full house 6.
    assert score.points == 1 + (15 - 14)


# --- antisymmetry as a property -----------------------------------------------------------------


def deal_two(cards: list[Card]) -> tuple[SetHand, SetHand]:
    def hand(chunk: list[Card]) -> SetHand:
        return SetHand(tuple(chunk[:3]), tuple(chunk[3:8]), tuple(chunk[8:13]))

    return hand(cards[:13]), hand(cards[13:26])


HOUSE_OPTIONS: list[dict[str, Any]] = [
    {},
    {"winner_only_royalties": True},
    {"foul_penalty": 3, "royalties": {"back": {"trips": 1}}},
]


@settings(max_examples=300, deadline=None)
@given(
    cards=st.permutations(FULL_DECK),
    preset_name=st.sampled_from(["standard", "classic", "two-point"]),
    scoring=st.sampled_from(["1-6", "2-4", None]),
    options=st.sampled_from(HOUSE_OPTIONS),
    variant=st.sampled_from(list(Variant)),
)
def test_a_players_gain_is_exactly_the_opponents_loss(
    cards: list[Card], preset_name: str, scoring: str | None, options: dict[str, Any], variant: Variant
) -> None:
    preset = preset_from_dict(load_preset(preset_name).source, options)
    first, second = (report(hand, preset, variant) for hand in deal_two(cards))
    system = preset.scoring_system(scoring)
    forward = score_matchup(first, second, system, preset)
    backward = score_matchup(second, first, system, preset)
    assert forward.points == -backward.points
    assert forward.rows == tuple(-row for row in backward.rows)
    assert forward.royalties == -backward.royalties
    if first.foul and second.foul:
        assert forward.points == 0
    elif first.foul or second.foul:
        clean = second if first.foul else first
        assert abs(forward.points) == preset.foul_penalty + clean.royalties
    else:
        assert forward.points == system.row * sum(forward.rows) + forward.scoop + forward.royalties
