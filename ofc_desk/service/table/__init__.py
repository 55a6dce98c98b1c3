"""The live table: the state machine folded from its events, the commands it takes, each action's spec,
the games' parts, seats, dealers, supervision, corrections, and what the desk sees."""
