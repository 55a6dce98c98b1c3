# cython: language_level=3, cdivision=True
"""The compiled reader of `ofc-desk score` batches: the rules core's scoring and settlement of one
finished deal, written again with C numbers and C text, so that a batch of thousands of deals costs
little more than evaluating their rows.

The core in `ofc_desk.core` stays the one statement of the rules. This module takes from it
everything that is data or words (card spellings, eval7's cards, hand names and classes, royalties,
foul reasons, presets and their Fantasyland numbers) and repeats only the arithmetic of §4, §5, §6
and §8 and the words of §8's reasons. `tests/core/test_fastscore.py` holds it to the core's output,
byte for byte.

It reads a deal only when every field is one it knows and every value is well-formed; anything
else (a misspelt field, an odd card spelling, a card dealt twice, a chip count near the 64-bit
limit, the 2-7 variant whose middle is a low hand) returns None, and the caller lets the core read
the deal, which scores it or names the problem.
"""

from cpython.unicode cimport PyUnicode_1BYTE_DATA, PyUnicode_GET_LENGTH
from libc.stdint cimport uint64_t

from ofc_desk.fastscore._deal cimport (
    CAPPED,
    HAD_ONLY,
    MOST_PAIRS,
    MOST_SEATS,
    NOTHING_MOVES,
    NOTHING_PAID,
    PAID_IN_FULL,
    ROW_COUNT,
    UNUSED_CREDITOR,
    UNUSED_DEBTOR,
    Matchup,
    Seat,
    Transfer,
)
from ofc_desk.fastscore._write cimport Out, write_matchup, write_player, write_transfer


cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object text)

import orjson
from eval7 import evaluate

from ofc_desk.core.cards import CARDS_AS_TYPED, Rank
from ofc_desk.core.deal_input import (
    DEAL_FIELDS,
    PLAYER_FIELDS,
    DealInputError,
    is_unicode,
    read_choice,
    read_count,
    read_flag,
    read_name,
    read_name_list,
    read_pair_units,
    read_preset,
    read_streaks,
)
from ofc_desk.core.hands import EVAL7_CARDS, HandClass, hand_facts
from ofc_desk.core.rows import ROW_SIZE
from ofc_desk.core.scoring import ROWS, high_hand_royalty
from ofc_desk.core.settlement import MAX_CHIPS, SettleFrom, SettlementPolicy
from ofc_desk.core.variants import Variant

# Stacks up to this (and units up to MAX_CHIPS) keep every sum and product of a deal inside 64 bits;
# larger ones go to the core, which counts in Python integers.
cdef long long LARGEST_STACK = 10 ** 15

# Cards by any spelling the core reads as typed, by code (Card.code), and as text by code.
cdef dict _CODE_BY_TOKEN = {token: card.code for token, card in CARDS_AS_TYPED.items()}
cdef tuple _EVAL7 = tuple(EVAL7_CARDS)
cdef tuple _RANK_TEXT = tuple(rank.value for rank in sorted(Rank, key=lambda rank: rank.order))

# The same spellings for text that is all ASCII, read without making a string of each token: the code
# of a two-character token, and of "10" and a suit; -1 for none. Other tokens go to _CODE_BY_TOKEN.
cdef signed char TWO_CHARACTERS[128 * 128]
cdef signed char TEN_OF[128]
# What str.split() takes for whitespace among ASCII characters.
cdef bint ASCII_SPACE[128]
for _index in range(128 * 128):
    TWO_CHARACTERS[_index] = -1
for _index in range(128):
    TEN_OF[_index] = -1
    ASCII_SPACE[_index] = chr(_index).isspace()
for _token, _code in _CODE_BY_TOKEN.items():
    if _token.isascii() and len(_token) == 2:
        TWO_CHARACTERS[128 * ord(_token[0]) + ord(_token[1])] = _code
    elif _token.isascii() and len(_token) == 3 and _token.startswith("10"):
        TEN_OF[ord(_token[2])] = _code

cdef tuple _SIZES = tuple(ROW_SIZE[row] for row in ROWS)
cdef int FIRST_CARD[ROW_COUNT]
FIRST_CARD[:] = [sum(_SIZES[:row]) for row in range(ROW_COUNT)]
cdef tuple _ROW_KEYS = tuple(row.value for row in ROWS)
_TRIPS = int(HandClass.TRIPS)
_PAIR = int(HandClass.PAIR)


