"""The installer's scripts and the shipped examples, checked without building the bundle."""

from __future__ import annotations

import configparser
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import compare_examples
import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALLER = ROOT / "installer"
EXAMPLES = ROOT / "resources" / "examples"
ICONS = ROOT / "resources" / "icons"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def run_ofc_desk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ofc_desk", *args], capture_output=True, text=True, cwd=ROOT, timeout=120
    )


@pytest.mark.parametrize("script", ["build.sh", "install-linux.sh"])
def test_shell_scripts_are_valid_bash(script: str) -> None:
    checked = subprocess.run(["bash", "-n", str(INSTALLER / script)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_build_script_refuses_an_unknown_option() -> None:
    refused = subprocess.run(["bash", str(INSTALLER / "build.sh"), "--chek"], capture_output=True, text=True)
    assert refused.returncode == 2
    assert "usage: installer/build.sh [--check]" in refused.stderr


def test_inno_setup_script_has_a_fixed_app_id_and_takes_the_version_at_build_time() -> None:
    script = (INSTALLER / "windows.iss").read_text(encoding="utf-8")
    assert re.search(r"^AppId=\{\{[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}\}$", script, re.MULTILINE)
    assert "#ifndef AppVersion\n  #error" in script
    assert re.search(r"^AppVersion=\{#AppVersion\}$", script, re.MULTILINE)
    assert f"={PROJECT['version']}" not in script, "the version is passed in, never written here"
    assert re.search(r"^Name: \"\{group\}\\\{#AppName\}\"", script, re.MULTILINE), "Start-menu shortcut"
    assert re.search(r"^Name: \"\{autodesktop\}\\\{#AppName\}\"", script, re.MULTILINE), "desktop shortcut"


def test_the_version_comes_from_pyproject() -> None:
    import ofc_desk

    assert ofc_desk.__version__ == PROJECT["version"]
    reported = run_ofc_desk("--version")
    assert reported.stdout.strip() == f"ofc-desk {PROJECT['version']}"


def test_an_installed_desk_reads_its_version_without_tomllib(tmp_path: Path) -> None:
    """Issue 39.3: a desk with no pyproject.toml beside its package (a wheel, the bundle) answers
    from the installed metadata and never imports tomllib, whose regexes every launch compiled."""
    package = tmp_path / "site" / "ofc_desk"
    package.mkdir(parents=True)
    package.joinpath("__init__.py").write_bytes((ROOT / "ofc_desk" / "__init__.py").read_bytes())
    script = "import sys, ofc_desk; print(ofc_desk.__version__, 'tomllib' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(package.parent)!r}); {script}"],
        capture_output=True,
        text=True,
        check=True,
    )
    installed = subprocess.run(
        [sys.executable, "-c", "from importlib import metadata; print(metadata.version('ofc-desk'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == [installed.stdout.strip(), "False"]


def test_the_shipped_example_deal_scores_to_its_shipped_figures() -> None:
    scored = run_ofc_desk("score", str(EXAMPLES / "score-deal.json"))
    assert scored.returncode == 0, scored.stderr
    expected = json.loads((EXAMPLES / "score-deal-expected.json").read_text(encoding="utf-8"))
    assert compare_examples.score_differences(json.loads(scored.stdout), expected) == []


def test_the_comparison_notices_a_wrong_figure() -> None:
    expected = json.loads((EXAMPLES / "score-deal-expected.json").read_text(encoding="utf-8"))
    scored = json.loads(run_ofc_desk("score", str(EXAMPLES / "score-deal.json")).stdout)
    scored["transfers"][0]["paid"] += 1
    scored["players"][0]["stack_after"] += 1
    differences = compare_examples.score_differences(scored, expected)
    assert any("transfers" in difference for difference in differences)
    assert any("Ann stack_after" in difference for difference in differences)


def test_the_shipped_example_script_replays_to_its_shipped_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ofc-desk replay` run in this process (the figures are the subject, not a launch: a fresh
    interpreter cost a CPU-second importing the product)."""
    from ofc_desk.cli.main import main

    database = f"sqlite:///{tmp_path / 'example.db'}"
    status = main(["replay", str(EXAMPLES / "replay-pineapple-4-hands.json"), "--db", database])
    replayed = capsys.readouterr()
    assert status == 0, replayed.err
    expected = json.loads((EXAMPLES / "replay-pineapple-4-hands-expected.json").read_text(encoding="utf-8"))
    assert compare_examples.replay_differences(json.loads(replayed.out), expected) == []


def test_the_example_script_with_accounts_signs_both_in_when_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What `installer/build.sh --check` runs on the bundle as its sign-in step, on the source tree."""
    from sqlalchemy import select

    from ofc_desk.cli.main import main
    from ofc_desk.storage.database import Database
    from ofc_desk.storage.models import SignInAttempt

    script = tmp_path / "with-accounts.json"
    shipped = json.loads((EXAMPLES / "replay-pineapple-4-hands.json").read_text(encoding="utf-8"))
    script.write_text(json.dumps(compare_examples.with_accounts(shipped)), encoding="utf-8")
    expected = json.loads((EXAMPLES / "replay-pineapple-4-hands-expected.json").read_text(encoding="utf-8"))
    url = f"sqlite:///{tmp_path / 'accounts.db'}"
    attempts = select(SignInAttempt.name, SignInAttempt.outcome).order_by(SignInAttempt.id)
    for extra, signed_in in (((), []), (("--resume",), [("Dana", "accepted"), ("Flo", "accepted")])):
        status = main(["replay", str(script), "--db", url, *extra])
        replayed = capsys.readouterr()
        assert status == 0, replayed.err
        assert compare_examples.replay_differences(json.loads(replayed.out), expected) == []
        database = Database(url)
        with database.session() as session:
            assert sorted(tuple(row) for row in session.execute(attempts)) == signed_in
        database.dispose()


def test_the_desktop_entry_names_the_program_and_a_shipped_icon() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]  # keys as written: configparser's way
    entry.read(ROOT / "resources" / "ofc-desk.desktop", encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert (desktop["Type"], desktop["Exec"], desktop["Icon"]) == ("Application", "ofc-desk", "ofc-desk")
    assert (ICONS / "ofc-desk-256.png").is_file()


def test_the_icon_files_are_made_from_the_svg_at_their_named_sizes() -> None:
    from PIL import Image

    assert (ICONS / "ofc-desk.svg").read_text(encoding="utf-8").startswith("<svg")
    for png in ICONS.glob("ofc-desk-*.png"):
        size = int(png.stem.rsplit("-", 1)[1])
        with Image.open(png) as image:
            assert image.size == (size, size), png.name
    with Image.open(ICONS / "ofc-desk.ico") as ico:
        assert (256, 256) in ico.info["sizes"] and (16, 16) in ico.info["sizes"]
