"""What the words of every floor cell share (`columns`, and `game_columns` for the columns that ask
the game): the dash of a cell with nothing to say, and the space no line breaks at."""

from __future__ import annotations

NO_VALUE = "—"
KEEP = "\u00a0"
"""A space a line never breaks at: a player's name and chips wrap as one, and so does each badge."""
