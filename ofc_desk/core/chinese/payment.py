"""How a Chinese poker deal is paid, as preset data (docs/rules.md §11): the preset's `payment`.

- `pairs` (the default): every pair's result of §10, specials and surrender included;
- `pool`: the best front, middle and back each collect `pool_row` units from every other player,
  and a player who wins all three rows `pool_scoop` more;
- `single-winner`: the one player who wins two rows against everyone collects `stake` units from
  each of the others.

A `pool` or `single-winner` preset plays no surrender, no declared special and no bank; the preset
that says otherwise is refused. The schemes themselves are in `schemes`.

>>> rules = PaymentRules(Payment.POOL, pool_row=1, pool_scoop=3)
>>> rules.payment.plays_declarations, rules.numbers()
(False, {'pool_row': 1, 'pool_scoop': 3})
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from ofc_desk.core.presets import PresetError
from ofc_desk.i18n import LazyText, _, lazy_gettext, ngettext

NO_SURRENDER: Final[LazyText] = lazy_gettext("this table's preset plays no surrender")
NO_DECLARATIONS: Final[LazyText] = lazy_gettext("this table's preset plays no declared special hands")
_DEFAULT_NUMBERS: Final = {"pool_row": 1, "pool_scoop": 0, "stake": 1}


class Payment(StrEnum):
    PAIRS = "pairs"
    POOL = "pool"
    SINGLE_WINNER = "single-winner"

    @property
    def plays_declarations(self) -> bool:
        """Only the pairs of §10 pay special hands (and take surrenders and a bank)."""
        return self is Payment.PAIRS

    @property
    def own_numbers(self) -> tuple[str, ...]:
        """The preset numbers this payment reads."""
        return _OWN_NUMBERS[self]


_OWN_NUMBERS: Final = {
    Payment.PAIRS: (),
    Payment.POOL: ("pool_row", "pool_scoop"),
    Payment.SINGLE_WINNER: ("stake",),
}


@dataclass(frozen=True)
class PaymentRules:
    payment: Payment
    pool_row: int = _DEFAULT_NUMBERS["pool_row"]
    pool_scoop: int = _DEFAULT_NUMBERS["pool_scoop"]
    stake: int = _DEFAULT_NUMBERS["stake"]

    def numbers(self) -> dict[str, int]:
        """The numbers this payment plays by, by their preset names."""
        return {key: getattr(self, key) for key in self.payment.own_numbers}

    def pool_terms(self) -> str:
        """What a pool's row winners collect, in the reader's language.

        >>> PaymentRules(Payment.POOL, pool_row=1, pool_scoop=3).pool_terms()
        "each row's winner collects 1 unit from each other player; all three rows, 3 more"
        """
        collects = ngettext(
            "each row's winner collects {units} unit from each other player",
            "each row's winner collects {units} units from each other player",
            self.pool_row,
        ).format(units=self.pool_row)
        if not self.pool_scoop:
            return collects
        return _("{pays}; all three rows, {units} more").format(pays=collects, units=self.pool_scoop)


def fill_payment_defaults(merged: dict[str, Any]) -> None:
    """Give the payment in use the numbers the preset leaves out (pool 1 a row and no scoop bonus,
    a stake of 1), and a `pool` or `single-winner` preset its null surrender; an unknown payment is
    left for the reading to refuse."""
    try:
        payment = Payment(str(merged.get("payment", Payment.PAIRS.value)))
    except ValueError:
        return
    for key in payment.own_numbers:
        merged.setdefault(key, _DEFAULT_NUMBERS[key])
    if not payment.plays_declarations:
        merged.setdefault("surrender", None)


def default_number(key: str) -> int:
    return _DEFAULT_NUMBERS[key]


def payment_numbers() -> tuple[str, ...]:
    """Every payment's numbers, by their preset names."""
    return tuple(_DEFAULT_NUMBERS)


def refuse_contradictions(payment: Payment, surrender: int | None, specials: int, bank: bool) -> None:
    """A `pool` or `single-winner` preset with a surrender number, special hands or a bank says two
    things at once: refused, with the reason."""
    if payment.plays_declarations:
        return
    if surrender is not None:
        said = _("preset.surrender must be null under payment {payment}: {reason}")
        raise PresetError(said.format(payment=payment.value, reason=NO_SURRENDER))
    if specials:
        said = _("preset.specials must be empty under payment {payment}: {reason}")
        raise PresetError(said.format(payment=payment.value, reason=NO_DECLARATIONS))
    if bank:
        said = _("preset.bank must be false under payment {payment}: there is no bank")
        raise PresetError(said.format(payment=payment.value))
