"""The replay-script vocabulary: what the writer (reports.script) says, the reader understands."""

from __future__ import annotations

from ofc_desk.reports import script
from ofc_desk.service.replays import replay, replay_vocabulary
from ofc_desk.service.replays.replay_vocabulary import OP_FIELDS, OP_KINDS, OP_NAMES, SUPERVISED_OPS
from ofc_desk.service.table.actions import SUPERVISED
from ofc_desk.service.terms.events import EventKind


def test_every_operation_the_writer_names_reads_back_as_its_kind() -> None:
    assert all(OP_KINDS[name] is kind for kind, name in OP_NAMES.items())
    assert set(OP_KINDS.values()) == set(OP_NAMES) | {EventKind.UNDONE}
    assert set(OP_FIELDS) == set(OP_KINDS.values())
    # A takeover is said in a script as a hand-over (`{"op": "dealer"}`), as the hand-over is.
    assert {OP_NAMES[kind] for kind in SUPERVISED - {EventKind.TAKEN_OVER}} == SUPERVISED_OPS


def test_reader_and_writer_take_their_words_from_the_one_module() -> None:
    for module in (script, replay):
        assert module.RULE_KEYS is replay_vocabulary.RULE_KEYS
        assert module.OP_FIELDS is replay_vocabulary.OP_FIELDS
        assert not {"SCRIPT_RULE_KEYS", "BETWEEN_OPS", "_OPS", "_OP_FIELDS"} & set(vars(module))
