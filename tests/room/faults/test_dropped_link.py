"""A link to PostgreSQL that silently drops packets never hangs the desk (issue 34): a new connection
that gets no answer fails after libpq's `connect_timeout`, in the words that say the database did
not answer; the engine also sets TCP keepalives and a user timeout, unless the URL sets its own.

Loopback only: a socket on 127.0.0.1 that accepts the connection and never says a word, as a server
behind a link that drops what it sends."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import event, text

from ofc_desk.service.store.unrecorded import refused_unrecorded
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.storage import connections
from ofc_desk.storage.database import Database

SHORTEST_TIMEOUT = 2
"""libpq's least `connect_timeout`: a smaller one counts as 2 s."""
HUNG = 60.0
"""Seconds after which the connection attempt is taken to hang (the product's timeout is lowered)."""


@pytest.fixture
def silent_server() -> Iterator[str]:
    """The URL of a listening socket that never answers."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)  # the kernel completes the handshake; nobody reads or writes
        port = listener.getsockname()[1]
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/test"


def test_a_server_that_never_answers_is_said_not_to_answer(
    silent_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connections, "CONNECT_TIMEOUT_SECONDS", SHORTEST_TIMEOUT)
    room = Database(silent_server, migrate=False)
    said: list[str] = []

    def read() -> None:
        try:
            with refused_unrecorded(), room.session() as session:
                session.execute(text("SELECT 1"))
        except ActionRefused as refusal:
            said.append(str(refusal))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(HUNG)
    room.dispose()
    assert not reader.is_alive(), "the connection attempt hung"
    assert len(said) == 1
    assert said[0].startswith("the database did not answer (connection timeout expired"), said[0]
    assert said[0].endswith("check the connection to the database, then do it again")


def _connect_settings(url: str) -> dict[str, object]:
    """What the engine hands the driver for a new connection (the attempt is refused: port 1)."""
    room = Database(url, migrate=False)
    seen: dict[str, object] = {}

    def look(_dialect: object, _record: object, _args: object, settings: dict[str, object]) -> None:
        seen.update(settings)

    event.listen(room.engine, "do_connect", look)
    with pytest.raises(ActionRefused), refused_unrecorded(), room.engine.connect():
        pass
    room.dispose()
    return seen


def test_the_link_settings_and_a_urls_own() -> None:
    settings = _connect_settings("postgresql+psycopg://postgres@127.0.0.1:1/test")
    assert settings["connect_timeout"] == connections.CONNECT_TIMEOUT_SECONDS
    assert settings["keepalives"] == 1
    assert settings["keepalives_idle"] == connections.KEEPALIVE_IDLE_SECONDS
    assert settings["keepalives_interval"] == connections.KEEPALIVE_INTERVAL_SECONDS
    assert settings["keepalives_count"] == connections.KEEPALIVE_PROBES
    assert settings["tcp_user_timeout"] == connections.TCP_USER_TIMEOUT_MILLISECONDS
    kept = _connect_settings("postgresql+psycopg://postgres@127.0.0.1:1/test?connect_timeout=45&keepalives=0")
    assert (kept["connect_timeout"], kept["keepalives"]) == ("45", "0")
    assert kept["keepalives_idle"] == connections.KEEPALIVE_IDLE_SECONDS
