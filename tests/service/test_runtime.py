"""The service runtime on real processes over loopback gRPC (shared/runtime/server.py).

Each process is ``tests/service/slow_service.py``: the real runtime serving a test-only long
computation (ComputeDeltaT, up to 60 s, checking its deadline between steps) beside the real
ComputePositions. The long computation is what a year-long scan will be.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Moment as MomentValue
from gateway.rpc import ServicePool
from kernel.bodies import resolve_bodies
from kernel.positions import CalcFlags, compute_positions
from kernel.timescale import Moment
from shared.errors import DeadlineExceeded
from shared.runtime.config import REPO_ROOT

SERVICE = "/celestial.v1.EphemerisService/"
J2000 = 2451545.0
# Far shorter than the test computation's 60 s: an answer within it proves the process is free.
ANSWER_WITHIN_S = 10.0
# The output of every process start_process started, by its address.
_OUTPUT_OF: dict[str, Path] = {}


def start_process(
    queue: int, log_path: Path, *, host: str = "127.0.0.1", port: int = 0, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen, str]:
    """Start one slow_service process on ``host:port`` (0: a free port) logging to ``log_path``,
    with ``env`` added to its environment; return it and its address once serving."""
    with open(log_path, "wb") as log_file:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.service.slow_service",
                "--queue",
                str(queue),
                "--host",
                host,
                "--port",
                str(port),
            ],
            cwd=REPO_ROOT,
            env={**os.environ, **(env or {})},
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        ready = re.search(rb"^READY (\d+)$", log_path.read_bytes(), re.MULTILINE)
        if ready:
            address = f"{host}:{int(ready.group(1))}"
            _OUTPUT_OF[address] = log_path
            return process, address
        time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"the test service did not start:\n{log_path.read_text(errors='replace')[-2000:]}")


class CallStart:
    """The next start of a test-only call ``method`` on any of the processes at ``addresses``:
    made before the call is sent, :meth:`wait` returns once a process has written that the call
    computes (slow_service's ``STARTED <method>``)."""

    def __init__(self, method: str, *addresses: str):
        self._outputs = [_OUTPUT_OF[address] for address in addresses]
        self._line = re.compile(rb"^STARTED " + re.escape(method.encode()) + rb"$", re.MULTILINE)
        self._method = method
        self._seen = self._count()

    def _count(self) -> int:
        return sum(len(self._line.findall(output.read_bytes())) for output in self._outputs)

    def wait(self, timeout_s: float = 30.0) -> None:
        """Return once the call has begun to compute; fail after ``timeout_s`` seconds."""
        deadline = time.monotonic() + timeout_s
        while self._count() <= self._seen:
            assert time.monotonic() < deadline, f"{self._method} did not start within {timeout_s} s"
            time.sleep(0.02)

    async def until_started(self, timeout_s: float = 30.0) -> None:
        """:meth:`wait`, without blocking the event loop."""
        await asyncio.to_thread(self.wait, timeout_s)


@pytest.fixture(scope="module")
def started_processes(processes, tmp_path_factory) -> Iterator[list[tuple[subprocess.Popen, str]]]:
    """Two processes of one pool, each accepting one request at a time (queue 1), and their addresses."""
    folder = tmp_path_factory.mktemp("runtime")
    started = [start_process(1, folder / f"process-{index}.log") for index in range(2)]
    yield started
    for process, _ in started:
        process.send_signal(signal.SIGCONT)
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture(scope="module")
def two_processes(started_processes) -> list[str]:
    """The addresses of the two processes of ``started_processes``."""
    return [address for _, address in started_processes]


def unary(channel: grpc.Channel, method: str, response_cls):
    return channel.unary_unary(
        SERVICE + method,
        request_serializer=lambda m: m.SerializeToString(),
        response_deserializer=response_cls.FromString,
    )


def long_scan(channel: grpc.Channel):
    return unary(channel, "ComputeDeltaT", pb.ComputeDeltaTResponse)


def positions(channel: grpc.Channel):
    return unary(channel, "ComputePositions", pb.ComputePositionsResponse)


def test_health_checks_answer_while_a_long_computation_runs(two_processes):
    with grpc.insecure_channel(two_processes[0]) as channel:
        started = CallStart("ComputeDeltaT", two_processes[0])
        running = long_scan(channel).future(pb.ComputeDeltaTRequest(moment=MomentValue(jd=J2000)), timeout=30)
        try:
            started.wait()
            health = health_pb2_grpc.HealthStub(channel)
            for _ in range(5):
                reply = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=1.0)
                assert reply.status == health_pb2.HealthCheckResponse.SERVING
            assert not running.done()
        finally:
            running.cancel()


