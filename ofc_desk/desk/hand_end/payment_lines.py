"""What the settlement panel says of a jackpot award (its shares and the room's pool before and
after), for every game; a Chinese hand paid by `pool` or `single-winner` is said by its game's part
(`desk/games/chinese_settlement.payment_html`).

The award is the service's scored result and its `settlement_preview`. Nothing here decides who wins.
"""

from __future__ import annotations

from html import escape

from ofc_desk.core.results import JackpotView
from ofc_desk.i18n import _
from ofc_desk.i18n.formatting import number


def pool_words(jackpot: JackpotView) -> str:
    """The room's pool through the hand: before it, this hand's drop, the award and after it, so
    the figures add up on screen ("1,000 + drop 1 = 1,001; award 1,000 → 1")."""
    award = jackpot.award
    if award is None:
        return _("Room pool {before} + this hand's drop {drop} → {after}").format(
            before=number(jackpot.pool_before), drop=number(jackpot.drop), after=number(jackpot.pool_after)
        )
    return _("Room pool {before} + this hand's drop {drop} = {paid_from}; award {award} → {after}").format(
        before=number(jackpot.pool_before),
        drop=number(jackpot.drop),
        paid_from=number(jackpot.pool_paid_from),
        award=number(award.total),
        after=number(jackpot.pool_after),
    )


def jackpot_html(jackpot: JackpotView | None, *, before_settling: bool) -> str:
    """The award and its shares, each player's chips, and the room's pool before and after; before
    the hand is settled, as it would be paid from the pool as it stands now."""
    if jackpot is None:
        return ""
    heading = escape(_("Room jackpot"))
    pool = escape(pool_words(jackpot))
    award = jackpot.award
    if award is None:
        said = escape(_("no hand qualifies for the award this hand"))
        return f"<p><b>{heading}</b>: {said} · {pool}</p>"
    qualified = escape(
        _("{loser}'s hand lost all three rows to {winner}'s: the award pays").format(
            loser=award.loser, winner=award.winner
        )
    )
    shares = []
    for name, chips in award.chips.items():
        share = (
            _("loser's share") if name == award.loser
            else _("winner's share") if name == award.winner
            else _("the table's share")
        )  # fmt: skip
        shares.append(f"<b>{escape(name)} {number(chips)}</b> ({escape(share)})")
    when = ""
    if before_settling:
        when = " " + escape(_("(as the pool stands now: Confirm reads it again)"))
    return f"<p><b>{heading}</b>: {qualified} {' · '.join(shares)} · {pool}{when}</p>"
