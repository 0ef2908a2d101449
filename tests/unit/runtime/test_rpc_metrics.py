"""shared/runtime/rpc_metrics.py: a service process counts each call by service, method and
gRPC status code, and times its service time and its engine time (docs/operating.md). The
server of tests/unit/runtime/test_server.py, in this process."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from prometheus_client import REGISTRY

from celestial.v1 import astrocartography_service_pb2, ephemeris_service_pb2, search_service_pb2, timelords_service_pb2
from shared.errors import InvalidParameter
from shared.runtime.compute_child import Outcome
from shared.runtime.rpc_metrics import code_name, service_label
from shared.runtime.status import rich_status
from tests.unit.runtime.test_server import REPLY, REQUEST, Child, serve

LABELS = {"service": "ephemeris", "method": "ComputePositions"}


def calls(code: str) -> float:
    return REGISTRY.get_sample_value("celestial_rpc_requests_total", {**LABELS, "code": code}) or 0.0


def timed(metric: str) -> float:
    return REGISTRY.get_sample_value(f"{metric}_count", LABELS) or 0.0


def test_the_service_label_is_the_pools_name():
    descriptors = (
        ephemeris_service_pb2.DESCRIPTOR.services_by_name["EphemerisService"],
        timelords_service_pb2.DESCRIPTOR.services_by_name["TimeLordsService"],
        search_service_pb2.DESCRIPTOR.services_by_name["SearchService"],
        astrocartography_service_pb2.DESCRIPTOR.services_by_name["AstrocartographyService"],
    )
    assert [service_label(d) for d in descriptors] == ["ephemeris", "timelords", "search", "astrocartography"]


def test_a_call_answered_is_counted_ok_with_its_service_and_engine_time():
    before = calls("OK"), timed("celestial_rpc_duration_seconds"), timed("celestial_engine_duration_seconds")

    async def scenario(call, queue):
        return await call()(REQUEST, timeout=30)

    assert serve(Child(Outcome(True, REPLY)), scenario) == REPLY
    after = calls("OK"), timed("celestial_rpc_duration_seconds"), timed("celestial_engine_duration_seconds")
    assert [a - b for a, b in zip(after, before)] == [1, 1, 1]


def test_a_call_refused_is_counted_by_its_status_code():
    error = InvalidParameter("orb is out of range.", param="orb")
    before = calls("INVALID_ARGUMENT")

    async def scenario(call, queue):
        with pytest.raises(grpc.aio.AioRpcError):
            await call()(REQUEST, timeout=30)

    serve(Child(Outcome(False, rich_status(error).SerializeToString())), scenario)
    assert calls("INVALID_ARGUMENT") - before == 1


def test_a_call_beyond_the_queue_is_counted_resource_exhausted_without_engine_time():
    child = Child(Outcome(True, REPLY))
    child.go.clear()
    before = calls("RESOURCE_EXHAUSTED"), timed("celestial_engine_duration_seconds")

    async def scenario(call, queue):
        first = asyncio.ensure_future(call()(REQUEST, timeout=30))
        while queue.accepted < 1:
            await asyncio.sleep(0.01)
        with pytest.raises(grpc.aio.AioRpcError):
            await call()(REQUEST, timeout=30)
        child.go.set()
        await first

    serve(child, scenario, limit=1)
    assert calls("RESOURCE_EXHAUSTED") - before[0] == 1
    assert timed("celestial_engine_duration_seconds") - before[1] == 1  # the first call's only


def test_an_answer_without_a_code_is_ok():
    assert (code_name(None), code_name(grpc.StatusCode.NOT_FOUND)) == ("OK", "NOT_FOUND")
