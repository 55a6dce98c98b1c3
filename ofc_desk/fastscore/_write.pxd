from ofc_desk.fastscore._deal cimport Matchup, Seat, Transfer


cdef class Out:
    cdef char* data
    cdef Py_ssize_t size
    cdef Py_ssize_t capacity

    cdef int raw(self, const char* text, Py_ssize_t length) except -1
    cdef int text(self, const char* text) except -1
    cdef int encoded(self, bytes value) except -1
    cdef int inner(self, bytes value) except -1
    cdef int number(self, long long value) except -1
    cdef int field(self, const char* key, long long value) except -1
    cdef int flag(self, bint value) except -1
    cdef bytes take(self)


cdef int write_player(Out out, Seat* seat, bytes name, list hands) except -1
cdef int write_matchup(Out out, Seat* seats, Matchup* matchup, list names_json) except -1
cdef int write_transfer(Out out, Seat* seats, Transfer* transfer, list names_json) except -1
