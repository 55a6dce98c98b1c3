"""The bundle carries every native module of the desk's dependencies (installer/bundle_contents.py).

The list is read from the installed distributions of the desk's runtime dependencies, never kept
by hand. The bundled program is the one `installer/build.sh` built, named by OFC_DESK_BUNDLE
(.ci/run builds it and sets that before the suite); without it, only the bundle's own test skips.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import bundle_contents as contents
import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALLER = ROOT / "installer"
BUNDLE_VARIABLE = "OFC_DESK_BUNDLE"


def test_the_runtime_dependencies_follow_the_extras_the_desk_asks_for_and_no_others() -> None:
    distributions = contents.runtime_distributions("ofc-desk")
    # rl-accel comes only with reportlab[accel], psycopg-binary only with psycopg[binary], cffi only
    # through cryptography.
    assert {"cryptography", "cffi", "rl-accel", "psycopg-binary", "pyside6-essentials"} <= set(distributions)
    # Installed here, but only for the [test] and [dev] extras the desk's runtime does not ask for.
    assert not {"pytest", "pyinstaller", "mypy"} & set(distributions)


def test_the_native_modules_are_the_extension_modules_the_dependencies_install() -> None:
    modules = contents.native_modules("ofc-desk")
    assert modules["_cffi_backend"] == "cffi"
    assert modules["cryptography.hazmat.bindings._rust"] == "cryptography"
    assert modules["_rl_accel"] == "rl_accel"
    assert modules["PySide6.QtWidgets"].lower() == "pyside6_essentials"
    # pdfium is a library pypdfium2 opens with ctypes, and Qt's plugins are Qt's: not modules.
    assert "pypdfium2_raw.libpdfium" not in modules
    assert not [module for module in modules if module.startswith("PySide6.Qt.")]
    for package in contents.loaders("ofc-desk"):
        importlib.import_module(package)  # psycopg_binary, for one, must come after psycopg
    for module in contents.bundled_native_modules("ofc-desk"):
        found = importlib.util.find_spec(module)
        assert found is not None and isinstance(found.loader, importlib.machinery.ExtensionFileLoader), module


def test_the_native_modules_are_read_once_and_each_caller_gets_its_own_copy() -> None:
    """The installed files are read once a process (the check asks three times); a caller that
    changes its answer changes no later one."""
    first = contents.native_modules("ofc-desk")
    first.pop("_cffi_backend")
    first["not_a_module"] = "nobody"
    again = contents.native_modules("ofc-desk")
    assert again["_cffi_backend"] == "cffi" and "not_a_module" not in again
    assert contents._native_modules.cache_info().hits >= 1


def test_the_left_out_modules_are_the_unused_qt_modules_and_pil_codecs() -> None:
    assert contents.is_left_out("PySide6.QtNetwork")
    assert contents.is_left_out("PIL._avif")
    assert not contents.is_left_out("PySide6.QtWidgets")
    assert not contents.is_left_out("PIL._imaging")
    bundled = contents.bundled_native_modules("ofc-desk")
    assert bundled and not [module for module in bundled if contents.is_left_out(module)]


def test_the_import_probe_reports_each_module_and_its_error() -> None:
    answered = subprocess.run(
        [sys.executable, str(INSTALLER / "entry.py"), "--import-probe"],
        input="json\n_cffi_backend\nno_such_module_here\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(answered.stdout) == {
        "json": None,
        "_cffi_backend": None,
        "no_such_module_here": "ModuleNotFoundError: No module named 'no_such_module_here'",
    }


def fake_bundle(folder: Path, errors: dict[str, str]) -> Path:
    """A program answering the probe as a bundle would: `errors` for the modules named there."""
    program = folder / "ofc-desk"
    program.write_text(
        f"#!{sys.executable}\nimport json, sys\nerrors = {errors!r}\n"
        "print(json.dumps({name: errors.get(name) for name in sys.stdin.read().split()}))\n",
        encoding="utf-8",
    )
    program.chmod(0o755)
    return program


def test_the_check_names_a_missing_native_module_and_a_carried_left_out_one(tmp_path: Path) -> None:
    gone = "ModuleNotFoundError: gone"
    left_out = [module for module in contents.native_modules("ofc-desk") if contents.is_left_out(module)]
    errors = {module: gone for module in left_out if module != "PySide6.QtNetwork"}
    _expected, wrong = contents.problems("ofc-desk", fake_bundle(tmp_path, {**errors, "_cffi_backend": gone}))
    assert wrong == [
        "PySide6.QtNetwork (PySide6_Essentials) is left out but the bundle imports it",
        f"_cffi_backend (cffi) does not import: {gone}",
    ]
    as_built = fake_bundle(tmp_path, {**errors, "PySide6.QtNetwork": gone})
    assert contents.problems("ofc-desk", as_built) == (len(contents.bundled_native_modules("ofc-desk")), [])


def bundled_program() -> Path:
    named = os.environ.get(BUNDLE_VARIABLE)
    if not named:
        pytest.skip(
            f"no bundle to check: {BUNDLE_VARIABLE} is not set (installer/build.sh builds one; "
            ".ci/run builds it and sets the variable)"
        )
    program = Path(named)
    assert program.is_file(), f"{BUNDLE_VARIABLE}={named} names no bundled program"
    return program


def test_the_bundle_imports_every_native_module_of_the_desks_dependencies() -> None:
    program = bundled_program()
    modules, first = contents.native_modules("ofc-desk"), contents.loaders("ofc-desk")
    results = contents.probe(program, [*first, *modules])
    assert set(results) == {*first, *modules}
    left_out = sorted(module for module in modules if contents.is_left_out(module))
    not_imported = {name: error for name, error in results.items() if error is not None}
    assert {name: error for name, error in not_imported.items() if name not in left_out} == {}
    assert sorted(not_imported) == left_out, "the bundle carries modules the spec leaves out"
    assert {"_cffi_backend", "_rl_accel", "cryptography.hazmat.bindings._rust"} <= results.keys()
