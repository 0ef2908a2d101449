"""Issue 47, part 2: each closed set declared once. A request's choices are bound to the one
Python table that gives them a meaning (shared/runtime/closed_sets.py), and no other pair of
declarations of one set, a proto's choices and a Python table, disagrees."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import celestial.v1
from celestial.v1 import ephemeris_service_pb2, options_pb2, vedic_pb2
from shared.runtime import closed_sets
from shared.runtime.closed_sets import BINDINGS, bound_to_choices, choices_of

#: The packages whose modules declare tables of names.
PACKAGES = ("kernel", "shared", "services", "gateway", "webhooks")
#: Two declarations name one closed set when at least this share of the names either holds
#: are held by both (Jaccard index): a table that lost or gained a name of the set still does.
SAME_SET_SHARE = 0.5
#: Pairs of a table and a field's choices that share most names and differ on purpose: the
#: table holds a part of the set, or the choices take two spellings of each name.
DELIBERATE = {
    (
        "kernel.astrocartography.ANGLES",
        "celestial.v1.AstroTarget.angles",
    ): "the angles' names; the choices also take their abbreviations",
    (
        "kernel.astrocartography.ANGLE_ALIASES",
        "celestial.v1.AstroTarget.angles",
    ): "the abbreviations; the choices also take the names",
    (
        "shared.runtime.astro_targets.ANGLES",
        "celestial.v1.AstroTarget.angles",
    ): "the angles' names; the choices also take their abbreviations",
    (
        "services.ephemeris.wheel.layout.ANGLE_NAMES",
        "celestial.v1.AstroTarget.angles",
    ): "the abbreviations drawn; the choices also take the names",
    (
        "kernel.astrocartography.ANGLES",
        "celestial.v1.ComputeAstrocartographyRequest.angles",
    ): "the angles' names; the choices also take their abbreviations",
    (
        "kernel.astrocartography.ANGLE_ALIASES",
        "celestial.v1.ComputeAstrocartographyRequest.angles",
    ): "the abbreviations; the choices also take the names",
    (
        "shared.runtime.astro_targets.ANGLES",
        "celestial.v1.ComputeAstrocartographyRequest.angles",
    ): "the angles' names; the choices also take their abbreviations",
    (
        "services.ephemeris.wheel.layout.ANGLE_NAMES",
        "celestial.v1.ComputeAstrocartographyRequest.angles",
    ): "the abbreviations drawn; the choices also take the names",
    (
        "kernel.parans.ANGLES",
        "celestial.v1.AstroTarget.angles",
    ): "astrocartography's angles, imported: the choices also take their abbreviations",
    (
        "kernel.parans.ANGLES",
        "celestial.v1.ComputeAstrocartographyRequest.angles",
    ): "astrocartography's angles, imported: the choices also take their abbreviations",
    (
        "shared.runtime.chart_wheel_input.BIWHEELS",
        "celestial.v1.DrawChartWheelRequest.kind",
    ): "the kinds drawn as two rings, a part of the kinds",
    (
        "kernel.chart.HOUSE_POSITION_MODES",
        "celestial.v1.ComputeDraconicChartRequest.house_position_mode",
    ): "a draconic chart offers the zodiacal mode only",
    (
        "shared.runtime.chart_options.HOUSE_POSITION_MODES",
        "celestial.v1.ComputeDraconicChartRequest.house_position_mode",
    ): "the kernel's table as chart_options binds it; a draconic chart offers the zodiacal mode only",
    (
        "kernel.lots._BY_ID",
        "celestial.v1.ComputeLotsRequest.lots",
    ): "the lots' ids; the choices also take their keywords",
    (
        "kernel.lots._BY_KEYWORD",
        "celestial.v1.ComputeLotsRequest.lots",
    ): "the lots' keywords; the choices also take their ids",
    (
        "kernel.forecast_significance.ANGLES_AND_LUMINARIES",
        "celestial.v1.DrawChartWheelRequest.return_body",
    ): "the natal points a forecast ranks first, the angles beside the luminaries a return wheel takes",
    (
        "kernel.engine.HELIACAL_EVENT_TYPES",
        "celestial.v1.FindHeliacalEventRequest.event",
    ): "the engine's four events; the acronychal two are found otherwise",
    (
        "shared.runtime.presets.PRESETS",
        "celestial.v1.ComputeNatalChartRequest.preset",
    ): "every program's preset; the natal chart takes the Western programs' (NATAL_CHART_PRESETS binds them)",
    (
        "shared.runtime.presets.PRESETS",
        "celestial.v1.FindForecastRequest.preset",
    ): "every program's preset; the forecast takes the Western programs' (FORECAST_PRESETS binds them)",
    (
        "shared.runtime.presets.PRESETS",
        "celestial.v1.StoredChartSettings.preset",
    ): "every program's preset; a stored chart keeps the natal chart's (NATAL_CHART_PRESETS binds them)",
}


def _modules() -> list:
    modules = []
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__, f"{package_name}."):
            modules.append(importlib.import_module(info.name))
    return modules


def _tables() -> dict[str, frozenset[str]]:
    """Return every module-level table of names of the code (a tuple, list or set of at least
    two strings, or a mapping keyed by them), lower case, by ``module.NAME``."""
    tables = {}
    for module in _modules():
        for name, value in vars(module).items():
            if name.startswith("__"):
                continue
            names = list(value) if isinstance(value, (dict, tuple, list, set, frozenset)) else []
            if len(names) >= 2 and all(isinstance(item, str) for item in names):
                tables[f"{module.__name__}.{name}"] = frozenset(item.lower() for item in names)
    return tables


def _choices() -> dict[str, frozenset[str]]:
    """Return every field's choices in the contract, lower case, by ``message.field``."""
    found = {}

    def visit(descriptor) -> None:
        for field in descriptor.fields:
            choices = field.GetOptions().Extensions[options_pb2.field].choices
            if choices:
                found[f"{descriptor.full_name}.{field.name}"] = frozenset(choice.lower() for choice in choices)
        for nested in descriptor.nested_types:
            visit(nested)

    for info in pkgutil.iter_modules(celestial.v1.__path__):
        if info.name.endswith("_pb2"):
            for descriptor in importlib.import_module(
                f"celestial.v1.{info.name}"
            ).DESCRIPTOR.message_types_by_name.values():
                visit(descriptor)
    return found


