"""The bundled program's entry point: the same `ofc-desk` command a pip install gives.

One option more, for the installer's check (installer/bundle_contents.py) and never shown in help:
`--import-probe` reads module names from standard input, one a line, imports each and prints a
JSON object giving each name's error, or null for a module that imported.
"""

import importlib
import json
import sys


def import_probe() -> int:
    errors: dict[str, str | None] = {}
    for name in sys.stdin.read().split():
        try:
            importlib.import_module(name)
        except Exception as error:  # what a module raises as it loads is what the check reports
            errors[name] = f"{type(error).__name__}: {error}"
        else:
            errors[name] = None
    print(json.dumps(errors, indent=1))
    return 0


def run() -> int:
    if sys.argv[1:] == ["--import-probe"]:
        return import_probe()
    # Imported only here: the probe reports a broken module by name instead of dying on it.
    from ofc_desk.cli.main import main

    return main()


raise SystemExit(run())
