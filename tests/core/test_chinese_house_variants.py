"""The closed game's house variants (docs/rules.md §13): each option refused when wrong or when it
contradicts the preset, and its effect on hands made for it: the wheel against every straight and
straight flush, each bonus by rank, 1, 2 and 3 scoops, each strict kind's boundary."""

from __future__ import annotations

from typing import Any

import pytest

from ofc_desk.core.cards import parse_cards
from ofc_desk.core.chinese.deal import ChineseDealResult, score_chinese_deal
from ofc_desk.core.chinese.deal_input import chinese_deal_from_json
from ofc_desk.core.chinese.hand import EntryRefused, declared_special
from ofc_desk.core.chinese.house_variants import HouseVariants, Wheel
from ofc_desk.core.chinese.presets import ChinesePreset, chinese_preset_from_dict, load_chinese_preset
from ofc_desk.core.chinese.showdown import show
from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.core.hands import strength
from ofc_desk.core.ofc.scoring import SetHand
from ofc_desk.core.presets import PresetError
from tests.core.score_output import score

SUITS = "shdc"
RANKS = "A23456789TJQKA"


def with_options(name: str, **options: Any) -> ChinesePreset:
    return chinese_preset_from_dict(load_chinese_preset(name).to_dict(), options)


def scored(rules: str, dealer: str, *players: dict[str, Any], **options: Any) -> ChineseDealResult:
    deal = {"variant": "chinese", "rules": rules, "dealer": dealer, "players": list(players), **options}
    return score_chinese_deal(chinese_deal_from_json(deal))


def rest(result: ChineseDealResult) -> dict[tuple[str, str], int]:
    return {(m.first, m.second): m.score.rest for m in result.matchups}