def test_a_deadline_stops_the_computation_and_frees_the_process(two_processes):
    with grpc.insecure_channel(two_processes[0]) as channel:
        with pytest.raises(grpc.RpcError) as caught:
            long_scan(channel)(pb.ComputeDeltaTRequest(moment=MomentValue(jd=J2000)), timeout=1.0)
        assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        # The process takes one request at a time: it answers only if the scan has stopped.
        reply = positions(channel)(
            pb.ComputePositionsRequest(moment=MomentValue(jd=J2000), bodies=["sun"]), timeout=ANSWER_WITHIN_S
        )
        assert reply.data[0].ecliptic.body == "sun"


def test_a_client_that_cancels_stops_the_computation(two_processes):
    with grpc.insecure_channel(two_processes[1]) as channel:
        started = CallStart("ComputeDeltaT", two_processes[1])
        running = long_scan(channel).future(pb.ComputeDeltaTRequest(moment=MomentValue(jd=J2000)), timeout=50)
        started.wait()
        running.cancel()
        reply = positions(channel)(
            pb.ComputePositionsRequest(moment=MomentValue(jd=J2000), bodies=["moon"]), timeout=ANSWER_WITHIN_S
        )
        assert reply.data[0].ecliptic.body == "moon"


def test_a_busy_process_sends_the_next_request_to_another_process_of_the_pool(two_processes):
    async def scenario() -> None:
        pool = ServicePool("ephemeris", tuple(two_processes))
        try:
            started = CallStart("ComputeDeltaT", *two_processes)
            busy = asyncio.ensure_future(
                pool.call(
                    SERVICE + "ComputeDeltaT",
                    pb.ComputeDeltaTRequest(moment=MomentValue(jd=J2000)),
                    pb.ComputeDeltaTResponse,
                    timeout_s=20,
                    request_id="scan",
                )
            )
            await started.until_started()
            # Round robin sends every other call to the busy process, which refuses it at once
            # (RESOURCE_EXHAUSTED); the channel's retry policy takes it to the free one.
            for index in range(6):
                reply = await pool.call(
                    SERVICE + "ComputePositions",
                    pb.ComputePositionsRequest(moment=MomentValue(jd=J2000), bodies=["mars"]),
                    pb.ComputePositionsResponse,
                    timeout_s=ANSWER_WITHIN_S,
                    request_id=f"quick-{index}",
                )
                assert reply.data[0].ecliptic.body == "mars"
            assert not busy.done()
            busy.cancel()
        finally:
            await pool.close()

    asyncio.run(scenario())


def test_a_deadline_passed_in_the_service_reaches_the_gateway_as_deadline_exceeded(two_processes):
    async def scenario() -> None:
        pool = ServicePool("ephemeris", (two_processes[0],))
        try:
            with pytest.raises(DeadlineExceeded):
                await pool.call(
                    SERVICE + "ComputeDeltaT",
                    pb.ComputeDeltaTRequest(moment=MomentValue(jd=J2000)),
                    pb.ComputeDeltaTResponse,
                    timeout_s=1.0,
                    request_id="late",
                )
        finally:
            await pool.close()

    asyncio.run(scenario())