cdef class _RowFacts:
    """What the core says of one strength value under one preset: the hand's name (as JSON), its
    class, its deciding rank, and the royalty it would earn in each row before any foul."""

    cdef bytes hand_json
    cdef int category
    cdef int top_order
    cdef long long royalties[ROW_COUNT]

    def __init__(self, long value, preset):
        cdef int row
        category, top, name = hand_facts(value)
        self.hand_json = orjson.dumps(name)
        self.category = int(category)
        self.top_order = top.order
        for row in range(ROW_COUNT):
            self.royalties[row] = high_hand_royalty(ROWS[row], category, top, preset)


cdef class _Rules:
    """A preset's numbers, read once per preset."""

    cdef object preset
    cdef dict systems
    cdef tuple default_system
    cdef long long foul_penalty
    cdef bint winner_only
    cdef dict facts_by_value
    cdef int entry_order
    cdef dict variant_cards
    cdef dict progressive_cards
    cdef long long progressive_stay_cards
    cdef list stay
    cdef object max_consecutive

    def __init__(self, preset):
        self.preset = preset
        self.systems = {
            name: (system.row, system.scoop, system.majority)
            for name, system in preset.scoring_systems.items()
        }
        self.default_system = self.systems.get(preset.scoring)
        self.foul_penalty = preset.foul_penalty
        self.winner_only = preset.winner_only_royalties
        self.facts_by_value = {}
        fantasyland = preset.fantasyland
        self.entry_order = Rank(fantasyland.entry_front_pair).order
        self.variant_cards = dict(fantasyland.cards)
        self.progressive_cards = dict(fantasyland.progressive_cards)
        self.progressive_stay_cards = fantasyland.progressive_stay_cards
        self.stay = [
            (_ROW_KEYS.index(row), int(HandClass[least.upper()])) for row, least in fantasyland.stay.items()
        ]
        self.max_consecutive = fantasyland.max_consecutive

    cdef _RowFacts facts(self, long value):
        facts = self.facts_by_value.get(value)
        if facts is None:
            facts = self.facts_by_value[value] = _RowFacts(value, self.preset)
        return <_RowFacts>facts


