"""shared/runtime/clock_time_warnings.py: the Delta T warning is added once to a reply's
``warnings`` from the request's moments and the reply's instants, and as a typed condition to
the charts cast outside the table; the walk finds every kind of instant a reply holds."""

from __future__ import annotations

from celestial.v1 import common_pb2
from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1 import search_service_pb2 as search_pb
from kernel.delta_t_table import MODELLED_TEXT, PREDICTED_TEXT, TABLE_END_JD
from shared.runtime.clock_time_warnings import reply_jds, request_jds, with_clock_time_warnings
from shared.runtime.transcoder import request_from_query
from shared.runtime.validation import validate

BEYOND = TABLE_END_JD + 400.0
WITHIN = 2461000.5  # 2025-11-20


def _reading(message_cls, path: str, **params):
    return validate(request_from_query(message_cls, [(k, str(v)) for k, v in params.items()], path))


def test_the_request_moments_are_each_moment_it_sent():
    reading = _reading(
        search_pb.FindTransitsRequest,
        "/v1/transits",
        jd=WITHIN,
        lat=51.5,
        lon=0,
        start_jd=WITHIN,
        end_jd=WITHIN + 30,
    )
    assert sorted(request_jds(reading)) == [WITHIN, WITHIN, WITHIN + 30]


def test_the_reply_instants_are_its_instants_jd_members_and_charts_and_never_an_unset_zero():
    reply = pb.ComputeNatalChartResponse()
    reply.data.metadata.datetime = WITHIN
    assert list(reply_jds(reply)) == [WITHIN]
    assert list(reply_jds(pb.ComputeNatalChartResponse())) == []
    instants = search_pb.FindIngressesResponse()
    instants.data.add(jd=BEYOND)
    assert list(reply_jds(instants)) == [BEYOND]


def test_a_reply_within_the_table_is_left_as_it_is():
    reading = _reading(pb.ComputePositionsRequest, "/v1/positions", jd=WITHIN)
    reply = pb.ComputePositionsResponse(warnings=["kept"])
    assert list(with_clock_time_warnings(reading, reply).warnings) == ["kept"]


def test_a_reply_beyond_the_table_warns_once_and_its_chart_carries_the_condition():
    reading = _reading(pb.ComputeNatalChartRequest, "/v1/natal-chart", jd=BEYOND, lat=51.5, lon=0)
    reply = pb.ComputeNatalChartResponse()
    reply.data.metadata.datetime = BEYOND
    with_clock_time_warnings(reading, reply)
    with_clock_time_warnings(reading, reply)  # applied twice, still once
    assert list(reply.warnings) == [PREDICTED_TEXT]
    assert [(c.kind, c.details) for c in reply.data.warnings] == [("low_precision", PREDICTED_TEXT)]


def test_a_chart_within_the_table_gets_no_condition_though_its_answer_warns():
    reading = _reading(pb.ComputePositionsRequest, "/v1/positions", jd=1000000.5)
    reply = pb.ComputeNatalChartResponse()
    reply.data.metadata.datetime = WITHIN
    with_clock_time_warnings(reading, reply)
    assert list(reply.warnings) == [MODELLED_TEXT] and list(reply.data.warnings) == []


def test_a_message_without_warnings_is_left_as_it_is():
    reading = _reading(pb.ComputePositionsRequest, "/v1/positions", jd=BEYOND)
    instant = common_pb2.Instant(jd=BEYOND)
    assert with_clock_time_warnings(reading, instant) == common_pb2.Instant(jd=BEYOND)


def test_the_instants_are_found_at_any_depth_singular_and_repeated():
    reply = search_pb.FindTransitsResponse()
    reply.data.start.jd, reply.data.end.jd = WITHIN, WITHIN + 1
    event = reply.data.events.add()
    event.enter.jd, event.leave.jd = WITHIN + 2, WITHIN + 3
    event.exacts.add(jd=BEYOND)
    event.exacts.add(jd=WITHIN + 4)
    reply.data.events.add().leave.jd = WITHIN + 5  # its enter left unset: no instant
    assert sorted(reply_jds(reply)) == [WITHIN, WITHIN + 1, WITHIN + 2, WITHIN + 3, WITHIN + 4, WITHIN + 5, BEYOND]
