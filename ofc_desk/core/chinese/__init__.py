"""Closed Chinese poker (docs/rules.md §10): presets, special hands, the pair result and the
two-pass settlement, on the OFC core's row strength, misset and table stakes."""
