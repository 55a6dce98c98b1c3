"""Benchmark of reading a command line (issue 39, point 4): figures printed, nothing asserted.

`ofc-desk`'s `main` builds a parser (every subcommand's, its help translated) before it reads the
words; it now keeps the one it built for a language and a command. Each command line below is read
as `main` reads it before it runs the command (the parser, the words held back from refusals, the
parse), with a parser built anew each time, as before, and with the kept one, in the same run.

    python benchmarks/cli_parse_bench.py [--calls 300]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from ofc_desk.cli import main as cli
from ofc_desk.i18n import active_language, use_language
from ofc_desk.i18n.languages import parse_language

COMMAND_LINES = (
    ["verify", "--db", "sqlite:///room.db"],
    ["--lang", "ru", "report", "--db", "sqlite:///room.db", "--out", "report.pdf"],
    ["db", "status", "--db", "sqlite:///room.db"],
    ["score", "deals.json"],
)


def new_parser(words: list[str]) -> argparse.ArgumentParser:
    return cli.build_parser(words)


def kept_parser(words: list[str]) -> argparse.ArgumentParser:
    return cli._parser_in(active_language(), cli._chosen(words))


ParserFor = Callable[[list[str]], argparse.ArgumentParser]


def read_ms(parser_for: ParserFor, words: list[str], calls: int) -> float:
    """CPU milliseconds a reading of `words` takes, as `main` reads them, over `calls` readings."""
    named = cli.language_named(words)
    language = named or parse_language("en")
    assert language is not None
    use_language(language)
    parser_for(words)  # the subcommand's module imported, as any first call does
    start = time.process_time()
    for _call in range(calls):
        parser = parser_for(words)
        cli.typed_values(words, parser)
        parser.parse_args(words)
    return 1000 * (time.process_time() - start) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300, help="readings of each command line")
    calls = parser.parse_args().calls
    print(f"{'command line':<70} {'built anew':>11} {'kept':>8}")
    for words in COMMAND_LINES:
        anew, kept = read_ms(new_parser, words, calls), read_ms(kept_parser, words, calls)
        print(f"{' '.join(words):<70} {anew:8.3f} ms {kept:5.3f} ms")


if __name__ == "__main__":
    main()
