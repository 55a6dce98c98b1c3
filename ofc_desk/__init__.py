"""OFC Desk: the dealer's desk for a live Open-Face Chinese Poker table.

The version is written in one place only, `[project].version` in pyproject.toml. A source checkout
reads it from there (so a bumped version shows without reinstalling); an installed wheel or a
PyInstaller bundle (which copies the package metadata) answers from the installed metadata.
"""

from __future__ import annotations

from pathlib import Path

DISTRIBUTION = "ofc-desk"


def _checkout_version() -> str | None:
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    try:
        text = pyproject.read_text(encoding="utf-8")
    except OSError:
        return None
    # Imported only here: an installed desk has no pyproject.toml beside it, and tomllib's import
    # (its regexes compiled) is about 9 M instructions of its launch (callgrind).
    import tomllib

    try:
        project = tomllib.loads(text).get("project", {})
    except tomllib.TOMLDecodeError:
        return None
    return str(project["version"]) if project.get("name") == DISTRIBUTION else None


def _installed_version() -> str:
    # Imported only here: importlib.metadata costs the desk's start-up ~25 ms in a checkout.
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "0+unknown"


__version__ = _checkout_version() or _installed_version()
