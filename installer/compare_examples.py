"""Compare `ofc-desk score` / `ofc-desk replay` output with the figures shipped in resources/examples.

Only the figures that decide money and flow are compared (fouls, royalties, Fantasyland, points,
ordered transfers, stacks, button), as in the card room's worked examples. Used by
`installer/build.sh --check` on the bundled program and by tests/installer on the source tree.
`with-accounts` writes a replay script dealt by a dealer account, with a supervisor account
beside it (PINs included), for the check's sign-in step.

    python installer/compare_examples.py score|replay OUTPUT.json EXPECTED.json
    python installer/compare_examples.py with-accounts SCRIPT.json OUTPUT.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

Transfer = tuple[str, str, int, int]
ACCOUNTS = [
    {"name": "Dana", "role": "dealer", "pin": "246813"},
    {"name": "Flo", "role": "supervisor", "pin": "13579246"},
]


def _transfers(transfers: list[dict[str, Any]]) -> list[Transfer]:
    return [(t["from"], t["to"], t["owed"], t["paid"]) for t in transfers if t["owed"]]


def deal_differences(got: dict[str, Any], want: dict[str, Any], where: str = "deal") -> list[str]:
    differences: list[str] = []
    players = {player["name"]: player for player in got.get("players", [])}
    for wanted in want["players"]:
        name = wanted["name"]
        player = players.get(name, {})
        for row, royalty in wanted["royalties"].items():
            got_royalty = player.get("rows", {}).get(row, {}).get("royalty")
            if got_royalty != royalty:
                differences.append(f"{where}: {name} {row} royalty {got_royalty} != {royalty}")
        for key in ("foul", "stack_after"):
            if player.get(key) != wanted[key]:
                differences.append(f"{where}: {name} {key} {player.get(key)} != {wanted[key]}")
        fantasyland = player.get("fantasyland", {})
        wanted_fantasyland = wanted["fantasyland"]
        if bool(fantasyland.get("next")) != wanted_fantasyland["next"] or (
            wanted_fantasyland["next"] and fantasyland.get("cards") != wanted_fantasyland["cards"]
        ):
            differences.append(f"{where}: {name} fantasyland {fantasyland} != {wanted_fantasyland}")
    points: dict[tuple[str, str], int] = {}
    for matchup in got.get("matchups", []):
        first, second = matchup["players"]
        points[first, second], points[second, first] = matchup["points"], -matchup["points"]
    for matchup in want["matchups"]:
        first, second = matchup["players"]
        if points.get((first, second)) != matchup["points"]:
            differences.append(
                f"{where}: {first} v {second} points {points.get((first, second))} != {matchup['points']}"
            )
    if _transfers(got.get("transfers", [])) != _transfers(want["transfers"]):
        got_transfers = _transfers(got.get("transfers", []))
        differences.append(f"{where}: transfers {got_transfers} != {_transfers(want['transfers'])}")
    return differences


def score_differences(got: Any, want: Any) -> list[str]:
    if isinstance(want, dict):
        return deal_differences(got, want) if isinstance(got, dict) else [f"expected one deal, got {got!r}"]
    if not isinstance(got, list) or len(got) != len(want):
        return [f"expected {len(want)} deals"]
    pairs = enumerate(zip(got, want, strict=True))
    return [diff for index, (g, w) in pairs for diff in deal_differences(g, w, f"deal {index}")]


def replay_differences(got: dict[str, Any], want: dict[str, Any]) -> list[str]:
    differences: list[str] = []
    got_hands = got.get("hands", [])
    if len(got_hands) != len(want["hands"]):
        differences.append(f"{len(got_hands)} hands played != {len(want['hands'])}")
    for hand, wanted in zip(got_hands, want["hands"], strict=False):
        where = f"hand {wanted['number']}"
        for key in ("button", "fantasyland"):
            if hand.get(key) != wanted[key]:
                differences.append(f"{where}: {key} {hand.get(key)} != {wanted[key]}")
        result = hand.get("result", {})
        if _transfers(result.get("transfers", [])) != _transfers(wanted["transfers"]):
            differences.append(f"{where}: transfers {_transfers(result.get('transfers', []))} differ")
        stacks = {player["name"]: player["stack_after"] for player in result.get("players", [])}
        if stacks != wanted["stacks"]:
            differences.append(f"{where}: stacks {stacks} != {wanted['stacks']}")
    if got.get("stacks") != want["stacks"]:
        differences.append(f"final stacks {got.get('stacks')} != {want['stacks']}")
    return differences


def with_accounts(script: dict[str, Any]) -> dict[str, Any]:
    """`script` dealt by ACCOUNTS' dealer: a replay creates both accounts in an empty database
    and signs each in with its PIN in one that has them (`--resume`)."""
    return {**script, "users": ACCOUNTS, "dealer": ACCOUNTS[0]["name"]}


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "with-accounts":
        script = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
        Path(argv[2]).write_text(json.dumps(with_accounts(script), indent=1), encoding="utf-8")
        return 0
    if len(argv) != 3 or argv[0] not in ("score", "replay"):
        print("\n".join(line.strip() for line in __doc__.strip().splitlines()[-2:]), file=sys.stderr)
        return 2
    kind, output, expected = argv
    try:
        got = json.loads(Path(output).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        print(f"{kind}: no JSON output to compare ({error})", file=sys.stderr)
        return 1
    want = json.loads(Path(expected).read_text(encoding="utf-8"))
    differences = score_differences(got, want) if kind == "score" else replay_differences(got, want)
    for difference in differences:
        print(f"{kind}: {difference}", file=sys.stderr)
    return 1 if differences else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
