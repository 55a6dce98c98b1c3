# cython: language_level=3
"""The JSON of one scored deal, written as bytes in C, exactly as orjson writes the core's result:
the writer half of the compiled fast path of `ofc-desk score` (`_scorer.pyx` is the reader and
scorer)."""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, strlen

from ofc_desk.fastscore._deal cimport (
    CAPPED,
    HAD_ONLY,
    NOTHING_MOVES,
    NOTHING_PAID,
    PAID_IN_FULL,
    ROW_COUNT,
    UNUSED_DEBTOR,
    Matchup,
    Seat,
    Transfer,
)

import orjson

from ofc_desk.core.cards import FULL_DECK
from ofc_desk.core.scoring import ROWS, foul_reason
from ofc_desk.core.rows import ROW_SIZE
from ofc_desk.core.variants import Variant

cdef bytes _CARD_TEXT = b"".join(card.text.encode() for card in sorted(FULL_DECK, key=lambda card: card.code))
cdef const char* CARD_TEXT = _CARD_TEXT
cdef tuple _SIZES = tuple(ROW_SIZE[row] for row in ROWS)
cdef int FIRST_CARD[ROW_COUNT]
FIRST_CARD[:] = [sum(_SIZES[:row]) for row in range(ROW_COUNT)]
cdef tuple _ROW_OPENINGS = tuple(f'"{row.value}":{{"cards":"'.encode() for row in ROWS)
cdef dict _FOUL_REASONS = {}


cdef class Out:
    """A growing byte buffer for one deal's JSON."""


    def __cinit__(self):
        self.capacity = 8192
        self.size = 0
        self.data = <char*>malloc(self.capacity)
        if self.data is NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.data)

    cdef int raw(self, const char* text, Py_ssize_t length) except -1:
        cdef Py_ssize_t needed = self.size + length
        cdef char* grown
        if needed > self.capacity:
            while self.capacity < needed:
                self.capacity *= 2
            grown = <char*>realloc(self.data, self.capacity)
            if grown is NULL:
                raise MemoryError()
            self.data = grown
        memcpy(self.data + self.size, text, length)
        self.size = needed
        return 0

    cdef int text(self, const char* text) except -1:
        return self.raw(text, strlen(text))

    cdef int encoded(self, bytes value) except -1:
        return self.raw(PyBytes_AS_STRING(value), PyBytes_GET_SIZE(value))

    cdef int inner(self, bytes value) except -1:
        """A JSON string without its quotes: a name inside a longer text."""
        return self.raw(PyBytes_AS_STRING(value) + 1, PyBytes_GET_SIZE(value) - 2)

    cdef int number(self, long long value) except -1:
        cdef char digits[24]
        cdef int place = 24
        cdef unsigned long long rest = -value if value < 0 else value
        while True:
            place -= 1
            digits[place] = 48 + rest % 10
            rest //= 10
            if rest == 0:
                break
        if value < 0:
            place -= 1
            digits[place] = 45  # '-'
        return self.raw(digits + place, 24 - place)

    cdef int field(self, const char* key, long long value) except -1:
        """A key and its whole number: `,"points":` then 12."""
        self.text(key)
        return self.number(value)

    cdef int flag(self, bint value) except -1:
        return self.text(b"true" if value else b"false")

    cdef bytes take(self):
        result = PyBytes_FromStringAndSize(self.data, self.size)
        self.size = 0
        return result


cdef bytes _foul_reason_json(Seat* seat):
    """The core's reason for a fouled hand, as JSON; it depends only on which rows are out of order,
    so it is asked once per kind."""
    cdef long front = seat.values[0], middle = seat.values[1], back = seat.values[2]
    key = (middle < front, back < middle)
    reason = _FOUL_REASONS.get(key)
    if reason is None:
        reason = _FOUL_REASONS[key] = orjson.dumps(foul_reason((front, middle, back), Variant.REGULAR, None))
    return <bytes>reason


