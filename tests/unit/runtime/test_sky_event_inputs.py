"""The inputs of the searches for sky events over a range (shared/runtime/sky_event_inputs.py).

References: FindStationsRequest (search_service.proto: at most 10 calendar years; Mercury
through Pluto and the asteroids), FindVoidOfCoursePeriodsRequest (at most 366 days; the Moon
among the bodies), FindCalendarEventsRequest (at most 366 days; format ics or json); RFC 5545
(DATE is four digits of year, so an iCalendar file starts in year 1); the asteroids'
ephemeris files begin in 1200 CE (data/ephe/SOURCE.md).
"""

from __future__ import annotations

import pytest

from celestial.v1 import search_service_pb2 as pb
from celestial.v1.common_pb2 import AspectSelection, Moment
from kernel.errors import OutOfRange, RangeTooLong
from kernel.timescale import Moment as KernelMoment
from shared.errors import InvalidParameter
from shared.runtime.sky_event_inputs import (
    StationsInput,
    calendar_input,
    stations_input,
    void_periods_input,
)

J2000 = 2451545.0
BEFORE_THE_ASTEROID_FILES = 2100000.0  # 1037 CE


def test_stations_are_searched_over_the_range_for_the_bodies_asked():
    request = pb.FindStationsRequest(start=Moment(jd=J2000), end=Moment(jd=J2000 + 400), bodies=["Mars", "chiron"])
    assert stations_input(request) == StationsInput(J2000, J2000 + 400, ("mars", "chiron"))


def test_stations_over_more_than_10_years_are_range_too_long():
    request = pb.FindStationsRequest(
        start=Moment(datetime="2000-01-01T00:00:00Z"), end=Moment(datetime="2010-01-02T00:00:00Z"), bodies=["mars"]
    )
    with pytest.raises(RangeTooLong) as caught:
        stations_input(request)
    assert caught.value.param == "end"


def test_an_asteroid_without_an_ephemeris_over_the_range_is_out_of_range_naming_bodies():
    request = pb.FindStationsRequest(
        start=Moment(jd=BEFORE_THE_ASTEROID_FILES), end=Moment(jd=BEFORE_THE_ASTEROID_FILES + 100), bodies=["ceres"]
    )
    with pytest.raises(OutOfRange) as caught:
        stations_input(request)
    assert caught.value.param == "bodies"


def test_void_periods_hold_the_range_the_bodies_the_aspects_and_the_orb_sent():
    request = pb.FindVoidOfCoursePeriodsRequest(
        start=Moment(jd=J2000),
        end=Moment(jd=J2000 + 30),
        bodies=["moon", "sun"],
        aspect_selection=AspectSelection(aspects=["trine"], orb=2.5),
    )
    found = void_periods_input(request)
    assert (found.start_jd, found.end_jd, found.bodies, found.aspects, found.orb_deg) == (
        J2000,
        J2000 + 30,
        ("moon", "sun"),
        ("trine",),
        2.5,
    )


def test_void_periods_without_an_orb_take_each_types_own():
    request = pb.FindVoidOfCoursePeriodsRequest(start=Moment(jd=J2000), end=Moment(jd=J2000 + 30), bodies=["moon"])
    assert void_periods_input(request).orb_deg is None


def test_void_periods_without_the_moon_are_invalid_naming_bodies():
    request = pb.FindVoidOfCoursePeriodsRequest(start=Moment(jd=J2000), end=Moment(jd=J2000 + 30), bodies=["sun"])
    with pytest.raises(InvalidParameter) as caught:
        void_periods_input(request)
    assert caught.value.param == "bodies"


def test_void_periods_over_more_than_366_days_are_range_too_long():
    request = pb.FindVoidOfCoursePeriodsRequest(start=Moment(jd=J2000), end=Moment(jd=J2000 + 367), bodies=["moon"])
    with pytest.raises(RangeTooLong) as caught:
        void_periods_input(request)
    assert caught.value.param == "end_jd"


def calendar(
    start_jd: float, *, events=("stations", "ingresses", "stations"), format: str = "json"
) -> pb.FindCalendarEventsRequest:
    return pb.FindCalendarEventsRequest(
        start=Moment(jd=start_jd),
        end=Moment(jd=start_jd + 30),
        events=list(events),
        bodies=["sun", "mars"],
        format=format,
    )


def test_a_calendar_keeps_each_kind_of_event_once_in_order():
    found = calendar_input(calendar(J2000))
    assert (found.events, found.bodies, found.ics) == (("stations", "ingresses"), ("sun", "mars"), False)


def test_a_calendar_as_ics_from_year_1_is_accepted():
    first_day = KernelMoment.from_iso("0001-01-01T00:00:00Z").jd_ut1
    assert calendar_input(calendar(first_day, format="ics")).ics


def test_a_calendar_as_ics_before_year_1_is_invalid_naming_format():
    before = KernelMoment.from_iso("0001-01-01T00:00:00Z").jd_ut1 - 1
    with pytest.raises(InvalidParameter) as caught:
        calendar_input(calendar(before, format="ics"))
    assert caught.value.param == "format"
    assert not calendar_input(calendar(before)).ics
