"""The desk's database opened and its dealer's PIN checked, and a launch's sign-in begun ahead of the
rest of the desk (issue 39, point 3: ready to type).

A desk started for a dealer and a table (`ofc-desk demo`, `app.run_prepared_desk`) knows the
database and the dealer's name and PIN before it has loaded the rest of its window and the service.
The PIN's scrypt is about a hundred milliseconds of C that lets other threads run: begun on a thread
of its own as soon as what it needs is loaded (the storage, SQLAlchemy with it), it runs while the
window's remaining modules load on the UI thread, where it used to start only after them. Nothing
else changes: the same PIN check (`checked_sign_in`), counted by the lockout as one try, and the
table is still held and shown only once the dealer is in (`session.sign_in_beside_resume`).

The thread starts only after this module's imports: it imports nothing the UI thread is importing
meanwhile (SQLAlchemy's dialect and, for a migration, Alembic, which nothing else there loads), so
two threads never import the same modules at once.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future

from ofc_desk.storage.database import Database
from ofc_desk.storage.room_schema import RoomNotReady
from ofc_desk.storage.users import Account, SignInError, sign_in


def open_when_ready(url: str | None) -> Database | RoomNotReady:
    """The database opened and migrated; or, when this login may not use it as it stands yet (an
    upgrade to be run by the room's owner), why (the engine let go: the desk tries again)."""
    database = Database(url, migrate=False)
    try:
        database.migrate()
    except RoomNotReady as not_ready:
        database.dispose()
        return not_ready
    except BaseException:
        database.dispose()
        raise
    return database


def checked_sign_in(database: Database, name: str, pin: str) -> Account | str:
    """The account, or the refusal sentence (runs off the UI thread: the PIN hash is slow)."""
    try:
        return sign_in(database, name, pin)
    except SignInError as error:
        return str(error)


class SignInAhead:
    """A launch's database opened and its dealer (name, PIN) signed in on a thread of its own, begun
    before the rest of the desk loads. Each part is a future the desk's workers wait on: `opened`
    (what `open_when_ready` gives) and, once a database is open, `checked` (what `checked_sign_in`
    gives). A room not ready, or a database that cannot be opened, checks no PIN (`checked` is then
    cancelled)."""

    def __init__(self, url: str | None, dealer: tuple[str, str]) -> None:
        self.dealer = dealer
        self._opened: Future[Database | RoomNotReady] = Future()
        self._checked: Future[Account | str] = Future()
        self._thread = threading.Thread(target=self._run, args=(url,), name="OFC Desk sign-in")

    @classmethod
    def begin(cls, url: str | None, dealer: tuple[str, str]) -> SignInAhead:
        ahead = cls(url, dealer)
        ahead._thread.start()
        return ahead

    def opened(self) -> Database | RoomNotReady:
        """The database, once open (waits; raises what opening it raised)."""
        return self._opened.result()

    def checked(self) -> Account | str:
        """The dealer's account or the refusal (waits; raises what the check raised)."""
        return self._checked.result()

    def let_go(self) -> None:
        """Not waited for after all (the desk signs in another dealer): the database it opened is
        disposed of once its check is done, whichever way that went."""
        self._checked.add_done_callback(lambda _checked: self._dispose_opened())

    def _dispose_opened(self) -> None:
        # The check ends after the opening, except when nothing was opened (an error, a room not
        # ready): then there is nothing to dispose of.
        if self._opened.done() and self._opened.exception() is None:
            opened = self._opened.result()
            if isinstance(opened, Database):
                opened.dispose()

    def _run(self, url: str | None) -> None:
        try:
            database = open_when_ready(url)
        except BaseException as error:  # given to whoever waits, as a worker's failure
            self._checked.cancel()
            self._opened.set_exception(error)
            return
        if isinstance(database, RoomNotReady):
            self._checked.cancel()
        self._opened.set_result(database)
        if isinstance(database, RoomNotReady):
            return
        try:
            self._checked.set_result(checked_sign_in(database, *self.dealer))
        except BaseException as error:
            self._checked.set_exception(error)
