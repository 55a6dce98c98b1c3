"""Rules presets: every number and flag of docs/rules.md §4–§7 and §9, read from plain JSON files.

A casino's own preset is one more JSON file in the presets folder; no code changes.

>>> standard = load_preset("standard")
>>> standard.royalties.back["royal_flush"], standard.royalties.front_trips["A"]
(25, 22)
>>> sorted(preset_names())[:3]
['classic', 'standard', 'two-point']
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from ofc_desk.core.cards import Rank
from ofc_desk.core.hands import HandClass
from ofc_desk.core.jackpot import AwardRulesError, JackpotAward, read_jackpot_award
from ofc_desk.core.resources import resources_dir
from ofc_desk.core.rows import Row
from ofc_desk.core.settlement import MAX_CHIPS
from ofc_desk.core.variants import Variant

MAX_POINTS = 1_000
"""The largest number of points a preset may give for anything (a row, a bonus, a royalty, the
foul penalty): far beyond any card room's, and it keeps every amount owed, at the largest unit,
inside the database's 64-bit integers."""
FANTASYLAND_CARDS = (13, 52)
"""A Fantasyland hand sets 13 cards; it may be dealt more, never more than the deck."""


class PresetError(ValueError):
    """A preset that does not exist or whose data is malformed; the message names the field."""


class Game(StrEnum):
    """The game a preset is for: a preset file says so in its `game` field (OFC when it does not)."""

    OFC = "ofc"
    CHINESE = "chinese"

    @property
    def display_name(self) -> str:
        return "OFC" if self is Game.OFC else "Chinese poker"


class RakeMode(StrEnum):
    OFF = "off"
    PER_PLAYER = "per-player"
    PERCENT_OF_WIN = "percent-of-win"


@dataclass(frozen=True)
class ScoringSystem:
    """Points per row won, the bonus for winning all three, the bonus for winning more rows."""

    row: int
    scoop: int
    majority: int


@dataclass(frozen=True)
class Royalties:
    back: Mapping[str, int]
    middle: Mapping[str, int]
    front_pairs: Mapping[str, int]
    front_trips: Mapping[str, int]
    deuce_to_seven_middle: Mapping[str, int]


@dataclass(frozen=True)
class DeuceToSevenFantasyland:
    entry_front_pair: str
    entry_middle: str
    one_condition_cards: int
    both_conditions_cards: int
    stay: Mapping[str, str]
    stay_cards: int


@dataclass(frozen=True)
class FantasylandRules:
    entry_front_pair: str
    cards: Mapping[str, int]
    progressive_cards: Mapping[str, int]
    progressive_stay_cards: int
    stay: Mapping[str, str]
    max_consecutive: int | None
    deuce_to_seven: DeuceToSevenFantasyland


@dataclass(frozen=True)
class RakeRules:
    mode: RakeMode
    amount: int
    percent: int
    cap: int
    jackpot_percent: int


@dataclass(frozen=True)
class RulesPreset:
    name: str
    description: str
    scoring: str
    scoring_systems: Mapping[str, ScoringSystem]
    foul_penalty: int
    winner_only_royalties: bool
    royalties: Royalties
    fantasyland: FantasylandRules
    rake: RakeRules
    jackpot_award: JackpotAward | None = None
    """The jackpot for unusual events (§11); None (no award) unless the preset names one."""
    source: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def scoring_system(self, name: str | None = None) -> ScoringSystem:
        chosen = self.scoring if name is None else name
        try:
            return self.scoring_systems[chosen]
        except KeyError:
            known = ", ".join(sorted(self.scoring_systems))
            raise PresetError(f"unknown scoring '{chosen}' (this preset has {known})") from None

    def to_dict(self) -> dict[str, Any]:
        """The preset as stored: what the session records and every report prints."""
        # `default=dict` unwraps the read-only mappings the preset keeps its data in.
        return json.loads(json.dumps(self.source, default=dict))  # type: ignore[no-any-return]


def presets_dir() -> Path:
    return resources_dir() / "presets"


def preset_names(game: Game = Game.OFC) -> list[str]:
    """The presets of one game, by name: a Chinese poker table never offers an OFC scale."""
    names = []
    for path in presets_dir().glob("*.json"):
        try:
            data = _read_preset_json(path, path.stat().st_mtime_ns)
        except (OSError, PresetError):
            continue  # listed nowhere; loading it by name says what is wrong with it
        if preset_game(data) is game:
            names.append(path.stem)
    return sorted(names)


