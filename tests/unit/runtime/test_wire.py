"""Reading requests into kernel values at a service's edge (shared/runtime/wire.py)."""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1 import search_service_pb2 as search_pb
from celestial.v1 import timelords_service_pb2 as timelords_pb
from celestial.v1.common_pb2 import Birth, Location, Moment, Place, TwoBirths
from kernel.errors import BodyNotEligible
from kernel.positions import Observer
from shared.errors import CelestialError, MissingParameter
from shared.runtime.validation import validate
from shared.runtime.wire import (
    bodies_from,
    chart_birth_from,
    chart_place,
    flags_from,
    moment_from,
    observer_from,
    optional_moment,
    place_from,
    relocation_from,
)


def test_flags_absent_from_a_request_take_the_specs_defaults():
    flags = flags_from(pb.ComputePositionsRequest(moment=Moment(jd=2451545.0)))
    assert flags.speed is True
    assert (flags.sidereal, flags.equatorial, flags.topocentric, flags.heliocentric) == (None, False, False, False)


def test_sidereal_is_read_into_the_ayanamsha_it_names():
    assert flags_from(pb.ComputePositionsRequest(sidereal="lahiri")).sidereal.name == "lahiri"


def test_the_observer_is_lat_lon_and_alt_in_metres():
    request = pb.ComputePositionsRequest(place=Place(lat=51.5, lon=-0.1, alt=35.0))
    assert observer_from(request, flags_from(request)) == Observer(51.5, -0.1, 35.0)


def test_topocentric_without_a_place_is_missing_lat():
    request = pb.ComputePositionsRequest(topocentric=True)
    with pytest.raises(MissingParameter) as caught:
        observer_from(request, flags_from(request))
    assert caught.value.param == "lat"


def test_bodies_are_resolved_once_under_the_requests_centre():
    request = pb.ComputePositionsRequest(bodies=["sun", "lilith", "mean_apogee"])
    assert bodies_from(request, flags_from(request)) == ("sun", "lilith")
    heliocentric = pb.ComputePositionsRequest(bodies=["sun"], heliocentric=True)
    with pytest.raises(BodyNotEligible):
        bodies_from(heliocentric, flags_from(heliocentric))


def test_the_moment_comes_from_datetime_or_jd():
    assert moment_from(pb.ComputePositionsRequest(moment=Moment(jd=2451545.0))).jd_ut1 == 2451545.0
    assert (
        moment_from(pb.ComputePositionsRequest(moment=Moment(datetime="2000-01-01T12:00:00Z"))).iso_utc()
        == "2000-01-01T12:00:00.000Z"
    )


def test_a_moment_is_read_under_the_names_its_request_gives_it():
    request = search_pb.FindTransitsRequest(start=Moment(datetime="2024-13-01"), end=Moment(jd=1.0))
    with pytest.raises(CelestialError) as start:
        moment_from(request, "start")
    with pytest.raises(CelestialError) as end:
        moment_from(request, "end")
    assert (start.value.param, end.value.param) == ("start", "end_jd")


def test_a_moment_not_sent_is_none_or_missing_under_its_own_names():
    request = timelords_pb.ComputeFirdariaRequest()
    assert optional_moment(request, "timeline.at") is None
    with pytest.raises(MissingParameter) as caught:
        moment_from(request, "timeline.at")
    assert caught.value.param == "at"
    assert "at or at_jd" in str(caught.value)


def test_a_location_is_an_observer_at_sea_level_and_none_when_not_sent():
    assert place_from(pb.FindPatternsRequest(location=Location(lat=10.0, lon=20.0)), "location") == Observer(
        10.0, 20.0, 0.0
    )
    assert place_from(pb.FindPatternsRequest(), "location") is None


def test_the_second_person_reads_its_own_suffixed_parameters():
    birth_a = Birth(moment=Moment(jd=2451545.0), location=Place(lat=1.0, lon=1.0))
    request = pb.ComputeSynastryRequest(
        births=TwoBirths(birth_a=birth_a, birth_b=Birth(moment=Moment(jd=2451545.0), location=Place(lon=5.0)))
    )
    with pytest.raises(MissingParameter) as caught:
        validate(request)
    assert caught.value.param == "lat_b"


def test_the_service_edge_names_the_moment_a_request_sent_and_the_house_system():
    from shared.runtime.wire import edge_names

    assert edge_names(pb.ComputePositionsRequest(moment=Moment(jd=2451545.0))) == {
        "system": "system",
        "count": "count",
        "jd": "jd",
        "moment": "jd",
    }
    assert (
        edge_names(pb.ComputePositionsRequest(moment=Moment(datetime="2000-01-01T12:00:00Z")))["moment"] == "datetime"
    )


def test_the_service_edge_names_no_moment_for_a_request_without_its_own():
    from shared.runtime.wire import edge_names

    assert edge_names(pb.ComputeSynastryRequest()) == {"system": "system", "count": "count", "jd": "jd"}


def test_a_relocation_is_the_place_the_chart_is_cast_for():
    request = pb.ComputeNatalChartRequest(
        birth=Birth(moment=Moment(jd=2451545.0), location=Place(lat=51.5, lon=-0.13)),
        relocation=Location(lat=35.68, lon=139.69),
    )
    assert relocation_from(request) == Observer(35.68, 139.69, 0.0)
    assert chart_place(request, Observer(51.5, -0.13, 0.0)) == Observer(35.68, 139.69, 0.0)


def test_without_a_relocation_the_chart_is_cast_at_the_births_place():
    request = pb.ComputeNatalChartRequest(birth=Birth(moment=Moment(jd=2451545.0), location=Place(lat=51.5, lon=-0.13)))
    born = Observer(51.5, -0.13, 0.0)
    assert relocation_from(request) is None and chart_place(request, born) == born


def test_a_request_that_takes_no_relocation_is_never_relocated():
    request = pb.ComputePositionsRequest(place=Place(lat=51.5, lon=-0.1))
    assert relocation_from(request) is None


def test_a_relocation_town_gives_its_coordinates():
    request = validate(
        pb.ComputeNatalChartRequest(birth=Birth(moment=Moment(jd=2451545.0), place="2988507"), relocate="1850147")
    )
    moment, place = chart_birth_from(request)
    assert moment.jd_ut1 == 2451545.0
    assert (round(place.latitude_deg), round(place.longitude_deg)) == (36, 140)  # Tokyo, not Paris
