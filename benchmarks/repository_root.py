"""The repository's root on `sys.path`, for the benchmarks that build their rooms with the tests'
helpers (`tests.helpers`): `python benchmarks/NAME.py` puts only benchmarks/ there. Imported before
`ofc_desk` and `tests`, as `PYTHONPATH=.` did: the package measured is this checkout's. The helpers
stay the tests' (no test imports a benchmark: test_pool_history_bench_runs runs one as its
script, `runpy` as `python` would); this only lets the scripts find them."""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(1, ROOT)  # after benchmarks/ (the script's folder), before the installed package