def preset_game(data: Mapping[str, Any]) -> Game | None:
    """The game preset data is for, or None when its `game` names none."""
    try:
        return Game(data.get("game", Game.OFC.value))
    except ValueError:
        return None


def load_preset(name: str) -> RulesPreset:
    found = find_preset_file(name, Game.OFC)
    return _read_preset_file(found.path, found.version)


class PresetFile(NamedTuple):
    path: Path
    version: int
    """The file's modification time: a preset is read again only after its file changed."""


def find_preset_file(name: str, game: Game) -> PresetFile:
    """The preset file of that name, refused when there is none or it is for another game."""
    found = PresetFile(*_preset_file(name))
    found_game = preset_game(read_preset_json(found))
    if found_game is not game:
        what = found_game.display_name if found_game else "no known game"
        raise PresetError(f"'{name}' is a preset for {what}, not for {game.display_name}")
    return found


def read_preset_json(found: PresetFile) -> Mapping[str, Any]:
    return _read_preset_json(found.path, found.version)


def _preset_file(name: str) -> tuple[Path, int]:
    """The preset file of that name and its version (modification time), or a refusal."""
    if name and "/" not in name and "\\" not in name:
        path = _preset_path(name)
        try:
            status = os.stat(path)
        except (OSError, ValueError):  # ValueError: a NUL or half a surrogate pair in the name
            pass
        else:
            if stat.S_ISREG(status.st_mode):
                return path, status.st_mtime_ns
    known = ", ".join(preset_names(Game.OFC) + preset_names(Game.CHINESE))
    raise PresetError(f"unknown preset '{name}' (known: {known})")


@lru_cache(maxsize=64)
def _preset_path(name: str) -> Path:
    return presets_dir() / f"{name}.json"


