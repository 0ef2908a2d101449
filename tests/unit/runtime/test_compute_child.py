"""The child process that computes a service's requests (shared/runtime/compute_child.py).

References: the module's contract (one child computes one request at a time; a computation
that outlives its deadline, or its caller's leaving, by HARD_STOP_GRACE_S is killed and a new
child takes its place; a cancellation reaches the child through a shared counter its deadline
reads; a child that dies is an internal error); shared/errors.py (deadline_exceeded,
internal_error). The child is real (a forkserver child of this process); its handler is this
module's, chosen by the request's first body.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time

import grpc
import pytest
from google.rpc import status_pb2

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Moment
from kernel.deadline import Deadline, DeadlinePassed
from shared.runtime.compute_child import (
    COMPUTE_NICENESS,
    HARD_STOP_GRACE_S,
    ComputeChild,
    Job,
    _ChildDeadline,
)

SERVICE = pb.DESCRIPTOR.services_by_name["EphemerisService"]


def handler(reading, deadline):
    """Answer the bodies read (sun), ignore the deadline (moon), keep to it (mars), die (venus)
    or answer the child's niceness (saturn)."""
    behaviour = reading.query.bodies[0]
    if behaviour == "saturn":
        return pb.ComputePositionsResponse(warnings=[str(os.nice(0))])
    if behaviour == "moon":
        time.sleep(60)
    elif behaviour == "mars":
        while True:
            deadline.check()
            time.sleep(0.01)
    elif behaviour == "venus":
        os._exit(3)
    return pb.ComputePositionsResponse(warnings=list(reading.query.bodies))


def job(body: str, deadline: Deadline, request_id: str = "req-1") -> Job:
    request = pb.ComputePositionsRequest(moment=Moment(jd=2451545.0), bodies=[body, "Jupiter"])
    return Job("ComputePositions", request.SerializeToString(), deadline, request_id)


def status_of(outcome) -> status_pb2.Status:
    assert not outcome.ok
    return status_pb2.Status.FromString(outcome.payload)


@pytest.fixture(scope="module")
def child(processes):
    readiness: list[bool] = []
    computing = ComputeChild(SERVICE, {"ComputePositions": handler}, "test", readiness.append)
    computing.start()
    computing.readiness = readiness
    yield computing
    computing.stop()


def test_a_job_is_killed_its_grace_after_its_deadline():
    deadline = Deadline.after(10)
    assert job("sun", deadline).hard_stop_at() == deadline.at_monotonic_s + HARD_STOP_GRACE_S


def test_a_job_its_caller_left_is_killed_its_grace_after_the_leaving():
    abandoned = job("sun", Deadline.never())
    abandoned.cancel()
    left_at = abandoned.cancelled_at
    abandoned.cancel()
    assert abandoned.cancelled_at == left_at
    assert abandoned.hard_stop_at() == left_at + HARD_STOP_GRACE_S


def test_a_childs_deadline_passes_once_its_computation_is_abandoned():
    abandon = multiprocessing.RawValue("q", 0)
    third = _ChildDeadline(Deadline.never().at_monotonic_s, abandon, 3)
    abandon.value = 2
    third.check()
    assert not third.passed
    abandon.value = 3
    assert third.passed and third.remaining_s() == 0.0
    with pytest.raises(DeadlinePassed):
        third.check()


def test_the_child_is_ready_once_warm_and_computes_the_request_read_at_its_edge(child):
    assert child.readiness[0] is True
    outcome = child.compute(job("Sun", Deadline.after(30)))
    assert outcome.ok
    assert list(pb.ComputePositionsResponse.FromString(outcome.payload).warnings) == ["sun", "jupiter"]


def test_a_refused_request_is_answered_with_its_error_status(child):
    request = pb.ComputePositionsRequest(moment=Moment(jd=2451545.0), bodies=["vulcan"])
    status = status_of(child.compute(Job("ComputePositions", request.SerializeToString(), Deadline.after(30), "req-2")))
    assert status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]


def test_a_computation_that_keeps_to_its_deadline_stops_without_a_kill(child):
    restarts = child.restarts
    status = status_of(child.compute(job("mars", Deadline.after(0.3))))
    assert status.code == grpc.StatusCode.DEADLINE_EXCEEDED.value[0]
    assert child.restarts == restarts


def test_a_cancelled_computation_is_abandoned_through_the_shared_counter(child):
    restarts = child.restarts
    cancelled = job("mars", Deadline.never())
    threading.Timer(0.3, cancelled.cancel).start()
    status = status_of(child.compute(cancelled))
    assert status.code == grpc.StatusCode.DEADLINE_EXCEEDED.value[0]
    assert child.restarts == restarts


def test_a_computation_past_its_deadline_and_grace_is_killed_and_the_child_replaced(child):
    restarts, started = child.restarts, time.monotonic()
    status = status_of(child.compute(job("moon", Deadline.after(0.2))))
    assert status.code == grpc.StatusCode.DEADLINE_EXCEEDED.value[0]
    assert 0.2 + HARD_STOP_GRACE_S <= time.monotonic() - started < 0.2 + HARD_STOP_GRACE_S + 5
    assert child.restarts == restarts + 1
    assert child.readiness[-2:] == [False, True]
    assert child.compute(job("sun", Deadline.after(30))).ok


def test_a_child_that_dies_is_an_internal_error_naming_the_request_and_is_replaced(child):
    restarts = child.restarts
    status = status_of(child.compute(job("venus", Deadline.after(30), request_id="req-77")))
    assert status.code == grpc.StatusCode.INTERNAL.value[0] and "req-77" in status.message
    assert child.restarts == restarts + 1
    assert child.compute(job("sun", Deadline.after(30))).ok


def test_the_child_computes_niced_so_the_serving_processs_bounded_calls_get_the_cpu_first(child):
    outcome = child.compute(job("Saturn", Deadline.after(30)))
    niceness = int(pb.ComputePositionsResponse.FromString(outcome.payload).warnings[0])
    assert niceness == min(19, os.nice(0) + COMPUTE_NICENESS)
