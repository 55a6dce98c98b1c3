"""The words of an `ofc-desk replay` script, said once for the reader (`service.replays.replay`) and the
writer (`reports.script`, which rebuilds a script from a stored session).

A script is a header (the table, its `seats`, `button`, `dealer`, `users` and the rules keys) and
`hands`, each with `between` operations (`{"op": "rebuy", "player": …, "amount": …}`) and
`actions` (an entry with the keys its game says, `{"player", "cards", "rows"}` at an OFC or Chinese
poker table; or `{"op": "undo"}`, or `{"op": "dealer", "name": …}`).

>>> OP_KINDS["top_up"] is OP_KINDS["rebuy"] is EventKind.REBOUGHT
True
>>> OP_NAMES[EventKind.HAND_VOIDED], OP_FIELDS[EventKind.HAND_VOIDED]
('void', ('hand', 'reason', 'request'))
"""

from __future__ import annotations

from typing import Final

from ofc_desk.service.table.actions import SPECS, SUPERVISED
from ofc_desk.service.table.games.base import ROW_ENTRY_KEYS
from ofc_desk.service.terms.events import EventKind

RULE_KEYS: Final = (
    "rules", "house_options", "scoring", "variant", "progressive", "unit", "pair_units",
    "settlement", "settle_from", "last_three_face_down", "preset_name", "preset_sha256",
)  # fmt: skip
"""The rules keys, the same as `ofc-desk score` reads, and the pin of a preset read from a file
(an exported session's script replays with the numbers it was played by); in the header and in
`change_rules`."""

ACTION_KEYS: Final = ROW_ENTRY_KEYS
"""What a street or a Fantasyland set says; also a Chinese poker hand set in its rows. Each game
says the keys of its own entries (`TableGame.action_keys`: these at OFC and Chinese poker tables);
what only one game's entry says besides (a Chinese surrender or declaration) is that game's
(`service.table.games.choose.OWN_ENTRY_KEYS`)."""
UNDO_OP: Final = "undo"
"""Takes back the last entry (an action, or a `between` operation before any entry)."""
DEALER_OP: Final = "dealer"
"""`{"op": "dealer", "name": …}`: another dealer takes over (a `handed_over` event; sessions
recorded before that event existed hold none, and their scripts say it where the actor changes)."""
PIN_KEY: Final = "pin"
SUPERVISOR_KEY: Final = "supervisor"

OP_NAMES: Final[dict[EventKind, str]] = {spec.kind: spec.op for spec in SPECS if spec.op is not None}
"""The `between` operation that makes each kind of event (the name the writer uses). A request to
the floor and its decision may also stand among a hand's actions, where the hand was live."""

OP_KINDS: Final[dict[str, EventKind]] = {
    **{name: kind for kind, name in OP_NAMES.items()},
    "buy_in": EventKind.JOINED,
    "top_up": EventKind.REBOUGHT,
    UNDO_OP: EventKind.UNDONE,
}
"""Every `between` operation the reader accepts, older spellings included."""

OP_FIELDS: Final[dict[EventKind, tuple[str, ...]]] = {
    **{spec.kind: spec.op_fields for spec in SPECS if spec.op is not None},
    EventKind.UNDONE: (),
}
"""The keys an operation carries, beside the rules keys of `change_rules` and the supervisor and
PIN of a supervised one."""

SUPERVISED_OPS: Final = frozenset(OP_NAMES[kind] for kind in SUPERVISED if kind in OP_NAMES)
"""Operations a floor supervisor approves: they name the supervisor and carry a PIN, except an
action carried out on a request the floor approved (it names the request, and needs no PIN). A
takeover (issue 34) has none: a script says it as the hand-over it is (`{"op": "dealer"}`)."""
FLOOR_OPS: Final = frozenset({OP_NAMES[EventKind.REQUEST_MADE], OP_NAMES[EventKind.REQUEST_DECIDED]})
