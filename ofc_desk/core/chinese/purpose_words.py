"""What a payment is for, said again in the reader's language from the words the result stores.

`deal._why` and each scheme's `rows_words` write a payment's purpose in English into the result
(`for`: "Cy's six pairs (3 units)", "rows: Ann won 2, Bob won 1; aces: Ann 2, Bob 0"), and the
result is the `ofc-desk score` contract: it stays stored as it is. The payer and the payee are
known, so each of those fixed sentences is matched with their names in place and said again from
its parts; a sentence that matches none of them is not guessed at (None). Kept beside the code
that writes the sentences, so that a change to one shows in the other. The faces ask
`reports.spoken.why_words`, which leaves English as stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.core.rows import Row
from ofc_desk.i18n import _, ngettext, pgettext

_SPECIALS = {kind.words: kind for kind in SpecialKind}
_ROW = "(?:front|middle|back)"
_BONUSES = ", with row bonuses"


def purpose_words(stored: str, payer: str, payee: str) -> str | None:
    """A payment's purpose in the active language, `payee` being the winner it pays; None when
    `stored` is none of the sentences the deal writes.

    >>> from ofc_desk.i18n import Language, in_language
    >>> with in_language(Language.RU):
    ...     purpose_words("Cy's six pairs (3 units)", "Ann", "Cy")
    'Cy: шесть пар (3 единицы)'
    """
    return _said_again(stored, re.escape(payee), re.escape(payer)) if stored else None


def _said_again(stored: str, winner: str, loser: str) -> str | None:
    for pattern, say in _sentences(winner, loser):
        if (match := re.fullmatch(pattern, stored)) is not None:
            said = say(match)
            if said is not None:
                return said
    return None


Say = Callable[[re.Match[str]], str | None]


def _sentences(winner: str, loser: str) -> tuple[tuple[str, Say], ...]:
    """The core's sentences with the two names in place, and how each is said again."""
    aces = rf"aces: (?P<winner>{winner}) (?P<mine>\d+), (?P<loser>{loser}) (?P<theirs>\d+)"
    return (
        (
            rf"(?P<winner>{winner})'s (?P<mine>[a-z ]+) against (?P<loser>{loser})'s (?P<theirs>[a-z ]+)",
            _against,
        ),
        (rf"(?P<winner>{winner})'s (?P<mine>[a-z ]+) \((?P<units>\d+) units\)", _special),
        (rf"(?P<loser>{loser}) surrendered", lambda m: _("{player} surrendered").format(player=m["loser"])),
        (aces, _aces),
        (rf"(?P<rows>.+); {aces}", _rows_and_aces),
        (r"(?P<rows>.+)", lambda m: _rows(m["rows"], winner, loser)),
    )


def _against(match: re.Match[str]) -> str | None:
    mine, theirs = _SPECIALS.get(match["mine"]), _SPECIALS.get(match["theirs"])
    if mine is None or theirs is None:
        return None
    return _("{winner}'s {special} against {loser}'s {other}").format(
        winner=match["winner"], special=mine.label, loser=match["loser"], other=theirs.label
    )


def _special(match: re.Match[str]) -> str | None:
    special, units = _SPECIALS.get(match["mine"]), int(match["units"])
    if special is None:
        return None
    said = ngettext("{winner}'s {special} ({count} unit)", "{winner}'s {special} ({count} units)", units)
    return said.format(winner=match["winner"], special=special.label, count=units)


def _aces(match: re.Match[str]) -> str:
    return _("aces: {winner} {count}, {loser} {other}").format(
        winner=match["winner"], count=match["mine"], loser=match["loser"], other=match["theirs"]
    )


def _rows_and_aces(match: re.Match[str]) -> str | None:
    winner, loser = re.escape(match["winner"]), re.escape(match["loser"])
    rows = _rows(match["rows"], winner, loser)
    if rows is None:
        return None
    return pgettext("joining two causes", "{first}; {second}").format(first=rows, second=_aces(match))


