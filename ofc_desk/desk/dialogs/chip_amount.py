"""A number of chips typed into a line: up to the core's limit (`core.settlement.MAX_CHIPS`, a
million million), which no spin box holds (Qt's stop at 2,147,483,647).

The field shows an amount grouped as the language groups every amount on screen ("12,500", "12.500"
in Vietnamese). Thousands may be typed grouped with commas, spaces or underscores as a cashier writes
them, or with the language's own separator; letters are not taken at all. What is out of range is
said on the dialog's refusal line, naming the field.

>>> read_chips("1,000,000,000,000", "Buy-in", minimum=0)
1000000000000
>>> read_chips("1,000,000,000,001", "Buy-in", minimum=0)
'Buy-in: at most 1,000,000,000,000 chips'
>>> read_chips("-5", "Chips (+/−)", minimum=-MAX_CHIPS)
-5
>>> read_chips("", "Buy-in", minimum=0)
'Buy-in: type a number of chips'
"""

from __future__ import annotations

import re

from PySide6.QtCore import QRegularExpression
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import QLineEdit, QWidget

from ofc_desk.core.settlement import MAX_CHIPS
from ofc_desk.i18n import _, ngettext
from ofc_desk.i18n.formatting import group_separator, number


def _grouping() -> str:
    """A character class of what may group a typed amount's thousands in the active language."""
    return f"[, _{re.escape(group_separator())}]"


def read_chips(text: str, caption: str, *, minimum: int, maximum: int = MAX_CHIPS) -> int | str:
    """The whole number of chips in `text`, or the sentence that says why not."""
    digits = re.sub(_grouping(), "", text.strip())
    if not re.fullmatch(r"-?[0-9]+", digits):
        return _("{field}: type a number of chips").format(field=caption)
    chips = int(digits)
    if chips < minimum:
        return ngettext("{field}: at least {count} chip", "{field}: at least {count} chips", minimum).format(
            field=caption, count=number(minimum)
        )
    if chips > maximum:
        return ngettext("{field}: at most {count} chip", "{field}: at most {count} chips", maximum).format(
            field=caption, count=number(maximum)
        )
    return chips


class ChipAmountEdit(QLineEdit):
    def __init__(
        self,
        caption: str,
        value: int = 0,
        *,
        minimum: int = 0,
        maximum: int = MAX_CHIPS,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.caption = caption
        self.minimum = minimum
        self.maximum = maximum
        self.setAccessibleName(caption)
        typed = QRegularExpression(f"-?[0-9]({_grouping()}|[0-9])*")
        self.setValidator(QRegularExpressionValidator(typed, self))
        self.setValue(value)

    def setValue(self, chips: int) -> None:
        self.setText(number(chips))

    def problem(self) -> str | None:
        """Why the typed amount cannot be used, or None."""
        chips = read_chips(self.text(), self.caption, minimum=self.minimum, maximum=self.maximum)
        return chips if isinstance(chips, str) else None

    def value(self) -> int:
        """The amount; only once `problem()` is None (AttemptDialog checks before its attempt)."""
        chips = read_chips(self.text(), self.caption, minimum=self.minimum, maximum=self.maximum)
        if isinstance(chips, str):
            raise ValueError(chips)
        return chips
