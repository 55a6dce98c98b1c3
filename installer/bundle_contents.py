"""The native modules the bundle carries, read from the installed distributions, and the check that
the bundled program imports each of them.

The desk's runtime dependencies are the distributions its installed metadata requires (with the
extras it asks for, under this machine's markers) and, in turn, theirs. Every native (extension)
module of theirs goes into the bundle whether PyInstaller's analysis sees it or not (reportlab
loads `_rl_accel` through exec; cryptography's Rust module loads `_cffi_backend` from C), except
those in LEFT_OUT: the Qt modules the desk never imports and the PIL codecs the reports never use.

    python installer/bundle_contents.py PROGRAM

has the bundled PROGRAM import each of them (its hidden `--import-probe`, installer/entry.py),
after the packages that load them (psycopg_binary refuses to load before psycopg), and exits 1
naming any that did not import, or any left-out module that did (then the trimming failed).
"""

from __future__ import annotations

import functools
import importlib.machinery
import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

# Qt modules the desk never imports (it uses QtCore, QtGui, QtWidgets and QtPrintSupport);
# PySide6's hooks would otherwise follow them in, with the Qt libraries behind them.
UNUSED_QT = [
    "Qt3DAnimation", "Qt3DCore", "Qt3DExtras", "Qt3DInput", "Qt3DLogic", "Qt3DRender", "QtBluetooth",
    "QtCharts", "QtConcurrent", "QtDataVisualization", "QtDesigner", "QtGraphs", "QtHelp", "QtHttpServer",
    "QtLocation", "QtMultimedia", "QtMultimediaWidgets", "QtNetwork", "QtNetworkAuth", "QtNfc", "QtOpenGL",
    "QtOpenGLWidgets", "QtPositioning", "QtQml", "QtQuick", "QtQuick3D", "QtQuickControls2", "QtQuickTest",
    "QtQuickWidgets", "QtRemoteObjects", "QtScxml", "QtSensors", "QtSerialBus", "QtSerialPort",
    "QtSpatialAudio", "QtSql", "QtStateMachine", "QtSvg", "QtSvgWidgets", "QtTest", "QtTextToSpeech",
    "QtUiTools", "QtWebChannel", "QtWebEngineCore", "QtWebEngineQuick", "QtWebEngineWidgets",
    "QtWebSockets", "QtWebView", "QtXml",
]  # fmt: skip
# reportlab imports PIL on start, but the reports hold no bitmaps: leave out PIL's optional codecs
# (AVIF alone brings 5 MB of libraries), its colour management and its Tk bridge.
UNUSED_PIL = [
    "_avif", "AvifImagePlugin", "_webp", "WebPImagePlugin",
    "_imagingcms", "ImageCms", "_imagingtk", "ImageTk",
]  # fmt: skip
LEFT_OUT = [f"PySide6.{module}" for module in UNUSED_QT] + [f"PIL.{module}" for module in UNUSED_PIL]

PROBE_OPTION = "--import-probe"
# Longest first: "x.abi3.so" is a module named x, not "x.abi3".
_SUFFIXES = sorted(importlib.machinery.EXTENSION_SUFFIXES, key=len, reverse=True)


def runtime_requirements(root: str) -> dict[str, tuple[metadata.Distribution, set[str]]]:
    """`root` and every distribution it needs at run time, by normalized name, each with the
    normalized names of the distributions it requires."""
    found: dict[str, tuple[metadata.Distribution, set[str]]] = {}
    extras: dict[str, set[str]] = {}
    pending: list[tuple[str, frozenset[str]]] = [(root, frozenset())]
    while pending:
        name, wanted_extras = pending.pop()
        key = canonicalize_name(name)
        if key in found and wanted_extras <= extras[key]:
            continue
        distribution, required = found.setdefault(key, (metadata.distribution(name), set()))
        extras.setdefault(key, set()).update(wanted_extras)
        environments = [{"extra": extra} for extra in extras[key] | {""}]
        for line in distribution.requires or []:
            requirement = Requirement(line)
            marker = requirement.marker
            if marker is None or any(marker.evaluate(environment) for environment in environments):
                required.add(canonicalize_name(requirement.name))
                pending.append((requirement.name, frozenset(requirement.extras)))
    return found


