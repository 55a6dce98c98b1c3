"""The PyInstaller spec, run against stand-ins for PyInstaller (building the bundle takes minutes;
`installer/build.sh --check` does that). What is checked: the name and version come from
pyproject.toml, a stale installed version is refused, and the trimming keeps what the desk needs."""

from __future__ import annotations

import importlib.metadata
import shutil
import sys
import types
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "installer" / "ofc-desk.spec"

QT = "PySide6/Qt"
BINARIES = [
    (f"{QT}/plugins/platforms/libqxcb.so", "/src/libqxcb.so", "BINARY"),
    (f"{QT}/plugins/platforms/libqoffscreen.so", "/src/libqoffscreen.so", "BINARY"),
    (f"{QT}/plugins/platforms/libqvnc.so", "/src/libqvnc.so", "BINARY"),
    (f"{QT}/plugins/platformthemes/libqgtk3.so", "/src/libqgtk3.so", "BINARY"),
    (f"{QT}/plugins/sqldrivers/libqsqlite.so", "/src/libqsqlite.so", "BINARY"),
    (f"{QT}/lib/libQt6Gui.so.6", "/src/libQt6Gui.so.6", "BINARY"),
    (f"{QT}/lib/libQt6Network.so.6", "/src/libQt6Network.so.6", "BINARY"),
    (f"{QT}/plugins/tls/libqopensslbackend.so", "/src/libqopensslbackend.so", "BINARY"),
    (f"{QT}/plugins/designer/libPySidePlugin.so", "/src/libPySidePlugin.so", "BINARY"),
    ("libpython3.11.so.1.0", "/src/libpython3.11.so.1.0", "BINARY"),
    ("libfontconfig.so.1", "/src/libfontconfig.so.1", "BINARY"),
    ("libcairo.so.2", "/src/libcairo.so.2", "BINARY"),
    ("libcrypto.so.3", "/src/libcrypto.so.3", "BINARY"),
    # A top-level extension module nothing links to: cryptography's Rust module loads it by name.
    ("_cffi_backend.cpython-311-x86_64-linux-gnu.so", "/src/_cffi_backend.so", "EXTENSION"),
    ("psycopg_binary/_psycopg.cpython-311-x86_64-linux-gnu.so", "/src/_psycopg.so", "EXTENSION"),
    # A library a hook collected for loading by name (ctypes): nothing links to it either.
    ("libloaded_by_name.so.1", "/src/libloaded_by_name.so.1", "BINARY"),
    ("PySide6/plugins/platforms/qwindows.dll", "/src/qwindows.dll", "BINARY"),  # Windows layout
    ("PySide6/plugins/platforms/qvnc.dll", "/src/qvnc.dll", "BINARY"),
]
# What each library links to, as PyInstaller's get_imports reports it (the whole chain).
LINKS = {
    "/src/libqxcb.so": {"libQt6Gui.so.6", "libfontconfig.so.1"},
    "/src/libqgtk3.so": {"libQt6Gui.so.6", "libcairo.so.2"},
    "/src/libqvnc.so": {"libQt6Network.so.6"},
    "/src/libqopensslbackend.so": {"libQt6Network.so.6", "libcrypto.so.3"},
    "/src/_psycopg.so": {"libcrypto.so.3"},
    "/src/libPySidePlugin.so": {"libpython3.11.so.1.0"},
}
DATAS = [
    (f"{QT}/translations/qtbase_de.qm", "/src/qtbase_de.qm", "DATA"),
    ("PySide6/translations/qtbase_fr.qm", "/src/qtbase_fr.qm", "DATA"),
    ("resources/presets/standard.json", "/src/standard.json", "DATA"),
]


