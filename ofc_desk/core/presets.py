"""Presets of both games, read from plain JSON files: which game a file is for, finding and reading
it (once per version of the file), and the reader that checks every field and names it in a refusal.
Each game builds its own preset from the data (`core.ofc.presets`, `core.chinese.presets`).

A casino's own preset is one more JSON file in the presets folder; no code changes.

>>> {"classic", "standard", "two-point"} <= set(preset_names())
True
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, NamedTuple, TypeVar, cast

from ofc_desk.core.jackpot import AwardRulesError, JackpotAward, read_jackpot_award
from ofc_desk.core.resources import resources_dir
from ofc_desk.core.settlement import MAX_CHIPS
from ofc_desk.i18n import LazyText, _, lazy_pgettext

E = TypeVar("E", bound=StrEnum)
P = TypeVar("P")
DEFAULT_PRESET: Final = "standard"
"""The OFC preset a deal or a table plays when it names none."""
MAX_POINTS = 1_000
"""The largest number of points a preset may give for anything (a row, a bonus, a royalty, the
foul penalty): far beyond any card room's, and it keeps every amount owed, at the largest unit,
inside the database's 64-bit integers."""


class PresetError(ValueError):
    """A preset that does not exist or whose data is malformed; the message names the field."""


class Game(StrEnum):
    """The game a preset is for: a preset file says so in its `game` field (OFC when it does not)."""

    OFC = "ofc"
    CHINESE = "chinese"

    @property
    def label(self) -> LazyText:
        """The game's name in the reader's language."""
        return _GAME_LABELS[self]


_GAME_LABELS: Final[dict[Game, LazyText]] = {
    Game.OFC: lazy_pgettext("game", "OFC"),
    Game.CHINESE: lazy_pgettext("game", "Chinese poker"),
}


def new_game(name: str, word: str) -> Game:
    """A `Game` member for a game beyond the shipped two (the tests' toy), by its `name` ("TOY")
    and the `word` its presets and rules name ("toy"): made only, one of `Game`'s members (by value,
    by name, in iteration) while `core.games.register_game` has it registered."""
    if word in Game._value2member_map_ or name in Game.__members__:
        raise ValueError(f"a game is named {name!r} or {word!r} already")
    member = cast(Any, str.__new__(Game, word))
    member._name_, member._value_ = name, word
    return cast(Game, member)


def enlist_game(game: Game, label: LazyText) -> Callable[[], None]:
    """`game` (made by `new_game`) one of `Game`'s members, said as `label`: the first step of
    `core.games.register_game`, the one place the closed enum is opened. The undo returned takes it
    out again."""
    if game.value in Game._value2member_map_:
        raise ValueError(f"the game {game.value!r} is registered already")
    opened = cast(Any, Game)
    opened._member_map_[game.name] = game
    opened._value2member_map_[game.value] = game
    opened._member_names_ = [*opened._member_names_, game.name]
    _GAME_LABELS[game] = label

    def undo() -> None:
        opened._member_names_ = [name for name in opened._member_names_ if name != game.name]
        del opened._member_map_[game.name], opened._value2member_map_[game.value], _GAME_LABELS[game]

    return undo


class RakeMode(StrEnum):
    OFF = "off"
    PER_PLAYER = "per-player"
    PERCENT_OF_WIN = "percent-of-win"


@dataclass(frozen=True)
class RakeRules:
    """A preset's rake: how it is taken, its cap, and the jackpot's share."""

    mode: RakeMode
    amount: int
    percent: int
    cap: int
    jackpot_percent: int


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


class PresetFile(NamedTuple):
    path: Path
    version: int
    """The file's modification time: a preset is read again only after its file changed."""


def find_preset_file(name: str, game: Game) -> PresetFile:
    """The preset file of that name, refused when there is none or it is for another game."""
    found = PresetFile(*_preset_file(name))
    found_game = preset_game(read_preset_json(found))
    if found_game is not game:
        if found_game is None:
            said = _("'{name}' is a preset for no known game, not for {game}")
            raise PresetError(said.format(name=name, game=game.label))
        said = _("'{name}' is a preset for {found}, not for {game}")
        raise PresetError(said.format(name=name, found=found_game.label, game=game.label))
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
    known = ", ".join(name for game in Game for name in preset_names(game))
    raise PresetError(_("unknown preset '{name}' (known: {known})").format(name=name, known=known))


@lru_cache(maxsize=64)
def _preset_path(name: str) -> Path:
    return presets_dir() / f"{name}.json"


