"""The one place that names every game a table can play: the game the rules name, the script
keys only one game's entries have, and the command that enters each kind of turn. A game beyond the
shipped two is added by `register_game`, after the core's (`core.games.register_game`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ofc_desk.core.games import Undo, add_entries, variant_words
from ofc_desk.core.presets import Game
from ofc_desk.core.registries import OnFirstUse, Registry
from ofc_desk.service.table.commands import CardEntries, Entry, RowEntries
from ofc_desk.service.table.games.base import GameRescoring, TableGame, no_hand_being_dealt
from ofc_desk.service.table.games.ofc.commands import OFC_TURN_ENTRIES
from ofc_desk.service.table.games.ofc.correction import fantasyland_words
from ofc_desk.service.table.games.ofc.game import OfcGame
from ofc_desk.service.table.games.ofc.record import OfcRecord
from ofc_desk.service.table.games.ofc.rescoring import OFC_RESCORING
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.outcome import RecordPart
from ofc_desk.service.terms.payloads import CorrectedCarry
from ofc_desk.service.terms.setup import TableRules

# The closed Chinese game's parts, each loaded with its first use (`core.registries`): an OFC
# table never imports them.


def _chinese_table() -> Callable[[TableRules], TableGame]:
    from ofc_desk.service.table.games.chinese.game import ChineseGame

    return ChineseGame.for_rules


def _chinese_rescoring() -> GameRescoring[Any]:
    from ofc_desk.service.table.games.chinese.rescoring import CHINESE_RESCORING

    return CHINESE_RESCORING


def _showdown_keys() -> tuple[str, ...]:
    from ofc_desk.service.table.games.chinese.play import SHOWDOWN_KEYS

    return SHOWDOWN_KEYS


def _showdown_words() -> Callable[[Mapping[str, object]], str]:
    from ofc_desk.service.table.games.chinese.words import said_showdown

    return said_showdown


def _showdown_refusal() -> Callable[[], ActionRefused]:
    from ofc_desk.service.table.games.chinese.game import no_showdown_being_entered

    return no_showdown_being_entered


def _chinese_turn_entries() -> Mapping[str, type[Entry]]:
    from ofc_desk.service.table.games.chinese.commands import CHINESE_TURN_ENTRIES

    return CHINESE_TURN_ENTRIES


GAMES: Final[Registry[Game, Callable[[TableRules], TableGame]]] = Registry(
    {
        Game.OFC: OfcGame.for_rules,
        Game.CHINESE: OnFirstUse(_chinese_table),
    }
)
"""Each game's table, made for the rules (`game_for`)."""

# Any: each game's part takes its own core's deal, which the re-scoring never names.
RESCORING: Final[Registry[Game, GameRescoring[Any]]] = Registry(
    {
        Game.OFC: OFC_RESCORING,
        Game.CHINESE: OnFirstUse(_chinese_rescoring),
    }
)
"""Each game whose hands `verify` re-scores beside its fold, and its part of that (`audit.rescoring`);
a game not here has every hand scored by its core in the fold."""

OWN_ENTRY_KEYS: Final[Registry[EventKind, tuple[str, ...]]] = Registry(
    {
        EventKind.SHOWN: OnFirstUse(_showdown_keys),
    }
)
"""The event an entry only one game has makes at any table, and the keys only that entry has."""

OWN_ENTRY_WORDS: Final[Mapping[EventKind, Callable[[Mapping[str, object]], str]]] = Registry(
    {
        EventKind.SHOWN: OnFirstUse(_showdown_words),
    }
)
"""The audit log's words for each entry only one game has, by its event (a street's are the
service's own, `actions.hand.entry_sentence`)."""

OWN_ENTRY_REFUSALS: Final[Mapping[EventKind, Callable[[], ActionRefused]]] = Registry(
    {
        EventKind.SHOWN: OnFirstUse(_showdown_refusal),
    }
)
"""The refusal of each entry only one game has where no hand of that game takes it, by its event
(`entry_refused`): its game's own words, whatever the table plays."""

CARRY_CORRECTION_WORDS: Final[dict[Game, Callable[[CorrectedCarry], str]]] = {Game.OFC: fantasyland_words}
"""Each game's words for what a correction of a settled hand changes of what the next hand owes
(`actions.hand_corrections`); a game that carries nothing has none. A stored correction does not
name its game: each says nothing when what is owed is as recorded, as it always is in another game."""

