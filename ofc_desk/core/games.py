"""Every game's variant words and readers, the one place in the core that names each game's package
for the generic modules (issue 37: a generic module asks a registry, never a game's package): the
game each word is dealt in, its label, the word rules name when they name none, the most seats a
table of any game has, each game's preset by name, the sentences its results store, and its deals
as `ofc-desk score` reads and scores them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ofc_desk.core.chinese.deal import CHINESE, CHINESE_LABEL
from ofc_desk.core.chinese.deal import MAX_PLAYERS as CHINESE_MOST_PLAYERS
from ofc_desk.core.chinese.deal_input import is_chinese_deal, score_chinese_deal_json
from ofc_desk.core.chinese.presets import load_chinese_preset
from ofc_desk.core.chinese.purpose_words import purpose_words
from ofc_desk.core.ofc.deal_input import score_deal_json
from ofc_desk.core.ofc.presets import load_preset
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import Game
from ofc_desk.i18n import LazyText

GAME_OF_VARIANT: Final[Mapping[str, Game]] = {
    **{variant.value: Game.OFC for variant in Variant},
    CHINESE: Game.CHINESE,
}
"""The game each variant word is dealt in (an unknown word is OFC's, whose rules refuse it), in the
order the games list them."""

DEFAULT_VARIANT: Final = Variant.REGULAR.value
"""The variant a table's rules name when they name none: OFC's regular game."""

VARIANT_LABELS: Final[Mapping[str, LazyText]] = {
    **{variant.value: variant.label for variant in Variant},
    CHINESE: CHINESE_LABEL,
}
"""Each variant word in the reader's language."""

MOST_SEATS: Final = max(CHINESE_MOST_PLAYERS, *(variant.structure.max_players for variant in Variant))
"""The most players a table of any game seats: the seat numbers a new table offers."""

PRESET_LOADERS: Final[Mapping[Game, Callable[[str], object]]] = {
    Game.OFC: load_preset,
    Game.CHINESE: load_chinese_preset,
}
"""Each game's preset read by its file's name: `PresetError` when its rules core would not take it."""

STORED_SENTENCES: Final[tuple[Callable[[str, str, str], str | None], ...]] = (purpose_words,)
"""Each game's reader of the English sentences its results store for what a payment is for (the
stored text, payer, payee): the sentence in the reader's language, or None when it is none of that
game's (a Chinese payment's `for`; OFC stores none)."""


def _any_deal(data: Any) -> bool:
    """OFC reads every deal no other game does: its reader refuses what is not an OFC deal."""
    return True


DEAL_GAMES: Final[Mapping[Game, tuple[Callable[[Any], bool], Callable[[Any], dict[str, Any]]]]] = {
    Game.CHINESE: (is_chinese_deal, score_chinese_deal_json),
    Game.OFC: (_any_deal, score_deal_json),
}
"""Each game `ofc-desk score` scores, with whether a deal is its own (asked in this order: OFC's
reader takes any deal, and refuses what is not an OFC deal) and its core's reading and scoring of
the deal into the answer."""