def _near(a: frozenset[str], b: frozenset[str]) -> bool:
    return len(a & b) / len(a | b) >= SAME_SET_SHARE


@pytest.fixture(scope="module")
def declarations() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    return _tables(), _choices()


def test_no_two_declarations_of_a_closed_set_disagree(declarations):
    tables, choices = declarations
    # A field bound to its table (closed_sets.bound_to_choices) is held equal to it at import; the
    # near tables beside it are other sets (the seven grahas beside the nine dasha lords).
    bound = {".".join(field) for binding in BINDINGS for field in binding.fields}
    disagreeing = [
        f"{table} {sorted(names)} / {field} {sorted(chosen)}"
        for field, chosen in choices.items()
        if field not in bound
        for table, names in tables.items()
        if names != chosen and _near(names, chosen) and (table, field) not in DELIBERATE
    ]
    assert disagreeing == []


def test_each_deliberate_difference_is_still_a_near_pair_that_differs(declarations):
    tables, choices = declarations
    stale = [
        pair
        for pair in DELIBERATE
        if not (tables[pair[0]] != choices[pair[1]] and _near(tables[pair[0]], choices[pair[1]]))
    ]
    assert stale == []


def test_every_closed_set_with_a_table_is_bound_to_the_table_that_gives_it_meaning(
    declarations,
):
    bound = {field: binding.table for binding in BINDINGS for field in binding.fields}
    assert bound == {
        ("celestial.v1.DrawChartWheelRequest", "theme"): "shared.pictures.themes.THEMES",
        ("celestial.v1.DrawChartWheelRequest", "grid"): "services.ephemeris.wheel.frame.GRID_EXTENT",
        ("celestial.v1.DrawChartWheelRequest", "band"): "shared.pictures.themes.BAND_FILLS",
        ("celestial.v1.ComputeVedicChartRequest", "style"): "services.timelords.indian_charts.layout.STYLES",
        ("celestial.v1.ComputeVedicChartRequest", "theme"): "shared.pictures.themes.THEMES",
        ("celestial.v1.FindBirthTimeSensitivityRequest", "theme"): "shared.pictures.themes.THEMES",
        ("celestial.v1.DrawChartWheelRequest", "table"): "services.ephemeris.wheel.frame.TABLE_PLACES",
        ("celestial.v1.DrawChartWheelRequest", "node"): "kernel.bodies.NODE_BODIES",
        ("celestial.v1.ComputeDraconicChartRequest", "node"): "kernel.bodies.NODE_BODIES",
        ("celestial.v1.ComputeVimshottariDashaRequest", "year_length"): "kernel.vimshottari.YEAR_LENGTHS",
        ("celestial.v1.ExplainDifferenceRequest", "year_length"): "kernel.vimshottari.YEAR_LENGTHS",
        ("celestial.v1.TheirDasha", "lord"): "kernel.vimshottari.LORDS",
        ("celestial.v1.ComputeVedicChartRequest", "houses"): "kernel.vedic_chart.HOUSE_MODES",
        ("celestial.v1.ComputeVedicChartRequest", "node"): "kernel.vedic_chart.NODE_BODIES",
        ("celestial.v1.ComputeAshtakavargaRequest", "node"): "kernel.vedic_chart.NODE_BODIES",
        ("celestial.v1.ComputeShadbalaRequest", "node"): "kernel.vedic_chart.NODE_BODIES",
        ("celestial.v1.ComputeVedicChartRequest", "vargas"): "kernel.vargas.VARGA_CODES",
        ("celestial.v1.ChartOptions", "pattern_types"): "kernel.patterns.PATTERN_TYPES",
        ("celestial.v1.FindPatternsRequest", "patterns"): "kernel.patterns.PATTERN_TYPES",
        ("celestial.v1.ChartOptions", "stellium_scope"): "kernel.patterns.STELLIUM_SCOPES",
        ("celestial.v1.FindPatternsRequest", "stellium_scope"): "kernel.patterns.STELLIUM_SCOPES",
        ("celestial.v1.ChartOptions", "rulership"): "kernel.dignity_tables.RULERSHIPS",
        ("celestial.v1.ComputeDignitiesRequest", "rulership"): "kernel.dignity_tables.RULERSHIPS",
        ("celestial.v1.ChartRequestOptions", "house_position_mode"): "kernel.chart.HOUSE_POSITION_MODES",
        ("celestial.v1.ComputeCompositeChartRequest", "house_position_mode"): "kernel.chart.HOUSE_POSITION_MODES",
        ("celestial.v1.ChartRequestOptions", "resolution"): "kernel.midpoints.RESOLUTIONS",
        ("celestial.v1.ComputeDraconicChartRequest", "resolution"): "kernel.midpoints.RESOLUTIONS",
        ("celestial.v1.ComputeMidpointsRequest", "resolution"): "kernel.midpoints.RESOLUTIONS",
        ("celestial.v1.ComputeCompositeChartRequest", "resolution"): "kernel.composite.COMPOSITE_RESOLUTIONS",
        ("celestial.v1.FindSolarEclipsesRequest", "type"): "kernel.eclipses.SOLAR_TYPES",
        ("celestial.v1.FindLunarEclipsesRequest", "type"): "kernel.eclipses.LUNAR_TYPES",
        ("celestial.v1.FindLunationsRequest", "phases"): "kernel.lunations.PHASE_ANGLES_DEG",
        ("celestial.v1.FindForecastRequest", "kinds"): "kernel.forecast.KINDS",
        ("celestial.v1.FindForecastRequest", "rank"): "shared.runtime.forecast_input.RANKS",
        ("celestial.v1.ComputeFirdariaRequest", "night_order"): "kernel.firdaria.NIGHT_SEQUENCES",
        ("celestial.v1.ComputePanchangRequest", "sunrise"): "kernel.panchang.SUNRISES",
        ("celestial.v1.ComputeNatalChartRequest", "preset"): "shared.runtime.presets.NATAL_CHART_PRESETS",
        ("celestial.v1.StoredChartSettings", "preset"): "shared.runtime.presets.NATAL_CHART_PRESETS",
        ("celestial.v1.FindForecastRequest", "preset"): "shared.runtime.presets.FORECAST_PRESETS",
    }


