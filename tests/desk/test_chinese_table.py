"""A Chinese poker table at the desk: the game chosen at a new table, a hand entered at showdown
with a surrender, a declared special and a misset, an undo, and the settlement panel."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from ofc_desk.core.chinese.deal import CHINESE, score_chinese_deal
from ofc_desk.core.chinese.deal_input import chinese_deal_from_json
from ofc_desk.core.presets import Game, preset_names
from ofc_desk.core.rows import Row
from ofc_desk.desk.actions import Command
from ofc_desk.desk.dialogs.attempt import AttemptDialog, choose_data
from ofc_desk.desk.dialogs.new_table import GAMES, NewTableDialog, RulesFields
from ofc_desk.desk.games import chosen_game
from ofc_desk.desk.games.chinese_showdown import ShowdownEntry
from ofc_desk.desk.games.ofc import PROGRESSIVE
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.table.games.chinese.commands import Show
from ofc_desk.service.table.games.chinese.view_parts import ChineseSeatView, ChineseTurn
from ofc_desk.service.terms.setup import SeatSetup, TableRules, TableSetup
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.database import Database
from tests.desk.conftest import Desk, street_keys
from tests.desk.test_start_and_resume import reopen_signed_in

BOB_SIX_PAIRS = ("2s 2h 3s", "3h 4s 4h 5s 5h", "6s 6h 7s 7h 8s")
ROW_KEYS = ("front", "middle", "back")
CY_MISSET = ("Ac Ad As", "2c 3c 4d 5c 7d", "Kc Kd Ks Kh 9c")  # the front beats the middle


def hand_keys(rows: tuple[str, str, str]) -> str:
    return " ".join(street_keys(cards, key) for cards, key in zip(rows, "fmb", strict=True))


def show_hands(desk: Desk, *hands: tuple[str, str, str]) -> None:
    """Each hand, in turn order, handed to the service the desk drives as the showdown its Enter
    sends (no special declared), then shown: for tests of what follows the showdown, not of
    typing it (a hand's 26 keys each stage a card and draw the table; the tests above type them)."""
    service = desk.session.controller.service
    assert service is not None
    for hand in hands:
        turn = service.snapshot().to_act
        assert turn is not None and turn.kind is ChineseTurn.SHOWDOWN, turn
        rows = [str(row) for row, cards in zip(Row, hand, strict=True) for _card in cards.split()]
        service.do(Show(turn.player, " ".join(hand).split(), rows))
    desk.session.controller.refresh()


def open_chinese_table(desk: Desk, preset: str = "chinese-typical") -> None:
    setup = TableSetup(
        name="Chinese 1",
        seats=(SeatSetup("Ann", 100), SeatSetup("Bob", 100), SeatSetup("Cy", 100)),
        button="Cy",
        rules=TableRules(preset=preset, variant=CHINESE),
    )
    assert desk.session.open_new_table(setup) is None
    desk.press_enter_on(desk.window.between_hands.deal_button)


def test_the_game_chosen_offers_its_presets_and_hawaiian_gardens_proposes_chip_exposure(qtbot: QtBot) -> None:
    dialog = AttemptDialog("New table", "")
    qtbot.addWidget(dialog)
    fields = RulesFields(dialog, TableRules())
    fields.variant.setCurrentIndex(fields.variant.findData(CHINESE))
    offered = [fields.preset.itemText(i) for i in range(fields.preset.count())]
    assert offered == preset_names(Game.CHINESE)
    assert not fields.options[PROGRESSIVE].isEnabled()
    fields.preset.textActivated.emit("hawaiian-gardens")
    fields.preset.setCurrentText("hawaiian-gardens")
    rules = fields.rules()
    assert (rules.variant, rules.preset, rules.settlement, rules.settle_from) == (
        CHINESE,
        "hawaiian-gardens",
        "chip-exposure",
        "dealer",
    )
    fields.variant.setCurrentIndex(0)
    assert "standard" in [fields.preset.itemText(i) for i in range(fields.preset.count())]
    change = RulesFields(dialog, rules, keep_game=True)  # a change of rules keeps the table's game
    assert [change.variant.itemData(i) for i in range(change.variant.count())] == [CHINESE]


def test_no_change_of_game_changes_the_preset_by_itself(qtbot: QtBot) -> None:
    """Every change of Game, from each game to each other: an OFC variant keeps the preset, another
    game offers its own default, and the preset the dealer picked (with the keys) is found again."""
    defaults = {variant: "chinese-basic" if variant == CHINESE else "standard" for _, variant in GAMES}
    for (_, first), (_, second) in itertools.product(GAMES, GAMES):
        dialog = NewTableDialog()
        qtbot.addWidget(dialog)
        fields = dialog.rules
        assert (fields.variant.currentData(), fields.preset.currentText()) == ("regular", "standard")
        fields.variant.setCurrentIndex(fields.variant.findData(first))
        fields.variant.setCurrentIndex(fields.variant.findData(second))
        assert fields.preset.currentText() == defaults[second], (first, second)
        assert fields.rules().preset == defaults[second]

    dialog = NewTableDialog()
    qtbot.addWidget(dialog)
    fields = dialog.rules
    picked = {"regular": "two-point", CHINESE: "hawaiian-gardens"}
    for _ in range(len(GAMES) - 1):  # Down on Game through every game: no preset changes with it
        qtbot.keyClick(fields.variant, Qt.Key.Key_Down)
        assert fields.preset.currentText() == defaults[fields.variant.currentData()]
    pick_with_keys(qtbot, fields.preset, picked[CHINESE])
    for _ in range(len(GAMES) - 1):
        qtbot.keyClick(fields.variant, Qt.Key.Key_Up)
    assert fields.preset.currentText() == "standard"
    pick_with_keys(qtbot, fields.preset, picked["regular"])
    qtbot.keyClick(fields.variant, Qt.Key.Key_End)
    assert fields.preset.currentText() == picked[CHINESE]
    qtbot.keyClick(fields.variant, Qt.Key.Key_Home)
    assert (fields.preset.currentText(), fields.rules().preset) == (picked["regular"],) * 2


def pick_with_keys(qtbot: QtBot, box: QComboBox, text: str) -> None:
    """Down on a closed box until it shows `text`, as a dealer would."""
    qtbot.keyClick(box, Qt.Key.Key_Home)
    for _ in range(box.count()):
        if box.currentText() == text:
            return
        qtbot.keyClick(box, Qt.Key.Key_Down)
    assert box.currentText() == text


def test_the_surrender_button_surrenders_the_hand_being_typed_once_no_card_is_staged(desk: Desk) -> None:
    """The button asks the showdown's entry the Chinese controls follow, as `s` then Enter would."""
    open_chinese_table(desk)
    button = desk.chinese_controls.surrender_button
    assert button.isVisible()
    desk.type("as f ")
    assert desk.session.controller.staged  # a card staged for Ann
    desk.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert "Ann's cards are staged" in desk.refusal()
    assert ChineseSeatView.of(desk.snapshot.seat("Ann")).showdown == ""
    desk.qtbot.keyClick(desk.window.entry.line, Qt.Key.Key_Escape)
    desk.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert ChineseSeatView.of(desk.snapshot.seat("Ann")).showdown == "surrendered"
    assert "Ann surrendered" in desk.window.entry.notice.text()
    assert desk.snapshot.to_act is not None and desk.snapshot.to_act.player == "Bob"


def test_a_chinese_hand_with_a_surrender_a_special_and_a_misset_settles_as_the_core_scores_it(
    desk: Desk,
) -> None:
    open_chinese_table(desk)
    assert desk.snapshot.to_act is not None and desk.snapshot.to_act.player == "Ann"
    assert "13 cards with their rows" in desk.window.entry.prompt.text()
    assert isinstance(desk.session.controller.turn_entry(), ShowdownEntry)  # the game's part enters it

    desk.type("s")  # Ann, the first left of the dealer, surrenders
    assert "Ann surrenders" in desk.window.entry.notice.text() and not desk.refusal()
    desk.qtbot.keyClick(desk.window.entry.line, Qt.Key.Key_Return)
    assert ChineseSeatView.of(desk.snapshot.seat("Ann")).showdown == "surrendered"

    # Cy's seat picked by a click, out of turn: a card already held elsewhere is refused as typed.
    desk.qtbot.mouseClick(desk.window.felt.seat_widget("Cy"), Qt.MouseButton.LeftButton)
    assert desk.window.entry.line.text().startswith("3:")
    desk.street(hand_keys(CY_MISSET))
    cy = desk.snapshot.seat("Cy")
    assert cy.foul_certain and desk.face("Cy").foul_word == "MISSET"
    assert not desk.chinese_controls.declare_bar.isVisible()

    desk.type("as f")
    assert "As is already in Cy's front" in desk.refusal()
    desk.window.entry.line.clear()

    desk.type(hand_keys(BOB_SIX_PAIRS))
    assert desk.chinese_controls.declare_bar.isVisible()
    captions = [button.text() for button in desk.declare_buttons]
    assert captions[0] == "&1 Declare Bob's six pairs"
    desk.screenshot("chinese-declare")
    # Each phase asserted on a snapshot of its own (mypy would take one narrowed phase for the next).
    offered = desk.snapshot
    assert offered.phase is Phase.LIVE  # the desk never declares by itself
    desk.qtbot.mouseClick(desk.declare_buttons[0], Qt.MouseButton.LeftButton)
    assert desk.snapshot.phase is Phase.AWAITING_SETTLEMENT
    assert desk.session.controller.turn_entry() is None  # every hand is in: no turn left to enter

    desk.window.action(Command.UNDO).trigger()  # Bob's declaration taken back, recorded as an undo
    undone = desk.snapshot
    assert undone.phase is Phase.LIVE and ChineseSeatView.of(undone.seat("Bob")).showdown == ""
    desk.type(hand_keys(BOB_SIX_PAIRS))
    desk.qtbot.mouseClick(desk.declare_buttons[0], Qt.MouseButton.LeftButton)

    details = desk.window.settlement.details.toPlainText()
    transfers = desk.window.settlement.transfers.toPlainText()
    assert "surrendered" in details and "declared six pairs" in details and "MISSET" in details
    assert transfers.index("Special hands, settled first") < transfers.index("Then the rest")
    desk.screenshot("chinese-settlement")

    expected = score_chinese_deal(
        chinese_deal_from_json({
            "variant": CHINESE,
            "rules": "chinese-typical",
            "dealer": "Cy",
            "players": [
                {"name": "Ann", "stack": 100, "surrender": True},
                {"name": "Bob", "stack": 100, "declare": "six-pairs", "cards": " ".join(BOB_SIX_PAIRS)},
                {"name": "Cy", "stack": 100, **dict(zip(ROW_KEYS, CY_MISSET, strict=True))},
            ],
        })
    )  # fmt: skip
    desk.qtbot.keyClick(desk.window.settlement, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert desk.snapshot.phase is not Phase.AWAITING_SETTLEMENT
    for player in expected.players:
        assert desk.snapshot.seat(player.name).stack == player.stack_after
    assert {player.stack_after for player in expected.players} != {100}


@pytest.mark.durable
def test_a_chinese_hand_half_typed_is_staged_again_on_resume_and_the_record_verifies(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk
) -> None:
    open_chinese_table(desk)
    desk.type("s")
    desk.qtbot.keyClick(desk.window.entry.line, Qt.Key.Key_Return)
    desk.qtbot.mouseClick(desk.window.felt.seat_widget("Cy"), Qt.MouseButton.LeftButton)
    desk.type("ac f ad f as f 2c")  # Cy's hand, out of turn: three staged, a fourth waiting for its row
    session_id = desk.snapshot.session_id
    desk.window.close()

    reopened = reopen_signed_in(qtbot, tmp_path, database, session_id)
    assert ChineseSeatView.of(reopened.snapshot.seat("Ann")).showdown == "surrendered"
    assert [placement.label for placement in reopened.session.controller.staged] == ["Ac", "Ad", "As"]
    cy = reopened.face("Cy")
    assert cy.rows[0].pending == ("Ac", "Ad", "As") and cy.rows[0].cards == ()
    reopened.street("2c m 3c m 4d m 5c m 7d m " + street_keys(CY_MISSET[2], "b"))
    assert reopened.refusal() == "" and reopened.snapshot.seat("Cy").foul_certain
    reopened.street(hand_keys(("Qs Qh Jd", "2s 3s 4s 5s 6s", "8h 9h Th Jh Qd")))
    assert reopened.refusal() == "", reopened.window.entry.line.text()
    assert reopened.snapshot.phase is Phase.AWAITING_SETTLEMENT
    reopened.qtbot.keyClick(
        reopened.window.settlement, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier
    )
    reopened.window.close()
    summary = verify_database(database)
    assert (summary.sessions, summary.hands) == (1, 1)


@pytest.mark.parametrize(
    ("preset", "offered"),
    [
        ("shisanshui", ["&1 Declare Ann's five pairs and trips"]),
        ("vietnamese", ["&1 Declare Ann's five pairs and trips", "&2 Declare Ann's six pairs"]),
    ],
)
def test_a_strict_table_offers_only_the_specials_made_in_their_exact_form(
    desk: Desk, preset: str, offered: list[str]
) -> None:
    """§13: six pairs with trips are five pairs and trips; six pairs only where played loosely."""
    open_chinese_table(desk, preset)
    desk.type(hand_keys(("Qh Jh 9d", "9s 9h Ts Th Js", "Qs Ks Kh As Ah")))
    assert [button.text() for button in desk.declare_buttons if button.isVisible()] == offered


def test_switching_game_and_back_never_changes_a_setting_the_dealer_did_not_touch(qtbot: QtBot) -> None:
    """Issue 36, point 2: from each game's choice, with the dealer's own settings there, to every
    other game with each of its presets picked by keys (hawaiian-gardens proposes another
    settlement) and back: every rule the fields give is as the dealer left it."""
    for (_, first), (_, second), touched in itertools.product(GAMES, GAMES, (False, True)):
        dialog = NewTableDialog()
        qtbot.addWidget(dialog)
        fields = dialog.rules
        fields.variant.setCurrentIndex(fields.variant.findData(first))
        if touched:  # else the dialog's own: win-cap, from left of the dealer
            fields.unit.setValue(5)
            fields.options[PROGRESSIVE].setChecked(True)
            choose_data(fields.settle_from, "dealer")
        left = fields.rules()
        fields.variant.setCurrentIndex(fields.variant.findData(second))
        other_game = chosen_game(second) is not chosen_game(first)
        offered = [fields.preset.itemText(i) for i in range(fields.preset.count())] if other_game else [""]
        for preset in offered:  # another OFC variant offers the same presets: picking one is a touch
            fields.variant.setCurrentIndex(fields.variant.findData(second))
            if preset:
                pick_with_keys(qtbot, fields.preset, preset)
            fields.variant.setCurrentIndex(fields.variant.findData(first))
            assert fields.rules() == left, (first, second, preset)
