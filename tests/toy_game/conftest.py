from __future__ import annotations

import pytest

from tests.toy_game.register import register_toy


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game registered for this test only."""
    register_toy(monkeypatch)
