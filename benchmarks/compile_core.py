"""Compile the rules core and `floor_scorer.py` with mypyc, in place: an experiment for README.md.

It answers whether compiling the same typed source (no second implementation) brings
`ofc-desk score` within its goal. Run it only in a throw-away clone: the compiled modules it leaves
beside the sources are imported instead of them, so edits to those sources would go unseen.

    git clone -q . /tmp/ofc-compiled && cd /tmp/ofc-compiled
    python3 -m venv .venv && .venv/bin/pip install -e ".[dev]"
    .venv/bin/python benchmarks/compile_core.py
    cd benchmarks && PYTHONPATH=.. ../.venv/bin/python core_bench.py

(PYTHONPATH, because the compiled core's shared runtime lands at the top of the clone.)

It needs a C compiler and the Python headers (gcc and python3-dev on Debian).
"""

from __future__ import annotations

import os
from pathlib import Path

from mypyc.build import mypycify
from setuptools import Distribution

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    os.environ["MYPYPATH"] = str(ROOT)  # for floor_scorer's imports of the core
    core = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "ofc_desk" / "core").glob("*.py"))
    compile_in_place(ROOT, core)
    # Built from its own folder, so that it lands beside the benchmark that imports it.
    compile_in_place(ROOT / "benchmarks", ["floor_scorer.py"])


def compile_in_place(folder: Path, sources: list[str]) -> None:
    os.chdir(folder)
    # A Distribution of its own, not setup(): setup() would read the project's pyproject.toml and
    # build the whole package rather than these modules.
    distribution = Distribution({"name": "ofc-desk-compiled", "ext_modules": mypycify(sources)})
    build = distribution.get_command_obj("build_ext")
    build.inplace = True
    distribution.run_command("build_ext")


if __name__ == "__main__":
    main()
