"""What a chart request adds to its chart (shared/runtime/chart_extras.py).

References: ChartOptions and ChartRequestOptions (common.proto: patterns and pattern_types,
stellium_min and stellium_scope, derived_points with midpoints, antiscia and lots, rulership,
day_chart); contributing.md, Adding a chart extra; the domicile rulers (traditional: Scorpio
ruled by Mars; modern: by Pluto).
"""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Birth, Moment, Place
from kernel.chart_extras import ChartExtras
from shared.errors import InvalidParameter
from shared.runtime.chart_extras import chart_extras_from
from shared.runtime.validation import validate

BIRTH = Birth(moment=Moment(jd=2451545.0), location=Place(lat=51.5, lon=-0.1))
SCORPIO = 7


def natal() -> pb.ComputeNatalChartRequest:
    """A natal chart request with its defaults filled as validation fills them."""
    return validate(pb.ComputeNatalChartRequest(birth=BIRTH)).message


def extras(request, **kwargs) -> ChartExtras:
    return chart_extras_from(request, dignities=kwargs.pop("dignities", False), **kwargs)


def test_a_request_that_asks_for_nothing_adds_nothing():
    found = extras(natal())
    assert (found.patterns, found.derived, found.lots, found.dignities, found.day_chart, found.unused) == (
        None,
        False,
        (),
        False,
        None,
        (),
    )


def test_patterns_are_the_pattern_types_asked_with_the_stellium_settings():
    request = natal()
    options = request.chart.options
    options.patterns, options.stellium_min, options.stellium_scope = True, 4, "house"
    del options.pattern_types[:]
    options.pattern_types.extend(["yod", "stellium"])
    found = extras(request)
    assert (found.patterns, found.stellium_min, found.stellium_scope) == (("yod", "stellium"), 4, "house")


def test_derived_points_take_midpoints_and_antiscia_by_default_and_the_lots_asked():
    request = natal()
    request.chart.options.derived_points = True
    request.chart.options.lots.append("fortune")
    found = extras(request, resolution="higher")
    assert (found.derived, found.midpoints, found.antiscia, found.lots, found.resolution) == (
        True,
        True,
        True,
        ("part_of_fortune",),
        "higher",
    )


def test_derived_points_leave_out_what_is_switched_off():
    request = natal()
    request.chart.options.derived_points = True
    request.chart.options.antiscia = False
    found = extras(request)
    assert (found.midpoints, found.antiscia) == (True, False)


def test_lots_in_a_heliocentric_chart_are_invalid_naming_lots():
    request = natal()
    options = request.chart.options
    options.derived_points, options.heliocentric = True, True
    options.lots.append("spirit")
    with pytest.raises(InvalidParameter) as caught:
        extras(request)
    assert caught.value.param == "lots"


def test_derived_point_parameters_sent_without_derived_points_are_named_unused():
    request = natal()
    request.chart.options.lots.append("fortune")
    request.chart.options.midpoints = False
    assert extras(request, resolution_sent=True).unused == ("lots", "midpoints", "resolution")


def test_dignities_follow_the_rulership_and_the_sect_sent():
    request = natal()
    request.chart.options.rulership = "modern"
    request.chart.options.day_chart = False
    found = extras(request, dignities=True)
    assert (found.dignities, found.rulers[SCORPIO], found.day_chart) == (True, "pluto", False)
    assert extras(natal()).rulers[SCORPIO] == "mars"
