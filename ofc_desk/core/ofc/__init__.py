"""Open-Face Chinese Poker (docs/rules.md §1–§9): its presets, variants and streets, the scoring of a
finished deal, Fantasyland, and the deals `ofc-desk score` reads."""
