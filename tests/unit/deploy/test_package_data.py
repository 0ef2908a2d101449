"""pyproject.toml's package data: every file the product's packages read beside their code
ships in an install that is not editable (the container image's), so a new data file left out
of `[tool.setuptools.package-data]` fails here rather than at the image's start."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch

from shared.runtime.config import REPO_ROOT

PACKAGES = ("kernel", "shared", "store", "gateway", "services", "deploy", "celestial_mcp")
#: Files beside the code that no process reads from the installed package.
NOT_SHIPPED = {
    "deploy/Containerfile",
    "deploy/nats.Containerfile",
    "deploy/containers.conf",
    "gateway/reference/docs_assets/scalar/VERSION",
}


def _shipped_patterns() -> list[tuple[str, str]]:
    data = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    return [(package.replace(".", "/"), pattern) for package, patterns in data.items() for pattern in patterns]


def test_every_data_file_beside_the_code_is_package_data():
    patterns = _shipped_patterns()
    missing = []
    for package in PACKAGES:
        for path in (REPO_ROOT / package).rglob("*"):
            relative = path.relative_to(REPO_ROOT).as_posix()
            if (
                not path.is_file()
                or path.suffix in (".py", ".pyc")
                or "__pycache__" in relative
                or relative.startswith("deploy/k8s/")
            ):
                continue
            if relative in NOT_SHIPPED:
                continue
            if not any(
                relative.startswith(folder + "/") and fnmatch(relative[len(folder) + 1 :], pattern)
                for folder, pattern in patterns
            ):
                missing.append(relative)
    assert missing == []
