"""What a chart request casts, by kind of chart (shared/runtime/chart_inputs.py).

References: ComputeNatalChartRequest, ComputeCompositeChartRequest and
ComputeDraconicChartRequest (ephemeris_service.proto: a composite has no mundane house
positions and its derived midpoints break ties with lower; a draconic chart refuses
dignities=true and heliocentric and needs mean_node or true_node among its bodies,
no_north_node); ChartRequestOptions.resolution (common.proto: lower by default).
"""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Birth, Moment, Place, TwoBirths
from kernel.errors import NoNorthNode
from shared.errors import InvalidParameter
from shared.runtime.chart_inputs import chart_inputs, composite_inputs, draconic_inputs
from shared.runtime.validation import validate

BIRTH = Birth(moment=Moment(jd=2451545.0), location=Place(lat=51.5, lon=-0.1))


def filled(request):
    """The request with its defaults filled as validation fills them."""
    return validate(request).message


def test_a_natal_chart_takes_its_own_resolution_and_dignities():
    request = filled(pb.ComputeNatalChartRequest(birth=BIRTH, bodies=["sun", "moon"]))
    request.chart.resolution, request.chart.dignities = "higher", True
    found = chart_inputs(request)
    assert (found.settings.bodies, found.extras.resolution, found.extras.dignities) == (("sun", "moon"), "higher", True)


def test_a_natal_chart_without_a_resolution_resolves_lower():
    request = filled(pb.ComputeNatalChartRequest(birth=BIRTH))
    assert not request.chart.HasField("resolution")
    assert chart_inputs(request).extras.resolution == "lower"


def composite(**fields) -> pb.ComputeCompositeChartRequest:
    return filled(pb.ComputeCompositeChartRequest(births=TwoBirths(birth_a=BIRTH, birth_b=BIRTH), **fields))


def test_a_composites_derived_midpoints_resolve_lower_whatever_arc_its_positions_take():
    found = composite_inputs(composite(resolution="far", dignities=True))
    assert (found.extras.resolution, found.extras.dignities) == ("lower", True)


def test_a_mundane_composite_is_invalid_naming_house_position_mode():
    request = composite()
    request.house_position_mode = "mundane"
    with pytest.raises(InvalidParameter) as caught:
        composite_inputs(request)
    assert caught.value.param == "house_position_mode"


def draconic(**fields) -> pb.ComputeDraconicChartRequest:
    return filled(pb.ComputeDraconicChartRequest(birth=BIRTH, **fields))


def test_a_draconic_chart_casts_its_bodies_with_the_node():
    assert draconic_inputs(draconic(bodies=["sun", "true_node"])).settings.bodies == ("sun", "true_node")


def test_a_draconic_chart_with_dignities_is_invalid_naming_dignities():
    request = draconic()
    request.dignities = True
    with pytest.raises(InvalidParameter) as caught:
        draconic_inputs(request)
    assert caught.value.param == "dignities"


def test_a_heliocentric_draconic_chart_is_invalid_naming_heliocentric():
    request = draconic(bodies=["moon", "mean_node"])
    request.options.heliocentric = True
    with pytest.raises(InvalidParameter) as caught:
        draconic_inputs(request)
    assert caught.value.param == "heliocentric"


def test_a_draconic_chart_without_a_node_is_no_north_node_naming_bodies():
    request = draconic()
    del request.bodies[:]
    request.bodies.extend(["sun", "moon"])
    with pytest.raises(NoNorthNode) as caught:
        draconic_inputs(request)
    assert caught.value.param == "bodies"
