"""Every refusal the desk shows goes through this module: why something was refused, in the
service's own words, on a red line next to what the dealer was doing. Never a modal box: a box
would stop the table for a sentence the dealer reads in passing, and hide what was typed.

A refusal is the service's own sentence. A database failure (a dropped network link to the card
room's PostgreSQL, a full disk) means the action was not recorded: the service rolls its table back
to what is stored, and the desk says so in plain words instead of crashing.

Where a refusal appears:
- a dialog's own line (`AttemptDialog.refusal`), which stays open to be corrected;
- otherwise the line of the page the window shows (entry, settlement or between hands), and the
  window's status bar too when the page is not where the refused work started (background work,
  reports).
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtWidgets import QLabel, QSizePolicy, QStatusBar, QWidget
from sqlalchemy.exc import SQLAlchemyError

from ofc_desk.i18n import _
from ofc_desk.service.store.unrecorded import unrecorded_sentence
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.storage.database import failure_cause
from ofc_desk.storage.room_schema import RoomNotReady

SERVICE_FAILURES: tuple[type[Exception], ...] = (ActionRefused, SQLAlchemyError, OSError)
STATUS_BAR_MILLISECONDS = 15_000


class RefusalHost(Protocol):
    """A window with pages, each with a refusal line and perhaps a notice line (`MainWindow`)."""

    def refusal_line(self) -> QLabel:
        """The refusal line of the page shown."""
        ...

    def refusal_lines(self) -> tuple[QLabel, ...]: ...

    def notice_line(self) -> QLabel | None:
        """The notice line of the page shown, if it has one."""
        ...

    def notice_lines(self) -> tuple[QLabel, ...]: ...

    def statusBar(self) -> QStatusBar: ...


def refusal_label(parent: QWidget) -> QLabel:
    """It wraps at the width its place gives it and never asks for more: a long unbroken word (a
    pasted mistake) is cut at the edge instead of widening the window off the screen."""
    label = QLabel("", parent)
    label.setObjectName("refusal")
    label.setAccessibleName(_("Refusal"))
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return label


def notice_label(parent: QWidget) -> QLabel:
    """The other line a page has: what was just done ("Bob cashed out 180 chips"), so a dealer who
    acted through a dialog or an undo sees it took. Wraps like a refusal; the two never show at once."""
    label = refusal_label(parent)
    label.setObjectName("notice")
    label.setAccessibleName(_("Done"))
    return label


def show_notice_in_window(window: RefusalHost, sentence: str) -> None:
    """What was done, on the line of the page shown (its refusal cleared) and in the status bar."""
    clear_in_window(window)
    notice = window.notice_line()
    if notice is not None:
        show_on(notice, sentence)
    window.statusBar().showMessage(sentence, STATUS_BAR_MILLISECONDS)


def show_on(label: QLabel, sentence: str) -> None:
    """The refusal on one line (a dialog's or a panel's); an empty sentence clears it."""
    label.setText(sentence)


def show_in_window(window: RefusalHost, sentence: str) -> None:
    """Inline, on the line of the page the dealer is looking at."""
    for label in window.notice_lines():
        show_on(label, "")
    show_on(window.refusal_line(), sentence)


def show_in_window_and_status(window: RefusalHost, sentence: str) -> None:
    """For work that finished away from where it was asked for (a report, a background job): on
    the page's line, and in the status bar a while, so it is seen whichever page is up."""
    show_in_window(window, sentence)
    window.statusBar().showMessage(sentence, STATUS_BAR_MILLISECONDS)


def clear_in_window(window: RefusalHost) -> None:
    """Refusals and notices both: the dealer has moved on."""
    for label in (*window.refusal_lines(), *window.notice_lines()):
        show_on(label, "")


def background_sentence(failure: Exception) -> str:
    """What went wrong with work done off the UI thread (opening the database, resuming, verifying),
    in words: the driver's own first line, never SQLAlchemy's class names and web links."""
    if isinstance(failure, ActionRefused | RoomNotReady):
        return str(failure)
    if isinstance(failure, SQLAlchemyError):
        cause = failure_cause(failure)
        return _(
            "the database could not be used ({cause}): check its URL in Settings, or the connection"
        ).format(cause=cause)
    lines = str(failure).splitlines()
    return _("that did not work: {cause}").format(cause=lines[0] if lines else type(failure).__name__)


def dealer_sentence(failure: Exception) -> str:
    """A refusal as the service said it; a failed transaction as what happened, that nothing was
    recorded and what to do (`unrecorded`)."""
    if isinstance(failure, ActionRefused):
        return str(failure)
    return unrecorded_sentence(failure)
