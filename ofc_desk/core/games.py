"""Every game's variant words, the one place in the core that names each game's package for the
generic modules (issue 37: a generic module asks a registry, never a game's package): the game each
word is dealt in, its label, the word rules name when they name none, and the most seats a table of
any game has."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ofc_desk.core.chinese.deal import CHINESE, CHINESE_LABEL
from ofc_desk.core.chinese.deal import MAX_PLAYERS as CHINESE_MOST_PLAYERS
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
