"""The layout shows the architecture (issue 35, part 4): no top-level package holds more than
30% of the product's Python; tests mirror the packages, each gated package with a test file
named after at least 80% of its modules, and every module without one says why
(tests/module_coverage.py)."""

from __future__ import annotations

import pytest

from tests import module_coverage as coverage


@pytest.mark.parametrize("group", sorted(coverage.gated_groups()))
def test_each_gated_package_has_a_test_file_for_most_of_its_modules(group: str) -> None:
    rows = coverage.gated_groups()[group]
    missing = [row.module for row in rows if row.test_file is None]
    assert coverage.share(rows) >= coverage.GOAL, f"{group}: no test file for {missing}"


def test_every_module_without_a_test_file_has_a_reason() -> None:
    unexplained = [
        row.module
        for package in coverage.PACKAGES
        for row in coverage.rows(package)
        if row.test_file is None and not coverage.reason(row.module).strip()
    ]
    assert unexplained == []


def test_every_reason_names_a_module_that_exists_and_still_has_no_test_file() -> None:
    rows = {row.module: row for package in coverage.PACKAGES for row in coverage.rows(package)}
    stale = [module for module in coverage.WITHOUT_A_FILE if module not in rows or rows[module].test_file is not None]
    assert stale == []


def test_every_test_file_of_a_module_name_sits_beside_its_package_mirror() -> None:
    """A test file named after a module lives in the folder mirroring that module's package,
    not in tests/unit's root (where it would not be counted), except the tests of the suite's
    own modules (tests/module_coverage.py, tests/tiers.py) and the import contracts' check
    (.importlinter)."""
    own = {f"test_{path.stem}.py" for path in (coverage.REPO / "tests").glob("*.py")} | {"test_import_contracts.py"}
    stray = sorted(path.name for path in coverage.UNIT.glob("test_*.py") if path.name not in own)
    assert stray == []


def test_a_module_whose_tests_need_a_nats_server_has_its_file_in_tests_nats() -> None:
    assert coverage.test_file("store", "store/nats_store.py") == "tests/nats/store/test_nats_store.py"
    assert coverage.test_file("deploy", "deploy/nats_server.py") == "tests/nats/deploy/test_nats_server.py"
    assert coverage.test_file("store", "store/sqlite_store.py") == "tests/unit/store/test_sqlite_store.py"


def test_no_top_level_package_holds_more_than_30_percent_of_the_products_python() -> None:
    lines = coverage.package_lines()
    total = sum(lines.values())
    assert {
        package: round(count / total, 3) for package, count in lines.items() if count > coverage.LARGEST_SHARE * total
    } == {}
