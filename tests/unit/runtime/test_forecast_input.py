"""The reader of a forecast (shared/runtime/forecast_input.py): the birth, the range, the
filters (bodies, moving), the order and the page.

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
from kernel.errors import BodyNotEligible, BodyNotFound, RangeTooLong
from kernel.positions import Observer
from shared.errors import ConflictingParameters, InvalidParameter, MissingParameter
from shared.runtime.forecast_input import forecast_input, forecast_settings
from shared.runtime.forecast_pages import page_token

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


def test_moving_reads_bodies_and_groups_each_one_that_moves_in_a_forecast():
    assert forecast_input(request()).moving == ()
    assert forecast_input(request(moving=["Saturn", "jupiter"])).moving == ("saturn", "jupiter")
    assert forecast_input(request(moving=["planets"])).moving == PLANETS


@pytest.mark.parametrize("body", ["chiron", "mean_node", "ceres"])
def test_a_body_that_moves_in_no_forecast_event_is_body_not_eligible_naming_moving(body):
    with pytest.raises(BodyNotEligible) as caught:
        forecast_input(request(moving=["saturn", body]))
    assert caught.value.param == "moving" and body in caught.value.message
    assert "sun, moon, mercury" in caught.value.suggestion and "pluto" in caught.value.suggestion


def test_an_unknown_moving_body_is_body_not_found_naming_moving():
    with pytest.raises(BodyNotFound) as caught:
        forecast_input(request(moving=["vulcan"]))
    assert caught.value.param == "moving"


def test_rank_is_read_as_sent_time_when_left_out():
    assert forecast_input(request()).rank == "time"
    assert forecast_input(request(rank="significance")).rank == "significance"


def test_a_first_page_starts_at_0_with_the_declared_page_size_when_none_is_sent():
    read = forecast_input(request())
    assert (read.position, read.page_size) == (0, 2000)
    assert forecast_input(request(page_size=7)).page_size == 7


def test_a_page_token_of_the_request_gives_its_position_and_one_of_another_request_is_refused():
    key = forecast_input(request()).page_key
    assert forecast_input(request(page_token=page_token(key, 40), page_size=20)).position == 40
    with pytest.raises(InvalidParameter) as caught:
        forecast_input(request(page_token=page_token(key, 40), moving=["saturn"]))
    assert caught.value.param == "page_token"


def test_the_page_key_is_the_list_the_request_answers_whatever_its_page_size():
    assert forecast_input(request(page_size=5)).page_key == forecast_input(request(page_size=50)).page_key
    keys = {
        forecast_input(request(**change)).page_key
        for change in (
            {},
            {"rank": "significance"},
            {"moving": ["mars"]},
            {"bodies": ["mars"]},
            {"kinds": ["transit"]},
            {"end": Moment(datetime="2026-12-31T00:00:00Z")},
            {"moment": Moment(datetime="1990-06-15T14:31:00Z")},
        )
    }
    assert len(keys) == 7


@pytest.mark.parametrize(
    ("paging", "named"), [({"page_size": 10}, "page_size"), ({"page_token": "A" * 22}, "page_token")]
)
def test_an_ics_forecast_is_whole_so_paging_it_is_conflicting_parameters(paging, named):
    with pytest.raises(ConflictingParameters) as caught:
        forecast_input(request(format="ics", **paging))
    assert caught.value.param == named and "format=json" in caught.value.suggestion
