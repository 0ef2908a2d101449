"""Issue 23, item 9: a killed or frozen service process is serving again within the time the
docs/reliability.md states ("Frozen and killed processes"), measured here on real processes.

Every service runs one process in this stack, so nothing answers for a service until its
process is back: the time to the first 200 is the whole recovery. A restarted process binds
its port at once and reports NOT_SERVING until its compute child is warm, so the gateway's
channel finds it without backing off a refused port and sends it nothing before it can compute.
"""

from __future__ import annotations

import os
import signal
import time

import httpx
import pytest

from deploy.local_stack import Stack
from shared.runtime.config import load_settings
from tests.e2e.test_process_recovery import child_pid, resume

J2000 = 2451545.0
#: One request per service.
REQUESTS = {
    "ephemeris": ("/v1/positions", {"jd": J2000}),
    "timelords": ("/v1/profections", {"jd": J2000, "lat": 51.5, "lon": -0.13, "at": "2030-01-01T00:00:00Z"}),
    "search": ("/v1/eclipses/lunar", {"jd": J2000}),
    "astrocartography": ("/v1/astrocartography", {"jd": J2000, "bodies": "venus"}),
}
#: The promise of docs/reliability.md after a SIGKILL: the supervisor notices within 0.2 s, starts the
#: process (about 0.7 s to the first 200 on this machine, measured by this test), with room
#: for a machine busy with the rest of the suite.
KILLED_SERVING_WITHIN_S = 3.0
#: After a SIGSTOP: CELESTIAL_RESTART_UNHEALTHY_AFTER_S without a health answer, then the same.
UNHEALTHY_AFTER_S = load_settings({}).restart_unhealthy_after_s
FROZEN_SERVING_WITHIN_S = UNHEALTHY_AFTER_S + KILLED_SERVING_WITHIN_S


@pytest.fixture(scope="module")
def stack(module_real_stacks) -> Stack:
    return module_real_stacks.real("recovery-times", {"CELESTIAL_EPHEMERIS_PROCESSES": "1"})


@pytest.fixture(scope="module")
def client(stack) -> httpx.Client:
    _, key = stack.new_key(credits=1_000_000)
    with httpx.Client(base_url=stack.base_url, headers={"Authorization": f"Bearer {key}"}, timeout=2.0) as client:
        yield client


def service_pid(stack: Stack, service: str) -> int:
    port = load_settings(stack.env).service_addresses[service][0].rsplit(":", 1)[1]
    pid = child_pid(stack.process.pid, port)
    assert pid is not None, f"no {service} process"
    return pid


def seconds_to_first_200(client: httpx.Client, service: str, give_up_s: float) -> float:
    """Return how long until a request to ``service`` is answered 200, asked every 50 ms."""
    path, params = REQUESTS[service]
    started = time.monotonic()
    while time.monotonic() - started < give_up_s:
        try:
            if client.get(path, params=params).status_code == 200:
                return time.monotonic() - started
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"{service}: no 200 within {give_up_s:.0f} s")


@pytest.mark.parametrize("service", list(REQUESTS))
def test_a_killed_service_process_serves_again_within_the_stated_time(stack, client, service):
    assert seconds_to_first_200(client, service, 10) < 1.0  # serving before the kill
    os.kill(service_pid(stack, service), signal.SIGKILL)
    recovered_s = seconds_to_first_200(client, service, 30)
    print(f"{service}: first 200 {recovered_s:.2f} s after SIGKILL")
    assert recovered_s < KILLED_SERVING_WITHIN_S


def test_a_frozen_service_process_serves_again_within_the_stated_time(stack, client):
    # One service: every service process runs the same runtime, and each freeze costs seconds.
    pid = service_pid(stack, "search")
    os.kill(pid, signal.SIGSTOP)
    try:
        recovered_s = seconds_to_first_200(client, "search", 60)
    finally:
        resume(pid)
    print(f"search: first 200 {recovered_s:.2f} s after SIGSTOP")
    assert recovered_s < FROZEN_SERVING_WITHIN_S
