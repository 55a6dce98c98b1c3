"""The promises the README makes about setting up, kept honest."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.+?)\n```", readme)


def test_readme_has_exactly_two_setup_commands() -> None:
    commands = readme_commands()
    assert len(commands) == 2
    assert "ofc-desk" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci_script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert readme_commands()[1] in ci_script.splitlines()


def sources(layer: str) -> list[Path]:
    """The layer's Python sources."""
    return list((ROOT / "ofc_desk" / layer).rglob("*.py"))


def test_layers_below_the_desk_never_import_qt() -> None:
    for layer in ("core", "storage", "service", "cli", "reports"):
        for module in sources(layer):
            text = module.read_text(encoding="utf-8")
            assert not re.search(r"^\s*(from|import) PySide6", text, re.MULTILINE), module


def test_the_rules_core_imports_no_database() -> None:
    for module in sources("core"):
        text = module.read_text(encoding="utf-8")
        assert not re.search(
            r"^\s*(from|import) (sqlalchemy|alembic|ofc_desk\.(storage|service))", text, re.M
        )
