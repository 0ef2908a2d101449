"""Reading requests into kernel values at a service's edge (shared/runtime/wire.py)."""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from shared.errors import InvalidParameter, MissingParameter
from shared.kernel.errors import BodyNotEligible
from shared.kernel.positions import Observer
from shared.runtime.wire import bodies_from, flags_from, moment_from, observer_from


def test_flags_absent_from_a_request_take_the_specs_defaults():
    flags = flags_from(pb.ComputePositionsRequest(jd=2451545.0))
    assert flags.speed is True
    assert (flags.sidereal, flags.equatorial, flags.topocentric, flags.heliocentric) == (None, False, False, False)


def test_sidereal_is_read_into_the_ayanamsha_it_names():
    assert flags_from(pb.ComputePositionsRequest(sidereal="lahiri")).sidereal.name == "lahiri"


def test_the_observer_is_lat_lon_and_alt_in_metres():
    request = pb.ComputePositionsRequest(lat=51.5, lon=-0.1, alt=35.0)
    assert observer_from(request, flags_from(request)) == Observer(51.5, -0.1, 35.0)


def test_topocentric_without_a_place_is_missing_lat():
    request = pb.ComputePositionsRequest(topocentric=True)
    with pytest.raises(MissingParameter) as caught:
        observer_from(request, flags_from(request))
    assert caught.value.param == "lat"


def test_topocentric_and_heliocentric_together_are_refused_naming_topocentric():
    request = pb.ComputePositionsRequest(topocentric=True, heliocentric=True, lat=0.0, lon=0.0)
    with pytest.raises(InvalidParameter) as caught:
        observer_from(request, flags_from(request))
    assert caught.value.param == "topocentric"


def test_bodies_are_resolved_once_under_the_requests_centre():
    request = pb.ComputePositionsRequest(bodies=["sun", "lilith", "mean_apogee"])
    assert bodies_from(request, flags_from(request)) == ("sun", "lilith")
    heliocentric = pb.ComputePositionsRequest(bodies=["sun"], heliocentric=True)
    with pytest.raises(BodyNotEligible):
        bodies_from(heliocentric, flags_from(heliocentric))


def test_the_moment_comes_from_datetime_or_jd():
    assert moment_from(pb.ComputePositionsRequest(jd=2451545.0)).jd_ut1 == 2451545.0
    assert moment_from(pb.ComputePositionsRequest(datetime="2000-01-01T12:00:00Z")).source_param == "datetime"
