"""The record's checks: `verify` re-folds every session and re-checks chains, rows, signatures and
scores, sessions side by side."""
