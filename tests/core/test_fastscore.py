"""The compiled fast path of `ofc-desk score` against the rules core: the same bytes for every deal it
reads, and nothing at all (None) for a deal the core refuses.

Where the fast path is not compiled these tests skip, saying so; CI sets OFC_DESK_REQUIRE_COMPILED_SCORER
so that a build that silently lost the compiled module fails instead.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from functools import cache
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ofc_desk import fastscore
from ofc_desk.cli.score import _encode, _score, score_document
from ofc_desk.core.cards import FULL_DECK, Card, parse_cards
from ofc_desk.core.deal_input import DealInputError
from ofc_desk.core.hands import strength
from ofc_desk.fastscore import PURE_SCORER_SETTING, batch_scorer
from tests.core.test_score_cli import DEALS
from tests.core.test_score_golden import PINEAPPLE_PLAYERS

REQUIRE_SETTING = "OFC_DESK_REQUIRE_COMPILED_SCORER"


def compiled_scorer_class() -> Any:
    try:
        from ofc_desk.fastscore._scorer import BatchScorer
    except ImportError:
        if os.environ.get(REQUIRE_SETTING):
            raise
        pytest.skip("the fast path is not compiled in this installation (no C compiler at install time)")
    return BatchScorer


def test_the_compiled_fast_path_is_built_where_ci_requires_it() -> None:
    assert compiled_scorer_class() is not None


def reference(deal: Any) -> bytes | DealInputError:
    try:
        return _encode(_score(deal))
    except DealInputError as error:
        return error


# --- deals of every kind -------------------------------------------------------------------------

NAMES = ["Ann", "Bob", "Cy", "Dee", 'Zoë "Ace" 李', "back\\slash", "tab\there", "  padded ", "Ann2", "🂡"]
SPELLINGS: list[Callable[[Card], str]] = [
    str,
    lambda card: str(card).lower(),
    lambda card: str(card).upper(),
    lambda card: str(card).replace("T", "10"),
    lambda card: card.rank.value + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[card.suit.value],
]
SEPARATORS = [" ", " ", " ", "  ", "\t", ", ", "\n"]


FANTASYLAND_HANDS = [
    parse_cards(" ".join(player[row] for row in ("front", "middle", "back"))) for player in PINEAPPLE_PLAYERS
]


def strongest_first(cards: list[Card]) -> list[Card]:
    """13 cards arranged back (best five), middle (best five of the rest), front: rarely a foul, and
    often royalties, where a random arrangement fouls most hands."""

    def best(pool: list[Card]) -> list[Card]:
        return list(max(combinations(pool, 5), key=strength))

    back = best(cards)
    rest = [card for card in cards if card not in back]
    middle = best(rest)
    front = [card for card in rest if card not in middle]
    return front + middle + back


@st.composite
def rows(draw: st.DrawFn, cards: list[Card]) -> dict[str, str]:
    spell = draw(st.sampled_from(SPELLINGS)) if draw(st.booleans()) else str
    separator = draw(st.sampled_from(SEPARATORS))
    texts = [separator.join(spell(card) for card in part) for part in (cards[:3], cards[3:8], cards[8:])]
    return dict(zip(("front", "middle", "back"), texts, strict=True))


@st.composite
def deals(draw: st.DrawFn) -> dict[str, Any]:
    variant = draw(st.sampled_from(["regular", "regular", "pineapple", "2-7-pineapple"]))
    count = draw(st.integers(2, 4 if variant == "regular" else 3))
    names = draw(st.lists(st.sampled_from(NAMES), min_size=count, max_size=count, unique=True))
    deck = list(draw(st.permutations(FULL_DECK)))
    set_hands = len(FANTASYLAND_HANDS) if draw(st.booleans()) else 0
    if set_hands:
        # Hands that enter Fantasyland (kings, trips in front) and stay there, ahead of the deck.
        held = [card for hand in FANTASYLAND_HANDS for card in hand]
        deck = held + [card for card in deck if card not in held]
    players = []
    for seat, name in enumerate(names):
        cards = deck[13 * seat : 13 * seat + 13]
        if seat >= set_hands and draw(st.booleans()):
            cards = strongest_first(cards)
        stack = draw(st.integers(0, 40) | st.sampled_from([0, 1, 10**15, 10**15 + 1, 2**70]))
        players.append({"name": name, "stack": stack, **draw(rows(cards))})
    deal: dict[str, Any] = {"dealer": draw(st.sampled_from(names)), "players": players}
    in_fantasyland = draw(st.lists(st.sampled_from(names), unique=True, max_size=count))
    options = {
        "rules": st.sampled_from(["standard", "classic", "two-point"]),
        "house_options": st.sampled_from(
            [{"winner_only_royalties": True}, {"foul_penalty": 3}, {"fantasyland": {"max_consecutive": 2}}]
        ),
        "scoring": st.sampled_from([None, "1-6", "2-4"]),
        "variant": st.just(variant),
        "progressive": st.booleans(),
        "unit": st.integers(1, 5),
        "pair_units": st.just([{"players": names[:2], "unit": draw(st.integers(1, 9))}]),
        "settlement": st.sampled_from(["win-cap", "chip-exposure"]),
        "settle_from": st.sampled_from(["left-of-dealer", "dealer"]),
        "in_fantasyland": st.just(in_fantasyland),
        "fantasyland_streaks": st.just({name: draw(st.integers(1, 3)) for name in in_fantasyland[:1]}),
    }
    for key, values in options.items():
        if draw(st.booleans()):
            deal[key] = draw(values)
    return deal


def plainly_written(deal: dict[str, Any]) -> bool:
    """What the fast path must read itself: the usual spellings and chip counts of a high-hand deal."""
    return deal.get("variant") != "2-7-pineapple" and all(
        player["stack"] <= 10**15 and "," not in player[row]
        for player in deal["players"]
        for row in ("front", "middle", "back")
    )


# --- the comparisons -----------------------------------------------------------------------------

@cache
def shared_scorer() -> Any:
    """One scorer for all examples, as one batch uses one: its caches of presets and names must never
    carry one deal's facts into another."""
    return compiled_scorer_class()()


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals())
def test_every_deal_it_reads_gives_the_cores_bytes(deal: dict[str, Any]) -> None:
    fast, expected = shared_scorer().score(deal), reference(deal)
    if isinstance(expected, DealInputError):
        assert fast is None, expected
        return
    if plainly_written(deal) and "house_options" not in deal:
        assert fast is not None, "the fast path declined a plainly written deal"
    if fast is not None:
        assert fast == expected