def test_the_worker_computes_from_the_ephemeris_files(two_processes):
    # A worker thread that never set the ephemeris path would compute with the built-in
    # Moshier ephemeris: Chiron (an asteroid) would fail and the Moon move by about 1".
    # The same files and code in this process must give exactly the same numbers.
    bodies = resolve_bodies(["moon", "chiron", "ceres"])
    expected = compute_positions(Moment.from_jd_ut1(J2000), bodies, CalcFlags()).records
    with grpc.insecure_channel(two_processes[1]) as channel:
        reply = positions(channel)(
            pb.ComputePositionsRequest(moment=MomentValue(jd=J2000), bodies=bodies), timeout=ANSWER_WITHIN_S
        )
    assert list(reply.warnings) == []
    assert [(r.ecliptic.body, r.ecliptic.longitude, r.ecliptic.latitude) for r in reply.data] == [
        (e.body, e.longitude, e.latitude) for e in expected
    ]


def test_an_error_is_a_standard_status_any_grpc_client_reads(two_processes):
    with grpc.insecure_channel(two_processes[0]) as channel:
        with pytest.raises(grpc.RpcError) as caught:
            positions(channel)(
                pb.ComputePositionsRequest(moment=MomentValue(jd=J2000), bodies=["vulcan"]), timeout=ANSWER_WITHIN_S
            )
    status = rpc_status.from_call(caught.value)
    assert status is not None and status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    assert (info.reason, info.domain, info.metadata["param"]) == ("BODY_NOT_FOUND", "celestial.v1", "bodies")
    assert info.metadata["suggestion"]


def test_a_frozen_process_leaves_the_rotation_its_calls_are_retried_and_it_rejoins_once_it_answers(started_processes):
    # A SIGSTOPped process keeps its TCP connection and health stream open; only the
    # keepalive pings it no longer answers take it out of the round robin. Calls go one at a
    # time: the survivor accepts one (queue 1), and round robin alternates, so one of the
    # first two calls after a freeze is sent to the frozen process and must be retried.
    patient_s = 30.0  # a call that waited on the frozen process would run out all of this

    async def answered_promptly(pool: ServicePool, count: int) -> None:
        """Return once ``count`` calls, one after another, have each been answered: a call left
        waiting on the frozen process would run out its deadline and raise DeadlineExceeded."""
        for index in range(count):
            reply = await pool.call(
                SERVICE + "ComputePositions",
                pb.ComputePositionsRequest(moment=MomentValue(jd=J2000), bodies=["venus"]),
                pb.ComputePositionsResponse,
                timeout_s=patient_s,
                request_id=f"frozen-{index}",
            )
            assert reply.data[0].ecliptic.body == "venus"

    def answers_alone(address: str) -> bool:
        """Return whether the process at ``address`` answers a call of its own now."""
        with grpc.insecure_channel(address) as channel:
            try:
                positions(channel)(
                    pb.ComputePositionsRequest(moment=MomentValue(jd=J2000), bodies=["sun"]), timeout=ANSWER_WITHIN_S
                )
            except grpc.RpcError:
                return False  # still busy with the call that reached it while frozen
        return True

    async def scenario() -> None:
        (first, first_address), (second, _) = started_processes
        pool = ServicePool("ephemeris", tuple(address for _, address in started_processes))
        try:
            await answered_promptly(pool, 4)  # both connections up and healthy
            first.send_signal(signal.SIGSTOP)
            try:
                await answered_promptly(pool, 6)
            finally:
                first.send_signal(signal.SIGCONT)
            deadline = time.monotonic() + ANSWER_WITHIN_S
            while not answers_alone(first_address):
                assert time.monotonic() < deadline, "the resumed process does not answer"
                await asyncio.sleep(0.1)
            second.send_signal(signal.SIGSTOP)
            try:
                # Answered only if the first process is back in the rotation.
                await answered_promptly(pool, 6)
            finally:
                second.send_signal(signal.SIGCONT)
        finally:
            await pool.close()

    asyncio.run(scenario())
