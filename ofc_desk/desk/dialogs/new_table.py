"""Opening a new table: name, rules, stakes, seats in clockwise order, and who has the button.

The rules and stakes fields also serve the supervisor's change of rules between hands.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QWidget

from ofc_desk.core.settlement import SettlementPolicy
from ofc_desk.core.variants import Variant
from ofc_desk.desk.dialogs.attempt import AttemptDialog
from ofc_desk.desk.dialogs.chip_amount import ChipAmountEdit
from ofc_desk.service.setup import SeatSetup, TableRules, TableSetup

MAX_SEATS = max(variant.structure.max_players for variant in Variant)
TABLE_OWN_PRESET = "(this table's own preset)"


class RulesFields:
    """The rules and stakes a dealer picks, starting from `current`; what the fields do not show
    (house options, pair units, scoring, settle-from, face-down cards) is kept as it is."""

    def __init__(self, dialog: AttemptDialog, presets: list[str], current: TableRules) -> None:
        self.current = current
        self.variant = dialog.add_choice("Variant", [variant.value for variant in Variant])
        self.variant.setCurrentText(current.variant)
        # A preset pinned from a file is offered by that file's name: keeping it keeps the numbers
        # pinned (the service decides), choosing another pins that file as it is now.
        name = current.preset if isinstance(current.preset, str) else current.preset_name
        self.preset = dialog.add_choice("Rules preset", presets if name else [TABLE_OWN_PRESET, *presets])
        self.preset.setCurrentText(name or TABLE_OWN_PRESET)
        self.progressive = QCheckBox("Progressive Fantasyland", dialog)
        self.progressive.setAccessibleName("Progressive Fantasyland")
        self.progressive.setChecked(current.progressive)
        dialog.form.addRow("", self.progressive)
        self.unit = dialog.add_amount("Chips per point", current.unit, minimum=1)
        self.settlement = dialog.add_choice("Settlement", [policy.value for policy in SettlementPolicy])
        self.settlement.setCurrentText(current.settlement)

    def rules(self) -> TableRules:
        preset = self.preset.currentText()
        return replace(
            self.current,
            preset=self.current.preset if preset == TABLE_OWN_PRESET else preset,
            preset_name=self.current.preset_name if preset == TABLE_OWN_PRESET else None,
            variant=self.variant.currentText(),
            progressive=self.progressive.isChecked(),
            unit=self.unit.value(),
            settlement=self.settlement.currentText(),
        )


class NewTableDialog(AttemptDialog):
    def __init__(self, presets: list[str], parent: QWidget | None = None) -> None:
        super().__init__(
            "New table",
            "Seats in clockwise order; leave a name empty for an empty seat.",
            parent,
        )
        self.table_name = self.add_line("Table name", text="Table 1")
        self.rules = RulesFields(self, presets, TableRules())
        self.seats: list[tuple[QLineEdit, ChipAmountEdit]] = []
        for number in range(1, MAX_SEATS + 1):
            name = self.add_line(f"Seat {number} player")
            buy_in = self.add_amount(f"Seat {number} buy-in", 100)
            self.seats.append((name, buy_in))
        self.button: QComboBox = self.add_choice("Button (dealer)", [])
        self.button.setEditable(True)
        for name, _ in self.seats:
            name.textChanged.connect(self._refresh_button_choices)

    def _refresh_button_choices(self) -> None:
        current = self.button.currentText()
        names = [name.text().strip() for name, _ in self.seats if name.text().strip()]
        self.button.clear()
        self.button.addItems(names)
        if current in names:
            self.button.setCurrentText(current)
        elif names:
            self.button.setCurrentIndex(len(names) - 1)

    def setup(self) -> TableSetup:
        seats = tuple(
            SeatSetup(name.text().strip(), buy_in.value())
            for name, buy_in in self.seats
            if name.text().strip()
        )
        return TableSetup(
            self.table_name.text().strip(), seats, self.button.currentText().strip(), self.rules.rules()
        )
