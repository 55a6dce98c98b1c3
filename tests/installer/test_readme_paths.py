"""The paths a newcomer reads in README.md (issue 34): each example it names is in the repository
where it says, and in the bundle where it says (the spec ships resources/ into PyInstaller's
contents folder, `_internal`, beside the program)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SPEC = (ROOT / "installer" / "ofc-desk.spec").read_text(encoding="utf-8")
CONTENTS = "_internal"
"""PyInstaller's contents folder of a one-folder bundle, which the spec does not rename."""


def test_every_example_path_the_readme_names_is_there_in_the_repository_and_the_bundle() -> None:
    in_repository = set(re.findall(r"(?<![\w/])resources/examples/[\w.-]+\.json", README))
    in_bundle = set(re.findall(rf"{CONTENTS}/(resources/examples/[\w.-]+\.json)", README))
    assert in_repository and in_bundle
    assert in_bundle <= in_repository, "each bundle path is shown beside the repository's"
    for path in in_repository:
        assert (ROOT / path).is_file(), path
    assert '(str(ROOT / "resources"), "resources")' in SPEC  # resources/ as it is, under _internal
    assert "contents_directory" not in SPEC
