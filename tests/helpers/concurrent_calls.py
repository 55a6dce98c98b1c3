"""Calls released together, each in a thread of its own: what the database sees when desks on
separate machines act at the same moment (each call uses connections of its own)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

JOIN_SECONDS = 120


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Each call's result, or the exception it raised (the outcome under test, whatever it is)."""
    start = threading.Barrier(len(calls))
    results: list[Any] = [RuntimeError("did not finish")] * len(calls)

    def run(index: int) -> None:
        start.wait()
        try:
            results[index] = calls[index]()
        except Exception as error:
            results[index] = error

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=JOIN_SECONDS)
    return results