@pytest.mark.parametrize(
    "spoil",
    [
        lambda deal: deal["players"][1].update(back=deal["players"][0]["front"].split()[0] + " 2c 3c 4c 5c"),
        lambda deal: deal["players"][0].update(front="Ah Kh"),
        lambda deal: deal["players"][0].update(front="Ah Kh ??"),
        lambda deal: deal["players"][0].update(stack=-1),
        lambda deal: deal["players"][0].update(stack=True),
        lambda deal: deal["players"][0].update(stack=1.5),
        lambda deal: deal["players"][0].update(name=" "),
        lambda deal: deal["players"][0].update(name="\ud800"),
        lambda deal: deal["players"][1].update(name=deal["players"][0]["name"]),
        lambda deal: deal["players"][0].update(nickname="Al"),
        lambda deal: deal.update(dealer="Nobody"),
        lambda deal: deal.update(dealer=None),
        lambda deal: deal.update(scoring="3-3"),
        lambda deal: deal.update(variant="omaha"),
        lambda deal: deal.update(rules="nonesuch"),
        lambda deal: deal.update(unit=0),
        lambda deal: deal.update(progressive="yes"),
        lambda deal: deal.update(settlement="all-in"),
        lambda deal: deal.update(in_fantasyland=["Ann", "Ann"]),
        lambda deal: deal.update(fantasyland_streaks={"Ann": 2}),
        lambda deal: deal.update(pair_units=[{"players": ["Ann", "Ann"], "unit": 2}]),
        lambda deal: deal.update(house_options={"winner_only_royalty": True}),
        lambda deal: deal.update(extra=1),
    ],
)
def test_a_deal_the_core_refuses_is_left_to_the_core(spoil: Callable[[dict[str, Any]], None]) -> None:
    deal = json.loads(DEALS.read_text())[0]
    spoil(deal)
    assert isinstance(reference(deal), DealInputError)
    assert compiled_scorer_class()().score(deal) is None


def test_the_worked_examples_come_out_the_same_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    document = json.loads(DEALS.read_text())
    compiled_scorer_class()
    fast = b"".join(score_document(document))
    monkeypatch.setenv(PURE_SCORER_SETTING, "1")
    assert batch_scorer() is None
    assert b"".join(score_document(document)) == fast


def test_a_bad_deal_in_a_batch_is_named_the_same_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    document = json.loads(DEALS.read_text())
    document[1]["players"][0]["front"] = "Ah Kh Zz"
    compiled_scorer_class()
    with pytest.raises(DealInputError) as fast:
        score_document(document)
    monkeypatch.setenv(PURE_SCORER_SETTING, "1")
    with pytest.raises(DealInputError) as pure:
        score_document(document)
    assert str(fast.value) == str(pure.value) == "deal 1, players[0].front: 'Zz' (card 3): " + (
        "not a card: use a rank 2-9, T/10, J, Q, K, A and a suit s, h, d, c"
    )


def test_without_the_compiled_module_the_core_scores_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_compiled(name: str) -> None:
        raise ImportError(f"No module named {name!r}")

    monkeypatch.setattr(fastscore, "import_module", not_compiled)
    assert batch_scorer() is None
    document = json.loads(DEALS.read_text())
    results = json.loads(b"".join(score_document(document)))
    assert [result["players"][0]["name"] for result in results] == [
        deal["players"][0]["name"] for deal in document
    ]
