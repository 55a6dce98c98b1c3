"""How a table is opened: its seats, its button and the rules in force (the `ofc-desk score` keys)."""

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TypedDict

from ofc_desk.core.games import DEFAULT_VARIANT, GAME_OF_VARIANT
from ofc_desk.core.presets import DEFAULT_PRESET, Game, PresetError, find_preset_file, read_preset_json
from ofc_desk.core.settlement import SettleFrom, SettlementPolicy
from ofc_desk.i18n import _
from ofc_desk.service.terms.payloads import PairUnitPayload, RulesPayload
from ofc_desk.storage.audit import canonical_json


@dataclass(frozen=True)
class SeatSetup:
    """A player seated when a table opens, with the buy-in."""

    name: str
    buy_in: int


@dataclass(frozen=True)
class PairUnit:
    """Chips per point two players agreed between themselves (docs/rules.md §8)."""

    players: tuple[str, str]
    unit: int


class SettlingTerms(TypedDict):
    """What settles a hand at the table, as both games' core `deal` takes it."""

    unit: int
    pair_units: dict[frozenset[str], int]
    settlement: SettlementPolicy
    settle_from: SettleFrom


@dataclass(frozen=True)
class TableRules:
    """The rules keys exactly as `ofc-desk score` reads them, plus the table's own options.

    The words `variant`, `settlement` and `settle_from` are kept as a script, an event or the desk
    wrote them: the game's check (`games.choose.game_for`) refuses an unknown one in the core's
    words, in the order it reads the keys. What is read of rules in force is typed
    (`snapshot.TableSnapshot.settlement`, the games' `Variant`)."""

    preset: str | Mapping[str, object] = DEFAULT_PRESET
    """A shipped preset's name, or a whole preset object (docs/rules.md §4)."""
    house_options: Mapping[str, object] | None = None
    """Preset fields a house changes (e.g. rake, a Fantasyland cap), layered over the preset."""
    scoring: str | None = None
    variant: str = DEFAULT_VARIANT
    progressive: bool = False
    unit: int = 1
    pair_units: tuple[PairUnit, ...] = ()
    settlement: str = SettlementPolicy.WIN_CAP.value
    settle_from: str = SettleFrom.LEFT_OF_DEALER.value
    last_three_face_down: bool = False
    """docs/rules.md §7 option: the last 3 cards are dealt face down and entered when revealed."""
    preset_name: str | None = None
    """The preset file `preset` was pinned from; None while the preset is named, not pinned."""

    @cached_property
    def preset_sha256(self) -> str | None:
        """The fingerprint of a pinned (or table's own) preset object: what the reports print.
        Kept once worked out: every hand scored reads the rules, and with them this."""
        return None if isinstance(self.preset, str) else canonical_sha256(self.preset)

    @property
    def game(self) -> Game:
        """The game the rules deal: the service's games are chosen by it (`games.choose`)."""
        return GAME_OF_VARIANT.get(self.variant, Game.OFC)

    @property
    def preset_label(self) -> str:
        """The preset's name as a dealer knows it, pinned or not."""
        if isinstance(self.preset, str):
            return self.preset
        return self.preset_name or str(self.preset.get("name", "the table's own preset"))

    def pinned(self, current: "TableRules | None" = None) -> "TableRules":
        """These rules with a named preset replaced by the file's contents as they are now, so the
        session never reads the file again. Naming the preset the table already plays (`current`)
        keeps the numbers pinned when it opened: an edited file changes new tables only. An
        unknown name stays a name, for the rules check to refuse in its own words."""
        if not isinstance(self.preset, str):
            return self
        if current is not None and current.preset_name == self.preset:
            return replace(self, preset=current.preset, preset_name=current.preset_name)
        try:
            data = read_preset_json(find_preset_file(self.preset, self.game))
        except PresetError:
            return self
        pinned_data: dict[str, object] = canonical_copy(data)
        return replace(self, preset=pinned_data, preset_name=self.preset)

    def unpinned(self) -> "TableRules":
        """The rules as a script names them (the preset by its file's name): to match a script
        against what was stored."""
        if self.preset_name is None:
            return self
        return replace(self, preset=self.preset_name, preset_name=None)

    def settling_terms(self) -> SettlingTerms:
        return {
            "unit": self.unit,
            "pair_units": {frozenset(pair.players): pair.unit for pair in self.pair_units},
            "settlement": SettlementPolicy(self.settlement),
            "settle_from": SettleFrom(self.settle_from),
        }

    def deals_like(self, other: "TableRules") -> bool:
        """Whether both deal the same game: same preset, house options, variant and progressive
        flag (units, scoring and settlement aside)."""
        return (self.preset, self.house_options, self.variant, self.progressive) == (
            other.preset,
            other.house_options,
            other.variant,
            other.progressive,
        )

    def to_json(self) -> RulesPayload:
        payload: RulesPayload = {
            "rules": self.preset if isinstance(self.preset, str) else dict(self.preset),
            "house_options": None if self.house_options is None else dict(self.house_options),
            "scoring": self.scoring,
            "variant": self.variant,
            "progressive": self.progressive,
            "unit": self.unit,
            "pair_units": [_pair_unit_json(pair) for pair in self.pair_units],
            "settlement": self.settlement,
            "settle_from": self.settle_from,
            "last_three_face_down": self.last_three_face_down,
        }
        # Only rules pinned from a file carry the pin's keys: any other payload (a named preset, a
        # table's own preset object) stays as events stored before pinning have it, byte for byte.
        digest = self.preset_sha256
        if self.preset_name is not None and digest is not None:
            payload["preset_name"], payload["preset_sha256"] = self.preset_name, digest
        return payload

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> "TableRules":
        """Read the rules keys of a replay script or a stored event; missing keys take defaults."""
        defaults = cls()
        pairs = tuple(_pair_unit(pair) for pair in _items(data.get("pair_units")))
        scoring = data.get("scoring")
        rules = data.get("rules", defaults.preset)
        house = data.get("house_options")
        name = data.get("preset_name")
        read = cls(
            preset=dict(rules) if isinstance(rules, Mapping) else str(rules),
            house_options=dict(house) if isinstance(house, Mapping) else None,
            scoring=None if scoring is None else str(scoring),
            variant=str(data.get("variant", defaults.variant)),
            progressive=_flag(data, "progressive"),
            unit=_whole(data, "unit", defaults.unit),
            pair_units=pairs,
            settlement=str(data.get("settlement", defaults.settlement)),
            settle_from=str(data.get("settle_from", defaults.settle_from)),
            last_three_face_down=_flag(data, "last_three_face_down"),
            preset_name=None if name is None else str(name),
        )
        _check_pin(read, data.get("preset_sha256"))
        return read