cdef int _write_reason(Out out, Seat* seats, Transfer* transfer, list names_json) except -1:
    """The reason a dealer reads aloud, word for word as the core's settlement gives it."""
    cdef Seat* subject = &seats[transfer.subject]
    name = <bytes>names_json[transfer.subject]
    if transfer.reason == PAID_IN_FULL:
        out.text(b"paid in full")
    elif transfer.reason == NOTHING_MOVES:
        _name_then(out, b"nothing moves: ", name, b" is complete (reached the win cap of ", subject.start)
        out.text(b")")
    elif transfer.reason == CAPPED:
        _name_then(out, b"capped: ", name, b" reached the win cap of ", subject.start)
    elif transfer.reason == NOTHING_PAID:
        out.text(b"nothing paid: ")
        out.inner(name)
        out.text(b" has no chips left")
    elif transfer.reason == HAD_ONLY:
        _name_then(out, b"", name, b" had only ", transfer.amount)
        out.text(b" in front of them")
    else:
        _name_then(out, b"", name, b" had only ", transfer.amount)
        out.field(b" unused chips of the ", subject.start)
        out.text(b" at the start" if transfer.reason == UNUSED_DEBTOR else b" to cover the win")
    if transfer.completes:
        if transfer.reason != CAPPED:
            creditor = <bytes>names_json[transfer.creditor]
            _name_then(out, b"; ", creditor, b" reached the win cap of ", seats[transfer.creditor].start)
        out.text(b" and is complete")
    return 0


cdef int _name_then(Out out, const char* before, bytes name, const char* after, long long number) except -1:
    """`before`, the name as it is written inside a JSON string, `after` and the number, as in
    "capped: Ann reached the win cap of 40"."""
    out.text(before)
    out.inner(name)
    return out.field(after, number)


cdef int _write_row(Out out, Seat* seat, int row, bytes hand) except -1:
    cdef int place
    cdef int first = FIRST_CARD[row]
    out.encoded(<bytes>_ROW_OPENINGS[row])
    for place in range(first, first + _SIZES[row]):
        if place > first:
            out.text(b" ")
        out.raw(CARD_TEXT + 2 * seat.codes[place], 2)
    out.text(b'","hand":')
    out.encoded(hand)
    out.field(b',"royalty":', seat.row_royalties[row])
    out.text(b"}")
    return 0


cdef int write_player(Out out, Seat* seat, bytes name, list hands) except -1:
    cdef int row
    out.text(b'{"name":')
    out.encoded(name)
    out.text(b',"foul":')
    out.flag(seat.fouled)
    out.text(b',"foul_reason":')
    if seat.fouled:
        out.encoded(_foul_reason_json(seat))
    else:
        out.text(b"null")
    out.text(b',"rows":{')
    for row in range(ROW_COUNT):
        if row:
            out.text(b",")
        _write_row(out, seat, row, hands[row])
    out.field(b'},"royalties":', seat.royalties)
    out.field(b',"points":', seat.points)
    out.text(b',"fantasyland":{"next":')
    out.flag(seat.fantasyland > 0)
    out.field(b',"cards":', seat.fantasyland)
    out.field(b'},"stack_before":', seat.start)
    out.field(b',"stack_after":', seat.stack)
    out.text(b"}")
    return 0


cdef int write_matchup(Out out, Seat* seats, Matchup* matchup, list names_json) except -1:
    cdef bint first_fouled = seats[matchup.first].fouled, second_fouled = seats[matchup.second].fouled
    out.text(b'{"players":[')
    out.encoded(<bytes>names_json[matchup.first])
    out.text(b",")
    out.encoded(<bytes>names_json[matchup.second])
    out.field(b'],"rows":[', matchup.rows[0])
    out.field(b",", matchup.rows[1])
    out.field(b",", matchup.rows[2])
    out.field(b'],"scoop":', matchup.scoop)
    out.field(b',"royalties":', matchup.royalties)
    out.field(b',"foul_penalty":', matchup.penalty)
    out.text(b',"foul":')
    if first_fouled or second_fouled:
        out.text(b"[")
        if first_fouled:
            out.encoded(<bytes>names_json[matchup.first])
        if first_fouled and second_fouled:
            out.text(b",")
        if second_fouled:
            out.encoded(<bytes>names_json[matchup.second])
        out.text(b"]")
    else:
        out.text(b"null")
    out.field(b',"points":', matchup.points)
    out.field(b',"unit":', matchup.unit)
    out.text(b"}")
    return 0


cdef int write_transfer(Out out, Seat* seats, Transfer* transfer, list names_json) except -1:
    out.text(b'{"from":')
    out.encoded(<bytes>names_json[transfer.debtor])
    out.text(b',"to":')
    out.encoded(<bytes>names_json[transfer.creditor])
    out.field(b',"owed":', transfer.owed)
    out.field(b',"paid":', transfer.paid)
    out.text(b',"reason":"')
    _write_reason(out, seats, transfer, names_json)
    out.text(b'"}')
    return 0