cdef class BatchScorer:
    """Scores the deals of one batch; presets and names are read once per batch."""

    cdef dict rules_by_name
    cdef dict names_json
    cdef Out out

    def __init__(self):
        self.rules_by_name = {}
        self.names_json = {}
        self.out = Out()

    def score(self, deal):
        """The deal's result as the JSON the core would write (UTF-8), or None for the core to read it."""
        if type(deal) is not dict:
            return None
        for key in <dict>deal:
            if key not in DEAL_FIELDS:
                return None
        return self._score(<dict>deal)

    cdef _Rules _rules(self, dict deal):
        """The numbers of the deal's preset, or None when the core refuses it; a preset named
        without house options is read once per batch."""
        rules = deal.get("rules", "standard")
        house_options = deal.get("house_options")
        if type(rules) is not str or house_options is not None:
            return _read_rules(rules, house_options)
        if rules not in self.rules_by_name:
            self.rules_by_name[rules] = _read_rules(rules, None)
        return self.rules_by_name[rules]

    cdef object _name_json(self, object name):
        """The name as JSON, or None when it is no name the core takes."""
        encoded = self.names_json.get(name) if type(name) is str else None
        if encoded is None:
            if type(name) is not str or not (<str>name).strip() or not is_unicode(name):
                return None
            encoded = self.names_json[name] = orjson.dumps(name)
        return encoded

    cdef int _read_seats(self, _Rules rules, list players, Seat* seats, list names, list names_json,
                         list hands) except -2:
        """The players' names, stacks and cards read into `seats` and their rows evaluated: 0, or -1
        for anything the core should read."""
        cdef uint64_t dealt = 0
        cdef int seat, row, size
        cdef Seat* current
        cdef _RowFacts facts
        for seat in range(len(players)):
            entry = players[seat]
            if type(entry) is not dict:
                return -1
            for key in <dict>entry:
                if key not in PLAYER_FIELDS:
                    return -1
            name = (<dict>entry).get("name")
            encoded = self._name_json(name)
            stack = (<dict>entry).get("stack")
            if encoded is None or name in names or type(stack) is not int or not 0 <= stack <= LARGEST_STACK:
                return -1
            names.append(name)
            names_json.append(encoded)
            current = &seats[seat]
            current.start = current.stack = current.unused = stack
            current.points = 0
            current.complete = False
            for row in range(ROW_COUNT):
                codes = current.codes + FIRST_CARD[row]
                size = _SIZES[row]
                if _read_row((<dict>entry).get(_ROW_KEYS[row]), size, &dealt, codes) < 0:
                    return -1
                current.values[row] = evaluate([_EVAL7[codes[place]] for place in range(size)])
                facts = rules.facts(current.values[row])
                current.categories[row] = facts.category
                current.row_royalties[row] = facts.royalties[row]
                hands.append(facts.hand_json)
                if row == 0:
                    current.front_top = facts.top_order
        return 0

    cdef object _score(self, dict deal):
        cdef Seat seats[MOST_SEATS]
        cdef long long units[MOST_SEATS * MOST_SEATS]
        cdef Matchup matchups[MOST_PAIRS]
        cdef Transfer paid[MOST_PAIRS]
        cdef int order[MOST_SEATS]
        cdef int count, seat, dealer, first, i, j, pairs, transfers
        cdef Matchup* matchup
        cdef Transfer* transfer
        cdef bint winner_first

        rules = self._rules(deal)
        players = deal.get("players")
        try:
            variant = _choice(deal, "variant", Variant, Variant.REGULAR)
        except DealInputError:
            return None
        structure = variant.structure
        if rules is None or variant.lowball_middle or type(players) is not list:
            return None
        count = len(<list>players)
        if not structure.min_players <= count <= structure.max_players:
            return None
        names, names_json, hands = [], [], []
        if self._read_seats(rules, <list>players, seats, names, names_json, hands) < 0:
            return None
        # The deal's options are read by the core's own readers (a value they refuse is left to the
        # core, which names it); an option left out takes its default without a call.
        try:
            dealer = names.index(read_name(deal, "dealer", names))
            progressive = read_flag(deal, "progressive") if "progressive" in deal else False
            table_unit = read_count(deal, "unit", 1, least=1) if "unit" in deal else 1
            settlement = _choice(deal, "settlement", SettlementPolicy, SettlementPolicy.WIN_CAP)
            settle_from = _choice(deal, "settle_from", SettleFrom, SettleFrom.LEFT_OF_DEALER)
            pair_units = read_pair_units(deal["pair_units"], names) if "pair_units" in deal else {}
            playing = frozenset(
                read_name_list(deal["in_fantasyland"], "in_fantasyland", names) if "in_fantasyland" in deal else ()
            )
            streaks = read_streaks(deal["fantasyland_streaks"], playing) if "fantasyland_streaks" in deal else {}
        except DealInputError:
            return None
        scoring = deal.get("scoring")
        system = rules.default_system if scoring is None else (
            rules.systems.get(scoring) if type(scoring) is str else None
        )
        if system is None or table_unit > MAX_CHIPS or not _fill_units(pair_units, names, table_unit, units):
            return None

        for seat in range(count):
            seats[seat].in_fantasyland = names[seat] in playing
            _foul_and_royalties(&seats[seat])
            seats[seat].fantasyland = _fantasyland_cards(
                rules, variant.value, progressive, &seats[seat], streaks.get(names[seat], 1)
            )

        # Settlement order (§8): clockwise from the player left of the dealer, or from the dealer.
        first = dealer + 1 if settle_from is SettleFrom.LEFT_OF_DEALER else dealer
        for i in range(count):
            order[i] = (first + i) % count
        pairs = transfers = 0
        for i in range(count):
            for j in range(i + 1, count):
                matchup = &matchups[pairs]
                pairs += 1
                matchup.first, matchup.second = order[i], order[j]
                matchup.unit = units[MOST_SEATS * matchup.first + matchup.second]
                _score_pair(rules, system, &seats[matchup.first], &seats[matchup.second], matchup)
                seats[matchup.first].points += matchup.points
                seats[matchup.second].points -= matchup.points
                if not matchup.points:
                    continue
                transfer = &paid[transfers]
                transfers += 1
                winner_first = matchup.points > 0
                transfer.debtor = matchup.second if winner_first else matchup.first
                transfer.creditor = matchup.first if winner_first else matchup.second
                transfer.owed = (matchup.points if winner_first else -matchup.points) * matchup.unit
                if settlement is SettlementPolicy.WIN_CAP:
                    _pay_win_cap(seats, transfer)
                else:
                    _pay_exposure(seats, transfer)

        out = self.out
        out.text(b'{"players":[')
        for i in range(count):
            if i:
                out.text(b",")
            write_player(out, &seats[i], names_json[i], hands[ROW_COUNT * i : ROW_COUNT * i + ROW_COUNT])
        out.text(b'],"matchups":[')
        for i in range(pairs):
            if i:
                out.text(b",")
            write_matchup(out, seats, &matchups[i], names_json)
        out.text(b'],"transfers":[')
        for i in range(transfers):
            if i:
                out.text(b",")
            write_transfer(out, seats, &paid[i], names_json)
        out.text(b"]}")
        return out.take()


