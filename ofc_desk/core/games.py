"""Every game's variant words and readers, the one place in the core that names each game's package
for the generic modules (issue 37: a generic module asks a registry, never a game's package): the
game each word is dealt in, its label, the word rules name when they name none, the most seats a
table of any game has, each game's preset by name, the sentences its results store, and its deals
as `ofc-desk score` reads and scores them. A game beyond the shipped two is added to every registry
of the core by `register_game` (one call per layer: `service.table.games.choose.register_game`,
`reports.games.register_game`, `desk.games.register_game`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any, Final

from ofc_desk.core.ofc.deal_input import score_deal_json
from ofc_desk.core.ofc.presets import load_preset
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import Game, enlist_game
from ofc_desk.core.registries import OnFirstUse, Registry
from ofc_desk.core.results import HandResult, ResultReader
from ofc_desk.core.stored_results import READERS
from ofc_desk.i18n import LazyText, lazy_pgettext

CHINESE: Final = Game.CHINESE.value
"""The closed game's variant word: the game's own name, as its preset files and rules say it."""
CHINESE_LABEL: Final = lazy_pgettext("variant", "chinese")
"""The closed game's variant word in the reader's language, as `Variant.label` is OFC's (here, not
in the game's core: naming the game loads none of its modules)."""

GAME_OF_VARIANT: Final[dict[str, Game]] = {
    **{variant.value: Game.OFC for variant in Variant},
    CHINESE: Game.CHINESE,
}
"""The game each variant word is dealt in (an unknown word is OFC's, whose rules refuse it), in the
order the games list them."""

DEFAULT_VARIANT: Final = Variant.REGULAR.value
"""The variant a table's rules name when they name none: OFC's regular game."""

VARIANT_LABELS: Final[dict[str, LazyText]] = {
    **{variant.value: variant.label for variant in Variant},
    CHINESE: CHINESE_LABEL,
}
"""Each variant word in the reader's language."""


def _chinese_most_players() -> int:
    from ofc_desk.core.chinese.deal import MAX_PLAYERS

    return MAX_PLAYERS


MOST_SEATS: Final[Registry[Game, int]] = Registry(
    {
        Game.OFC: max(variant.structure.max_players for variant in Variant),
        Game.CHINESE: OnFirstUse(_chinese_most_players),
    }
)
"""The most players a table of each game seats, in any of its variants (`most_seats`)."""


def most_seats() -> int:
    """The most players a table of any game registered seats: the seat numbers a new table offers."""
    return max(MOST_SEATS.values())


def _chinese_preset_loader() -> Callable[[str], object]:
    from ofc_desk.core.chinese.presets import load_chinese_preset

    return load_chinese_preset


PRESET_LOADERS: Final[Registry[Game, Callable[[str], object]]] = Registry(
    {
        Game.OFC: load_preset,
        Game.CHINESE: OnFirstUse(_chinese_preset_loader),
    }
)
"""Each game's preset read by its file's name: `PresetError` when its rules core would not take it."""


def _chinese_purpose_words(stored: str, payer: str, payee: str) -> str | None:
    from ofc_desk.core.chinese.purpose_words import purpose_words  # with the first such sentence

    return purpose_words(stored, payer, payee)


STORED_SENTENCES: Final[tuple[Callable[[str, str, str], str | None], ...]] = (_chinese_purpose_words,)
"""Each game's reader of the English sentences its results store for what a payment is for (the
stored text, payer, payee): the sentence in the reader's language, or None when it is none of that
game's (a Chinese payment's `for`; OFC stores none)."""


def _any_deal(data: Any) -> bool:
    """OFC reads every deal no other game does: its reader refuses what is not an OFC deal."""
    return True


DealScoring = Callable[[Any], dict[str, Any]]
"""A game's core reading and scoring a deal (the parsed JSON) into `ofc-desk score`'s answer."""


def _chinese_deals() -> tuple[Callable[[Any], bool], DealScoring]:
    from ofc_desk.core.chinese.deal_input import is_chinese_deal, score_chinese_deal_json

    return is_chinese_deal, score_chinese_deal_json


