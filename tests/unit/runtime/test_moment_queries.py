"""The readers of one-moment requests (shared/runtime/moment_queries.py): /v1/delta-t,
/v1/sidereal-time, /v1/planetary-hours and /v1/timezone, run through validation as the
gateway runs them. References: the requests' own parameters and the civil-time rules of
interface.md (Paris keeps UTC+2 in July)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Location, Moment
from kernel.errors import OutOfRange
from shared.errors import MissingParameter
from shared.runtime.moment_queries import MeridianQuery, PlacedMomentQuery
from shared.runtime.validation import validate

J2000_UTC = "2000-01-01T12:00:00Z"
#: UT1 - UTC stays under 0.9 s, so the UT1 Julian Day of a UTC instant is within 1e-5 day of its UTC one.
DUT1_DAYS = 1e-5


def test_delta_t_reads_the_moment_alone():
    query = validate(pb.ComputeDeltaTRequest(moment=Moment(datetime=J2000_UTC))).query
    assert query.jd_ut1 == pytest.approx(2451545.0, abs=DUT1_DAYS)


def test_sidereal_time_reads_the_meridian_only_when_sent():
    without = validate(pb.ComputeSiderealTimeRequest(moment=Moment(datetime=J2000_UTC))).query
    with_lon = validate(pb.ComputeSiderealTimeRequest(moment=Moment(datetime=J2000_UTC), lon=-73.5)).query
    assert isinstance(without, MeridianQuery) and without.longitude_deg is None
    assert with_lon.longitude_deg == -73.5
    assert with_lon.moment.jd_ut1 == without.moment.jd_ut1


def test_planetary_hours_need_a_place_and_name_lat_without_one():
    with pytest.raises(MissingParameter) as refused:
        validate(pb.ComputePlanetaryHoursRequest(moment=Moment(datetime=J2000_UTC)))
    assert refused.value.param == "lat"


def test_a_placed_moment_carries_the_place_in_degrees_and_no_local_reading_for_utc():
    query = validate(
        pb.ComputePlanetaryHoursRequest(moment=Moment(datetime=J2000_UTC), location=Location(lat=48.85, lon=2.35))
    ).query
    assert isinstance(query, PlacedMomentQuery)
    assert (query.place.latitude_deg, query.place.longitude_deg) == (48.85, 2.35)
    assert query.local is None


def test_a_local_time_keeps_how_it_was_read():
    request = pb.FindTimeZoneRequest(
        moment=Moment(datetime="2024-07-01T12:00:00", tz="Europe/Paris"), location=Location(lat=48.85, lon=2.35)
    )
    query = validate(request).query
    assert query.local.zone == "Europe/Paris"
    assert query.local.utc_offset_s == 2 * 3600
    assert query.local.utc == datetime(2024, 7, 1, 10, 0, tzinfo=UTC)
    assert query.moment.jd_ut1 == pytest.approx(2460492.916667, abs=DUT1_DAYS)


@pytest.mark.parametrize(
    ("moment", "param"),
    [
        (Moment(jd=1_000_000.0), "jd"),  # the instant itself in 1975 BCE
        (Moment(datetime="0001-01-01T02:00:00Z"), "datetime"),  # New York's wall clock still in the year 0
    ],
)
def test_a_time_zone_is_refused_where_no_zone_has_a_history_instant_or_wall_clock(moment, param):
    with pytest.raises(OutOfRange) as refused:
        validate(pb.FindTimeZoneRequest(moment=moment, location=Location(lat=40.71, lon=-74.01)))
    assert refused.value.param == param and "1 to 9999" in refused.value.message


def test_a_time_zone_at_the_first_hours_a_zone_knows_is_read():
    query = validate(
        pb.FindTimeZoneRequest(moment=Moment(datetime="0001-01-01T12:00:00Z"), location=Location(lat=40.71, lon=-74.01))
    ).query
    assert isinstance(query, PlacedMomentQuery) and query.place.latitude_deg == pytest.approx(40.71)