@lru_cache(maxsize=64)
def _read_preset_json(path: Path, modified_ns: int) -> Mapping[str, Any]:
    """Read once per version of the file: a batch of deals names the same preset thousands of times."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise PresetError(f"preset file {path.name} is not valid JSON: {error}") from None
    if not isinstance(data, Mapping):
        raise PresetError(f"preset file {path.name} must hold a JSON object")
    return MappingProxyType(data)


@lru_cache(maxsize=64)
def _read_preset_file(path: Path, modified_ns: int) -> RulesPreset:
    return preset_from_dict(_read_preset_json(path, modified_ns))


_HAND_CLASSES = frozenset(hand_class.name.lower() for hand_class in HandClass)
_RANKS = frozenset(rank.value for rank in Rank)


def _is_low_hand(key: str) -> bool:
    """A deuce-to-seven middle royalty names a high card ("9") or five ranks ("7-5-4-3-2")."""
    ranks = key.split("-")
    return len(ranks) in (1, 5) and _RANKS.issuperset(ranks)


def preset_from_dict(data: Mapping[str, Any], overrides: Mapping[str, Any] | None = None) -> RulesPreset:
    """Build a preset from its JSON form, with house options layered on top (deep merge).

    Every field is checked, and a field the preset does not have is refused: a misspelt house
    option (`winner_only_royalty`) would otherwise score silently by the preset's own numbers.
    """
    merged = deep_merge(dict(data), overrides or {})
    reader = PresetReader(merged, "preset")
    if reader.text("game", Game.OFC.value) != Game.OFC:
        raise PresetError(f"preset.game must be {Game.OFC.value} for an OFC preset")
    royalties = reader.section("royalties")
    fantasyland = reader.section("fantasyland")
    deuce = fantasyland.section("deuce_to_seven")
    rake = reader.section("rake")
    systems = reader.section("scoring_systems")
    preset = RulesPreset(
        name=reader.text("name"),
        description=reader.text("description", ""),
        scoring=reader.text("scoring"),
        scoring_systems=MappingProxyType(
            {
                key: ScoringSystem(**systems.section(key).numbers("row", "scoop", "majority"))
                for key in systems.data
            }
        ),
        foul_penalty=reader.number("foul_penalty"),
        winner_only_royalties=reader.flag("winner_only_royalties"),
        royalties=Royalties(
            back=royalties.table("back", _HAND_CLASSES.__contains__, "a hand class such as flush"),
            middle=royalties.table("middle", _HAND_CLASSES.__contains__, "a hand class such as flush"),
            front_pairs=royalties.table("front_pairs", _RANKS.__contains__, "a rank: 2-9, T, J, Q, K or A"),
            front_trips=royalties.table("front_trips", _RANKS.__contains__, "a rank: 2-9, T, J, Q, K or A"),
            deuce_to_seven_middle=royalties.table(
                "deuce_to_seven_middle", _is_low_hand, "a high card such as 9 or five ranks such as 7-5-4-3-2"
            ),
        ),
        fantasyland=FantasylandRules(
            entry_front_pair=fantasyland.text("entry_front_pair"),
            cards=fantasyland.table(
                "cards",
                {variant.value for variant in Variant}.__contains__,
                "a variant such as pineapple",
                FANTASYLAND_CARDS,
            ),
            progressive_cards=fantasyland.table(
                "progressive_cards",
                {*_RANKS, "trips"}.__contains__,
                "a pair's rank such as Q, or trips",
                FANTASYLAND_CARDS,
            ),
            progressive_stay_cards=fantasyland.number("progressive_stay_cards", *FANTASYLAND_CARDS),
            stay=fantasyland.words("stay"),
            max_consecutive=fantasyland.optional_number("max_consecutive"),
            deuce_to_seven=DeuceToSevenFantasyland(
                entry_front_pair=deuce.text("entry_front_pair"),
                entry_middle=deuce.text("entry_middle"),
                one_condition_cards=deuce.number("one_condition_cards", *FANTASYLAND_CARDS),
                both_conditions_cards=deuce.number("both_conditions_cards", *FANTASYLAND_CARDS),
                stay=deuce.words("stay"),
                stay_cards=deuce.number("stay_cards", *FANTASYLAND_CARDS),
            ),
        ),
        rake=RakeRules(
            mode=rake.choice("mode", RakeMode),
            amount=rake.number("amount", 0, MAX_CHIPS),
            percent=rake.number("percent", 0, 100),
            cap=rake.number("cap", 0, MAX_CHIPS),
            jackpot_percent=rake.number("jackpot_percent", 0, 100),
        ),
        jackpot_award=preset_jackpot_award(reader),
        source=MappingProxyType(merged),
    )
    reader.refuse_unread()
    preset.scoring_system()
    _check_fantasyland(preset.fantasyland, "preset.fantasyland")
    return preset


def preset_jackpot_award(reader: PresetReader) -> JackpotAward | None:
    """The preset's `jackpot_award` (either game's), null or left out for none."""
    try:
        return read_jackpot_award(reader.optional("jackpot_award"), f"{reader.path}.jackpot_award")
    except AwardRulesError as error:
        raise PresetError(str(error)) from None


def refuse_award_for_variant(award: JackpotAward | None, variant: Variant) -> None:
    """A 2-7 pineapple table takes no award: its middle is a low hand, with no class in the award's
    order (docs/rules.md §11). Refused when the table opens or the deal is read."""
    if award is not None and variant.lowball_middle:
        raise PresetError(
            f"a {variant.value} table takes no jackpot_award: its middle is a low hand, which has no"
            " class in the award's order"
        )


def _check_fantasyland(rules: FantasylandRules, path: str) -> None:
    """Refuse Fantasyland data that names no rank, row or hand, before a deal is scored with it."""
    deuce = rules.deuce_to_seven
    entry = _rank(rules.entry_front_pair, f"{path}.entry_front_pair")
    _rank(deuce.entry_front_pair, f"{path}.deuce_to_seven.entry_front_pair")
    low = deuce.entry_middle.split("-")
    if len(low) != 5:
        raise PresetError(f"{path}.deuce_to_seven.entry_middle must be five ranks such as 7-5-4-3-2")
    for rank in low:
        _rank(rank, f"{path}.deuce_to_seven.entry_middle")
    for variant in Variant:
        if not variant.lowball_middle and variant.value not in rules.cards:
            raise PresetError(f"{path}.cards.{variant.value} is missing")
    for key in [rank.value for rank in Rank if rank.order >= entry.order] + ["trips"]:
        if key not in rules.progressive_cards:
            raise PresetError(f"{path}.progressive_cards.{key} is missing")
    for stay, where in ((rules.stay, f"{path}.stay"), (deuce.stay, f"{path}.deuce_to_seven.stay")):
        for row, least in stay.items():
            if row not in set(Row):
                raise PresetError(f"{where}.{row} is not a row (front, middle, back)")
            if least.upper() not in HandClass.__members__:
                raise PresetError(f"{where}.{row} must name a hand such as trips, full_house, quads")


def _rank(value: str, path: str) -> Rank:
    try:
        return Rank(value)
    except ValueError:
        raise PresetError(f"{path} must be a rank: 2-9, T, J, Q, K or A") from None


WHOLE_KEYS = frozenset({"jackpot_award"})
"""Preset keys a house option replaces whole, never field by field: an award half the preset's and
half the house's would pay by neither (docs/rules.md §11)."""


