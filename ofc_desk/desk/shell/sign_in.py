"""Dealer sign-in, and on a database with no accounts the first start's dealer and supervisor.

The PIN hash is slow on purpose, so each check runs on the worker thread while its dialog waits.
Which accounts a room needs is the service's rule (`ofc_desk.service.room.account_policy`).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QWidget

from ofc_desk.desk.dialogs.attempt import AttemptDialog, Report
from ofc_desk.desk.shell.opening import checked_sign_in
from ofc_desk.desk.shell.worker import BackgroundRunner
from ofc_desk.i18n import _
from ofc_desk.service.room.account_policy import (
    NewAccount,
    create_first_accounts,
    needs_key_set_up,
    set_up_key,
)
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account, nobody_signs_in

SignedIn = Callable[[Account], None]


def sign_in_dialog(
    database: Database, runner: BackgroundRunner, parent: QWidget, signed_in: SignedIn
) -> AttemptDialog:
    """The dealer's sign-in; the first start's accounts when the database has none a person signs in
    with; the room's set-up when an upgrade left no supervisor with a key."""
    if nobody_signs_in(database):
        return _first_accounts_dialog(database, runner, parent, signed_in)
    if needs_key_set_up(database):
        return _key_set_up_dialog(database, runner, parent, signed_in)
    dialog = AttemptDialog(_("Sign in"), _("Dealer sign-in."), parent)
    name = dialog.add_line(_("Dealer"))
    pin = dialog.add_line(_("PIN"), secret=True)
    dialog.set_background_attempt(
        lambda report: _check_in_background(
            runner, lambda: checked_sign_in(database, name.text(), pin.text()), signed_in, report
        )
    )
    return dialog


def hand_over_dialog(
    database: Database, runner: BackgroundRunner, parent: QWidget, outgoing: str, taken_over: SignedIn
) -> AttemptDialog:
    """A new dealer takes over the table: they sign in here, the service records the hand-over as
    the outgoing dealer's (signed by them), and the table is theirs from then on."""
    dialog = AttemptDialog(
        _("Hand over the table"),
        _(
            "{outgoing} hands the table over. The dealer taking over signs in with their own PIN;"
            " {outgoing}'s signature closes what was recorded so far."
        ).format(outgoing=outgoing),
        parent,
    )
    name = dialog.add_line(_("Dealer taking over"))
    pin = dialog.add_line(_("PIN"), secret=True)

    def check() -> Account | str:
        if name.text().strip() == outgoing:
            return _("{outgoing} already has the table: the dealer taking over signs in here").format(
                outgoing=outgoing
            )
        return checked_sign_in(database, name.text(), pin.text())

    dialog.set_background_attempt(lambda report: _check_in_background(runner, check, taken_over, report))
    return dialog


def _first_accounts_dialog(
    database: Database, runner: BackgroundRunner, parent: QWidget, signed_in: SignedIn
) -> AttemptDialog:
    dialog = AttemptDialog(
        _("First start: accounts"),
        _(
            "No accounts yet. Create the dealer who signs in now and a floor supervisor "
            "(needed to void a hand, correct chips or close a table). PINs: at least 4 characters, the"
            " supervisor's at least 8."
        ),
        parent,
    )
    dealer, dealer_pin = dialog.add_line(_("Dealer")), dialog.add_line(_("Dealer PIN"), secret=True)
    boss, boss_pin = dialog.add_line(_("Supervisor")), dialog.add_line(_("Supervisor PIN"), secret=True)

    def start(report: Report) -> None:
        accounts = NewAccount(dealer.text(), dealer_pin.text()), NewAccount(boss.text(), boss_pin.text())
        _check_in_background(runner, lambda: _first_accounts(database, *accounts), signed_in, report)

    dialog.set_background_attempt(start)
    return dialog


def _key_set_up_dialog(
    database: Database, runner: BackgroundRunner, parent: QWidget, signed_in: SignedIn
) -> AttemptDialog:
    dialog = AttemptDialog(
        _("Room set-up after an upgrade"),
        _(
            "No floor supervisor holds a signing key yet: the accounts come from before sign-offs. A"
            " supervisor gives themselves one with their PIN and a new PIN of at least 8 characters,"
            " signs in, and approves a new PIN for each other account (Settings → Change an account's"
            " PIN…), which gives it its key."
        ),
        parent,
    )
    name, pin = dialog.add_line(_("Supervisor")), dialog.add_line(_("Current PIN"), secret=True)
    new_pin = dialog.add_line(_("New PIN"), secret=True)

    def set_up() -> Account | str:
        try:
            return set_up_key(database, name.text(), pin.text(), new_pin.text())
        except ActionRefused as refusal:
            return str(refusal)

    dialog.set_background_attempt(lambda report: _check_in_background(runner, set_up, signed_in, report))
    return dialog


def _check_in_background(
    runner: BackgroundRunner, work: Callable[[], Account | str], signed_in: SignedIn, report: Report
) -> None:
    def done(outcome: Account | str) -> None:
        if isinstance(outcome, str):
            report(outcome)
            return
        signed_in(outcome)
        report(None)

    runner.run(_("Checking the PIN…"), work, done, report)


def _first_accounts(database: Database, dealer: NewAccount, supervisor: NewAccount) -> Account | str:
    """Create the room's first dealer and supervisor, then sign the dealer in."""
    try:
        create_first_accounts(database, dealer, supervisor)
    except ActionRefused as refusal:
        return str(refusal)
    return checked_sign_in(database, dealer.name, dealer.pin)
