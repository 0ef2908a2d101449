"""One computation of a request in a service process (shared/runtime/computation.py).

References: the module's contract (the request read once at the service's edge, the handler
under the call's deadline, a reply over 4 MiB refused); decisions.md (a reply carries at most
4 MiB of protobuf, gRPC's default message limit); shared/errors.py (result_too_large,
deadline_exceeded, internal_error: an unexpected failure is never shown to the caller).
"""

from __future__ import annotations

import pytest
import structlog

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Moment
from kernel.deadline import Deadline, DeadlinePassed
from kernel.errors import OutOfRange
from shared.errors import (
    DeadlineExceeded,
    InternalError,
    InvalidParameter,
    ResultTooLarge,
)
from shared.runtime.computation import answered_error, compute_reply
from shared.runtime.request_reading import RequestReading

REQUEST = pb.ComputePositionsRequest(moment=Moment(jd=2451545.0), bodies=["moon"])
FOUR_MIB = 4 * 1024 * 1024


def test_the_handler_computes_from_the_request_read_once_under_the_calls_deadline():
    seen = []
    deadline = Deadline.after(60)

    def handler(reading, given):
        seen.append((reading, given))
        return pb.ComputePositionsResponse(warnings=[str(reading.speed), *reading.query.bodies])

    reply = compute_reply(handler, pb.ComputePositionsRequest(moment=Moment(jd=2451545.0), bodies=["Moon"]), deadline)
    ((reading, given),) = seen
    assert isinstance(reading, RequestReading) and given is deadline
    # speed took its declared default, and the bodies were resolved by the reader.
    assert list(reply.warnings) == ["True", "moon"]


def test_a_request_that_waited_past_its_deadline_is_not_started():
    def handler(reading, deadline):
        raise AssertionError("started")

    with pytest.raises(DeadlinePassed):
        compute_reply(handler, REQUEST, Deadline.after(-1))


def test_a_request_its_rules_refuse_does_not_reach_the_handler():
    def handler(reading, deadline):
        raise AssertionError("started")

    with pytest.raises(InvalidParameter):
        compute_reply(
            handler,
            pb.ComputePositionsRequest(moment=Moment(jd=2451545.0), place={"lat": 95.0, "lon": 0.0}),
            Deadline.never(),
        )


def test_an_error_about_the_requests_moment_that_the_handler_left_unnamed_names_its_parameter():
    def handler(reading, deadline):
        raise OutOfRange("No ephemeris of ceres at 1037-07-04.", about="moment")

    with pytest.raises(OutOfRange) as refused:
        compute_reply(handler, REQUEST, Deadline.never())
    assert refused.value.param == "jd"


def test_a_julian_day_the_kernel_computed_past_the_span_answers_as_jd():
    from kernel.timescale import JD_UT1_MAX
    from kernel.timescale import Moment as KernelMoment

    def handler(reading, deadline):
        return KernelMoment.from_jd_ut1(JD_UT1_MAX + 100.0)

    with pytest.raises(InvalidParameter) as refused:
        compute_reply(handler, REQUEST, Deadline.never())
    assert refused.value.param == "jd" and refused.value.message.startswith("jd=")


def test_a_search_that_found_fewer_events_than_asked_names_count():
    def handler(reading, deadline):
        raise OutOfRange("Only 2 of the 3 crossings asked for lie within the dates sun is computed for.", about="count")

    with pytest.raises(OutOfRange) as refused:
        compute_reply(handler, REQUEST, Deadline.never())
    assert refused.value.param == "count"


def test_an_error_the_handler_named_keeps_its_parameter():
    def handler(reading, deadline):
        raise OutOfRange("No ephemeris of ceres at 1037-07-04.", about="moment", param="search_start")

    with pytest.raises(OutOfRange) as refused:
        compute_reply(handler, REQUEST, Deadline.never())
    assert refused.value.param == "search_start"


def reply_of(size: int) -> pb.ComputePositionsResponse:
    """A reply of exactly ``size`` bytes: one warning (tag 1 byte, length 4 bytes) of size - 5 letters."""
    reply = pb.ComputePositionsResponse(warnings=["x" * (size - 5)])
    assert reply.ByteSize() == size
    return reply


def test_a_reply_of_4_mib_is_sent():
    assert compute_reply(lambda r, d: reply_of(FOUR_MIB), REQUEST, Deadline.never()).ByteSize() == FOUR_MIB


def test_a_reply_over_4_mib_is_result_too_large():
    with pytest.raises(ResultTooLarge):
        compute_reply(lambda r, d: reply_of(FOUR_MIB + 1), REQUEST, Deadline.never())


def test_a_catalogue_error_is_answered_as_it_is():
    error = InvalidParameter("bad", param="orb")
    assert answered_error(error, "ComputePositions", "req-1") is error


def test_a_passed_deadline_is_answered_deadline_exceeded_naming_the_rpc():
    answered = answered_error(DeadlinePassed(), "FindTransits", "req-1")
    assert isinstance(answered, DeadlineExceeded) and "FindTransits" in answered.message


def test_an_unexpected_failure_is_an_internal_error_with_the_request_id_and_logged_not_shown():
    with structlog.testing.capture_logs() as logs:
        answered = answered_error(ZeroDivisionError("secret detail"), "ComputePositions", "req-42")
    assert isinstance(answered, InternalError)
    assert "req-42" in answered.message and "secret detail" not in answered.message
    assert [entry["event"] for entry in logs] == ["rpc_failed"]
    assert answered_error(ValueError(), "ComputePositions", "").message.endswith("request id unknown.")