def runtime_distributions(root: str) -> dict[str, metadata.Distribution]:
    """`root` and every distribution it needs at run time, by normalized name."""
    return {key: distribution for key, (distribution, _) in runtime_requirements(root).items()}


def native_modules(root: str) -> dict[str, str]:
    """Every extension module of `root`'s runtime distributions: module name -> distribution name
    (a new dict each call, from one reading of the installed files a process)."""
    return dict(_native_modules(root))


@functools.cache
def _native_modules(root: str) -> tuple[tuple[str, str], ...]:
    """Read once a process: the check asks three times (the modules, their loaders, the bundled
    ones), and each reading opens every extension file of every dependency (Qt's among them)."""
    modules = {}
    for distribution in runtime_distributions(root).values():
        for file in distribution.files or []:
            module = _extension_module(file, distribution)
            if module is not None:
                modules[module] = distribution.metadata["Name"]
    return tuple(sorted(modules.items()))


def loaders(root: str) -> list[str]:
    """The top-level packages of the runtime distributions that require one with native modules:
    the probe imports them first, as the desk reaches those modules through them."""
    requirements = runtime_requirements(root)
    with_native = {canonicalize_name(name) for name in native_modules(root).values()}
    packages = {
        file.parts[0]
        for distribution, required in requirements.values()
        if required & with_native
        for file in distribution.files or []
        if len(file.parts) == 2 and file.name == "__init__.py" and file.parts[0].isidentifier()
    }
    return sorted(packages)


def _extension_module(file: metadata.PackagePath, distribution: metadata.Distribution) -> str | None:
    """The module a file is, if it is an extension module: a file with an extension suffix that
    exports its `PyInit_` function (a library for ctypes, such as pdfium, or a Qt plugin, has the
    suffix but not the function)."""
    suffix = next((suffix for suffix in _SUFFIXES if file.name.endswith(suffix)), None)
    if suffix is None or file.parts[0] == "..":
        return None
    parts = [*file.parts[:-1], file.name.removesuffix(suffix)]
    if not all(part.isidentifier() for part in parts):
        return None
    path = Path(str(distribution.locate_file(file)))
    return ".".join(parts) if f"PyInit_{parts[-1]}".encode() in path.read_bytes() else None


def is_left_out(module: str) -> bool:
    return any(module == left or module.startswith(f"{left}.") for left in LEFT_OUT)


def bundled_native_modules(root: str) -> list[str]:
    """The native modules the bundle must carry: all of them but the left-out ones."""
    return [module for module in native_modules(root) if not is_left_out(module)]


def probe(program: Path, modules: list[str]) -> dict[str, str | None]:
    """Have the bundled program import each module: module -> its error, or None if it imported."""
    answered = subprocess.run(
        [str(program), PROBE_OPTION],
        input="\n".join(modules),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if answered.returncode != 0:
        status, said = answered.returncode, answered.stderr.strip()
        raise RuntimeError(f"{program} {PROBE_OPTION} exited {status}: {said}")
    result: dict[str, str | None] = json.loads(answered.stdout)
    return result


def problems(root: str, program: Path) -> tuple[int, list[str]]:
    """How many native modules the bundle should import, and what is wrong with it."""
    modules, first = native_modules(root), loaders(root)
    results = probe(program, [*first, *modules])
    wrong = [f"{package} does not import: {results[package]}" for package in first if results[package]]
    for module in modules:
        error = results[module]
        if is_left_out(module) and error is None:
            wrong.append(f"{module} ({modules[module]}) is left out but the bundle imports it")
        elif not is_left_out(module) and error is not None:
            wrong.append(f"{module} ({modules[module]}) does not import: {error}")
    return len(modules) - sum(map(is_left_out, modules)), wrong


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python installer/bundle_contents.py PROGRAM", file=sys.stderr)
        return 2
    expected, wrong = problems("ofc-desk", Path(argv[0]))
    for line in wrong:
        print(line, file=sys.stderr)
    if wrong:
        return 1
    print(f"all {expected} native modules of the desk's dependencies import; the left-out ones do not")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
