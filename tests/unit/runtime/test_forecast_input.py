"""The reader of a forecast (shared/runtime/forecast_input.py).

References: FindForecastRequest (search_service.proto: a birth with its place, at most 10
calendar years, format ics or json); RFC 5545 (DATE is four digits of year, so an iCalendar
file starts in year 1); the settings are each kind's own endpoint's declared defaults
(FindTransitsRequest, FindStationsRequest, FindLunationsRequest, FindVoidOfCoursePeriodsRequest,
ComputeProfectionsRequest, ComputeZodiacalReleasingRequest, ComputeFirdariaRequest).
"""

from __future__ import annotations

import pytest

from celestial.v1 import search_service_pb2 as pb
from celestial.v1.common_pb2 import Location, Moment
from kernel.errors import RangeTooLong
from kernel.positions import Observer
from shared.errors import InvalidParameter, MissingParameter
from shared.runtime.forecast_input import forecast_input, forecast_settings

BIRTH = {"moment": Moment(datetime="1990-06-15T14:30:00Z"), "location": Location(lat=51.5, lon=-0.13)}
PLANETS = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto")
# The group planets: Sun through Pluto and the mean node (kernel/bodies.py).
PLANETS_GROUP = (*PLANETS, "mean_node")


def request(**fields) -> pb.FindForecastRequest:
    values = {
        **BIRTH,
        "start": Moment(datetime="2026-01-01T00:00:00Z"),
        "end": Moment(datetime="2027-01-01T00:00:00Z"),
        "kinds": ["transit", "return", "transit"],
        "format": "json",
        **fields,
    }
    return pb.FindForecastRequest(**values)


def test_a_forecast_reads_the_birth_its_place_the_range_and_the_kinds_once_each():
    read = forecast_input(request(bodies=["Saturn", "mars"]))
    assert read.birth.iso_utc() == "1990-06-15T14:30:00.000Z" and read.place == Observer(51.5, -0.13)
    assert (read.start.iso_utc(), read.end.iso_utc()) == ("2026-01-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z")
    assert read.kinds == ("transit", "return") and read.bodies == ("saturn", "mars") and not read.ics


def test_a_group_of_bodies_filters_by_each_of_its_bodies():
    assert forecast_input(request(bodies=["planets"])).bodies == PLANETS_GROUP


def test_ten_calendar_years_pass_and_a_second_more_is_range_too_long_naming_end():
    forecast_input(request(end=Moment(datetime="2036-01-01T00:00:00Z")))
    with pytest.raises(RangeTooLong) as caught:
        forecast_input(request(end=Moment(datetime="2036-01-01T00:00:01Z")))
    assert caught.value.param == "end"


def test_the_birth_needs_its_place():
    with pytest.raises(MissingParameter) as caught:
        forecast_input(request(location=Location()))
    assert caught.value.param == "lat"


def test_an_ics_forecast_starts_in_year_1_at_the_earliest():
    with pytest.raises(InvalidParameter) as caught:
        forecast_input(request(format="ics", start=Moment(jd=1000000.5), end=Moment(jd=1000100.5)))
    assert caught.value.param == "format"
    assert forecast_input(request(format="ics")).ics


def test_the_settings_are_each_kinds_own_endpoints_defaults():
    settings = forecast_settings()
    # /v1/transits: Sun through Pluto moving, the natal planets (and the mean node), the major five within 1 degree;
    # the Moon moves in no transit (its conjunction to the natal Moon is the lunar return).
    assert settings.moving == tuple(b for b in PLANETS if b != "moon") and settings.natal_bodies == PLANETS_GROUP
    assert settings.aspects == ("conjunction", "sextile", "square", "trine", "opposition") and settings.orb == 1.0
    assert settings.station_bodies == PLANETS[2:] and settings.ingress_bodies == settings.moving
    assert settings.phases == ("new_moon", "first_quarter", "full_moon", "last_quarter")
    assert (settings.profection_from, settings.profection_months, settings.year_days) == ("ascendant", True, 365.2422)
    assert (settings.releasing_from, settings.releasing_levels, settings.firdaria_order) == (
        "part_of_spirit",
        2,
        "nodes_last",
    )
    assert settings.house_system.name == "placidus"