@dataclass(frozen=True)
class TableSetup:
    """Everything needed to open a table: seats are in clockwise order."""

    name: str
    seats: tuple[SeatSetup, ...]
    button: str
    rules: TableRules = field(default_factory=TableRules)


def canonical_sha256(data: Mapping[str, object]) -> str:
    """SHA-256 of the canonical JSON of preset data: the pinned rules' fingerprint."""
    return hashlib.sha256(canonical_json(dict(data)).encode("utf-8")).hexdigest()


def canonical_copy(data: Mapping[str, object]) -> dict[str, object]:
    """A plain dict of preset data, as it reads back from the log's canonical JSON."""
    copied: dict[str, object] = json.loads(canonical_json(dict(data)))
    return copied


def _check_pin(rules: TableRules, recorded: object) -> None:
    if rules.preset_name is None and recorded is None:
        return
    if rules.preset_name is None or isinstance(rules.preset, str):
        raise ValueError(_("preset_name and preset_sha256 belong together, with a preset object"))
    if recorded != rules.preset_sha256:
        said = _(
            "the pinned preset {preset} does not match its SHA-256 {digest}: its numbers were changed"
            " after they were recorded"
        )
        raise ValueError(said.format(preset=rules.preset_label, digest=recorded))


def _items(value: object) -> list[object] | tuple[object, ...]:
    """A list of pair units; absent (or empty) for none."""
    if not value:
        return ()
    if not isinstance(value, list | tuple):
        raise ValueError(
            _("pair_units: must be a list of {{players, unit}}, not {value}").format(value=repr(value))
        )
    return value


def _pair_unit_json(pair: PairUnit) -> PairUnitPayload:
    return {"players": list(pair.players), "unit": pair.unit}


def _pair_unit(data: object) -> PairUnit:
    players = data.get("players") if isinstance(data, Mapping) else None
    if not isinstance(data, Mapping) or not isinstance(players, list | tuple) or len(players) != 2:
        raise ValueError(
            _("pair_units: a pair unit names two players, not {players}").format(players=repr(players))
        )
    if "unit" not in data:
        said = _("pair_units: the unit between {first} and {second} is missing")
        raise ValueError(said.format(first=players[0], second=players[1]))
    return PairUnit((str(players[0]), str(players[1])), _whole(data, "unit", 1))


def _whole(data: Mapping[str, object], key: str, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(
            _("{key} must be a whole number of chips, not {value}").format(key=key, value=repr(value))
        )
    return value


def _flag(data: Mapping[str, object], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(_("{key} must be true or false, not {value}").format(key=key, value=repr(value)))
    return value
