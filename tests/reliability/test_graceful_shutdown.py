"""Issue 26, graceful shutdown, on real processes: a service process sent SIGTERM (what
Kubernetes sends a pod it stops) reports NOT_SERVING, takes no new call, finishes the calls it
holds, then exits; through the gateway, the scan it was computing is answered and charged once.
A gateway sent SIGTERM finishes the requests under way and releases their slots.

The service processes are ``tests/service/slow_service.py`` (ComputeAyanamsha is a 3 s scan
that ends) and, for the charge, the real stack's search process.
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
from pathlib import Path

import grpc
import httpx
import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Moment as MomentValue
from deploy.local_stack import Stack
from gateway.rpc import ServicePool
from shared.runtime.config import load_settings
from tests.api.test_transits_api import WIDEST
from tests.e2e.test_process_recovery import child_pid, children
from tests.reliability.background_requests import get_in_background
from tests.service.slow_service import SHUTDOWN_GRACE_S, TIMED_SCAN_S
from tests.service.test_runtime import J2000, SERVICE, CallStart, start_process, unary

TRANSITS_COST = 5


def timed_scan(channel: grpc.Channel):
    return unary(channel, "ComputeAyanamsha", pb.ComputeAyanamshaResponse)


def written(log_path: Path, text: bytes, timeout_s: float = 30.0) -> None:
    """Return once ``text`` is in the log at ``log_path``; fail after ``timeout_s`` seconds."""
    deadline = time.monotonic() + timeout_s
    while text not in log_path.read_bytes():
        assert time.monotonic() < deadline, f"{text.decode()} not logged within {timeout_s} s"
        time.sleep(0.02)


def test_a_service_process_sent_sigterm_finishes_the_calls_it_holds_then_exits(processes, tmp_path):
    process, address = start_process(2, tmp_path / "process.log")
    try:
        with grpc.insecure_channel(address) as channel:
            started = CallStart("ComputeAyanamsha", address)
            running = timed_scan(channel).future(
                pb.ComputeAyanamshaRequest(moment=MomentValue(jd=J2000), system="lahiri"), timeout=30
            )
            started.wait()
            process.send_signal(signal.SIGTERM)
            running.result(timeout=TIMED_SCAN_S + 5)  # answered, not cancelled
        assert process.wait(timeout=SHUTDOWN_GRACE_S + 5) == 0
    finally:
        if process.poll() is None:
            process.kill()


def test_a_service_process_sent_sigterm_takes_no_new_call_which_its_pool_sends_elsewhere(processes, tmp_path):
    stopping, stopping_address = start_process(2, tmp_path / "stopping.log")
    staying, staying_address = start_process(2, tmp_path / "staying.log")

    async def calls_after_sigterm() -> None:
        import asyncio

        pool = ServicePool("ephemeris", (stopping_address, staying_address))
        try:
            for index in range(4):  # both connections up
                await pool.call(
                    SERVICE + "ComputePositions",
                    pb.ComputePositionsRequest(moment=MomentValue(jd=J2000), bodies=["sun"]),
                    pb.ComputePositionsResponse,
                    timeout_s=10,
                    request_id=f"before-{index}",
                )
            with grpc.insecure_channel(stopping_address) as channel:
                started = CallStart("ComputeAyanamsha", stopping_address)
                running = timed_scan(channel).future(
                    pb.ComputeAyanamshaRequest(moment=MomentValue(jd=J2000), system="lahiri"), timeout=30
                )
                await started.until_started()
                stopping.send_signal(signal.SIGTERM)
                await asyncio.to_thread(written, tmp_path / "stopping.log", b"service_stopping")
                for index in range(8):
                    reply = await pool.call(
                        SERVICE + "ComputePositions",
                        pb.ComputePositionsRequest(moment=MomentValue(jd=J2000), bodies=["moon"]),
                        pb.ComputePositionsResponse,
                        timeout_s=10,
                        request_id=f"after-{index}",
                    )
                    assert reply.data[0].ecliptic.body == "moon"
                running.result(timeout=TIMED_SCAN_S + 5)
        finally:
            await pool.close()

    try:
        import asyncio

        asyncio.run(calls_after_sigterm())
        assert stopping.wait(timeout=SHUTDOWN_GRACE_S + 5) == 0
        log = (tmp_path / "stopping.log").read_text(errors="replace")
        after_stop = log[log.index("service_stopping") :]
        assert not re.search(r"request_id=.?after-", after_stop), "a call reached the stopping process"
    finally:
        for process in (stopping, staying):
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=20)


@pytest.fixture(scope="module")
def stack(module_real_stacks) -> Stack:
    return module_real_stacks.real("graceful-shutdown", {"CELESTIAL_SEARCH_PROCESSES": "1"})


def test_a_scan_whose_process_is_sent_sigterm_is_answered_and_charged_once(stack):
    name, key = stack.new_key(credits=100)
    with stack.client(key) as client:  # the gateway's channel to the search process is up
        assert client.get("/v1/eclipses/lunar", params={"jd": J2000}).status_code == 200
    lunar_cost = 2
    port = load_settings(stack.env).service_addresses["search"][0].rsplit(":", 1)[1]
    search = child_pid(stack.process.pid, port)
    idle_s = compute_seconds(search)
    scanning, answered = get_in_background(stack, key, "/v1/transits", WIDEST)
    # SIGTERM once the scan is under way in the one search process. A guessed 0.4 s came,
    # on a loaded machine, before the gateway had sent it: the stopping process rightly
    # refused it, and with no other process to take it the answer was 503.
    deadline = time.monotonic() + 30
    while compute_seconds(search) < idle_s + 0.05:
        assert time.monotonic() < deadline, "the scan did not start computing"
        time.sleep(0.02)
    os.kill(search, signal.SIGTERM)
    scanning.join()
    assert answered[0].status_code == 200, answered[0].text
    assert answered[0].json()["meta"]["credits_used"] == TRANSITS_COST
    account = json.loads(stack.admin("account", "show", name, "--json").stdout)
    assert account["balance"] == 100 - lunar_cost - TRANSITS_COST


def compute_seconds(service_pid: int) -> float:
    """Return the CPU seconds the descendants of the service process ``service_pid`` have
    used (its compute child, started by a forkserver): they grow only while a call computes."""
    used = 0
    below = list(children(service_pid))
    while below:
        pid = below.pop()
        below.extend(children(pid))
        try:
            fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used += int(fields[11]) + int(fields[12])  # utime, stime (proc(5)), in clock ticks
    return used / os.sysconf("SC_CLK_TCK")


def ready(stack: Stack) -> bool:
    try:
        return httpx.get(f"{stack.base_url}/readyz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def holds_the_slot(stack: Stack, key: str, timeout_s: float = 30.0) -> None:
    """Return once the gateway has admitted a request of ``key`` (whose account may run one at a
    time): a free request of the key (``GET /v1/account``, admitted under the same limits) is
    refused 429 for the account's concurrent requests."""
    deadline = time.monotonic() + timeout_s
    with stack.client(key) as client:
        while True:
            probe = client.get("/v1/account")
            if probe.status_code == 429 and "concurrent" in probe.json()["errors"][0]["message"]:
                return
            assert probe.status_code == 200, probe.text
            assert time.monotonic() < deadline, "the request was not admitted"
            time.sleep(0.02)


