"""Benchmark of the translation layer's start-up cost (issue 29): figures printed, nothing asserted.

(1) Compiling a catalog in memory: a .po of 3,000 messages (about what the whole product will
    hold) read and compiled into gettext translations, by the runtime's reader and by Babel's.
(2) A fresh interpreter that imports ofc_desk.i18n and translates one string in Vietnamese,
    against one that only imports it (English needs no catalog).

    python benchmarks/i18n_bench.py [--runs 7]
"""

from __future__ import annotations

import argparse
import gettext
import io
import statistics
import subprocess
import sys
import time

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po as babel_read_po
from babel.messages.pofile import write_po

from ofc_desk.i18n.catalog import compile_mo, read_po

MESSAGES = 3000


def synthetic_po() -> str:
    catalog = Catalog(locale="ru")
    for number in range(MESSAGES):
        catalog.add(
            f"Message {number}: {{name}} did something at the table",
            f"Сообщение {number}: {{name}} что-то сделал",
        )
    out = io.BytesIO()
    write_po(out, catalog)
    return out.getvalue().decode("utf-8")


def best_ms(action: object, runs: int) -> float:
    times = []
    for _run in range(runs):
        start = time.perf_counter()
        action()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return 1000 * min(times)


def fresh_process_ms(code: str, runs: int) -> float:
    times = []
    for _run in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    text = synthetic_po()

    def ours() -> None:
        gettext.GNUTranslations(io.BytesIO(compile_mo(read_po(text))))

    def babels() -> None:
        out = io.BytesIO()
        write_mo(out, babel_read_po(io.StringIO(text)))
        gettext.GNUTranslations(io.BytesIO(out.getvalue()))

    print(f"(1) {MESSAGES} messages compiled in memory (best of {runs}):")
    print(f"    runtime reader {best_ms(ours, runs):.1f} ms, Babel {best_ms(babels, runs):.1f} ms")
    english = fresh_process_ms("import ofc_desk.i18n", runs)
    vietnamese = fresh_process_ms(
        "from ofc_desk.i18n import Language, _, use_language; use_language(Language.VI); _('&File')", runs
    )
    print(f"(2) fresh interpreter (median of {runs}): import only {english:.0f} ms,")
    print(f"    Vietnamese catalog compiled and used {vietnamese:.0f} ms")


if __name__ == "__main__":
    main()
