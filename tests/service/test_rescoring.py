"""`verify`'s re-scoring beside the fold: the stored result the fold goes on with, and the second
process's comparison (`rescoring`)."""

from __future__ import annotations

import json

from ofc_desk.core.ofc.deal import DealResult, score_deal
from ofc_desk.core.ofc.deal_input import deal_from_json
from ofc_desk.core.presets import Game
from ofc_desk.service.audit.rescoring import Rescore, ScoresBeside, StoredResult, rescore, stored_result
from ofc_desk.service.audit.side_check import Beside
from ofc_desk.service.table.games.choose import RESCORING
from ofc_desk.service.table.games.ofc.rescoring import StoredPlayer
from ofc_desk.storage.audit import canonical_json

RULES_KEYS: dict[str, object] = {"rules": "standard"}
ANN = {"name": "Ann", "stack": 100, "front": "Qs Qh 2c", "middle": "9s 9h 9d 4c 3d", "back": "As Ks Js 8s 6s"}
BOB = {"name": "Bob", "stack": 80, "front": "5s 5h 7c", "middle": "Ts Th 8d 8c 2d", "back": "Kh Kd Kc 3s 3h"}
HAND_KEYS: dict[str, object] = {"dealer": "Bob", "players": [ANN, BOB]}
OFC = RESCORING[Game.OFC]


def scored() -> DealResult:
    return score_deal(deal_from_json({**RULES_KEYS, **HAND_KEYS}))


def stored_text() -> str:
    return canonical_json(scored().to_json())


def test_a_stored_result_gives_what_settling_reads() -> None:
    result = stored_result(stored_text(), ["Ann", "Bob"], OFC)
    assert result is not None
    settled = [(p.name, p.stack_before, p.stack_after, p.fantasyland_next) for p in scored().players]
    players = [p for p in result.players if isinstance(p, StoredPlayer)]
    assert [(p.name, p.stack_before, p.stack_after, p.fantasyland_next) for p in players] == settled
    assert settled[0][3] > 0 and settled[0][2] != 100  # Ann's queens: Fantasyland, and chips moved
    assert result.to_json() == json.loads(stored_text())


def test_a_stored_result_that_cannot_be_one_is_not_used() -> None:
    text = stored_text()
    data = json.loads(text)
    data["players"][0]["stack_after"] = True
    for unusable in (None, "", "[1]", "{", canonical_json(data), canonical_json({"players": 1})):
        assert stored_result(unusable, ["Ann", "Bob"], OFC) is None
    assert stored_result(text, ["Bob", "Ann"], OFC) is None  # other seats
    assert stored_result(text, ["Ann", "Bob", "Cy"], OFC) is None


def test_each_hand_is_scored_by_the_core_and_compared() -> None:
    stored = {1: stored_text(), 2: stored_text().replace('"royalties":', '"royalties":1', 1)}
    hands: list[Rescore] = [("ofc", 1, 40, RULES_KEYS, HAND_KEYS), ("ofc", 2, 80, None, HAND_KEYS)]
    assert rescore({1: stored[1]}, iter(hands[:1])) is None
    assert rescore(stored, iter(hands)) == "hand 2: stored result differs from the rules"


def test_a_hand_finished_again_is_compared_as_last_scored() -> None:
    """Its last card undone and entered again: the last deal is the one settled and stored."""
    first = {**HAND_KEYS, "players": [{**ANN, "front": "Qs Qh 3c"}, BOB]}
    again: list[Rescore] = [("ofc", 1, 40, RULES_KEYS, first), ("ofc", 1, 44, None, HAND_KEYS)]
    assert rescore({1: stored_text()}, iter(again)) is None
    first_settled: list[Rescore] = [("ofc", 1, 44, RULES_KEYS, HAND_KEYS), ("ofc", 1, 40, None, first)]
    assert rescore({1: stored_text()}, iter(first_settled)) == "hand 1: stored result differs from the rules"


def test_a_deal_the_core_refuses_is_named_at_its_event() -> None:
    refused: Rescore = ("ofc", 3, 77, RULES_KEYS, {**HAND_KEYS, "dealer": "Zed"})
    fault = rescore({3: stored_text()}, iter([refused]))
    assert fault is not None and fault.startswith(
        "event 77 breaks the rules: hand 3 cannot be scored: dealer"
    )


def test_the_fold_sends_the_core_deal_and_goes_on_with_the_stored_result() -> None:
    """The fold's scorer writes each deal out for the second process, the rules only when they
    change; a hand with no stored result to go on with is scored by the core there and then."""
    stored = {1: stored_text(), 2: stored_text()}
    second = Beside((), lambda _messages: None)
    scorer = ScoresBeside(stored, second)
    deal = deal_from_json({**RULES_KEYS, **HAND_KEYS})
    for number in stored:
        scorer.event_id = 10 * number
        assert isinstance(scorer(Game.OFC, number, deal), StoredResult)
    assert [(number, event, rules is None) for _game, number, event, rules, _hand in second.sent] == [
        (1, 10, False),
        (2, 20, True),
    ]
    assert rescore(stored, iter(second.sent)) is None
    assert scorer(Game.OFC, 3, deal) == scored() and len(second.sent) == 2


CHINESE_RULES_KEYS: dict[str, object] = {"variant": "chinese", "rules": "chinese-typical"}
CHINESE_HAND_KEYS: dict[str, object] = {
    "dealer": "Bob",
    "players": [
        {
            "name": "Ann",
            "stack": 20,
            "front": "6s 6h 6d",
            "middle": "4s 4h 4d 9s 9h",
            "back": "Ks Kh Kd 8s 8h",
        },
        {"name": "Bob", "stack": 20, "surrender": True},
    ],
}
CHINESE = RESCORING[Game.CHINESE]


def test_a_chinese_hand_is_scored_by_its_core_and_compared() -> None:
    """A Chinese line gives its stacks (nothing is carried on); its deal, as Chinese poker's part
    writes it, is scored by the Chinese core in the second process."""
    scored_text = canonical_json(CHINESE.score_json({**CHINESE_RULES_KEYS, **CHINESE_HAND_KEYS}).to_json())
    result = stored_result(scored_text, ["Ann", "Bob"], CHINESE)
    assert result is not None
    assert [(p.name, p.stack_before, p.stack_after) for p in result.players] == [
        ("Ann", 20, 21),
        ("Bob", 20, 19),
    ]
    assert (
        stored_result(scored_text.replace('"stack_after":21', '"stack_after":"21"'), ["Ann", "Bob"], CHINESE)
        is None
    )
    hands: list[Rescore] = [("chinese", 1, 40, CHINESE_RULES_KEYS, CHINESE_HAND_KEYS)]
    assert rescore({1: scored_text}, iter(hands)) is None
    altered = scored_text.replace('"bonus":3', '"bonus":4', 1)
    assert rescore({1: altered}, iter(hands)) == "hand 1: stored result differs from the rules"
