"""Which product modules have a unit-test file of their name, package by package.

Tests mirror the packages: ``kernel/houses.py`` is tested in ``tests/unit/kernel/test_houses.py``,
``gateway/admin/cli.py`` in ``tests/unit/gateway/admin/test_cli.py``; a module whose tests need
a nats-server has its file in ``tests/nats`` instead, under the same folder
(``store/nats_store.py`` in ``tests/nats/store/test_nats_store.py``). ``make test`` prints the
modules without one (``python -m tests.module_coverage``), each with the reason it has none
(:data:`WITHOUT_A_FILE`), and ``tests/unit/test_module_coverage.py`` holds every gated
package at :data:`GOAL` or more and every exception to a reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
UNIT = REPO / "tests" / "unit"
#: Where a module's test file may be, in this order: the in-process unit tests, then the unit
#: tests that run against a nats-server (``tests/nats/__init__.py`` says why they live apart).
TEST_ROOTS = (UNIT, REPO / "tests" / "nats")

#: Product package folder → its unit-test folder (under each of :data:`TEST_ROOTS`), and
#: whether the goal holds it. The services'
#: handlers are proved through the API (``tests/api/test_<family>_api.py``) and the service
#: tier (``tests/service``), not file by file; they are listed, not gated.
PACKAGES: dict[str, tuple[str, bool]] = {
    "kernel": ("kernel", True),
    "shared": ("shared", True),
    "shared/runtime": ("runtime", True),
    "shared/pictures": ("shared/pictures", False),
    "store": ("store", True),
    "gateway": ("gateway", True),
    "gateway/admin": ("gateway/admin", True),
    "gateway/reference": ("gateway/reference", True),
    "gateway/dashboard": ("dashboard", True),
    "webhooks": ("webhooks", True),
    "deploy": ("deploy", True),
    "celestial_mcp": ("celestial_mcp", False),
    "services/ephemeris": ("services/ephemeris", False),
    "services/ephemeris/wheel": ("services/ephemeris/wheel", False),
    "services/search": ("services/search", False),
    "services/timelords": ("services/timelords", False),
    "services/timelords/indian_charts": ("services/timelords/indian_charts", False),
    "services/search/sensitivity_timeline": ("services/search/sensitivity_timeline", False),
    "services/astrocartography": ("services/astrocartography", False),
}

#: The share of a gated package's modules that have a test file of their name.
GOAL = 0.80

#: The product's top-level packages, and the most of the product's Python lines one may hold
#: (issue 35, part 4: a layout that shows the architecture, no package hiding the others).
TOP_LEVEL_PACKAGES = ("kernel", "shared", "store", "gateway", "services", "webhooks", "deploy", "celestial_mcp")
LARGEST_SHARE = 0.30

#: Why the modules of a listed (not gated) package have no test file of their name.
LISTED_BECAUSE: dict[str, str] = {
    "celestial_mcp": (
        "the MCP server over stdio: its tools in tests/unit/celestial_mcp/test_tools.py and test_curated.py, the "
        "trimming of results in test_results.py, the server itself against a real stack in "
        "tests/e2e/test_mcp_server.py"
    ),
    **{
        package: "a gRPC handler: its rules in tests/api/test_<family>_api.py (in process), once on real processes "
        "in tests/e2e, its numbers in tests/unit/kernel"
        for package in ("services/ephemeris", "services/search", "services/timelords", "services/astrocartography")
    },
    "shared/pictures": "what the pictures share (themes, words, glyphs, fonts, PNG): proved through the pictures "
    "drawn with them, tests/unit/services/test_wheel_png.py, test_wheel_words.py, test_wheel_palette.py, "
    "test_wheel_glyphs.py and test_wheel_contrast.py",
    "services/ephemeris/wheel": "the wheel's drawing: tests/unit/services/test_wheel.py and test_biwheel.py parse "
    "the pictures it draws back into the chart, test_wheel_geometry.py proves the layout and placement over many "
    "charts, test_wheel_points.py the points beside the bodies, test_wheel_header.py the frame, header and table",
    "services/timelords/indian_charts": "the North and South Indian charts: tests/unit/services/test_indian_charts.py "
    "parses the pictures back into the chart, test_indian_charts_png.py compares their golden PNGs",
    "services/search/sensitivity_timeline": "the sensitivity timeline: "
    "tests/unit/services/test_sensitivity_timeline.py parses the pictures back into the facts, "
    "test_sensitivity_timeline_png.py compares their golden PNGs",
}

#: Modules of gated packages without a test file of their name, and why (what tests them instead).
WITHOUT_A_FILE: dict[str, str] = {
    "shared/runtime/parans_query.py": "the reader of /v1/parans: its rules in tests/api/test_parans_api.py, before "
    "any charge as every reader's",
    "shared/runtime/sensitivity_inputs.py": "the reader of /v1/natal-chart/sensitivity: its rules in "
    "tests/api/test_birth_time_sensitivity_api.py, before any charge as every reader's",
    "shared/runtime/trace_spans.py": "the spans tracing.py switches on: tests/unit/runtime/test_tracing.py makes them "
    "through its hooks, as a process does",
}


def reason(module: str) -> str:
    """Return why ``module`` has no test file of its name: its own reason, else its listed
    package's, else an empty string."""
    return WITHOUT_A_FILE.get(module) or LISTED_BECAUSE.get(str(Path(module).parent), "")


