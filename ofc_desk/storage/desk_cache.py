"""The desk's own cache folder: what a desk keeps for itself to start faster, never what the room
stores (`service.store.checkpoint`). Anything in it may be deleted at any time: the desk rebuilds it."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from ofc_desk.storage.database import APP_NAME

CACHE_VARIABLE = "OFC_DESK_CACHE"
"""A folder in place of the user's cache folder (a test's, a benchmark's)."""


def cache_folder(part: str) -> Path:
    """The folder `part` of this desk's cache (not created here)."""
    override = os.environ.get(CACHE_VARIABLE)
    root = Path(override) if override else Path(platformdirs.user_cache_dir(APP_NAME))
    return root / part
