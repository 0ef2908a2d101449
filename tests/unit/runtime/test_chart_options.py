"""A chart request's options read into ChartSettings (shared/runtime/chart_options.py).

References: ChartOptions, ChartRequestOptions and AspectSelection (common.proto: their
defaults: placidus, the Major 7, applying and parallels on, parallel orb 1.0, zodiacal house
positions); ComputeCompositeChartRequest (its own house_position_mode); chart_options.py's
rules: mundane house positions and Gauquelin sectors need geocentric longitudes of date.
"""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Birth, Moment, Place, TwoBirths
from shared.errors import InvalidParameter
from shared.runtime.chart_options import chart_request_options, chart_settings_from
from shared.runtime.validation import validate

BIRTH = Birth(moment=Moment(jd=2451545.0), location=Place(lat=51.5, lon=-0.1))
MAJOR_SEVEN = ("conjunction", "opposition", "trine", "square", "sextile", "quincunx", "semi_sextile")


def natal(**fields) -> pb.ComputeNatalChartRequest:
    """A natal chart request with its defaults filled as validation fills them."""
    return validate(pb.ComputeNatalChartRequest(birth=BIRTH, **fields)).message


def test_a_natal_requests_options_are_held_in_its_chart_request_options():
    request = natal()
    assert chart_request_options(request) is request.chart


def test_a_composite_request_holds_its_options_itself():
    request = pb.ComputeCompositeChartRequest(births=TwoBirths(birth_a=BIRTH, birth_b=BIRTH))
    assert chart_request_options(request) is request


def test_the_settings_of_a_request_that_sent_no_option_are_the_protos_defaults():
    settings = chart_settings_from(natal())
    assert (settings.system.name, settings.aspect_types, settings.orb_deg) == ("placidus", MAJOR_SEVEN, None)
    assert (settings.applying, settings.parallels, settings.parallel_orb_deg, settings.house_position_mode) == (
        True,
        True,
        1.0,
        "zodiacal",
    )
    assert settings.bodies == (
        "sun",
        "moon",
        "mercury",
        "venus",
        "mars",
        "jupiter",
        "saturn",
        "uranus",
        "neptune",
        "pluto",
        "mean_node",
    )


def test_the_options_sent_are_read_into_the_settings():
    request = natal(bodies=["Sun", "moon"])
    options = request.chart.options
    options.system, options.aspect_selection.orb, options.parallel_orb, options.applying = "K", 4.0, 0.5, False
    del options.aspect_selection.aspects[:]
    options.aspect_selection.aspects.extend(["square", "trine", "square"])
    request.chart.house_position_mode = "mundane"
    settings = chart_settings_from(request)
    assert (settings.bodies, settings.system.name, settings.aspect_types) == (
        ("sun", "moon"),
        "koch",
        ("square", "trine"),
    )
    assert (settings.orb_deg, settings.parallel_orb_deg, settings.applying, settings.house_position_mode) == (
        4.0,
        0.5,
        False,
        "mundane",
    )


@pytest.mark.parametrize("flag", ["j2000", "heliocentric"])
def test_mundane_house_positions_without_longitudes_of_date_are_invalid_naming_house_position_mode(flag):
    request = natal()
    request.chart.house_position_mode = "mundane"
    setattr(request.chart.options, flag, True)
    with pytest.raises(InvalidParameter) as caught:
        chart_settings_from(request)
    assert caught.value.param == "house_position_mode"


@pytest.mark.parametrize("flag", ["j2000", "heliocentric"])
def test_gauquelin_sectors_without_longitudes_of_date_are_invalid_naming_system(flag):
    request = natal()
    request.chart.options.system = "gauquelin"
    setattr(request.chart.options, flag, True)
    with pytest.raises(InvalidParameter) as caught:
        chart_settings_from(request)
    assert caught.value.param == "system"


def test_heliocentric_zodiacal_charts_are_cast_around_the_earth():
    request = natal()
    request.chart.options.heliocentric = True
    settings = chart_settings_from(request)
    assert settings.flags.heliocentric and settings.bodies[0] == "earth"