def _rows(stored: str, winner: str, loser: str) -> str | None:
    """A scheme's rows part (`rows_words`), with row bonuses or without, then the house options
    that paid (§13): each bonus paid by rank, the multiplier by scoop count."""
    if (match := re.fullmatch(_MULTIPLIED, stored)) is not None:
        return _multiplied(match, _rows(match["rows"], winner, loser))
    if (match := re.fullmatch(rf"(?P<rows>.+), (?P<player>{winner}|{loser}){_BY_RANK}", stored)) is not None:
        said = _rows(match["rows"], winner, loser)
        if said is None:
            return None
        return _("{rows}, {player}'s {row} paid {units} by rank").format(
            rows=said, player=match["player"], row=Row(match["row"]).label, units=match["units"]
        )
    if stored.endswith(_BONUSES):
        said = _rows(stored.removesuffix(_BONUSES), winner, loser)
        return None if said is None else _("{rows}, with row bonuses").format(rows=said)
    won = rf"(?P<winner>{winner}) won (?P<won>\d+), (?P<loser>{loser}) won (?P<lost>\d+)"
    if (match := re.fullmatch(rf"rows: {won}", stored)) is not None:
        return _("rows: {winner} won {won}, {loser} won {lost}").format(**match.groupdict())
    scooped = rf"(?P<winner>{winner}) scooped (?P<loser>{loser})"
    if (match := re.fullmatch(rf"{scooped}, whose hand is misset", stored)) is not None:
        return _("{winner} scooped {loser}, whose hand is misset").format(**match.groupdict())
    if (match := re.fullmatch(scooped, stored)) is not None:
        return _("{winner} scooped {loser}").format(**match.groupdict())
    deal = rf"(?P<winner>{winner}) won the deal: two rows or more against every other player"
    if (match := re.fullmatch(deal, stored)) is not None:
        said = _("{winner} won the deal: two rows or more against every other player")
        return said.format(**match.groupdict())
    if (match := re.fullmatch(rf"the pool: (?P<winner>{winner}) won all three rows", stored)) is not None:
        return _("the pool: {winner} won all three rows").format(**match.groupdict())
    return _pool_rows(stored, winner, loser)


_MULTIPLIED = r"(?P<rows>.+), ×(?P<times>\d+) for (?P<count>\d+) scoops?"
_BY_RANK = rf"'s (?P<row>{_ROW}) paid (?P<units>\d+) by rank"


def _multiplied(match: re.Match[str], rows: str | None) -> str | None:
    if rows is None:
        return None
    count = int(match["count"])
    said = ngettext("{rows}, ×{times} for {count} scoop", "{rows}, ×{times} for {count} scoops", count)
    return said.format(rows=rows, times=match["times"], count=count)


def _pool_rows(stored: str, winner: str, loser: str) -> str | None:
    """ "the pool: Bob won the front and the middle, Ann won the back" as `PoolScheme.rows_words`
    says it: the winner's rows, then the loser's, each named player having won one row or more."""
    rows = rf"the {_ROW}(?: and the {_ROW})*"
    mine, theirs = (
        rf"(?P<winner>{winner}) won (?P<mine>{rows})",
        rf"(?P<loser>{loser}) won (?P<theirs>{rows})",
    )
    for pattern in (rf"{mine}, {theirs}", mine, theirs):
        if (match := re.fullmatch(rf"the pool: {pattern}", stored)) is not None:
            found = match.groupdict()
            won = [
                _("{player} won the {rows}").format(player=found[side], rows=_row_list(found[rows_of]))
                for side, rows_of in (("winner", "mine"), ("loser", "theirs"))
                if rows_of in found
            ]
            return _("the pool: {winners}").format(winners=", ".join(won))
    return None


def _row_list(stored: str) -> str:
    """ "the front and the middle" in the reader's words."""
    names = [Row(name).label for name in re.findall(_ROW, stored)]
    return pgettext("between rows", " and the ").join(str(name) for name in names)
