"""The query of a positions request (shared/runtime/positions_query.py).

References: ComputePositionsRequest (ephemeris_service.proto: moment, bodies, place, the
calculation flags; the place is required with topocentric=true); interface.md, the
calculation flags' defaults (speed on, the others off).
"""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Moment, Place
from kernel.positions import Observer
from shared.errors import MissingParameter
from shared.runtime.positions_query import positions_query


def test_the_query_holds_the_moment_the_bodies_the_flags_and_the_observer():
    request = pb.ComputePositionsRequest(
        moment=Moment(jd=2451545.0),
        bodies=["Moon", "mars"],
        topocentric=True,
        place=Place(lat=40.0, lon=-74.0, alt=10.0),
    )
    query = positions_query(request)
    assert query.moment.jd_ut1 == 2451545.0
    assert query.bodies == ("moon", "mars")
    assert query.flags.topocentric and query.flags.speed
    assert query.observer == Observer(40.0, -74.0, 10.0)


def test_without_a_place_there_is_no_observer():
    query = positions_query(pb.ComputePositionsRequest(moment=Moment(jd=2451545.0), bodies=["sun"]))
    assert query.observer is None


def test_topocentric_without_a_place_is_missing_lat():
    with pytest.raises(MissingParameter) as caught:
        positions_query(pb.ComputePositionsRequest(moment=Moment(jd=2451545.0), bodies=["sun"], topocentric=True))
    assert caught.value.param == "lat"


def test_a_request_without_a_moment_is_missing_datetime():
    with pytest.raises(MissingParameter) as caught:
        positions_query(pb.ComputePositionsRequest(bodies=["sun"]))
    assert caught.value.param == "datetime"
