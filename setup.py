"""Packaging details pyproject.toml cannot say: the top-level resources/ folder ships inside the
wheel as the data package `ofc_desk.resources`, beside the code packages that are found; and the
fast path of `ofc-desk score` is compiled where a C compiler is at hand (`optional`: without one the
build goes on and the rules core scores every deal, to the same output)."""

from pathlib import Path

from setuptools import Extension, find_packages, setup

RESOURCES = Path(__file__).parent / "resources"
resource_packages = [
    ".".join(("ofc_desk", "resources", *folder.relative_to(RESOURCES).parts))
    for folder in [RESOURCES, *sorted(path for path in RESOURCES.rglob("*") if path.is_dir())]
]
# setuptools hands .pyx sources to Cython (a build requirement in pyproject.toml).
fast_path = [
    Extension(f"ofc_desk.fastscore.{name}", [f"ofc_desk/fastscore/{name}.pyx"], optional=True)
    for name in ("_write", "_scorer")
]

setup(
    packages=[*find_packages(include=["ofc_desk", "ofc_desk.*"]), *resource_packages],
    package_dir={"ofc_desk.resources": "resources"},
    ext_modules=fast_path,
)