@lru_cache(maxsize=64)
def _read_preset_json(path: Path, modified_ns: int) -> Mapping[str, Any]:
    """Read once per version of the file: a batch of deals names the same preset thousands of times."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        said = _("preset file {file} is not valid JSON: {problem}")
        raise PresetError(said.format(file=path.name, problem=error)) from None
    if not isinstance(data, Mapping):
        raise PresetError(_("preset file {file} must hold a JSON object").format(file=path.name))
    return MappingProxyType(data)


def preset_jackpot_award(reader: PresetReader) -> JackpotAward | None:
    """The preset's `jackpot_award` (either game's), null or left out for none."""
    try:
        return read_jackpot_award(reader.optional("jackpot_award"), f"{reader.path}.jackpot_award")
    except AwardRulesError as error:
        raise PresetError(str(error)) from None


WHOLE_KEYS = frozenset({"jackpot_award", "bonus_by_rank"})
"""Preset keys a house option replaces whole, never field by field: an award half the preset's and
half the house's would pay by neither (docs/rules.md §11), and a house's bonuses by rank are its
whole table (§13)."""


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
            raise PresetError(_("{field} must be an object").format(field=path))
        self.data: Mapping[str, Any] = data
        self.path = path
        self._read: set[str] = set()
        self._sections: list[PresetReader] = []

    def refuse_unread(self) -> None:
        """Refuse the first field (here or in a section read from here) that nothing asked for."""
        unread = sorted(set(self.data) - self._read)
        if unread:
            raise PresetError(_("{field} is not a preset field").format(field=f"{self.path}.{unread[0]}"))
        for section in self._sections:
            section.refuse_unread()

    def _get(self, key: str) -> Any:
        self._read.add(key)
        if key not in self.data:
            raise PresetError(_("{field} is missing").format(field=f"{self.path}.{key}"))
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
            raise PresetError(_("{field} must be text").format(field=f"{self.path}.{key}"))
        return value

    def number(self, key: str, least: int = 0, most: int = MAX_POINTS) -> int:
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
            said = _("{field} must be a whole number from {least} to {most}, not {value}")
            field = f"{self.path}.{key}"
            raise PresetError(said.format(field=field, least=least, most=f"{most:,}", value=repr(value)))
        return value

    def optional_number(self, key: str) -> int | None:
        self._read.add(key)
        return None if self.data.get(key) is None else self.number(key)

    def numbers(self, *keys: str) -> dict[str, int]:
        return {key: self.number(key) for key in keys}

    def flag(self, key: str) -> bool:
        value = self._get(key)
        if not isinstance(value, bool):
            raise PresetError(_("{field} must be true or false").format(field=f"{self.path}.{key}"))
        return value

    def table(
        self, key: str, names: Callable[[str], bool], what: str, bounds: tuple[int, int] = (0, MAX_POINTS)
    ) -> Mapping[str, int]:
        """Numbers under names that are data (hand classes, ranks, variants), each name checked."""
        section = self.section(key)
        for name in section.data:
            if not names(name):
                raise PresetError(
                    _("{field} is not {what}").format(field=f"{section.path}.{name}", what=what)
                )
        return MappingProxyType({name: section.number(name, *bounds) for name in section.data})

    def words(self, key: str) -> Mapping[str, str]:
        section = self.section(key)
        return MappingProxyType({name: section.text(name) for name in section.data})

    def choice(self, key: str, enum: type[E], default: E | None = None) -> E:
        """One of `enum`'s words; a refusal lists them and names what was given."""
        value = self.text(key, None if default is None else default.value)
        try:
            return enum(value)
        except ValueError:
            raise PresetError(not_one_of(f"{self.path}.{key}", enum, value)) from None


def not_one_of(field: str, enum: type[StrEnum], value: object) -> str:
    allowed = ", ".join(member.value for member in enum)
    said = _("{field} must be one of {allowed}, not {value}")
    return said.format(field=field, allowed=allowed, value=repr(value))


def read_rake(rake: PresetReader) -> RakeRules:
    """A preset's `rake` section (either game's)."""
    return RakeRules(
        mode=rake.choice("mode", RakeMode),
        amount=rake.number("amount", 0, MAX_CHIPS),
        percent=rake.number("percent", 0, 100),
        cap=rake.number("cap", 0, MAX_CHIPS),
        jackpot_percent=rake.number("jackpot_percent", 0, 100),
    )


def load_game_preset(name: str, game: Game, build: Callable[[Mapping[str, Any]], P]) -> P:
    """One game's preset by its file's name, built by `build` once per version of the file: a batch
    of deals names the same preset many times."""
    found = find_preset_file(name, game)
    return cast(P, _built_from_file(found.path, found.version, build))


@lru_cache(maxsize=64)
def _built_from_file(path: Path, version: int, build: Callable[[Mapping[str, Any]], object]) -> object:
    return build(read_preset_json(PresetFile(path, version)))


def stored_preset(source: Mapping[str, Any]) -> dict[str, Any]:
    """A preset's data as stored with a session and printed on its reports: plain JSON data."""
    # `default=dict` unwraps the read-only mappings a preset keeps its data in.
    return json.loads(json.dumps(source, default=dict))  # type: ignore[no-any-return]


class StoredPreset:
    """What a preset of either game keeps of the data it was read from: `source`, its file's data
    with the house options laid over it (and, for Chinese poker, the defaults filled in)."""

    source: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The preset as stored: what the session records and every report prints."""
        return stored_preset(self.source)


def refuse_other_game(reader: PresetReader, game: Game, refusal: str) -> None:
    """A preset's `game` (`game` when left out) must be `game`: `refusal` says so, with {game}."""
    if reader.text("game", game.value) != game:
        raise PresetError(refusal.format(game=game.value))
