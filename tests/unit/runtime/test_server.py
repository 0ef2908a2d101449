"""The gRPC server every service process runs (shared/runtime/server.py).

References: the module's contract (a request's bytes cross to the compute child unparsed; an
RPC without a handler is UNIMPLEMENTED; beyond the queue RESOURCE_EXHAUSTED at once; the
call's deadline is the computation's; ``x-compute-ms`` in the trailing metadata of every
answer; the child's error status answered as it came); gRPC's health-checking protocol
(a service reports each implemented RPC by ``<service>/<method>``). A grpc.aio server runs in
the test on a free port, its compute child replaced by one in this process.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time

import grpc
import pytest
from grpc_status import rpc_status

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1 import options_pb2, search_service_pb2, timelords_service_pb2
from celestial.v1.common_pb2 import Moment
from shared.errors import InvalidParameter
from shared.runtime.compute_child import Job, Outcome
from shared.runtime.pool_channel import REQUEST_ID_METADATA_KEY
from shared.runtime.server import (
    COMPUTE_MS_METADATA_KEY,
    SERVER_OPTIONS,
    ComputeQueue,
    Serving,
    bounded_rpcs,
    implemented_name,
    server_options,
    service_handler,
    stop_serving,
)
from shared.runtime.status import rich_status

SERVICE = pb.DESCRIPTOR.services_by_name["EphemerisService"]
REQUEST = pb.ComputePositionsRequest(moment=Moment(jd=2451545.0)).SerializeToString()
REPLY = pb.ComputePositionsResponse(warnings=["computed"]).SerializeToString()


class Child:
    """A compute child in this process: answers ``outcome`` to each job it keeps, once ``go`` is set."""

    def __init__(self, outcome: Outcome | Exception):
        self.outcome = outcome
        self.jobs: list[Job] = []
        self.go = threading.Event()
        self.go.set()

    def start(self) -> None:
        pass

    def compute(self, job: Job) -> Outcome:
        self.jobs.append(job)
        self.go.wait(10)
        if isinstance(self.outcome, Exception):
            raise self.outcome
        return self.outcome

    def stop(self) -> None:
        pass


def handler(reading, deadline):
    raise AssertionError("the serving process never computes")


def serve(child: Child, scenario, *, limit: int = 4, handlers=None, in_process=()):
    """Run ``scenario(stub_call)`` against a server of ``handlers`` (ComputePositions only by
    default), those named in ``in_process`` computed in this process, the others by ``child``."""

    async def main():
        queue = ComputeQueue(limit, child)
        server = grpc.aio.server(options=server_options(30.0, 5.0))
        served = {"ComputePositions": handler} if handlers is None else handlers
        server.add_generic_rpc_handlers((service_handler(SERVICE, served, queue, in_process),))
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:

                def call(method: str = "ComputePositions"):
                    return channel.unary_unary(f"/{SERVICE.full_name}/{method}")

                return await scenario(call, queue)
        finally:
            await server.stop(grace=None)
            queue.close()

    return asyncio.run(main())


def test_the_channel_options_close_connections_at_their_age_and_accept_any_ping_rate():
    options = dict(server_options(30.0, 65.0))
    assert (options["grpc.max_connection_age_ms"], options["grpc.max_connection_age_grace_ms"]) == (30000, 65000)
    assert (
        options["grpc.keepalive_permit_without_calls"],
        options["grpc.http2.max_ping_strikes"],
        options["grpc.so_reuseport"],
    ) == (1, 0, 0)
    assert set(SERVER_OPTIONS) <= set(server_options(1.0, 1.0))


def test_an_implemented_rpc_is_reported_by_service_and_method():
    assert implemented_name(SERVICE, "ComputePositions") == "celestial.v1.EphemerisService/ComputePositions"


def test_a_handler_for_an_rpc_the_service_lacks_is_a_contract_error():
    with pytest.raises(ValueError, match="FindTransits"):
        service_handler(SERVICE, {"FindTransits": handler}, ComputeQueue(1, Child(Outcome(True, REPLY))))


def test_the_childs_reply_is_answered_with_the_compute_time_and_the_request_crosses_unparsed():
    child = Child(Outcome(True, REPLY))

    async def scenario(call, queue):
        reply, trailing = await with_trailers(
            call(), REQUEST, metadata=((REQUEST_ID_METADATA_KEY, "req-9"),), timeout=30
        )
        return reply, trailing, queue.accepted

    reply, trailing, accepted = serve(child, scenario)
    assert reply == REPLY
    (job,) = child.jobs
    assert (job.rpc, job.request, job.request_id) == ("ComputePositions", REQUEST, "req-9")
    assert float(trailing[COMPUTE_MS_METADATA_KEY]) >= 0.0
    assert accepted == 0


async def with_trailers(multicallable, request, **kwargs):
    call = multicallable(request, **kwargs)
    reply = await call
    return reply, dict(await call.trailing_metadata())


def test_the_calls_deadline_is_the_computations_and_none_is_never():
    child = Child(Outcome(True, REPLY))

    async def scenario(call, queue):
        before = time.monotonic()
        await call()(REQUEST, timeout=20)
        await call()(REQUEST)
        return before

    before = serve(child, scenario)
    timed, untimed = child.jobs
    assert before + 15 < timed.deadline.at_monotonic_s <= before + 20.5
    assert untimed.deadline.at_monotonic_s == math.inf


def test_the_childs_error_status_is_answered_as_it_came():
    error = InvalidParameter("orb is out of range.", param="orb")
    child = Child(Outcome(False, rich_status(error).SerializeToString()))

    async def scenario(call, queue):
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await call()(REQUEST, timeout=30)
        return caught.value

    failed = serve(child, scenario)
    assert (failed.code(), failed.details()) == (grpc.StatusCode.INVALID_ARGUMENT, "orb is out of range.")
    carried = rpc_status.from_call(failed)
    assert carried == rich_status(error)
    assert COMPUTE_MS_METADATA_KEY in dict(failed.trailing_metadata())


def test_a_failure_to_compute_is_an_internal_error_naming_the_request():
    child = Child(RuntimeError("the child is gone"))

    async def scenario(call, queue):
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await call()(REQUEST, metadata=((REQUEST_ID_METADATA_KEY, "req-5"),), timeout=30)
        return caught.value

    failed = serve(child, scenario)
    assert failed.code() == grpc.StatusCode.INTERNAL
    assert "req-5" in failed.details() and "gone" not in failed.details()


def test_an_rpc_without_a_handler_is_unimplemented():
    async def scenario(call, queue):
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await call("ComputeHouses")(REQUEST, timeout=30)
        return caught.value.code()

    assert serve(Child(Outcome(True, REPLY)), scenario) == grpc.StatusCode.UNIMPLEMENTED


def test_a_call_beyond_the_queue_is_resource_exhausted_at_once():
    child = Child(Outcome(True, REPLY))
    child.go.clear()

    async def scenario(call, queue):
        first = asyncio.ensure_future(call()(REQUEST, timeout=30))
        while queue.accepted < 1:
            await asyncio.sleep(0.01)
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await call()(REQUEST, timeout=30)
        child.go.set()
        return caught.value.code(), await first

    code, first_reply = serve(child, scenario, limit=1)
    assert (code, first_reply) == (grpc.StatusCode.RESOURCE_EXHAUSTED, REPLY)
    assert len(child.jobs) == 1


def computed_here(reading, deadline):
    """A bounded handler: answers at once, saying where it ran."""
    return pb.ComputePositionsResponse(warnings=["computed in the serving process"])


def refused_here(reading, deadline):
    raise InvalidParameter("orb is out of range.", param="orb")


def test_the_bounded_rpcs_are_those_whose_http_option_says_bounded():
    expected = {"ComputePositions", "ComputeHouses", "ComputeChart", "ComputeAspects", "ComputeNatalChart"}
    assert bounded_rpcs(SERVICE) == expected


def test_no_rpc_of_a_scan_or_an_engine_search_is_bounded():
    for module in (pb, search_service_pb2, timelords_service_pb2):
        for service in module.DESCRIPTOR.services_by_name.values():
            for method in service.methods:
                http = method.GetOptions().Extensions[options_pb2.http]
                if http.bounded:
                    fast = (options_pb2.DEADLINE_CLASS_UNSPECIFIED, options_pb2.DEADLINE_CLASS_FAST)
                    assert http.deadline in fast, method.full_name


def test_a_bounded_call_runs_without_the_compute_child_and_a_scan_still_in_it():
    child = Child(Outcome(True, REPLY))

    async def scenario(call, queue):
        bounded, trailing = await with_trailers(call("ComputePositions"), REQUEST, timeout=30)
        scan = await call("ComputeVoidOfCourse")(pb.ComputeVoidOfCourseRequest().SerializeToString(), timeout=30)
        return bounded, trailing, scan

    handlers = {"ComputePositions": computed_here, "ComputeVoidOfCourse": handler}
    bounded, trailing, scan = serve(child, scenario, handlers=handlers, in_process=None)
    assert pb.ComputePositionsResponse.FromString(bounded).warnings == ["computed in the serving process"]
    assert float(trailing[COMPUTE_MS_METADATA_KEY]) >= 0.0
    assert scan == REPLY
    assert [job.rpc for job in child.jobs] == ["ComputeVoidOfCourse"]


def test_a_bounded_call_is_answered_while_the_child_holds_a_full_queue():
    child = Child(Outcome(True, REPLY))
    child.go.clear()

    async def scenario(call, queue):
        scan = asyncio.ensure_future(call("ComputeVoidOfCourse")(b"", timeout=30))
        while queue.accepted < 1:
            await asyncio.sleep(0.01)
        bounded = await call("ComputePositions")(REQUEST, timeout=30)
        still_computing = not scan.done()
        child.go.set()
        return bounded, still_computing, await scan

    handlers = {"ComputePositions": computed_here, "ComputeVoidOfCourse": handler}
    bounded, still_computing, scan = serve(child, scenario, limit=1, handlers=handlers, in_process=None)
    assert pb.ComputePositionsResponse.FromString(bounded).warnings == ["computed in the serving process"]
    assert (still_computing, scan) == (True, REPLY)


def test_a_bounded_calls_error_is_answered_as_the_childs_would_be():
    async def scenario(call, queue):
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await call("ComputePositions")(REQUEST, timeout=30)
        return caught.value

    failed = serve(Child(Outcome(True, REPLY)), scenario, handlers={"ComputePositions": refused_here}, in_process=None)
    assert (failed.code(), failed.details()) == (grpc.StatusCode.INVALID_ARGUMENT, "orb is out of range.")
    assert rpc_status.from_call(failed) == rich_status(InvalidParameter("orb is out of range.", param="orb"))
    assert COMPUTE_MS_METADATA_KEY in dict(failed.trailing_metadata())


def stopping_server(handlers, child: Child, scenario):
    """Run ``scenario(port, stop, stopped)`` against a server of ``handlers`` (the bounded
    ones computed here, the others by ``child``): ``stop()``, called on the server's loop
    (from a handler too), begins :func:`stop_serving` as SIGTERM does; ``stopped`` is set
    once it returned."""

    async def main():
        serving = Serving()
        queue = ComputeQueue(4, child)
        server = grpc.aio.server(options=server_options(30.0, 5.0))
        server.add_generic_rpc_handlers((service_handler(SERVICE, handlers, queue, None, serving),))
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        loop = asyncio.get_running_loop()
        stopped = threading.Event()
        stopping: list[asyncio.Task] = []

        async def stop_then_tell():
            await stop_serving(server, serving, grace_s=5.0)
            stopped.set()

        def stop() -> None:
            stopping.append(loop.create_task(stop_then_tell()))

        try:
            return await asyncio.to_thread(scenario, port, stop, stopped)
        finally:
            if stopping:
                await stopping[0]
            await server.stop(grace=None)
            queue.close()

    return asyncio.run(main())


def codes_of(futures) -> list[grpc.StatusCode]:
    codes = []
    for future in futures:
        try:
            future.result()
            codes.append(grpc.StatusCode.OK)
        except grpc.RpcError as error:
            codes.append(error.code())
    return codes


def test_calls_waiting_in_grpc_as_the_process_stops_are_refused_unavailable_not_cancelled():
    # SIGTERM comes while the loop computes a bounded call, and the calls sent meanwhile wait in
    # gRPC core, not yet handed to the service: gRPC's own shutdown answers such a call
    # CANCELLED (grpc/grpc#41785), which a channel does not retry as it does UNAVAILABLE.
    computing = threading.Event()
    stops: list = []

    def computed_then_stopped(reading, deadline):
        computing.set()
        time.sleep(0.5)  # the loop is busy: the calls sent now wait in gRPC core
        stops[0]()
        return pb.ComputePositionsResponse()

    def scenario(port, stop, stopped):
        stops.append(stop)
        # Without retries: the codes are the process's own answers.
        with grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.enable_retries", 0)]) as channel:
            call = channel.unary_unary(f"/{SERVICE.full_name}/ComputePositions")
            first = call.future(REQUEST, timeout=10)
            assert computing.wait(10)
            waiting = [call.future(REQUEST, timeout=10) for _ in range(5)]
            return codes_of([first]), codes_of(waiting), stopped.wait(10)

    first, waiting, stopped = stopping_server(
        {"ComputePositions": computed_then_stopped}, Child(Outcome(True, REPLY)), scenario
    )
    assert first == [grpc.StatusCode.OK] and stopped
    assert grpc.StatusCode.CANCELLED not in waiting, waiting
    assert grpc.StatusCode.UNAVAILABLE in waiting, waiting


def test_a_stopping_process_refuses_new_calls_and_finishes_the_one_it_holds_before_it_closes():
    child = Child(Outcome(True, REPLY))
    child.go.clear()

    def scenario(port, stop, stopped):
        with grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.enable_retries", 0)]) as channel:
            scan = channel.unary_unary(f"/{SERVICE.full_name}/ComputeVoidOfCourse").future(b"", timeout=10)
            while not child.jobs:
                time.sleep(0.01)
            stop()
            time.sleep(1.0)  # past the notice: the port stays open while the scan is held
            refused = codes_of(
                [channel.unary_unary(f"/{SERVICE.full_name}/ComputeVoidOfCourse").future(b"", timeout=10)]
            )
            closed_early = stopped.is_set()
            child.go.set()
            return scan.result(), refused, closed_early, stopped.wait(10)

    reply, refused, closed_early, stopped = stopping_server({"ComputeVoidOfCourse": handler}, child, scenario)
    assert (reply, refused, closed_early, stopped) == (REPLY, [grpc.StatusCode.UNAVAILABLE], False, True)
    assert len(child.jobs) == 1