def test_a_gateway_sent_sigterm_answers_the_request_under_way_and_releases_its_slot(stack):
    deadline = time.monotonic() + 30
    while not ready(stack):  # the search process the test before stopped is started again
        assert time.monotonic() < deadline, "the stack is not ready"
        time.sleep(0.2)
    name, key = stack.new_key(credits=100, max_concurrent=1)
    with stack.client(key) as client:  # the gateway's channel to the search process is up
        assert client.get("/v1/eclipses/lunar", params={"jd": J2000}).status_code == 200
    scanning, answered = get_in_background(stack, key, "/v1/transits", WIDEST)
    holds_the_slot(stack, key)
    gateway = child_pid(stack.process.pid, "gateway.main")
    os.kill(gateway, signal.SIGTERM)
    scanning.join()
    assert answered[0].status_code == 200, answered[0].text
    # The supervisor starts another gateway; the account's one slot is free for its request.
    deadline = time.monotonic() + 30
    while True:
        try:
            with stack.client(key) as client:
                status = client.get("/v1/eclipses/lunar", params={"jd": J2000}).status_code
            break
        except httpx.HTTPError:
            assert time.monotonic() < deadline, "no gateway came back"
            time.sleep(0.2)
    assert status == 200
    account = json.loads(stack.admin("account", "show", name, "--json").stdout)
    assert account["balance"] == 100 - 2 * 2 - TRANSITS_COST
