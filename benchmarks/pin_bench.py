"""Benchmark of a PIN guessed offline: figures printed, nothing asserted.

Someone with a copy of the database tries PINs against an account's stored hash (the same scrypt
run that opens its sealed key) on every core of this machine. This prints what one try costs at the
product's scrypt cost (CPU time, which other people's load on a shared machine disturbs less than
wall time; best of several rounds), the tries a second on all cores, and how long trying every PIN
of digits alone takes: a dealer's shortest (4) and a supervisor's (8, docs/decisions.md).

    python benchmarks/pin_bench.py [--tries 40] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import secrets
import time
from concurrent.futures import ProcessPoolExecutor

from ofc_desk.storage import keys
from ofc_desk.storage.users import MIN_PIN_LENGTH, SUPERVISOR_PIN_LENGTH


def cpu_seconds_a_try(tries: int) -> float:
    """CPU seconds one scrypt run at the product's cost takes in this process."""
    n, r, p = keys.scrypt_cost()
    salt = secrets.token_bytes(16)
    start = time.process_time()
    for guess in range(tries):
        keys.pin_scrypt(f"{guess:04d}", salt, n, r, p)
    return (time.process_time() - start) / tries


def spoken(seconds: float) -> str:
    for unit, size in (("days", 86_400), ("hours", 3_600), ("minutes", 60)):
        if seconds >= size:
            return f"{seconds / size:,.1f} {unit}"
    return f"{seconds:,.0f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    with ProcessPoolExecutor(cores) as pool:
        best = min(max(pool.map(cpu_seconds_a_try, [args.tries] * cores)) for _ in range(args.rounds))
    n, r, p = keys.scrypt_cost()
    per_second = cores / best
    print(
        f"scrypt N={n} r={r} p={p}: {best * 1000:.1f} ms of CPU a try;"
        f" {per_second:,.0f} tries a second on {cores} cores"
    )
    for length in (MIN_PIN_LENGTH, 6, SUPERVISOR_PIN_LENGTH):
        print(f"every PIN of {length} digits: {spoken(10**length / per_second)}")


if __name__ == "__main__":
    main()
