"""The hash chain: canonical JSON and the sha256 that links each event to the one before it."""

from __future__ import annotations

import hashlib
import json
import json.scanner
import re
from collections.abc import Callable
from datetime import UTC, datetime
from json.encoder import encode_basestring
from typing import Any, cast

import orjson

GENESIS_HASH = "0" * 64
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _canonical_encoder() -> Callable[[Any], str]:
    """`_CANONICAL.encode`, minus the encoder it builds afresh on every call: `verify` spells out
    every event of a long session, and that building cost more than the encoding. The same C
    encoder and options give the same text; without a cycle check, which values read from JSON
    never need (a cyclic value gives RecursionError instead of ValueError)."""
    make_encoder: Callable[..., Callable[[Any, int], tuple[str, ...]]] | None
    make_encoder = getattr(json.encoder, "c_make_encoder", None)
    if make_encoder is None:  # an interpreter without the C accelerator
        return _CANONICAL.encode
    encode = make_encoder(None, _CANONICAL.default, encode_basestring, None, ":", ",", True, False, True)
    return lambda value: "".join(encode(value, 0))


canonical_json: Callable[[Any], str] = _canonical_encoder()
"""One spelling per value: sorted keys, no spaces, UTF-8 kept as is."""

_PLAIN = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
)


def plain_canonical_json(value: Any) -> str:
    """`canonical_json` of a value the rules build: text, whole numbers, booleans, null, lists and
    dicts keyed by text, and no float (orjson spells 1e-05 as 0.00001, and infinity as null) nor
    enum member (which it spells by its value). orjson writes those the same, several times faster:
    `verify` spells every entry of every session, and every hand's result. What orjson refuses (a
    number beyond 64 bits, a lone surrogate, a key that is not text, a subclass of str or int) is
    spelt by `canonical_json`."""
    try:
        return orjson.dumps(value, option=_PLAIN).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError is one
        return canonical_json(value)


def _json_reader() -> Callable[[str], Any]:
    """`json.loads`, minus the two whitespace searches it makes around the value: `verify` reads
    every payload of a long session, canonical text without any. Text the scanner does not take
    whole (whitespace, not JSON, not text) goes to `json.loads`, which reads or refuses it as
    always."""
    # typeshed gives `make_scanner` the scanner's own type; it takes a decoder and makes a scanner.
    make_scanner = cast(Callable[[json.JSONDecoder], Callable[[str, int], Any]], json.scanner.make_scanner)
    scan = make_scanner(json.JSONDecoder())

    def read(text: str) -> Any:
        try:
            value, end = scan(text, 0)
        except (StopIteration, ValueError, TypeError):
            return json.loads(text)
        return value if end == len(text) else json.loads(text)

    return read


read_json: Callable[[str], Any] = _json_reader()
"""A stored JSON text's value, as `json.loads` gives it."""


_FLOAT_LIKE = re.compile(r"[0-9][.eE]")
"""Where a float may be spelt (a digit, then a point or an exponent): text like it is held to
`canonical_json`, since orjson and json spell floats differently."""


def spelt_canonically(value: Any, text: str) -> bool:
    """Whether `text` is `canonical_json(value)`, for a value of JSON's types that holds no
    infinity nor NaN where the text says null (orjson spells those null): `verify`'s payloads,
    which the rules build out of what they read from the text. Asked of orjson's spelling first
    (`plain_canonical_json`): the same, and no float spelt in the text, it is json's too;
    otherwise `canonical_json` decides."""
    if plain_canonical_json(value) == text and _FLOAT_LIKE.search(text) is None:
        return True
    return canonical_json(value) == text


def utc_now() -> str:
    """UTC time as stored in every row: ISO 8601 with microseconds and a Z."""
    return datetime.now(UTC).strftime(TIME_FORMAT)


def event_hash(
    prev_hash: str, session_id: int, seq: int, kind: str, actor: str, at: str, payload: str
) -> str:
    """sha256 over the previous hash and this event's canonical content."""
    if (
        type(session_id) is int
        and type(seq) is int
        and type(kind) is str
        and type(actor) is str
        and type(at) is str
        and type(payload) is str
    ):
        # `verify` hashes every event of every session: orjson spells text and whole numbers as
        # the canonical JSON does (`plain_canonical_json`), the keys put in their sorted order.
        if type(prev_hash) is str:
            try:
                spelt = orjson.dumps(
                    {
                        "actor": actor,
                        "at": at,
                        "kind": kind,
                        "payload": payload,
                        "seq": seq,
                        "session": session_id,
                    }
                )
            except TypeError:  # a lone surrogate, a number beyond 64 bits: spelt below
                pass
            else:
                return hashlib.sha256(prev_hash.encode("utf-8") + spelt).hexdigest()
        # The canonical JSON of these six fields spelt out directly (keys in sorted order).
        content = (
            f'{{"actor":{encode_basestring(actor)},"at":{encode_basestring(at)},'
            f'"kind":{encode_basestring(kind)},"payload":{encode_basestring(payload)},'
            f'"seq":{seq},"session":{session_id}}}'
        )
    else:  # a value stored with another type, by hand: hashed as any value would be
        content = canonical_json(
            {"session": session_id, "seq": seq, "kind": kind, "actor": actor, "at": at, "payload": payload}
        )
    return hashlib.sha256((prev_hash + content).encode("utf-8")).hexdigest()
