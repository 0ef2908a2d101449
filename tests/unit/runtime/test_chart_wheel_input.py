"""The reader of a chart wheel request (shared/runtime/chart_wheel_input.py), run through
validation as the gateway runs it. References: docs/chart-wheels.md's table of kinds (which
parameters each kind takes) and the rule that a parameter of another kind, or a kind's missing
one, is refused naming it."""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Moment, Place
from shared.errors import InvalidParameter, MissingParameter
from shared.runtime.chart_wheel_input import BIWHEELS, KINDS_OF, TWO_BIRTHS
from shared.runtime.validation import validate

BIRTH = pb.WheelBirth(moment=Moment(datetime="1990-06-15T14:30:00Z"), location=Place(lat=51.5074, lon=-0.1278))
OTHER = pb.WheelBirth(moment=Moment(datetime="1988-02-03T08:00:00Z"), location=Place(lat=48.85, lon=2.35))
LATER = Moment(datetime="2026-01-01T00:00:00Z")


def refused(error: type, request: pb.DrawChartWheelRequest) -> str:
    with pytest.raises(error) as raised:
        validate(request)
    assert raised.value.suggestion
    return raised.value.param


def test_the_kinds_are_those_of_the_reference():
    assert BIWHEELS == {"transit", "synastry", "progressed", "return"}
    assert TWO_BIRTHS == {"composite", "davison", "synastry"}
    assert KINDS_OF["transit"] == {"transit"} and KINDS_OF["search_start"] == {"return"}


def test_a_natal_wheel_reads_one_birth_and_nothing_else():
    query = validate(pb.DrawChartWheelRequest(birth=BIRTH)).query
    assert (query.kind, query.node, query.progressed, query.return_body) == ("natal", None, None, None)


def test_a_transit_moment_is_refused_on_a_natal_wheel_naming_it():
    assert refused(InvalidParameter, pb.DrawChartWheelRequest(birth=BIRTH, transit=LATER)) == "transit_datetime"


def test_a_transit_wheel_without_its_moment_is_missing_it():
    assert refused(MissingParameter, pb.DrawChartWheelRequest(birth=BIRTH, kind="transit")) == "transit_datetime"


def test_a_synastry_wheel_refuses_the_single_birth_and_names_the_suffixed_ones():
    assert refused(InvalidParameter, pb.DrawChartWheelRequest(birth=BIRTH, kind="synastry")) == "datetime"


def test_a_synastry_wheel_needs_both_births():
    assert refused(MissingParameter, pb.DrawChartWheelRequest(birth_a=BIRTH, kind="synastry")) == "datetime_b"


def test_a_return_wheel_reads_its_body():
    query = validate(pb.DrawChartWheelRequest(birth=BIRTH, kind="return", search_start=LATER, return_body="moon")).query
    assert query.return_body == "moon"


def test_a_draconic_wheel_turns_on_the_mean_node_unless_told():
    query = validate(pb.DrawChartWheelRequest(birth=BIRTH, kind="draconic", bodies=["planets", "mean_node"])).query
    assert query.node == "mean_node"


def test_two_births_are_read_for_a_composite():
    query = validate(pb.DrawChartWheelRequest(birth_a=BIRTH, birth_b=OTHER, kind="composite")).query
    assert query.kind == "composite"
