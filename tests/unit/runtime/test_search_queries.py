"""The readers of searches from one moment (shared/runtime/search_queries.py): /v1/ingresses
and the eclipse searches, run through validation as the gateway runs them. References: the
zodiac's signs at 30° each from 0° Aries, and the proto's defaults."""

from __future__ import annotations

import pytest

from celestial.v1 import search_service_pb2 as pb
from celestial.v1.common_pb2 import Moment, Place
from shared.runtime.validation import validate

MOMENT = Moment(datetime="2024-03-20T12:00:00Z")


@pytest.mark.parametrize(
    ("sign", "name", "first_degree"), [("aries", "Aries", 0.0), ("leo", "Leo", 120.0), ("pisces", "Pisces", 330.0)]
)
def test_an_ingress_into_a_sign_targets_its_first_degree(sign, name, first_degree):
    query = validate(pb.FindIngressesRequest(moment=MOMENT, body="mars", sign=sign)).query
    assert (query.sign, query.target_deg) == (name, first_degree)


def test_an_ingress_across_a_longitude_has_no_sign_and_360_is_0():
    query = validate(pb.FindIngressesRequest(moment=MOMENT, body="mars", longitude=360.0)).query
    assert (query.sign, query.target_deg) == (None, 0.0)


def test_an_ingress_search_names_the_parameter_that_gave_its_moment():
    by_datetime = validate(pb.FindIngressesRequest(moment=MOMENT, body="sun", sign="aries")).query
    by_jd = validate(pb.FindIngressesRequest(moment=Moment(jd=2451545.0), body="sun", sign="aries")).query
    assert (by_datetime.moment_param, by_jd.moment_param) == ("datetime", "jd")
    assert (by_jd.count, by_jd.backward) == (1, False)


def test_eclipses_are_global_without_a_place():
    query = validate(pb.FindSolarEclipsesRequest(moment=MOMENT)).query
    assert query.place is None
    assert query.types == ("total", "annular", "partial", "annular_total")


def test_eclipses_from_a_place_are_seen_from_it():
    query = validate(
        pb.FindLunarEclipsesRequest(moment=MOMENT, place=Place(lat=51.5, lon=-0.13), count=3, backward=True)
    ).query
    assert (query.place.latitude_deg, query.place.longitude_deg) == (51.5, -0.13)
    assert (query.types, query.count, query.backward) == (("total", "partial", "penumbral"), 3, True)
