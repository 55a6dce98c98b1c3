"""Issue 14: what a dealer stumbled on during a whole shift, each pressed as the dealer presses it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QComboBox, QFormLayout, QLabel, QMenu, QSpinBox, QWidget
from pytestqt.qtbot import QtBot

from ofc_desk.core.rows import Row
from ofc_desk.desk.actions import Command, Dialog
from ofc_desk.desk.dialogs.attempt import AttemptDialog, SupervisorDialog
from ofc_desk.desk.dialogs.new_table import NewTableDialog
from ofc_desk.desk.dialogs.text import ChooseTableDialog
from ofc_desk.desk.shell.theme import PALETTES, ThemeName
from ofc_desk.service import TableSetup
from ofc_desk.service.table.games.choose import entry_for
from ofc_desk.service.table.games.ofc.view_parts import OfcTurn
from ofc_desk.service.terms.setup import SeatSetup, TableRules
from ofc_desk.service.terms.snapshot import Phase
from tests.desk.conftest import SUPERVISOR, Desk, street_keys
from tests.desk.test_entering_cards import ANN, BOB, enter_regular_streets
from tests.desk.test_fantasyland_and_supervisor import click_ok, settle_first_hand
from tests.desk.test_start_and_resume import field, first_start

# A hand nobody goes to Fantasyland from (Ann's jack-high front), so the button moves on.
ANN_PLAIN = ("Jh 7c 4c", "9s 9d 5h 5c 2s", "Ks Kd Kc 7h 7d")


# Ann's kings in front over a nine-high middle: a foul, whatever the front would have paid.
ANN_FOUL = ("Kh Kd 4c", "9s 8d 5h 7c 2s", "Qs Qd Qc 7h 7d")


def two_hands_settled(desk: Desk) -> None:
    """Hand 1 confirmed and hand 2 dealt at once; hand 2 confirmed with the deal held."""
    desk.open_table(("Ann", "Bob"), button="Bob")
    enter_regular_streets(desk, ANN_PLAIN, BOB)
    desk.press_enter_on(desk.window.settlement.confirm_button)
    enter_regular_streets(desk, BOB, ANN_PLAIN)  # the button moved to Ann: Bob acts first
    desk.qtbot.mouseClick(desk.window.settlement.hold_button, Qt.MouseButton.LeftButton)


def inside(parent: QWidget, child: QWidget) -> QRect:
    """Where `child` is drawn, in `parent`'s coordinates."""
    return QRect(child.mapTo(parent, child.rect().topLeft()), child.size())


def assert_readable(dialog: AttemptDialog) -> None:
    """Every field at least as tall as it needs, the refusal whole and clear of the buttons."""
    QApplication.processEvents()
    for row in range(dialog.form.rowCount()):
        item = dialog.form.itemAt(row, QFormLayout.ItemRole.FieldRole)
        field = item.widget() if item is not None else None
        assert field is not None
        assert field.height() >= field.minimumSizeHint().height(), field.accessibleName()
    refusal: QLabel = dialog.refusal
    assert refusal.height() >= refusal.heightForWidth(refusal.width())
    assert not inside(dialog, refusal).intersects(inside(dialog, dialog.buttons))
    assert dialog.rect().contains(inside(dialog, refusal))


