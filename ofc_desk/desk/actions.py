"""Every action the desk offers, said once: its menu entry (text and mnemonic, shortcut, menu, the
separator before it), its between-hands button, when it is offered (the service's `can` of a command), and
what it opens: a dialog described by data here, or a command whose handler a controller registers.

The menus (`shell/menus.py`), the between-hands buttons, what is offered (`table/offered.py`), the
chip and supervisor dialogs (`hand_end/chip_actions.py`) and the tests all read `DESK_ACTIONS`. A
new chip operation on the desk is one row here with its `ActionDialog` (and its `Dialog` key), and
nothing else in desk/; what a row is made of is `desk/action_parts.py`.

No Qt and no service at import: the menus are built as the window completes, and the service (with
SQLAlchemy) is loaded only with a table. A function here that needs one of the service's enums
imports it when called, by which time the service is loaded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from ofc_desk.desk.action_parts import (
    ActionDialog,
    Enabled,
    Field,
    FieldKind,
    FloorAsk,
    Menu,
    Seated,
    StandardShortcut,
    TableNow,
    Values,
)
from ofc_desk.i18n import LazyText, _, lazy_gettext, ngettext

if TYPE_CHECKING:
    from ofc_desk.service.front.table_service import TableService
    from ofc_desk.service.table import commands


class Command(StrEnum):
    """An action done by code of its own: its handler is registered by a controller (the desk's
    session checks that every command has one)."""

    NEW_TABLE = "new_table"
    RESUME = "resume"
    REPORT = "report"
    CLOSE_REPORT = "close_report"
    VERIFY = "verify"
    QUIT = "quit"
    UNDO = "undo"
    REDO = "redo"
    HAND_SET = "hand_set"
    """A whole hand set at once in its own dialog, at the turns the table's game takes so
    (`TakenBy.DIALOG`: OFC's Fantasyland set); its menu words are the game's (`DeskGame.set_words`)."""
    DEAL = "deal"
    HAND_OVER = "hand_over"
    CORRECT_HAND = "correct_hand"
    HISTORY = "history"
    LEDGER = "ledger"
    AUDIT = "audit"
    ZOOM_IN = "zoom_in"
    ZOOM_OUT = "zoom_out"
    FOUR_COLOUR = "four_colour"
    DARK = "dark"
    PICKER = "picker"
    SETTINGS = "settings"
    ADD_ACCOUNT = "add_account"
    CHANGE_ROLE = "change_role"
    CHANGE_PIN = "change_pin"
    KEYBOARD = "keyboard"
    ABOUT = "about"


class Dialog(StrEnum):
    """An action done through a dialog described here (`ActionDialog`)."""

    JOIN = "join"
    REBUY = "rebuy"
    CASH_OUT = "cash_out"
    SIT_OUT = "sit_out"
    SIT_IN = "sit_in"
    VOID = "void"
    CORRECT = "correct"
    CHANGE_RULES = "change_rules"
    CLOSE_TABLE = "close_table"
    SEED_JACKPOT = "seed_jackpot"


class Submenu(StrEnum):
    """A menu entry that opens a menu of its own, filled by a controller."""

    REPORT_LANGUAGE = "report_language"


ActionKey = Command | Dialog | Submenu
"""What names an entry of the desk's menus (`MainWindow.action`)."""

REDO_KEYS = ("Ctrl+Shift+Z", "Ctrl+Y")
"""Named here, not taken from the platform's list: on Linux that has no Ctrl+Y."""


ANY_REASON = "a reason"
"""What a request's reason is taken to be when asking whether one could be made at all."""


def _can_deal(now: TableNow) -> bool:
    from ofc_desk.service.table.commands import StartHand

    return now.service is not None and now.service.can(StartHand())


def _can_undo(now: TableNow) -> bool:
    from ofc_desk.service.table.commands import Undo

    return now.staged or (now.service is not None and now.service.can(Undo()))


def _set_due(now: TableNow) -> bool:
    """F6 at a set's turn opens it; earlier in the hand it says when it comes."""
    from ofc_desk.desk.entry.staging import set_due

    return now.service is not None and set_due(now.snapshot)


def _set_caption() -> LazyText:
    """F6's menu words are the games' (`desk.games.set_words`): read as the menus are built, after
    the window's entry panel has loaded the games' parts (and the service they import)."""
    from ofc_desk.desk.games import set_words

    return set_words().caption


def _table_open(now: TableNow) -> bool:
    from ofc_desk.service.terms.snapshot import Phase

    return now.service is not None and now.snapshot is not None and now.snapshot.phase is not Phase.CLOSED


def _can_join(now: TableNow) -> bool:
    from ofc_desk.service.table.commands import newcomer

    service = now.service
    return service is not None and service.can(newcomer([seat.name for seat in service.machine.seats]))


def _for_some_player(command: Callable[[str], commands.Command]) -> Enabled:
    """Offered when the service would take the player's command for some seated player."""

    def enabled(now: TableNow) -> bool:
        service = now.service
        return service is not None and any(service.can(command(player)) for player in now.players())

    return enabled


def _may(service: TableService, command: commands.Command) -> bool:
    """Whether a supervised action could be done now with a PIN, or asked of the floor."""
    from ofc_desk.service.table.commands import Request

    return service.can(command) or service.can(Request(command, ANY_REASON))


def _may_void(now: TableNow) -> bool:
    """A hand may be voided now with a PIN, or asked of the floor (while a later hand is dealt)."""
    from ofc_desk.service.table.commands import VoidHand

    service, snapshot = now.service, now.snapshot
    if service is None or snapshot is None:
        return False
    return any(_may(service, VoidHand(n)) for n in range(snapshot.hand_number, 0, -1))


def _may_correct(now: TableNow) -> bool:
    from ofc_desk.service.table.commands import CorrectChips

    service, snapshot = now.service, now.snapshot
    if service is None or snapshot is None:
        return False
    return any(_may(service, CorrectChips(seat.name, 1, ANY_REASON)) for seat in snapshot.seats)


def _may_correct_hand(now: TableNow) -> bool:
    """A settled hand not voided to correct (with a PIN between hands, or asked of the floor)."""
    from ofc_desk.service.table.correction_view import correctable_hands

    return now.service is not None and _table_open(now) and bool(correctable_hands(now.service.machine))


def _may_change_rules(now: TableNow) -> bool:
    from ofc_desk.service.table.commands import ChangeRules

    service = now.service
    return service is not None and _may(service, ChangeRules(service.rules))


def _can_close(now: TableNow) -> bool:
    from ofc_desk.service.table.commands import CloseSession

    return now.service is not None and now.service.can(CloseSession())


def _can_seed(now: TableNow) -> bool:
    from ofc_desk.service.table.commands import SeedJackpot

    return now.service is not None and now.service.can(SeedJackpot(1))


# ---------------------------------------------------------------------------------------- commands
# What each dialog's values make: the service's commands are imported when a dialog is done, by
# which time the service is loaded.
def _join(values: Values) -> commands.Join:
    from ofc_desk.service.table.commands import Join

    return Join(values.text("name"), values.number("buy_in"), seat=values.seat)


def _rebuy_of(player: str, amount: int = 1) -> commands.Rebuy:
    from ofc_desk.service.table.commands import Rebuy

    return Rebuy(player, amount)


def _cash_out_of(player: str) -> commands.CashOut:
    from ofc_desk.service.table.commands import CashOut

    return CashOut(player)


def _sit_out_of(player: str) -> commands.SitOut:
    from ofc_desk.service.table.commands import SitOut

    return SitOut(player)


def _sit_in_of(player: str) -> commands.SitIn:
    from ofc_desk.service.table.commands import SitIn

    return SitIn(player)


def _void(values: Values) -> commands.VoidHand:
    from ofc_desk.service.table.commands import VoidHand

    hand, reason = values.number("hand"), values.text("reason")
    return VoidHand(hand, reason, supervisor=values.supervisor, pin=values.pin)


def _correct(values: Values) -> commands.CorrectChips:
    from ofc_desk.service.table.commands import CorrectChips

    player, amount, reason = values.text("player"), values.number("amount"), values.text("reason")
    return CorrectChips(player, amount, reason, supervisor=values.supervisor, pin=values.pin)


def _change_rules(values: Values) -> commands.ChangeRules:
    from ofc_desk.service.table.commands import ChangeRules

    return ChangeRules(values.chosen_rules(), supervisor=values.supervisor, pin=values.pin)


def _close(values: Values) -> commands.CloseSession:
    from ofc_desk.service.table.commands import CloseSession

    return CloseSession(supervisor=values.supervisor, pin=values.pin)


def _seed(values: Values) -> commands.SeedJackpot:
    from ofc_desk.service.table.commands import SeedJackpot

    return SeedJackpot(values.number("chips"), supervisor=values.supervisor, pin=values.pin)


# ---------------------------------------------------------------------------------------- dialogs
def _player(key: str = "player", seated: Seated = Seated.ALL) -> Field:
    return Field(key, FieldKind.PLAYER, lazy_gettext("Player"), seated=seated)


_REASON = Field("reason", FieldKind.TEXT, lazy_gettext("Reason"))

JOIN = ActionDialog(
    lazy_gettext("Join the table"),
    lazy_gettext("A new player buys in to an empty seat."),
    (
        Field("name", FieldKind.TEXT, lazy_gettext("Player name")),
        Field("buy_in", FieldKind.CHIPS, lazy_gettext("Buy-in (chips)"), default=100),
        Field("seat", FieldKind.FREE_SEAT, lazy_gettext("Seat")),
    ),
    command=_join,
    said=lambda values, _before, _after: ngettext(
        "{player} joined at seat {seat} with {chips} chip",
        "{player} joined at seat {seat} with {chips} chips",
        values.number("buy_in"),
    ).format(player=values.text("name"), seat=values.seat, chips=values.number("buy_in")),
)
REBUY = ActionDialog(
    lazy_gettext("Rebuy"),
    lazy_gettext("A rebuy or top-up, between hands."),
    (_player(), Field("amount", FieldKind.CHIPS, lazy_gettext("Chips"), default=100)),
    command=lambda values: _rebuy_of(values.text("player"), values.number("amount")),
    said=lambda values, _before, after: ngettext(
        "{player} rebought {chips} chip: stack now {stack}",
        "{player} rebought {chips} chips: stack now {stack}",
        values.number("amount"),
    ).format(
        player=values.text("player"),
        chips=values.number("amount"),
        stack=after.seat(values.text("player")).stack,
    ),
)
CASH_OUT = ActionDialog(
    lazy_gettext("Cash out"),
    lazy_gettext("The player leaves with their whole stack."),
    (_player(),),
    command=lambda values: _cash_out_of(values.text("player")),
    said=lambda values, before, _after: ngettext(
        "{player} cashed out {chips} chip and left the table",
        "{player} cashed out {chips} chips and left the table",
        before.seat(values.text("player")).stack,
    ).format(player=values.text("player"), chips=before.seat(values.text("player")).stack),
)
SIT_OUT = ActionDialog(
    lazy_gettext("Sit out"),
    lazy_gettext("The player keeps the seat but is not dealt in."),
    (_player(seated=Seated.PLAYING),),
    command=lambda values: _sit_out_of(values.text("player")),
    said=lambda values, _before, _after: _("{player} sits out: not dealt in from the next hand").format(
        player=values.text("player")
    ),
)
SIT_IN = ActionDialog(
    lazy_gettext("Sit in"),
    lazy_gettext("The player is dealt in again from the next hand."),
    (_player(seated=Seated.SITTING_OUT),),
    command=lambda values: _sit_in_of(values.text("player")),
    said=lambda values, _before, _after: _("{player} sits in: dealt in from the next hand").format(
        player=values.text("player")
    ),
)
VOID = ActionDialog(
    lazy_gettext("Void a settled hand"),
    lazy_gettext(
        "The hand's transfers are reversed by a new record; nothing is erased. "
        "A floor supervisor must authorise it."
    ),
    (Field("hand", FieldKind.SETTLED_HAND, lazy_gettext("Hand number")), _REASON),
    command=_void,
    said=lambda values, _before, _after: _(
        "Hand {number} voided by {supervisor}: its chip transfers are reversed"
    ).format(number=values.number("hand"), supervisor=values.supervisor),
    supervised=True,
    ask_the_floor=FloorAsk(),
)
CORRECT = ActionDialog(
    lazy_gettext("Correct chips"),
    lazy_gettext("Add (positive) or remove (negative) chips from a stack, with a reason."),
    (_player(), Field("amount", FieldKind.SIGNED_CHIPS, lazy_gettext("Chips (+/−)")), _REASON),
    command=_correct,
    said=lambda values, _before, after: _("{player}'s stack corrected by {amount}: now {stack}").format(
        player=values.text("player"),
        amount=f"{values.number('amount'):+}",
        stack=after.seat(values.text("player")).stack,
    ),
    supervised=True,
    ask_the_floor=FloorAsk(),
)
CHANGE_RULES = ActionDialog(
    lazy_gettext("Change rules or stakes"),
    lazy_gettext(
        "The new rules and stakes apply from the next hand; they can be changed only between "
        "hands. A floor supervisor must authorise it."
    ),
    (
        Field("rules", FieldKind.RULES),
        Field("reason", FieldKind.TEXT, lazy_gettext("Reason (asked of the floor)")),
    ),
    command=_change_rules,
    said=lambda _values, _before, _after: _("New rules and stakes: they apply from the next hand"),
    supervised=True,
    ask_the_floor=FloorAsk(),
)
CLOSE_TABLE = ActionDialog(
    lazy_gettext("Close the table"),
    lazy_gettext("Nothing can be entered at this table afterwards. A floor supervisor must authorise it."),
    (),
    command=_close,
    said=lambda _values, _before, _after: _("The table is closed"),
    supervised=True,
)

DEFAULT_SEED = 1000
"""The chips a jackpot seed offers first, at the desk and in the floor view (`floor/seed_dialog.py`)."""

SEED_JACKPOT = ActionDialog(
    lazy_gettext("Seed the jackpot"),
    lazy_gettext(
        "The house's chips go into the room's jackpot pool at once, for every table that pays an award"
        " from it. Between hands; a floor supervisor must authorise it."
    ),
    (Field("chips", FieldKind.CHIPS, lazy_gettext("Chips from the house"), default=DEFAULT_SEED),),
    command=_seed,
    said=lambda values, _before, _after: ngettext(
        "{supervisor} seeded the room's jackpot with {chips} chip",
        "{supervisor} seeded the room's jackpot with {chips} chips",
        values.number("chips"),
    ).format(supervisor=values.supervisor, chips=values.number("chips")),
    supervised=True,
)


# ---------------------------------------------------------------------------------------- rows
@dataclass(frozen=True)
class Button:
    """An action's button on the between-hands page."""

    caption: LazyText
    name: LazyText
    """Its accessible name."""


@dataclass(frozen=True)
class DeskAction:
    """An entry of the desk's menus: its key, menu, words and shortcut."""

    key: ActionKey
    """Which also says what it opens: a command's handler, a dialog, or a submenu's entries."""
    menu: Menu
    text: LazyText | Callable[[], LazyText]
    """The menu entry, with its mnemonic: one `&` (the catalogs check each translation keeps one);
    or where a game says it (F6's), the function that reads it when asked (`caption`)."""
    shortcuts: tuple[str | StandardShortcut, ...] = ()
    """"Ctrl+N", "F5", or a shortcut the platform names; the first is the one the menu shows."""
    button: Button | None = None
    separator_before: bool = False
    checkable: bool = False
    checked: bool = False
    enabled: Enabled | None = None
    """When the table offers it (`can` of a command over players or hands); None: always, or the desk's
    own to say (Redo, by its undo stack)."""
    dialog: ActionDialog | None = None
    """What a `Dialog` action opens; a command's handler and a submenu's entries are registered."""

    def caption(self) -> LazyText:
        """The menu entry's words, with its mnemonic."""
        return self.text() if callable(self.text) else self.text

    def __post_init__(self) -> None:
        if isinstance(self.key, Dialog) != (self.dialog is not None):
            raise ValueError(f"{self.key}: a Dialog action, and only one, is described by its dialog")


DESK_ACTIONS: tuple[DeskAction, ...] = (
    DeskAction(Command.NEW_TABLE, Menu.FILE, lazy_gettext("&New table…"), ("Ctrl+N",)),
    DeskAction(Command.RESUME, Menu.FILE, lazy_gettext("&Resume table…"), ("Ctrl+O",)),
    DeskAction(Command.REPORT, Menu.FILE, lazy_gettext("Session re&port…"), ("Ctrl+P",)),
    # One entry per language: the report printed in it (Session report… prints in the desk's).
    DeskAction(Submenu.REPORT_LANGUAGE, Menu.FILE, lazy_gettext("Session report &in")),
    DeskAction(Command.CLOSE_REPORT, Menu.FILE, lazy_gettext("&Table-close report…")),
    DeskAction(
        Dialog.CLOSE_TABLE,
        Menu.FILE,
        lazy_gettext("&Close table (supervisor)…"),
        enabled=_can_close,
        dialog=CLOSE_TABLE,
    ),
    DeskAction(Command.VERIFY, Menu.FILE, lazy_gettext("&Verify the database")),
    DeskAction(
        Command.QUIT, Menu.FILE, lazy_gettext("&Quit"), (StandardShortcut.QUIT,), separator_before=True
    ),
    DeskAction(
        Command.UNDO, Menu.EDIT, lazy_gettext("&Undo last entry"), (StandardShortcut.UNDO,), enabled=_can_undo
    ),
    # Offered only when there is an entry to enter again (the controller's undo stack says).
    DeskAction(Command.REDO, Menu.EDIT, lazy_gettext("&Redo entry"), REDO_KEYS),
    DeskAction(
        Command.HAND_SET,
        Menu.TABLE,
        _set_caption,
        ("F6",),
        enabled=_set_due,
    ),
    DeskAction(
        Command.DEAL,
        Menu.TABLE,
        lazy_gettext("&Deal next hand"),
        ("F5",),
        button=Button(lazy_gettext("Deal next hand (Enter)"), lazy_gettext("Deal next hand")),
        enabled=_can_deal,
    ),
    DeskAction(
        Dialog.JOIN,
        Menu.TABLE,
        lazy_gettext("&Join / buy in…"),
        button=Button(lazy_gettext("Join…"), lazy_gettext("Join")),
        separator_before=True,
        enabled=_can_join,
        dialog=JOIN,
    ),
    DeskAction(
        Dialog.REBUY,
        Menu.TABLE,
        lazy_gettext("&Rebuy…"),
        button=Button(lazy_gettext("Rebuy…"), lazy_gettext("Rebuy")),
        enabled=_for_some_player(_rebuy_of),
        dialog=REBUY,
    ),
    DeskAction(
        Dialog.CASH_OUT,
        Menu.TABLE,
        lazy_gettext("&Cash out…"),
        button=Button(lazy_gettext("Cash out…"), lazy_gettext("Cash out")),
        enabled=_for_some_player(_cash_out_of),
        dialog=CASH_OUT,
    ),
    DeskAction(
        Dialog.SIT_OUT,
        Menu.TABLE,
        lazy_gettext("Sit &out…"),
        button=Button(lazy_gettext("Sit out…"), lazy_gettext("Sit out")),
        enabled=_for_some_player(_sit_out_of),
        dialog=SIT_OUT,
    ),
    DeskAction(
        Dialog.SIT_IN,
        Menu.TABLE,
        lazy_gettext("Sit &in…"),
        button=Button(lazy_gettext("Sit in…"), lazy_gettext("Sit in")),
        enabled=_for_some_player(_sit_in_of),
        dialog=SIT_IN,
    ),
    # Offered with a PIN between hands, or to be asked of the floor while a hand is dealt.
    DeskAction(
        Dialog.VOID,
        Menu.TABLE,
        lazy_gettext("&Void a settled hand (supervisor)…"),
        separator_before=True,
        enabled=_may_void,
        dialog=VOID,
    ),
    DeskAction(
        Dialog.CORRECT,
        Menu.TABLE,
        lazy_gettext("Corr&ect chips (supervisor)…"),
        enabled=_may_correct,
        dialog=CORRECT,
    ),
    DeskAction(
        Command.CORRECT_HAND,
        Menu.TABLE,
        lazy_gettext("Correct &a settled hand (supervisor)…"),
        enabled=_may_correct_hand,
    ),
    DeskAction(
        Dialog.CHANGE_RULES,
        Menu.TABLE,
        lazy_gettext("Change rules or &stakes (supervisor)…"),
        enabled=_may_change_rules,
        dialog=CHANGE_RULES,
    ),
    DeskAction(
        Dialog.SEED_JACKPOT,
        Menu.TABLE,
        lazy_gettext("Seed the jac&kpot (supervisor)…"),
        enabled=_can_seed,
        dialog=SEED_JACKPOT,
    ),
    DeskAction(
        Command.HAND_OVER,
        Menu.TABLE,
        lazy_gettext("&Hand over to another dealer…"),
        separator_before=True,
        enabled=_table_open,
    ),
    DeskAction(Command.HISTORY, Menu.VIEW, lazy_gettext("&Hand history"), ("F7",)),
    DeskAction(Command.LEDGER, Menu.VIEW, lazy_gettext("Chip &ledger"), ("F8",)),
    DeskAction(Command.AUDIT, Menu.VIEW, lazy_gettext("&Audit log"), ("F9",)),
    DeskAction(
        Command.ZOOM_IN,
        Menu.VIEW,
        lazy_gettext("Zoom &in"),
        (StandardShortcut.ZOOM_IN,),
        separator_before=True,
    ),
    DeskAction(Command.ZOOM_OUT, Menu.VIEW, lazy_gettext("Zoom &out"), (StandardShortcut.ZOOM_OUT,)),
    DeskAction(Command.FOUR_COLOUR, Menu.VIEW, lazy_gettext("&Four-colour deck"), checkable=True),
    DeskAction(Command.DARK, Menu.VIEW, lazy_gettext("&Dark theme"), checkable=True),
    DeskAction(
        Command.PICKER, Menu.VIEW, lazy_gettext("Card &picker"), ("F4",), checkable=True, checked=True
    ),
    # Settings → Language is added last by the session, which holds the stored settings.
    DeskAction(Command.SETTINGS, Menu.SETTINGS, lazy_gettext("&Settings…"), ("Ctrl+,",)),
    DeskAction(
        Command.ADD_ACCOUNT,
        Menu.SETTINGS,
        lazy_gettext("&Add an account (supervisor)…"),
        separator_before=True,
    ),
    DeskAction(Command.CHANGE_ROLE, Menu.SETTINGS, lazy_gettext("Change an account's &role (supervisor)…")),
    DeskAction(Command.CHANGE_PIN, Menu.SETTINGS, lazy_gettext("Change an account's &PIN (supervisor)…")),
    DeskAction(Command.KEYBOARD, Menu.HELP, lazy_gettext("&Keyboard reference"), ("F1",)),
    DeskAction(Command.ABOUT, Menu.HELP, lazy_gettext("&About OFC Desk")),
)
