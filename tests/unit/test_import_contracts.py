"""The import contracts (``.importlinter``, checked by ``lint-imports``) cover every top-level
package (issue 47): each is a root package of the linter, so its imports are read, and each is
constrained by a contract (the source of a forbidden contract, or a module of an independence
or layers contract) that states what it may not import. A new top-level package fails here
until a contract names it."""

from __future__ import annotations

import configparser
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: The fields of a contract that name the modules it constrains (import-linter's forbidden,
#: independence and layers contracts); ``forbidden_modules`` constrains the others, not these.
CONSTRAINING_FIELDS = ("source_modules", "modules", "layers", "containers")


def top_level_packages(root: Path = REPO) -> set[str]:
    """Return the names of the repository's top-level Python packages (folders with an ``__init__.py``)."""
    return {path.parent.name for path in root.glob("*/__init__.py") if not path.parent.name.startswith(".")}


def read_contracts(text: str) -> configparser.ConfigParser:
    """Return ``.importlinter``'s text as parsed sections."""
    config = configparser.ConfigParser()
    config.read_string(text)
    return config


def listed(value: str) -> set[str]:
    """Return the top-level package of each module a contract field lists (one a line; a
    layers field may put several on a line, split by ``|`` or ``:``)."""
    names = value.replace("|", " ").replace(":", " ").split()
    return {name.split(".")[0].strip("()") for name in names}


def uncovered(packages: set[str], config: configparser.ConfigParser) -> dict[str, list[str]]:
    """Return each package that is not a root package of the linter or that no contract
    constrains, with what it lacks."""
    roots = listed(config["importlinter"].get("root_packages", ""))
    constrained: set[str] = set()
    for section in config.sections():
        if section.startswith("importlinter:contract:"):
            for field in CONSTRAINING_FIELDS:
                constrained |= listed(config[section].get(field, ""))
    gaps: dict[str, list[str]] = {}
    for package in sorted(packages):
        lacks = [
            what for what, ok in (("root package", package in roots), ("contract", package in constrained)) if not ok
        ]
        if lacks:
            gaps[package] = lacks
    return gaps


CONTRACTS = read_contracts((REPO / ".importlinter").read_text())


def test_every_top_level_package_is_read_and_constrained_by_the_import_contracts():
    packages = top_level_packages()
    assert {"kernel", "gateway", "webhooks", "deploy", "celestial_mcp", "tests", "bench"} <= packages
    assert uncovered(packages, CONTRACTS) == {}


def test_a_new_top_level_package_that_no_contract_names_is_reported(tmp_path):
    for name in ("kernel", "newcomer"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("")
    assert top_level_packages(tmp_path) == {"kernel", "newcomer"}
    assert uncovered(top_level_packages(tmp_path), CONTRACTS) == {"newcomer": ["root package", "contract"]}


def test_a_root_package_that_only_other_contracts_forbid_is_reported():
    config = read_contracts(
        "[importlinter]\nroot_packages =\n    kernel\n    lonely\n"
        "[importlinter:contract:pure]\nname = pure\ntype = forbidden\nsource_modules =\n    kernel\n"
        "forbidden_modules =\n    lonely.part\n"
    )
    assert uncovered({"kernel", "lonely"}, config) == {"lonely": ["contract"]}
