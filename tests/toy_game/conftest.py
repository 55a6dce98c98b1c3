from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.toy_game.register import toy_registered


@pytest.fixture
def toy() -> Iterator[None]:
    """The toy game registered for this test only."""
    with toy_registered():
        yield