RECORD_PARTS: Final[dict[Game, Callable[[dict[str, int]], RecordPart]]] = {Game.OFC: OfcRecord}
"""Each game's part of a settled hand's record, from the row's game column as stored (`record_part`);
a game whose row holds nothing of its own has none."""

TURN_ENTRIES: Final[Registry[Game, Mapping[str, type[Entry]]]] = Registry(
    {
        Game.OFC: OFC_TURN_ENTRIES,
        Game.CHINESE: OnFirstUse(_chinese_turn_entries),
    }
)
"""Each game's commands (`service.table.commands.Entry`) that enter its own kinds of turn
(`Turn.kind`), named in its package (the shipped games' `OfcTurn` and `ChineseTurn`, a registered
game's `turn_entries`): `entry_for` asks the games in order, so an OFC turn loads no other game."""


def register_game(
    game: Game,
    for_rules: Callable[[TableRules], TableGame],
    rescoring: GameRescoring[Any] | None = None,
    correction_words: Callable[[CorrectedCarry], str] | None = None,
    turn_entries: Mapping[str, type[Entry]] | None = None,
    record_part: Callable[[dict[str, int]], RecordPart] | None = None,
) -> Undo:
    """A game the core has registered (`core.games.register_game`) added to the service's
    registries: its table for the rules (`GAMES`), its variant words as the audit log says stored
    rules (`actions.words.STORED_RULE_WORDS`) and, if it has them, its re-scoring beside `verify`'s
    fold (`RESCORING`), its words for a corrected carry-over (`CARRY_CORRECTION_WORDS`), the
    commands of its own kinds of turn (`TURN_ENTRIES`, by `Turn.kind`: refused when another game
    has one of them) and its part of a hand's record (`RECORD_PARTS`). The undo returned takes it
    out again."""
    # Taken here: the actions' package imports this module (its hand's specs), so this module
    # imported first (by `verify`'s re-scoring) would import it back half made.
    from ofc_desk.service.table.actions.words import STORED_RULE_WORDS

    entries = turn_entries or {}
    if taken := sorted(turn for kinds in TURN_ENTRIES.values() for turn in kinds if turn in entries):
        raise ValueError(f"registered already: {', '.join(taken)}")  # one command a kind of turn
    return add_entries(
        (GAMES, {game: for_rules}),
        (STORED_RULE_WORDS, variant_words(game)),
        (RESCORING, {} if rescoring is None else {game: rescoring}),
        (CARRY_CORRECTION_WORDS, {} if correction_words is None else {game: correction_words}),
        (TURN_ENTRIES, {game: entries}),
        (RECORD_PARTS, {} if record_part is None else {game: record_part}),
    )


def game_for(rules: TableRules) -> TableGame:
    """The game the rules name, or `ActionRefused` when the core would not score it."""
    return GAMES[rules.game](rules)


def record_part(game: Game, column: dict[str, int]) -> RecordPart | None:
    """The game's own part of a settled hand's record, from its row's game column as stored (its
    `fantasyland`); None in a game whose row holds nothing of its own."""
    reader = RECORD_PARTS.get(game)
    return None if reader is None else reader(column)


def own_entry(action: Mapping[str, object]) -> tuple[EventKind, tuple[str, ...]] | None:
    """The event of a scripted entry that names its game by a key only that game's entries have (a
    Chinese surrender or declared special: a showdown), with those keys; None for any other."""
    return next(((kind, keys) for kind, keys in OWN_ENTRY_KEYS.items() if set(action) & set(keys)), None)


def own_entry_words(entry: Mapping[str, object]) -> str | None:
    """A stored entry that only one game has (a Chinese showdown) in the audit log's words; None
    for a street, which the service says itself."""
    own = own_entry(entry)
    return None if own is None else OWN_ENTRY_WORDS[own[0]](entry)


def entry_refused(kind: EventKind) -> ActionRefused:
    """An entry of `kind` refused where no hand takes it: between hands, or at a table whose game
    plays no such entry (`TableGame.entry_kinds`). An entry only one game has is refused in that
    game's words (`OWN_ENTRY_REFUSALS`), any other as no hand being dealt."""
    own = OWN_ENTRY_REFUSALS.get(kind)
    return own() if own is not None else no_hand_being_dealt()


def entry_for(turn: str, player: str, cards: CardEntries = (), rows: RowEntries = ()) -> Entry:
    """The command entering `player`'s cards at a turn of this kind (`snapshot.to_act`), for a
    caller that does not ask which game is played."""
    for entries in TURN_ENTRIES.values():
        if turn in entries:
            return entries[turn](player, cards, rows)
    raise KeyError(turn)