# --- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("vietnamese", {"wheel": "high"}, "preset.wheel must be one of low, second, not 'high'"),
        ("vietnamese", {"bonus_by_rank": []}, "preset.bonus_by_rank must be an object"),
        ("vietnamese", {"bonus_by_rank": {"front_pair": {"3": 1}}}, "front_pair is not a row bonus"),
        ("vietnamese", {"bonus_by_rank": {"front_trips": {"1": 1}}}, "front_trips.1 must be a rank"),
        ("vietnamese", {"bonus_by_rank": {"back_straight_flush": {"4": 9}}}, "no straight flush has 4"),
        ("vietnamese", {"bonus_by_rank": {"back_quads": {"4": -1}}}, "back_quads.4 must be a whole number"),
        ("vietnamese", {"bonus_by_rank": {"back_quads": {"4": 1.5}}}, "back_quads.4 must be a whole number"),
        ("vietnamese", {"scoop_multipliers": [2, 1.5]}, "1.5 times 2 is written 3"),
        ("vietnamese", {"scoop_multipliers": []}, "preset.scoop_multipliers must be null or a list"),
        ("vietnamese", {"scoop_multipliers": [0]}, "whole numbers from 1 to 10"),
        ("vietnamese", {"scoop_multipliers": [11]}, "whole numbers from 1 to 10"),
        ("vietnamese", {"scoop_multipliers": 2}, "preset.scoop_multipliers must be null or a list"),
        ("hawaiian-gardens", {"scoop_multipliers": [2, 3]}, "for the rows scheme only"),
        ("pool", {"scoop_multipliers": [2]}, "scoop_multipliers is not played under payment pool"),
        ("pool", {"bonus_by_rank": {"front_trips": {"3": 6}}}, "bonus_by_rank is not played under payment"),
        ("pusoy-single-winner", {"strict_specials": ["six-pairs"]}, "strict_specials is not played"),
        ("vietnamese", {"strict_specials": ["dragon"]}, r"strict_specials\[0\] 'dragon' has no strict form"),
        ("vietnamese", {"strict_specials": ["six-pairs", "six-pairs"]}, "six-pairs is listed twice"),
        ("vietnamese", {"strict_specials": "six-pairs"}, "preset.strict_specials must be a list"),
    ],
)
def test_a_wrong_or_contradictory_option_is_refused_with_a_sentence(
    name: str, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(PresetError, match=message):
        with_options(name, **options)


def test_the_wheel_alone_is_played_at_a_pool_table() -> None:
    assert with_options("pool", wheel="second").house.wheel is Wheel.SECOND


def test_a_strictness_for_a_kind_the_preset_does_not_list_is_harmless() -> None:
    # Thirteen-Cards' list has four trips, which vietnamese does not pay (§13's last paragraph).
    preset = with_options("vietnamese", strict_specials=["four-trips"])
    assert preset.special(SpecialKind.FOUR_TRIPS) is None
    assert preset.house.strict_specials == {SpecialKind.FOUR_TRIPS}


def test_a_house_option_replaces_the_bonuses_by_rank_whole() -> None:
    house = with_options("taiwanese", bonus_by_rank={"front_trips": {"2": 9}})
    front_twos = show(SetHand.parse("2s 2h 2d", "2c 5c 7c 9c Jc", "As Ah Ad 4c 4h"), house)
    front_threes = show(SetHand.parse("3s 3h 3d", "3c 6c 8c Tc Qc", "Ks Kh Kd 4d 4s"), house)
    assert front_twos.rows is not None and front_twos.rows[0].bonus == 9
    assert front_threes.rows is not None and front_threes.rows[0].bonus == 3  # taiwanese's 6 is gone


def test_options_left_out_are_not_stored_with_the_preset() -> None:
    """The preset's stored data (and so every stored session) is what it was before §13."""
    assert not {"wheel", "bonus_by_rank", "scoop_multipliers", "strict_specials"} & set(
        load_chinese_preset("vietnamese").to_dict()
    )


# --- the wheel --------------------------------------------------------------------------------


def straights(flush: bool) -> dict[str, int]:
    """Every five-card straight (or straight flush), by its top card, as the core values it."""
    found = {}
    for low in range(10):
        ranks = RANKS[low : low + 5]
        suits = "s" * 5 if flush else "shdcs"
        found[ranks[-1]] = strength(parse_cards(" ".join(r + s for r, s in zip(ranks, suits, strict=True))))
    return found


@pytest.mark.parametrize("flush", [False, True])
def test_the_wheel_ranks_second_only_under_second(flush: bool) -> None:
    values = straights(flush)
    wheel = values.pop("5")
    second, low = HouseVariants(wheel=Wheel.SECOND), HouseVariants()
    for top, value in values.items():
        assert (second.ranked(wheel) > value) is (top != "A"), top
        assert low.ranked(wheel) < value, top
        assert second.ranked(value) == value  # every other straight keeps its place


def test_a_wheel_back_beats_a_king_high_straight_and_misset_follows_the_order() -> None:
    wheel_back = {"front": "Qc 4d 2s", "middle": "Ah Tc 7s 6s 3d", "back": "As 2h 3c 4s 5d"}
    king_back = {"front": "Jh 8d 3h", "middle": "Kh Td 7c 6h 2c", "back": "9c Th Jc Qs Kc"}
    players = [{"name": "Ann", "stack": 50, **wheel_back}, {"name": "Bob", "stack": 50, **king_back}]
    low = scored("vietnamese", "Bob", *players)
    second = scored("vietnamese", "Bob", *players, house_options={"wheel": "second"})
    assert low.matchups[0].score.outcome == (1, 1, -1)
    assert second.matchups[0].score.outcome == (1, 1, 1)
    # A wheel middle over a king-high straight back is misset only when the wheel ranks second.
    misset = SetHand.parse("2d 3d 7h", "As 2h 3c 4s 5d", "9c Th Jc Qs Kc")
    assert not show(misset, load_chinese_preset("vietnamese")).misset
    assert show(misset, load_chinese_preset("taiwanese")).misset


def test_the_wheel_keeps_its_class_for_specials_and_names() -> None:
    taiwanese = load_chinese_preset("taiwanese")
    three_straights = parse_cards("As 2h 3c 4s 5d 9c Th Jc Qs Kc Qd Kd Ad")
    assert SpecialKind.THREE_STRAIGHTS in [
        special.kind for special in taiwanese.specials_made(three_straights)
    ]
    rows = show(SetHand.parse("2d 3d 7h", "6c 7c 8c 9h Td", "As 2s 3s 4s 5s"), taiwanese).rows
    assert rows is not None and (rows[2].hand, rows[2].bonus) == ("five-high straight flush", 6)


# --- bonuses by rank --------------------------------------------------------------------------

LOW_FRONT = "2c 7c Jd"
ROYAL_BACK = "Ts Js Qs Ks As"
NINES_FULL = "9s 9d 9c Ks Kc"


@pytest.mark.parametrize(
    ("rows", "place", "taiwanese", "vietnamese"),
    [
        (("3s 3h 3d", "2c 4c 5c 7c 9c", "6s 6h 6d 6c Kd"), 0, 6, 3),
        (("4s 4h 4d", "2c 5c 7c 9c Jc", "6s 6h 6d 6c Kd"), 0, 3, 3),
        ((LOW_FRONT, "4s 4h 4d 4c 8h", ROYAL_BACK), 1, 16, 8),
        ((LOW_FRONT, "5s 5h 5d 5c 8h", ROYAL_BACK), 1, 8, 8),
        ((LOW_FRONT, "Th Jh Qh Kh Ah", ROYAL_BACK), 1, 14, 10),
        ((LOW_FRONT, "Ah 2h 3h 4h 5h", ROYAL_BACK), 1, 12, 10),
        ((LOW_FRONT, "9h Th Jh Qh Kh", ROYAL_BACK), 1, 10, 10),
        ((LOW_FRONT, NINES_FULL, "4s 4h 4d 4c Ac"), 2, 8, 4),
        ((LOW_FRONT, NINES_FULL, "5s 5h 5d 5c Ac"), 2, 4, 4),
        ((LOW_FRONT, NINES_FULL, "Th Jh Qh Kh Ah"), 2, 7, 5),
        ((LOW_FRONT, NINES_FULL, "Ah 2h 3h 4h 5h"), 2, 6, 5),
        ((LOW_FRONT, NINES_FULL, "5h 6h 7h 8h 9h"), 2, 5, 5),
    ],
)
def test_each_rank_bonus_of_the_taiwanese_preset(
    rows: tuple[str, str, str], place: int, taiwanese: int, vietnamese: int
) -> None:
    hand = SetHand.parse(*rows)
    for name, bonus in (("taiwanese", taiwanese), ("vietnamese", vietnamese)):
        shown = show(hand, load_chinese_preset(name))
        assert not shown.misset, (name, shown.misset_reason)
        assert shown.rows is not None and shown.rows[place].bonus == bonus, name
        assert shown.rows[place].by_rank is (name == "taiwanese" and bonus != vietnamese)


def test_a_full_house_is_paid_by_the_rank_of_its_trips() -> None:
    house = with_options("malayan", bonus_by_rank={"middle_full_house": {"7": 5}})
    sevens_full = show(SetHand.parse("2c 3d 4h", "7s 7h 7d 2s 2h", "As Ks Qs Js Ts"), house)
    twos_full = show(SetHand.parse("5c 3s 4s", "2d 2c 7c 7s 7h", "Ac Kc Qc Jc Tc"), house)
    assert sevens_full.rows is not None and sevens_full.rows[1].bonus == 5
    assert twos_full.rows is not None and twos_full.rows[1].bonus == 5  # sevens full of twos
    eights_full = show(SetHand.parse("5c 3s 4s", "2d 2c 8s 8h 8d", "Ac Kc Qc Jc Tc"), house)
    assert eights_full.rows is not None and eights_full.rows[1].bonus == 2  # the key's value


def test_a_rank_bonus_pays_as_the_bonus_mode_says() -> None:
    """`always` (malayan): each player receives their own bonus rows, won or lost."""
    rank_bonus = {"middle_full_house": {"7": 5}}
    sevens = {"front": "2c 3d 4h", "middle": "7s 7h 7d 2s 2h", "back": "9d 9h 9c 9s 3c"}
    aces = {"front": "Ac Ad 6h", "middle": "Kc Kd Ks 5c 5d", "back": "Th Jh Qh Kh Ah"}
    players = [{"name": "Ann", "stack": 50, **sevens}, {"name": "Bob", "stack": 50, **aces}]
    plain = scored("malayan", "Bob", *players)
    by_rank = scored("malayan", "Bob", *players, house_options={"bonus_by_rank": rank_bonus})
    # Bob (the bank) wins every row; Ann's middle full house is paid her either way, 2 or 5.
    assert rest(by_rank)[("Ann", "Bob")] - rest(plain)[("Ann", "Bob")] == 5 - 2


def test_a_misset_hand_has_no_rank_bonus() -> None:
    taiwanese = load_chinese_preset("taiwanese")
    shown = show(SetHand.parse("3s 3h 3d", "Ac Kd 9c 7h 2d", "4s 4h 4d 4c 8h"), taiwanese)
    assert shown.misset and shown.rows is not None and [row.bonus for row in shown.rows] == [0, 0, 0]


# --- scoop multipliers by scoop count ----------------------------------------------------------

ANN = {"front": "Ks Kh 2c", "middle": "As Ah Ad 3c 4c", "back": "5d 6h 7c 8d 9c"}
"""Pair of kings, trips of aces, a nine-high straight: no bonus row, and it scoops the hands below."""
WEAK = {
    "Bob": {"front": "2d 3d 5s", "middle": "7h 7d 9d Jc Qc", "back": "4h 4s 6c 6d Ac"},
    "Cy": {"front": "2h 3h 6s", "middle": "8h 8s Th Jh Qd", "back": "Js Jd 9s 9h 4d"},
    "Dee": {"front": "2s 3s 7s", "middle": "Qs Qh 5h 8c Tc", "back": "Kd Kc 5c Ts Td"},
}
TIES_THE_FRONT = {"front": "Kd Kc 2s", "middle": "Qs Qh 5h 5c 3s", "back": "Ts Td Tc 7s 8c"}
"""Ann's front again (a tie: §13's clarification 7, two rows and a tie is no scoop)."""


def ann_against(**others: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": "Ann", "stack": 500, **ANN}] + [
        {"name": name, "stack": 500, **hand} for name, hand in others.items()
    ]


@pytest.mark.parametrize(
    ("others", "ann_scoops", "times"),
    [
        ({**WEAK}, 3, 4),
        ({"Bob": WEAK["Bob"], "Cy": WEAK["Cy"], "Dee": TIES_THE_FRONT}, 2, 3),
        ({"Bob": WEAK["Bob"], "Cy": TIES_THE_FRONT, "Dee": {"surrender": True}}, 1, 2),
    ],
)
def test_a_scoop_is_multiplied_by_the_scoopers_count(
    others: dict[str, dict[str, Any]], ann_scoops: int, times: int
) -> None:
    multiplied = scored(
        "vietnamese", "Dee", *ann_against(**others), house_options={"scoop_multipliers": [2, 3, 4]}
    )
    for opponent in list(others)[:ann_scoops]:
        assert rest(multiplied)[("Ann", opponent)] == 3 * times, opponent
        why = next(
            t.why
            for t in multiplied.transfers_made
            if (t.transfer.debtor, t.transfer.creditor) == (opponent, "Ann")
        )
        scoops = "scoop" if ann_scoops == 1 else "scoops"
        assert why == f"Ann scooped {opponent}, ×{times} for {ann_scoops} {scoops}"


def test_two_rows_and_a_tie_is_no_scoop_and_past_the_list_its_last_number() -> None:
    others = {"Bob": WEAK["Bob"], "Cy": WEAK["Cy"], "Dee": TIES_THE_FRONT}
    result = scored("vietnamese", "Dee", *ann_against(**others), house_options={"scoop_multipliers": [5]})
    assert rest(result)[("Ann", "Dee")] == 2  # two rows, no multiplier
    assert rest(result)[("Ann", "Bob")] == 3 * 5  # two scoops, a list of one: its last number


def test_the_multipliers_by_count_replace_the_presets_own() -> None:
    """Vietnamese alone: Ann scooped everyone (×3) — with [2, 2, 2] she has ×2, not ×6."""
    plain = scored("vietnamese", "Dee", *ann_against(**WEAK))
    replaced = scored(
        "vietnamese", "Dee", *ann_against(**WEAK), house_options={"scoop_multipliers": [2, 2, 2]}
    )
    assert rest(plain)[("Ann", "Bob")] == 9 and rest(replaced)[("Ann", "Bob")] == 6


def test_a_misset_opponent_is_scooped_and_counts() -> None:
    misset = {"front": "Js Jd Qd", "middle": "2h 3h 6s 8h 4d", "back": "8s Th Jh 9s 9h"}
    others = {"Bob": WEAK["Bob"], "Cy": misset, "Dee": TIES_THE_FRONT}
    result = scored(
        "vietnamese", "Dee", *ann_against(**others), house_options={"scoop_multipliers": [2, 3, 4]}
    )
    assert result.player("Cy").shown.misset
    assert rest(result)[("Ann", "Cy")] == 3 * 3 and rest(result)[("Ann", "Bob")] == 3 * 3


# --- strict specials --------------------------------------------------------------------------

STRICT_ALL = [kind.value for kind in (
    SpecialKind.SIX_PAIRS,
    SpecialKind.FIVE_PAIRS_AND_TRIPS,
    SpecialKind.FOUR_TRIPS,
    SpecialKind.THREE_FLUSHES,
    SpecialKind.THREE_STRAIGHT_FLUSHES,
)]  # fmt: skip


@pytest.mark.parametrize(
    ("kind", "exact", "loose", "why"),
    [
        (
            SpecialKind.SIX_PAIRS,
            "2s 2h 3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8d",
            "2s 2h 3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 7d",
            "only with trips",
        ),
        (
            SpecialKind.SIX_PAIRS,
            "2s 2h 3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8d",
            "2s 2h 2d 2c 4s 4h 5s 5h 6s 6h 7s 7h 8d",
            "only with four of a kind",
        ),
        (
            SpecialKind.FIVE_PAIRS_AND_TRIPS,
            "2s 2h 2d 3s 3h 4s 4h 5s 5h 6s 6h 7s 7h",
            "2s 2h 2d 2c 3s 3h 3d 4s 4h 5s 5h 6s 6h",
            "only with four of a kind",
        ),
        (
            SpecialKind.FOUR_TRIPS,
            "2s 2h 2d 3s 3h 3d 4s 4h 4d 5s 5h 5d 6c",
            "2s 2h 2d 2c 3s 3h 3d 4s 4h 4d 5s 5h 5d",
            "only with four of a kind",
        ),
        (
            SpecialKind.THREE_FLUSHES,
            "2s 4s 6s 8s Ts 3h 5h 7h 9h Jh 2d 3d 4d",  # the three diamonds a run: still three flushes
            "2s 3s 4s 6s 7s 8s 9s Ts Js Ks 3h 5h 7h",
            "only with two rows of one suit",
        ),
        (
            SpecialKind.THREE_STRAIGHT_FLUSHES,
            "2s 3s 4s 5s 6s 7h 8h 9h Th Jh Qd Kd Ad",
            "2s 3s 4s 5s 6s 7s 8s 9s Ts Js 2h 3h 4h",
            "only with two rows of one suit",
        ),
    ],
)
def test_each_strict_kind_takes_its_exact_form_only(
    kind: SpecialKind, exact: str, loose: str, why: str
) -> None:
    loose_table = with_options("malayan")
    strict_table = with_options("malayan", strict_specials=STRICT_ALL)
    for cards, strict_ok in ((exact, True), (loose, False)):
        read = parse_cards(cards)
        assert declared_special(loose_table, kind.value, read, "Ann").kind is kind
        assert (kind in [s.kind for s in strict_table.specials_made(read)]) is strict_ok
        if strict_ok:
            assert declared_special(strict_table, kind.value, read, "Ann").kind is kind
            continue
        with pytest.raises(EntryRefused) as refused:
            declared_special(strict_table, kind.value, read, "Ann")
        said = f"Ann's cards are {kind.words} {why}: this table plays {kind.words} strictly"
        assert str(refused.value) == said


def test_a_strict_table_still_refuses_cards_that_make_no_form() -> None:
    strict_table = with_options("malayan", strict_specials=STRICT_ALL)
    with pytest.raises(EntryRefused, match="Ann's cards are not six pairs"):
        declared_special(
            strict_table, "six-pairs", parse_cards("2s 2h 3s 3h 4s 4h 5s 5h 6s 6h 7s 8h 9d"), "Ann"
        )


def test_a_bank_counts_the_players_it_scooped() -> None:
    """Malayan's bank (the dealer, Ann here) scoops all three players: its count is 3, ×4 each."""
    players = [{"name": "Ann", "stack": 500, **ANN}] + [
        {"name": name, "stack": 500, **hand} for name, hand in WEAK.items()
    ]
    deal = {"variant": "chinese", "rules": "malayan", "dealer": "Ann", "players": players}
    result = score_chinese_deal(
        chinese_deal_from_json({**deal, "house_options": {"scoop_multipliers": [2, 3, 4]}})
    )
    assert rest(result) == {("Bob", "Ann"): -12, ("Cy", "Ann"): -12, ("Dee", "Ann"): -12}


def test_the_wheel_decides_whether_a_hand_loses_all_three_rows_for_the_jackpot() -> None:
    award = {
        "front": "high-card",
        "middle": "high-card",
        "back": "straight",
        "loser": 50,
        "winner": 25,
        "table": 25,
    }
    deal = {
        "variant": "chinese",
        "rules": "vietnamese",
        "dealer": "Bob",
        "jackpot_pool": 1000,
        "players": [
            {
                "name": "Ann",
                "stack": 50,
                "front": "Jh 8d 3h",
                "middle": "Kh Td 7c 6h 2c",
                "back": "As 2h 3c 4s 5d",
            },
            {
                "name": "Bob",
                "stack": 50,
                "front": "Qc 4d 2s",
                "middle": "Ah Tc 7s 6s 3d",
                "back": "9c Th Jc Qs Kc",
            },
        ],
    }
    low = score({**deal, "house_options": {"jackpot_award": award}})
    second = score({**deal, "house_options": {"jackpot_award": award, "wheel": "second"}})
    assert low["jackpot"]["award"] is not None and low["jackpot"]["award"]["loser"] == "Ann"
    assert second["jackpot"]["award"] is None