def test_a_seat_named_before_its_cards_is_refused_when_not_on_turn(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")  # Ann acts first
    desk.type("bo: " + street_keys(BOB[2], "b"))
    assert desk.refusal() == "it is Ann's turn, not Bob's"  # the README's sentence, the service's
    assert desk.snapshot.seat("Bob").row(Row.BACK).cards == () and not desk.session.controller.staged
    assert desk.window.entry.line.text().startswith("bo: ")  # kept, to be corrected
    desk.window.entry.line.clear()
    desk.type("2:")
    assert desk.refusal() == "it is Ann's turn, not Bob's"
    desk.window.entry.line.clear()
    desk.type("7: ks b")
    assert desk.refusal().startswith("there is no seat 7")
    desk.window.entry.line.clear()
    desk.street("an: " + street_keys(ANN[2], "b"))
    assert [str(card) for card in desk.snapshot.seat("Ann").row(Row.BACK).cards] == ANN[2].split()
    assert desk.refusal() == "" and desk.window.entry.line.text() == ""
    desk.street(street_keys(BOB[2], "b"))  # no seat named: the player on turn, Bob now
    assert [str(card) for card in desk.snapshot.seat("Bob").row(Row.BACK).cards] == BOB[2].split()
    desk.type("a")
    assert desk.refusal() == ""  # perhaps "an:" on its way
    desk.qtbot.keyClick(desk.window.entry.line, Qt.Key.Key_Return)
    assert "a seat's number or name, then a colon" in desk.refusal()


def test_ctrl_y_redoes_as_f1_says(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    desk.street(street_keys(ANN[2], "b"))
    line = desk.window.entry.line
    desk.qtbot.keyClick(line, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert desk.snapshot.seat("Ann").row(Row.BACK).cards == ()
    desk.qtbot.keyClick(line, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert [str(card) for card in desk.snapshot.seat("Ann").row(Row.BACK).cards] == ANN[2].split()
    # The desk's own keys, not the platform's list (Linux has no Ctrl+Y in it: run under xcb
    # the key presses above fail without them).
    assert [keys.toString() for keys in desk.window.action(Command.REDO).shortcuts()] == [
        "Ctrl+Shift+Z",
        "Ctrl+Y",
    ]


def test_the_void_dialog_offers_the_hand_just_settled_and_keeps_its_fields_whole(desk: Desk) -> None:
    two_hands_settled(desk)
    assert desk.snapshot.hand_number == 2
    desk.window.action(Dialog.VOID).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert isinstance(dialog, SupervisorDialog)
    number = dialog.findChild(QSpinBox)
    assert number is not None and number.value() == 2  # the hand just settled, not the one before
    desk.qtbot.keyClicks(dialog.supervisor, SUPERVISOR[0])
    desk.qtbot.keyClicks(dialog.pin, "0000")
    click_ok(desk, dialog)
    assert dialog.refusal.text() != ""
    desk.screenshot("14-void-dialog-refused", dialog)
    assert_readable(dialog)


def test_a_long_cash_out_refusal_wraps_clear_of_the_buttons(desk: Desk) -> None:
    settle_first_hand(desk, deal_next=False)  # Ann goes to Fantasyland: Bob must wait for her hand
    desk.window.action(Dialog.CASH_OUT).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert dialog is not None
    choice = dialog.findChild(QComboBox)
    assert choice is not None
    choice.setCurrentText("Bob")
    click_ok(desk, dialog)
    assert dialog.refusal.text().startswith("Bob played the hand")
    desk.screenshot("14-cash-out-refused", dialog)
    assert_readable(dialog)


def test_a_sixth_card_on_a_first_street_says_five_is_the_most(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    desk.type(street_keys(ANN[2], "b"))
    desk.type(" 2c f")
    assert desk.refusal() == "5 cards is the most on a first street"
    assert len(desk.session.controller.staged) == 5 and desk.window.entry.line.text() == "2c f"


def test_f6_while_a_fantasyland_player_waits_says_when_the_set_comes(desk: Desk) -> None:
    settle_first_hand(desk)  # Ann goes to Fantasyland; Bob plays his streets first
    assert desk.snapshot.to_act is not None and desk.snapshot.to_act.player == "Bob"
    desk.qtbot.keyClick(desk.window.entry.line, Qt.Key.Key_F6)
    assert desk.refusal() == (
        "Ann's Fantasyland set is entered after every other player has finished; it is Bob's turn"
    )


CHIP_OPERATIONS = {
    "Join": Dialog.JOIN,
    "Rebuy": Dialog.REBUY,
    "Cash out": Dialog.CASH_OUT,
    "Sit out": Dialog.SIT_OUT,
    "Sit in": Dialog.SIT_IN,
}


def chip_offers(desk: Desk) -> dict[str, bool]:
    """Whether each chip operation is offered, in the Table menu and on the between-hands page."""
    window = desk.window
    for caption, key in CHIP_OPERATIONS.items():
        assert window.action(key).isEnabled() == window.between_hands.buttons[key].isEnabled(), caption
    return {caption: window.action(key).isEnabled() for caption, key in CHIP_OPERATIONS.items()}


def test_chip_operations_are_offered_only_when_the_service_would_take_them(desk: Desk) -> None:
    assert not any(chip_offers(desk).values())  # no table open
    assert not desk.window.action(Dialog.VOID).isEnabled()
    desk.open_table(("Ann", "Bob"), button="Bob")
    assert not any(chip_offers(desk).values())  # a hand is being dealt
    enter_regular_streets(desk, ANN_PLAIN, BOB)
    desk.qtbot.mouseClick(desk.window.settlement.hold_button, Qt.MouseButton.LeftButton)
    offers = chip_offers(desk)
    assert offers == {"Join": True, "Rebuy": True, "Cash out": True, "Sit out": True, "Sit in": False}
    desk.window.action(Dialog.CLOSE_TABLE).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert isinstance(dialog, SupervisorDialog)
    desk.qtbot.keyClicks(dialog.supervisor, SUPERVISOR[0])
    desk.qtbot.keyClicks(dialog.pin, SUPERVISOR[1])
    click_ok(desk, dialog)
    assert desk.snapshot.closed
    assert not any(chip_offers(desk).values())
    assert not desk.window.action(Dialog.VOID).isEnabled()


def test_a_fouled_hand_shows_no_royalty_and_its_foul_hides_no_row(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    enter_regular_streets(desk, ANN_FOUL, BOB)
    widget = desk.window.felt.seat_widget("Ann")
    face = widget.seat
    assert face is not None and face.fouled
    assert face.rows[0].hand_name and face.rows[0].worth == ""  # kings in front pay nothing fouled
    result = desk.snapshot.result
    assert result is not None
    ann = result.seat("Ann")
    assert ann.foul and ann.royalties == 0
    desk.screenshot("14-fouled-hand")
    fouled = widget.grab().toImage()
    widget.set_seat(replace(face, fouled=False))
    clean = widget.grab().toImage()
    for row in range(3):
        name_box = widget.row_name_rect(row).toAlignedRect()
        assert fouled.copy(name_box) == clean.copy(name_box), f"row {row}'s hand name is covered"


def test_a_voided_hand_is_marked_void_on_the_felt(desk: Desk) -> None:
    two_hands_settled(desk)
    desk.window.action(Dialog.VOID).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert isinstance(dialog, SupervisorDialog)
    desk.qtbot.keyClicks(dialog.supervisor, SUPERVISOR[0])
    desk.qtbot.keyClicks(dialog.pin, SUPERVISOR[1])
    desk.qtbot.keyClicks(field(dialog, "Reason"), "misdeal")
    click_ok(desk, dialog)
    assert not dialog.isVisible()
    for name in ("Ann", "Bob"):
        face = desk.face(name)
        assert face.voided and "hand voided" in face.spoken()
    assert "Hand 2 VOID" in desk.status
    assert desk.window.between_hands.message.text().startswith("Hand 2 was voided: it does not count.")
    assert desk.window.between_hands.notice.text() == (
        "Hand 2 voided by Floor: its chip transfers are reversed"
    )
    desk.screenshot("14-voided-hand")


def four_players_at_1366(desk: Desk, variant: str = "regular") -> None:
    """The narrowest card-room screen, four players with full names, a long table name."""
    desk.window.resize(1366, 768)
    setup = TableSetup(
        name="Table 12 — high stakes",
        seats=tuple(SeatSetup(name, 1000) for name in ("Annabelle", "Bartholomew", "Cordelia", "Dmitri")),
        button="Dmitri",
        rules=TableRules(variant=variant, unit=25),
    )
    assert desk.session.open_new_table(setup) is None
    desk.press_enter_on(desk.window.between_hands.deal_button)
    QApplication.processEvents()


def test_the_status_line_stays_on_one_line_and_the_entry_hint_whole_at_1366(desk: Desk) -> None:
    four_players_at_1366(desk)
    desk.type("an: ")
    status = desk.window.status_line
    desk.window.grab()  # laid out as a paint would
    assert status.width() <= 1366
    assert status.height() < 2 * status.fontMetrics().lineSpacing(), status.text()
    desk.window.entry.line.clear()
    line = desk.window.entry.line
    hint = line.fontMetrics().horizontalAdvance(line.placeholderText())
    assert hint <= line.contentsRect().width() - 12, (hint, line.width())
    desk.screenshot("14-status-line-1366")


def test_signing_in_clears_the_sign_in_note_and_enter_opens_a_table_at_first_start(
    qtbot: QtBot, tmp_path: Path
) -> None:
    desk, dialog = first_start(qtbot, tmp_path, "Floor", "99999999")
    assert "sign in to continue" in desk.window.status_line.text()
    qtbot.keyClick(field(dialog, "Supervisor PIN"), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: isinstance(desk.session.active_dialog, ChooseTableDialog), timeout=10_000)
    assert "sign in to continue" not in desk.window.status_line.text()
    assert "Signed in: Dana" in desk.window.status_line.text()
    choose = desk.session.active_dialog
    assert isinstance(choose, ChooseTableDialog)
    qtbot.keyClick(choose, Qt.Key.Key_Return)  # no table yet: Enter opens a new one
    qtbot.waitUntil(lambda: isinstance(desk.session.active_dialog, NewTableDialog))
    desk.window.close()


# Four whole hands in the 52 cards (front, middle, back), none fouled, nobody to Fantasyland.
FOUR_HANDS = (
    ("2s 2h 3d", "Ah Ad Ac 9s 9h", "As Ks Qs Js Ts"),
    ("2d 2c 3s", "Qh Qd Qc 7s 7h", "Kh Kd Kc 8s 8h"),
    ("3h 3c 4s", "Th Td Tc 5s 5h", "Jh Jd Jc 6s 6h"),
    ("5d 5c 4c", "7d 7c 6d 6c 4d", "9d 9c 8d 8c 4h"),
)


def four_hands_streets() -> list[tuple[str, Row]]:
    """In acting order: each back first (five cards), then middles, then fronts, a card a street."""
    later = [[(card, Row.MIDDLE) for card in middle.split()] + [(card, Row.FRONT) for card in front.split()]
             for front, middle, _back in FOUR_HANDS]  # fmt: skip
    backs = [(back, Row.BACK) for _front, _middle, back in FOUR_HANDS]
    return backs + [street for turns in zip(*later, strict=True) for street in turns]


def enter_four_hands_but_the_last_card(desk: Desk) -> None:
    """Every street but the last handed to the service the desk drives (the command its Enter
    would send; `enter_regular_streets` for two), then shown: the settlement is the test's, not
    the typing of the streets before it."""
    service = desk.session.controller.service
    assert service is not None
    for cards, row in four_hands_streets()[:-1]:
        turn = service.snapshot().to_act
        assert turn is not None and turn.kind is OfcTurn.STREET, turn
        placed = cards.split()
        service.do(entry_for(turn.kind, turn.player, placed, [str(row)] * len(placed)))
    desk.session.controller.refresh()


def test_four_players_settle_at_1366_with_the_transfers_in_view_and_the_seats_kept(desk: Desk) -> None:
    four_players_at_1366(desk)
    enter_four_hands_but_the_last_card(desk)
    desk.window.grab()
    seats_while_entering = [widget.painted_rect().size() for widget in desk.window.felt.seat_widgets]
    last_card, _front = four_hands_streets()[-1]
    desk.street(f"{last_card} f")  # the last street typed: the settlement comes up at its Enter
    assert desk.window.bottom.currentIndex() == desk.window.SETTLEMENT_PAGE
    desk.window.grab()
    desk.screenshot("14-settlement-4-players-1366")
    assert [widget.painted_rect().size() for widget in desk.window.felt.seat_widgets] == seats_while_entering
    transfers = desk.window.settlement.transfers
    result = desk.snapshot.result
    assert result is not None and len(result.transfers) >= 3
    assert transfers.isVisible()
    assert desk.window.rect().contains(inside(desk.window, transfers))
    viewport = transfers.viewport()
    assert transfers.document().size().height() <= viewport.height()  # all of it, no scrolling
    assert desk.window.rect().contains(inside(desk.window, desk.window.settlement.confirm_button))
    details = desk.window.settlement.details
    last_player = details.document().find(result.seats[-1].name)
    assert details.cursorRect(last_player).bottom() <= details.viewport().height()  # every hand's line


def test_ctrl_enter_confirms_the_settlement_and_holds_the_deal(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    enter_regular_streets(desk, ANN_PLAIN, BOB)
    assert desk.window.bottom.currentIndex() == desk.window.SETTLEMENT_PAGE
    desk.qtbot.keyClick(
        desk.window.settlement.confirm_button, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier
    )
    assert desk.snapshot.phase is Phase.SETTLED and desk.snapshot.hand_number == 1  # settled, not dealt
    assert desk.window.bottom.currentIndex() == desk.window.BETWEEN_HANDS_PAGE


def test_undoing_a_confirmed_street_says_so_on_the_line(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    desk.street(street_keys(ANN[2], "b"))
    desk.qtbot.keyClick(desk.window.entry.line, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert desk.window.entry.notice.text() == "Undone: Ann: Ks Kd Kc 7h 7d (recorded as an undo)"
    assert desk.window.entry.notice.isVisible()
    desk.type("k")  # the dealer moves on: the line goes
    assert desk.window.entry.notice.text() == ""


def test_a_rebuy_and_a_cash_out_each_say_what_was_done(desk: Desk) -> None:
    two_hands_settled(desk)
    ann, bob = desk.snapshot.seat("Ann").stack, desk.snapshot.seat("Bob").stack
    desk.qtbot.mouseClick(desk.window.between_hands.buttons[Dialog.REBUY], Qt.MouseButton.LeftButton)
    dialog = desk.session.chip_actions.active_dialog
    assert dialog is not None
    choice = dialog.findChild(QComboBox)
    assert choice is not None
    choice.setCurrentText("Ann")
    click_ok(desk, dialog)
    assert desk.window.between_hands.notice.text() == f"Ann rebought 100 chips: stack now {ann + 100}"
    desk.window.action(Dialog.CASH_OUT).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert dialog is not None
    choice = dialog.findChild(QComboBox)
    assert choice is not None
    choice.setCurrentText("Bob")
    click_ok(desk, dialog)
    assert desk.window.between_hands.notice.text() == f"Bob cashed out {bob} chips and left the table"
    assert desk.window.statusBar().currentMessage() == desk.window.between_hands.notice.text()
    desk.screenshot("14-cash-out-said")


def mnemonic(text: str) -> str:
    """The letter after the '&' of a menu entry ('' if it has none)."""
    index = text.replace("&&", "").find("&")
    return text.replace("&&", "")[index + 1].lower() if index >= 0 else ""


def test_every_menu_entry_has_its_own_letter(desk: Desk) -> None:
    for top in desk.window.menuBar().actions():
        menu = top.menu()
        assert isinstance(menu, QMenu)
        letters = [mnemonic(action.text()) for action in menu.actions() if not action.isSeparator()]
        letters = [letter for letter in letters if letter]
        assert len(letters) == len(set(letters)), (top.text(), letters)
    chips_menu = desk.window.menuBar().actions()[2].menu()
    assert isinstance(chips_menu, QMenu)
    captions = {action.text() for action in chips_menu.actions()}
    assert "&Cash out…" in captions and "Corr&ect chips (supervisor)…" in captions


def test_alt_f_then_one_escape_gives_the_keys_back_to_the_entry(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    line = desk.window.entry.line
    desk.window.activateWindow()
    line.setFocus()
    desk.qtbot.waitUntil(lambda: QApplication.focusWidget() is line)
    desk.qtbot.keyClick(line, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
    desk.qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None)
    popup = QApplication.activePopupWidget()
    assert popup is not None
    desk.qtbot.keyClick(popup, Qt.Key.Key_Escape)
    desk.qtbot.waitUntil(lambda: desk.window.focusWidget() is line)  # not the menu bar
    desk.qtbot.keyClicks(desk.window.focusWidget(), "ks b")
    assert [placement.label for placement in desk.session.controller.staged] == ["Ks"]


def contrast(ink: str, paper: str) -> float:
    """The WCAG contrast ratio of two '#rrggbb' colours."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(ink), luminance(paper)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_whose_turn_is_readable_on_the_window_in_both_themes() -> None:
    for theme, palette in PALETTES.items():
        assert contrast(palette.prompt, palette.window) >= 4.5, theme
        assert contrast(palette.ok, palette.window) >= 4.5, theme  # the line saying what was done


def test_the_settlement_marks_capped_and_fouled_in_the_themes_colours(desk: Desk) -> None:
    for theme in (ThemeName.LIGHT, ThemeName.DARK):
        desk.session.apply_options(replace(desk.session.options, theme=theme))
        inks, palette = desk.window.settlement.inks, PALETTES[theme]
        assert contrast(inks.capped, palette.input_bg) >= 4.5, theme
        assert contrast(inks.foul, palette.input_bg) >= 4.5, theme
