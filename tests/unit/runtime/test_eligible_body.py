"""The bodies a parameter names for a use of the body table (shared/runtime/eligible_body.py).

References: the ``(field).body_use`` of search_service.proto (FindIngressesRequest.body:
ingresses, the Sun through Pluto; FindStationsRequest.bodies: stations, Mercury through Pluto
and the asteroids; FindCalendarEventsRequest.bodies: calendar); contributing.md, Adding a body.
"""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as ephemeris_pb
from celestial.v1 import search_service_pb2 as pb
from kernel.errors import BodyNotEligible, BodyNotFound
from shared.errors import InvalidParameter
from shared.runtime.eligible_body import body_use, eligible_bodies, eligible_body


def test_a_fields_body_use_is_read_from_its_options():
    assert body_use(pb.FindIngressesRequest.DESCRIPTOR, "body") == "ingresses"
    assert body_use(pb.FindStationsRequest.DESCRIPTOR, "bodies") == "stations"
    assert body_use(ephemeris_pb.ComputePositionsRequest.DESCRIPTOR, "bodies") == ""


def test_a_parameter_without_a_body_use_is_a_contract_error():
    with pytest.raises(ValueError):
        eligible_bodies(ephemeris_pb.ComputePositionsRequest(bodies=["sun"]))


def test_an_eligible_body_is_resolved_lowercase():
    assert eligible_body(pb.FindIngressesRequest(body=" Venus ")) == "venus"


@pytest.mark.parametrize("body", ["mean_node", "chiron", "mean_apogee"])
def test_a_body_the_use_does_not_take_is_body_not_eligible_naming_the_parameter(body):
    with pytest.raises(BodyNotEligible) as caught:
        eligible_body(pb.FindIngressesRequest(body=body))
    assert caught.value.param == "body"


def test_an_unknown_body_is_body_not_found_naming_the_parameter():
    with pytest.raises(BodyNotFound) as caught:
        eligible_body(pb.FindIngressesRequest(body="vulcan"))
    assert caught.value.param == "body"


def test_a_group_where_one_body_is_wanted_is_invalid():
    with pytest.raises(InvalidParameter) as caught:
        eligible_body(pb.FindIngressesRequest(body="planets"))
    assert caught.value.param == "body"


def test_a_group_expands_to_its_eligible_members_in_order():
    assert eligible_bodies(pb.FindStationsRequest(bodies=["asteroids"])) == (
        "chiron",
        "pholus",
        "ceres",
        "pallas",
        "juno",
        "vesta",
    )


def test_each_body_is_listed_once():
    assert eligible_bodies(pb.FindCalendarEventsRequest(bodies=["Sun", "moon", "sun"])) == ("sun", "moon")


@pytest.mark.parametrize("body", ["sun", "moon"])
def test_the_luminaries_have_no_stations(body):
    with pytest.raises(BodyNotEligible) as caught:
        eligible_bodies(pb.FindStationsRequest(bodies=["mars", body]))
    assert caught.value.param == "bodies"
