"""Packaging details pyproject.toml cannot say: the top-level resources/ folder ships inside the
wheel as the data package `ofc_desk.resources`, beside the code packages that are found."""

from pathlib import Path

from setuptools import find_packages, setup

RESOURCES = Path(__file__).parent / "resources"
resource_packages = [
    ".".join(("ofc_desk", "resources", *folder.relative_to(RESOURCES).parts))
    for folder in [RESOURCES, *sorted(path for path in RESOURCES.rglob("*") if path.is_dir())]
]

setup(
    packages=[*find_packages(include=["ofc_desk", "ofc_desk.*"]), *resource_packages],
    package_dir={"ofc_desk.resources": "resources"},
)