@dataclass(frozen=True)
class ModuleRow:
    """One product module: its path from the repository root and its test file, if any."""

    module: str
    test_file: str | None


def package_modules(package: str) -> list[str]:
    """Return the modules of ``package`` (its own ``.py`` files, not its sub-packages' and not
    ``__init__`` or generated code), as paths from the repository root, sorted."""
    folder = REPO / package
    return sorted(
        str(path.relative_to(REPO))
        for path in folder.glob("*.py")
        if path.name != "__init__.py" and not path.name.endswith(("_pb2.py", "_pb2_grpc.py"))
    )


def test_file(package: str, module: str) -> str | None:
    """Return the test file of ``module``'s name (a path from the repository root) in the first
    of :data:`TEST_ROOTS` that holds one, or None."""
    for root in TEST_ROOTS:
        candidate = root / PACKAGES[package][0] / f"test_{Path(module).stem}.py"
        if candidate.exists():
            return str(candidate.relative_to(REPO))
    return None


def rows(package: str) -> list[ModuleRow]:
    """Return each module of ``package`` with the test file of its name, or None."""
    return [ModuleRow(module, test_file(package, module)) for module in package_modules(package)]


def gated_groups() -> dict[str, list[ModuleRow]]:
    """Return the gated packages' rows, sub-packages of the gateway counted with it except the
    dashboard, which the tests mirror as a package of its own."""
    groups: dict[str, list[ModuleRow]] = {}
    for package, (_, gated) in PACKAGES.items():
        if not gated:
            continue
        group = "gateway" if package.startswith("gateway/") and package != "gateway/dashboard" else package
        groups.setdefault(group, []).extend(rows(package))
    return groups


def share(group: list[ModuleRow]) -> float:
    """Return the fraction of ``group``'s modules that have a test file of their name."""
    return sum(row.test_file is not None for row in group) / len(group)


def package_lines() -> dict[str, int]:
    """Return the lines of Python of each top-level package (generated code left out)."""
    return {
        package: sum(
            len(path.read_text().splitlines())
            for path in (REPO / package).rglob("*.py")
            if not path.name.endswith(("_pb2.py", "_pb2_grpc.py"))
        )
        for package in TOP_LEVEL_PACKAGES
    }


def main() -> None:
    """Print each package's figure, then each module without a test file and its reason."""
    lines = package_lines()
    print(f"Lines of Python by top-level package (at most {LARGEST_SHARE:.0%} each):")
    for package, count in sorted(lines.items(), key=lambda item: -item[1]):
        print(f"  {package:28} {count:6} {count / sum(lines.values()):6.1%}")
    print("Test files by module name (tests/module_coverage.py):")
    for package, (_, gated) in PACKAGES.items():
        package_rows = rows(package)
        covered = sum(row.test_file is not None for row in package_rows)
        print(f"  {package:28} {covered:3}/{len(package_rows):<3} {'gated' if gated else 'listed'}")
    for group, group_rows in gated_groups().items():
        print(f"  {group:28} {share(group_rows):.0%} of {len(group_rows)} (goal {GOAL:.0%})")
    print("Modules without a test file of their name:")
    for package, (_, gated) in PACKAGES.items():
        missing = [row.module for row in rows(package) if row.test_file is None]
        if not gated and missing:
            print(f"  {package}/ ({len(missing)} modules): {LISTED_BECAUSE[package]}")
            continue
        for module in missing:
            print(f"  {module}: {reason(module) or 'NO REASON GIVEN'}")


if __name__ == "__main__":
    main()