def deep_merge(base: dict[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    for key, value in overrides.items():
        if key in WHOLE_KEYS:
            base[key] = value
        elif isinstance(value, Mapping) and isinstance(base.get(key), Mapping):
            base[key] = deep_merge(dict(base[key]), value)
        else:
            base[key] = value
    return base


class PresetReader:
    """Reads typed values out of preset JSON, naming the field in every complaint."""

    def __init__(self, data: Any, path: str) -> None:
        if not isinstance(data, Mapping):
            raise PresetError(f"{path} must be an object")
        self.data: Mapping[str, Any] = data
        self.path = path
        self._read: set[str] = set()
        self._sections: list[PresetReader] = []

    def refuse_unread(self) -> None:
        """Refuse the first field (here or in a section read from here) that nothing asked for."""
        unread = sorted(set(self.data) - self._read)
        if unread:
            raise PresetError(f"{self.path}.{unread[0]} is not a preset field")
        for section in self._sections:
            section.refuse_unread()

    def _get(self, key: str) -> Any:
        self._read.add(key)
        if key not in self.data:
            raise PresetError(f"{self.path}.{key} is missing")
        return self.data[key]

    def optional(self, key: str) -> Any:
        """The field as the JSON gives it, None when left out."""
        self._read.add(key)
        return self.data.get(key)

    def value(self, key: str) -> Any:
        """The field as the JSON gives it, for a caller that checks it itself; missing is refused."""
        return self._get(key)

    def section(self, key: str) -> PresetReader:
        section = PresetReader(self._get(key), f"{self.path}.{key}")
        self._sections.append(section)
        return section

    def text(self, key: str, default: str | None = None) -> str:
        self._read.add(key)
        value = self.data.get(key, default) if default is not None else self._get(key)
        if not isinstance(value, str):
            raise PresetError(f"{self.path}.{key} must be text")
        return value

    def number(self, key: str, least: int = 0, most: int = MAX_POINTS) -> int:
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
            limits = f"from {least} to {most:,}"
            raise PresetError(f"{self.path}.{key} must be a whole number {limits}, not {value!r}")
        return value

    def optional_number(self, key: str) -> int | None:
        self._read.add(key)
        return None if self.data.get(key) is None else self.number(key)

    def numbers(self, *keys: str) -> dict[str, int]:
        return {key: self.number(key) for key in keys}

    def flag(self, key: str) -> bool:
        value = self._get(key)
        if not isinstance(value, bool):
            raise PresetError(f"{self.path}.{key} must be true or false")
        return value

    def table(
        self, key: str, names: Callable[[str], bool], what: str, bounds: tuple[int, int] = (0, MAX_POINTS)
    ) -> Mapping[str, int]:
        """Numbers under names that are data (hand classes, ranks, variants), each name checked."""
        section = self.section(key)
        for name in section.data:
            if not names(name):
                raise PresetError(f"{section.path}.{name} is not {what}")
        return MappingProxyType({name: section.number(name, *bounds) for name in section.data})

    def words(self, key: str) -> Mapping[str, str]:
        section = self.section(key)
        return MappingProxyType({name: section.text(name) for name in section.data})

    def choice(self, key: str, enum: type[RakeMode]) -> RakeMode:
        value = self.text(key)
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(member.value for member in enum)
            raise PresetError(f"{self.path}.{key} must be one of {allowed}") from None