def test_each_binding_names_the_table_it_holds(declarations):
    tables, _choices = declarations
    assert all(tables[binding.table] == frozenset(name.lower() for name in binding.names) for binding in BINDINGS)


def test_a_table_that_names_other_than_its_fields_choices_is_refused(monkeypatch):
    monkeypatch.setattr(closed_sets, "BINDINGS", [])
    with pytest.raises(ValueError, match="sepia"):
        bound_to_choices(
            {"light": 1, "dark": 2, "high_contrast": 3, "print": 4, "sepia": 5},
            "THEMES",
            (ephemeris_service_pb2.DrawChartWheelRequest, "theme"),
        )
    with pytest.raises(ValueError, match="julian"):
        bound_to_choices(
            ("sidereal", "savana", "gregorian"),
            "YEAR_LENGTHS",
            (vedic_pb2.ComputeVimshottariDashaRequest, "year_length"),
        )
    assert closed_sets.BINDINGS == []


def test_a_table_bound_to_several_fields_must_name_each_ones_choices(monkeypatch):
    monkeypatch.setattr(closed_sets, "BINDINGS", [])
    nodes = ("mean_node", "true_node")
    assert bound_to_choices(nodes, "NODES", (ephemeris_service_pb2.ComputeDraconicChartRequest, "node")) is nodes
    with pytest.raises(ValueError, match="ComputeVedicChartRequest.node"):
        bound_to_choices(
            nodes,
            "NODES",
            (ephemeris_service_pb2.ComputeDraconicChartRequest, "node"),
            (vedic_pb2.ComputeVedicChartRequest, "node"),
        )
    assert [binding.table for binding in closed_sets.BINDINGS] == ["NODES"]


def test_choices_of_reads_a_fields_choices_in_the_contracts_order():
    assert choices_of(ephemeris_service_pb2.DrawChartWheelRequest, "grid") == ("none", "aside", "below")
