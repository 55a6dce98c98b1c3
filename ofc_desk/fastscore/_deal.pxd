# What the compiled fast path of `ofc-desk score` knows of one deal while it scores it: plain C
# records shared by the reader and scorer (_scorer.pyx) and the writer (_write.pyx).

cdef enum:
    MOST_SEATS = 4
    MOST_PAIRS = 6
    ROW_COUNT = 3
    HAND_CARDS = 13


cdef struct Seat:
    long long start
    long long stack
    long long unused          # chip exposure: chips not yet used to cover a win or pay a loss
    long long royalties
    long long points
    long long fantasyland
    long values[ROW_COUNT]
    int categories[ROW_COUNT]
    int front_top                 # the order of the front's deciding rank
    long long row_royalties[ROW_COUNT]
    int codes[HAND_CARDS]
    bint fouled
    bint complete             # win cap: reached it, moves no more chips this deal
    bint in_fantasyland


cdef struct Matchup:
    int first
    int second
    int rows[ROW_COUNT]
    long long scoop
    long long royalties
    long long penalty
    long long points
    long long unit


cdef enum Reason:
    PAID_IN_FULL
    NOTHING_MOVES
    CAPPED
    NOTHING_PAID
    HAD_ONLY
    UNUSED_DEBTOR
    UNUSED_CREDITOR


cdef struct Transfer:
    int debtor
    int creditor
    long long owed
    long long paid
    Reason reason
    int subject               # the player the reason names
    long long amount          # the number of chips it names
    bint completes            # win cap: the creditor reached it with this payment