cdef object _choice(dict deal, str key, object enum, object default):
    """The core's `read_choice`, called only when the deal gives the option: the default otherwise."""
    return read_choice(deal, key, enum, default) if key in deal else default


cdef _Rules _read_rules(object rules, object house_options):
    try:
        return _Rules(read_preset(rules, house_options))
    except DealInputError:
        return None


cdef int _read_row(object value, int size, uint64_t* dealt, int* codes) except -2:
    """The row's card codes written to `codes`: 0, or -1 for anything unusual."""
    cdef int count, place
    cdef uint64_t bit
    if type(value) is not str:
        return -1
    count = _ascii_codes(value, size, codes) if PyUnicode_IS_ASCII(value) else _token_codes(value, size, codes)
    if count != size:
        return -1
    for place in range(size):
        bit = (<uint64_t>1) << codes[place]
        if dealt[0] & bit:
            return -1
        dealt[0] |= bit
    return 0


cdef int _ascii_codes(str text, int size, int* codes):
    """Codes of the whitespace-separated cards of an ASCII text (at most `size`+1 read), or -1."""
    cdef const unsigned char* data = PyUnicode_1BYTE_DATA(text)
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text), place = 0, start
    cdef int count = 0, code
    while count <= size:
        while place < length and ASCII_SPACE[data[place]]:
            place += 1
        if place == length:
            return count
        start = place
        while place < length and not ASCII_SPACE[data[place]]:
            place += 1
        if place - start == 2:
            code = TWO_CHARACTERS[128 * data[start] + data[start + 1]]
        elif place - start == 3 and data[start] == b"1" and data[start + 1] == b"0":
            code = TEN_OF[data[start + 2]]
        else:
            code = -1
        if code < 0:
            return -1
        if count < size:
            codes[count] = code
        count += 1
    return count


cdef int _token_codes(str text, int size, int* codes) except -2:
    """Codes of the cards of a text with other characters than ASCII (A♥), or -1."""
    cdef int place
    if "," in text:
        return -1
    tokens = text.split()
    if len(tokens) != size:
        return -1
    for place in range(size):
        found = _CODE_BY_TOKEN.get(tokens[place])
        if found is None:
            return -1
        codes[place] = found
    return size


cdef bint _fill_units(dict pair_units, list names, long long table_unit, long long* units):
    """Chips a point between each two seats: the pair's own unit, else the table's; False for a unit
    beyond MAX_CHIPS."""
    cdef int i, j
    for i in range(MOST_SEATS * MOST_SEATS):
        units[i] = table_unit
    for pair, unit in pair_units.items():
        if unit > MAX_CHIPS:
            return False
        first, second = pair
        i, j = names.index(first), names.index(second)
        units[MOST_SEATS * i + j] = units[MOST_SEATS * j + i] = unit
    return True


cdef void _foul_and_royalties(Seat* seat):
    """§3 and §5: a hand whose rows do not rise from front to back fouls, and its rows pay nothing."""
    cdef int row
    seat.fouled = seat.values[1] < seat.values[0] or seat.values[2] < seat.values[1]
    seat.royalties = 0
    for row in range(ROW_COUNT):
        if seat.fouled:
            seat.row_royalties[row] = 0
        seat.royalties += seat.row_royalties[row]


cdef long long _fantasyland_cards(
    _Rules rules, str variant, bint progressive, Seat* seat, object streak
) except -1:
    """Cards for next hand in Fantasyland (§6), 0 for none."""
    cdef int row
    if seat.fouled:
        return 0
    if seat.in_fantasyland:
        if rules.max_consecutive is not None and streak >= rules.max_consecutive:
            return 0
        for row, least in rules.stay:
            if seat.categories[row] >= least:
                return rules.progressive_stay_cards if progressive else rules.variant_cards[variant]
        return 0
    if seat.categories[0] == _TRIPS:
        key = "trips"
    elif seat.categories[0] == _PAIR and seat.front_top >= rules.entry_order:
        key = _RANK_TEXT[seat.front_top]
    else:
        return 0
    return rules.progressive_cards[key] if progressive else rules.variant_cards[variant]