class Recorder:
    """Stands in for Analysis, PYZ, EXE, COLLECT and BUNDLE, remembering how it was called."""

    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]]

    def __init__(self, kind: str, calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]]) -> None:
        self.kind, self.calls = kind, calls

    def __call__(self, *args: Any, **kwargs: Any) -> types.SimpleNamespace:
        self.calls.append((self.kind, args, kwargs))
        return types.SimpleNamespace(datas=list(DATAS), binaries=list(BINARIES), pure=[], scripts=[])


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the spec beside a pyproject.toml naming another version, with PyInstaller faked."""
    (tmp_path / "installer").mkdir()
    shutil.copy(SPEC, tmp_path / "installer" / SPEC.name)
    shutil.copy(SPEC.parent / "bundle_contents.py", tmp_path / "installer" / "bundle_contents.py")
    shutil.copy(SPEC.parent / "shiboken_support.py", tmp_path / "installer" / "shiboken_support.py")
    monkeypatch.setattr(sys, "path", list(sys.path))  # the spec puts its own folder first
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "ofc-desk"\nversion = "9.8.7"\n', encoding="utf-8"
    )
    hooks = types.ModuleType("PyInstaller.utils.hooks")
    monkeypatch.setattr(hooks, "collect_data_files", lambda package: [], raising=False)
    monkeypatch.setattr(hooks, "collect_submodules", lambda package, filter=None: [], raising=False)
    metadata = lambda name: [(f"/site/{name}.dist-info", f"{name}.dist-info")]  # noqa: E731
    monkeypatch.setattr(hooks, "copy_metadata", metadata, raising=False)
    bindepend = types.ModuleType("PyInstaller.depend.bindepend")
    imports = lambda source: {(name, f"/src/{name}") for name in LINKS.get(source, set())}  # noqa: E731
    monkeypatch.setattr(bindepend, "get_imports", imports, raising=False)
    for name in ("PyInstaller", "PyInstaller.utils", "PyInstaller.depend"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "PyInstaller.utils.hooks", hooks)
    monkeypatch.setitem(sys.modules, "PyInstaller.depend.bindepend", bindepend)
    monkeypatch.setattr(sys, "platform", "linux")
    return tmp_path


def run_spec(project: Path, installed_version: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setattr(importlib.metadata, "version", lambda name: installed_version)
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    namespace: dict[str, Any] = {
        "SPECPATH": str(project / "installer"),
        "DISTPATH": str(project / "dist"),
        "workpath": str(project / "build"),
        **{kind: Recorder(kind, calls) for kind in ("Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE")},
    }
    spec = project / "installer" / SPEC.name
    exec(compile(spec.read_text(encoding="utf-8"), str(spec), "exec"), namespace)
    namespace["calls"] = calls
    return namespace


def test_the_spec_takes_name_and_version_from_pyproject(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    namespace = run_spec(project, "9.8.7", monkeypatch)
    assert (namespace["NAME"], namespace["VERSION"]) == ("ofc-desk", "9.8.7")
    programs = [kwargs for kind, _args, kwargs in namespace["calls"] if kind == "EXE"]
    assert [program["name"] for program in programs] == ["ofc-desk"]
    assert "0.1.0" not in SPEC.read_text(encoding="utf-8")


def test_the_spec_refuses_a_stale_installed_version(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit, match=r"ofc-desk 9\.0\.0 is installed but pyproject.toml says 9\.8\.7"):
        run_spec(project, "9.0.0", monkeypatch)


def test_the_bundle_keeps_resources_migrations_and_version_metadata(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    namespace = run_spec(project, "9.8.7", monkeypatch)
    analysis = next(kwargs for kind, _args, kwargs in namespace["calls"] if kind == "Analysis")
    destinations = {destination for _source, destination in analysis["datas"]}
    assert {"resources", "ofc_desk/storage/migrations", "ofc-desk.dist-info"} <= destinations
    assert "alembic.op" in analysis["hiddenimports"]
    assert "PySide6.QtWebEngineCore" in analysis["excludes"]


def test_the_bundle_carries_pysides_support_modules_compiled(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39.3: Shiboken's support modules go in as bytecode alone, where Shiboken looks for them
    as files, so the bundled desk does not compile their source at every launch."""
    namespace = run_spec(project, "9.8.7", monkeypatch)
    analysis = next(kwargs for kind, _args, kwargs in namespace["calls"] if kind == "Analysis")
    support = (source for source, destination in analysis["datas"] if destination == "shiboken6/files.dir")
    folder = Path(next(support))
    compiled = {str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file()}
    assert "shibokensupport/signature/loader.pyc" in compiled
    assert all(name.startswith("shibokensupport/") and name.endswith(".pyc") for name in compiled)


def test_every_native_module_of_the_desks_dependencies_is_a_hidden_import_but_the_left_out_ones(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    namespace = run_spec(project, "9.8.7", monkeypatch)
    analysis = next(kwargs for kind, _args, kwargs in namespace["calls"] if kind == "Analysis")
    hidden, excluded = set(analysis["hiddenimports"]), set(analysis["excludes"])
    # Loaded from C or through exec, out of the analysis' sight.
    assert {"_cffi_backend", "_rl_accel", "cryptography.hazmat.bindings._rust"} <= hidden
    assert {"PySide6.QtNetwork", "PySide6.QtSvg", "PIL._avif"} <= excluded
    assert not hidden & excluded


def test_unused_qt_plugins_translations_and_their_libraries_are_left_out(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    namespace = run_spec(project, "9.8.7", monkeypatch)
    kept = {Path(destination).name for destination, _source, _kind in namespace["a"].binaries}
    plugins = {"libqvnc.so", "libqgtk3.so", "libqsqlite.so", "libqopensslbackend.so", "libPySidePlugin.so"}
    plugins |= {"qvnc.dll"}  # the Windows layout
    assert {Path(destination).name for destination, _source, _kind in BINARIES} - kept == plugins | {
        "libQt6Network.so.6",  # only the VNC platform and the TLS backend link to it
        "libcairo.so.2",  # only the GTK theme does
    }
    assert [destination for destination, _source, _kind in namespace["a"].datas] == [
        "resources/presets/standard.json"
    ]


def test_every_extension_module_and_every_library_not_only_for_removed_plugins_stays(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    namespace = run_spec(project, "9.8.7", monkeypatch)
    kept = {Path(destination).name for destination, _source, _kind in namespace["a"].binaries}
    assert "_cffi_backend.cpython-311-x86_64-linux-gnu.so" in kept  # the bundle died without it
    assert "libloaded_by_name.so.1" in kept
    assert "libcrypto.so.3" in kept  # the removed TLS backend links to it, and so does psycopg
    assert "libpython3.11.so.1.0" in kept  # the removed designer plugin links to it; the bootloader opens it