DEAL_GAMES: Final[Registry[Game, tuple[Callable[[Any], bool], DealScoring]]] = Registry(
    {
        Game.CHINESE: OnFirstUse(_chinese_deals),
        Game.OFC: (_any_deal, score_deal_json),
    }
)
"""Each game `ofc-desk score` scores, with whether a deal is its own and its core's reading and
scoring of the deal into the answer (`deal_scoring` asks them, OFC's catch-all last)."""


def deal_scoring(deal: Any) -> DealScoring:
    """The scoring of the game whose deal `deal` is, for `ofc-desk score`: the first game's that
    takes it as its own, whatever order the games were registered in, and the game of a deal that
    names no variant (OFC, whose reader takes any deal and refuses what is not an OFC deal) last."""
    last = GAME_OF_VARIANT[DEFAULT_VARIANT]
    asked = sorted(DEAL_GAMES.items(), key=lambda item: item[0] is last)  # stable: the rest in order
    return next(score for _, (reads, score) in asked if reads(deal))


Undo = Callable[[], None]
"""Takes a game registered at run time out of the registries again (a test's game, after its test)."""


@dataclass(frozen=True)
class CoreGame:
    """A game's parts in the core's registries, as `register_game` adds them."""

    game: Game
    """Made by `core.presets.new_game`."""
    label: LazyText
    """The game's name in the reader's language (`Game.label`)."""
    variants: Mapping[str, LazyText]
    """Each variant word the game is dealt in (its rules' and its stored results' `variant`), said."""
    load_preset: Callable[[str], object]
    """Its preset by name (`PRESET_LOADERS`)."""
    read_result: Callable[[ResultReader], HandResult]
    """Its stored results read back (`core.stored_results.READERS`)."""
    is_deal: Callable[[Any], bool]
    """Whether a deal `ofc-desk score` reads is its own (`DEAL_GAMES`)."""
    score_deal: DealScoring
    most_players: int
    """The most players a table of it seats (`MOST_SEATS`)."""


def register_game(part: CoreGame) -> Undo:
    """A game beyond the shipped two added to every registry of the core: `Game` (its member and
    label), `GAME_OF_VARIANT`, `VARIANT_LABELS`, `PRESET_LOADERS`, `DEAL_GAMES` (in any order),
    `MOST_SEATS` and the stored results' `READERS`; refused, and nothing added, when a registry has
    it already. The undo returned takes it out of each again."""
    game = part.game
    additions = add_entries(
        (GAME_OF_VARIANT, dict.fromkeys(part.variants, game)),
        (VARIANT_LABELS, dict(part.variants)),
        (PRESET_LOADERS, {game: part.load_preset}),
        (DEAL_GAMES, {game: (part.is_deal, part.score_deal)}),
        (MOST_SEATS, {game: part.most_players}),
        (READERS, dict.fromkeys(part.variants, part.read_result)),
    )
    try:
        unlisted = enlist_game(game, part.label)
    except ValueError:
        additions()
        raise

    def undo() -> None:
        additions()
        unlisted()

    return undo


def variant_words(game: Game) -> dict[str, LazyText]:
    """The variant words a game is dealt in, each said (`VARIANT_LABELS`): what the later layers'
    registries of words add for a game registered at run time."""
    return {word: VARIANT_LABELS[word] for word, dealt in GAME_OF_VARIANT.items() if dealt is game}


def add_entries(*additions: tuple[MutableMapping[Any, Any], Mapping[Any, Any]]) -> Undo:
    """Each addition's entries put in its registry (each layer's `register_game`), none when any
    of them names a key its registry has already (a game is registered once); the undo takes them
    all out again."""
    for registry, entries in additions:
        if taken := [str(key) for key in entries if key in registry]:
            raise ValueError(f"registered already: {', '.join(taken)}")
    for registry, entries in additions:
        registry.update(entries)

    def undo() -> None:
        for registry, entries in additions:
            for key in entries:
                registry.pop(key, None)

    return undo