cdef inline int _compare(long first, long second):
    return (first > second) - (first < second)


cdef int _score_pair(_Rules rules, tuple system, Seat* first, Seat* second, Matchup* matchup) except -1:
    """Points between two players from the first's side (§4, §5)."""
    cdef int row, won = 0, lost = 0, sign
    cdef long long row_points = system[0], scoop = system[1], majority = system[2]
    matchup.scoop = matchup.royalties = matchup.penalty = matchup.points = 0
    if first.fouled and second.fouled:
        matchup.rows[0] = matchup.rows[1] = matchup.rows[2] = 0
        return 0
    if first.fouled or second.fouled:
        # The clean player takes every row, the penalty and all of their own royalties.
        sign = -1 if first.fouled else 1
        matchup.rows[0] = matchup.rows[1] = matchup.rows[2] = sign
        matchup.royalties = sign * (second.royalties if first.fouled else first.royalties)
        matchup.penalty = sign * rules.foul_penalty
        matchup.points = matchup.royalties + matchup.penalty
        return 0
    for row in range(ROW_COUNT):
        matchup.rows[row] = _compare(first.values[row], second.values[row])
        won += matchup.rows[row] == 1
        lost += matchup.rows[row] == -1
    matchup.scoop = scoop * ((won == ROW_COUNT) - (lost == ROW_COUNT)) + majority * ((won > lost) - (lost > won))
    if rules.winner_only:
        for row in range(ROW_COUNT):
            matchup.royalties += (
                first.row_royalties[row] * (matchup.rows[row] > 0)
                - second.row_royalties[row] * (matchup.rows[row] < 0)
            )
    else:
        matchup.royalties = first.royalties - second.royalties
    matchup.points = (won - lost) * row_points + matchup.scoop + matchup.royalties
    return 0


cdef void _pay_win_cap(Seat* seats, Transfer* transfer):
    """§8 win cap: a loser pays at most what is in front of them, a winner at most doubles."""
    cdef Seat* debtor = &seats[transfer.debtor]
    cdef Seat* creditor = &seats[transfer.creditor]
    cdef long long room = 2 * creditor.start - creditor.stack
    transfer.paid = 0
    if creditor.complete or debtor.complete:
        transfer.reason = NOTHING_MOVES
        transfer.subject = transfer.creditor if creditor.complete else transfer.debtor
    else:
        transfer.paid = min(transfer.owed, debtor.stack, room)
        transfer.subject = transfer.creditor
        if transfer.paid == transfer.owed:
            transfer.reason = PAID_IN_FULL
        elif transfer.paid == room:
            transfer.reason = CAPPED
        elif debtor.stack == 0:
            transfer.reason = NOTHING_PAID
            transfer.subject = transfer.debtor
        else:
            transfer.reason = HAD_ONLY
            transfer.subject = transfer.debtor
            transfer.amount = debtor.stack
    debtor.stack -= transfer.paid
    creditor.stack += transfer.paid
    transfer.completes = not creditor.complete and creditor.stack == 2 * creditor.start
    if transfer.completes:
        creditor.complete = True


cdef void _pay_exposure(Seat* seats, Transfer* transfer):
    """§8 chip exposure: every chip a player started with covers one win or pays one loss, once."""
    cdef Seat* debtor = &seats[transfer.debtor]
    cdef Seat* creditor = &seats[transfer.creditor]
    transfer.paid = min(transfer.owed, debtor.unused, creditor.unused)
    transfer.amount = transfer.paid
    transfer.subject = transfer.creditor
    transfer.completes = False
    if transfer.paid == transfer.owed:
        transfer.reason = PAID_IN_FULL
    elif transfer.paid == debtor.unused:
        transfer.reason = UNUSED_DEBTOR
        transfer.subject = transfer.debtor
    else:
        transfer.reason = UNUSED_CREDITOR
        transfer.subject = transfer.creditor
    debtor.unused -= transfer.paid
    creditor.unused -= transfer.paid
    debtor.stack -= transfer.paid
    creditor.stack += transfer.paid


