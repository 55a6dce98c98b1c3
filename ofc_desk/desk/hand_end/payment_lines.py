"""What the settlement panel says of a Chinese hand paid by `pool` or `single-winner` (each row's
winner, or the deal's single winner, and what the preset says they collect) and of a jackpot award
(its shares and the room's pool before and after), for every game.

The winners and the award are the service's scored result and its `settlement_preview`; the units are the
preset's numbers as the service gives them (`payment_rules`). Nothing here decides who wins.
"""

from __future__ import annotations

from html import escape

from ofc_desk.core.chinese.payment import Payment, PaymentRules
from ofc_desk.core.chinese.schemes import PaymentOutcome
from ofc_desk.core.results import JackpotView
from ofc_desk.core.rows import ROWS
from ofc_desk.i18n import _, ngettext
from ofc_desk.i18n.formatting import number


def payment_html(outcome: PaymentOutcome | None, rules: PaymentRules | None) -> str:
    """The pool's row winners or the single winner; nothing for a hand paid pair by pair."""
    if outcome is None:
        return ""
    if outcome.payment is Payment.POOL:
        return _pool_html(outcome, rules)
    heading = escape(_("Single winner"))
    if outcome.winner is None:
        line = escape(_("nobody beat everyone on two rows: no chips move"))
    else:
        stake = rules.stake if rules is not None else None
        line = escape(_("{player} beat everyone on two rows").format(player=outcome.winner))
        if stake is not None:
            line += " — " + escape(_collects(stake))
    return f"<p><b>{heading}</b>: <b>{line}</b></p>"


def _pool_html(outcome: PaymentOutcome, rules: PaymentRules | None) -> str:
    """One line of winners, one of what they collect: the hands and pairs below keep their room."""
    heading = escape(_("The pool's row winners"))
    winners = []
    for row, winner in zip(ROWS, outcome.row_winners, strict=True):
        title = escape(str(row.label))
        said = escape(_("nobody: the strongest hands tie")) if winner is None else f"<b>{escape(winner)}</b>"
        winners.append(f"{title}: {said}")
    terms = "" if rules is None else f"<br><small>{escape(rules.pool_terms())}</small>"
    return f"<p><b>{heading}</b>: {' · '.join(winners)}{terms}</p>"


def _collects(units: int) -> str:
    return ngettext(
        "collects {units} unit from each other player",
        "collects {units} units from each other player",
        units,
    ).format(units=units)


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
