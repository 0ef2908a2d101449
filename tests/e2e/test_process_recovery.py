"""What `make run` promises when a process freezes or dies, on real processes (docs/reliability.md,
"Frozen and killed processes"); each test is named after what it protects.

The stack here restarts a process after CELESTIAL_RESTART_UNHEALTHY_AFTER_S = 4 s without a
health answer, and gives a request a 30 s deadline, so a request that waited on a frozen
process is answered 504 when its deadline passes, never 200. Every wait polls for its
condition. The tests share one stack, in order (the last stops it); the
killed supervisor's test starts its own.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import httpx
import pytest

from deploy.local_stack import Stack, start_stack
from deploy.supervisor import busy_ports, grpc_serving
from shared.runtime.config import load_settings

J2000 = 2451545.0
UNHEALTHY_AFTER_S = 4.0
DEADLINE_S = 30.0
# How long a restart may take on a loaded machine: the limit, then a process's start-up.
RECOVERY_WITHIN_S = 60.0

T = TypeVar("T")


@pytest.fixture(scope="module")
def stack(module_real_stacks) -> Stack:
    return module_real_stacks.real(
        "recovery",
        {"CELESTIAL_RESTART_UNHEALTHY_AFTER_S": str(UNHEALTHY_AFTER_S), "CELESTIAL_FAST_DEADLINE_S": str(DEADLINE_S)},
    )


@pytest.fixture(scope="module")
def key(stack) -> str:
    return stack.new_key(credits=1_000_000)[1]


def children(supervisor_pid: int) -> dict[int, list[str]]:
    """Return the running (not zombie) children of ``supervisor_pid``: pid to command line words."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state, parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
            words = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        if int(parent) == supervisor_pid and state != "Z":
            found[int(entry.name)] = words
    return found


def child_pid(supervisor_pid: int, argument: str) -> int | None:
    """Return the pid of the child of ``supervisor_pid`` whose command line has ``argument``
    as one of its words, or None."""
    return next((pid for pid, words in children(supervisor_pid).items() if argument in words), None)


def ephemeris_pid(stack: Stack, index: int) -> int | None:
    """Return the pid of the stack's ephemeris process ``index`` (in port order), or None
    while there is none (between a kill and its restart)."""
    address = load_settings(stack.env).service_addresses["ephemeris"][index]
    return child_pid(stack.process.pid, address.rsplit(":", 1)[1])


def gateway_pid(stack: Stack) -> int | None:
    return child_pid(stack.process.pid, "gateway.main")


def running(pid: int) -> bool:
    """Return whether ``pid`` is a process that has not exited (a zombie waiting for its new
    parent to reap it has exited: its ports are closed)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def eventually(condition: Callable[[], T], what: str, within_s: float = RECOVERY_WITHIN_S) -> T:
    """Return ``condition()``'s first true value, polled until ``within_s`` has passed."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not within {within_s:.0f} s: {what}")


def answers_promptly(stack: Stack, key: str, count: int) -> None:
    """Return once ``count`` requests, one after another, have each been answered 200: a
    request left waiting on a frozen process would run out its whole deadline and be answered
    504 ``deadline_exceeded`` (the client waits longer than that, so it hears the 504)."""
    with stack.client(key) as client:
        for _ in range(count):
            response = client.get("/v1/positions", params={"jd": J2000, "bodies": "sun"}, timeout=2 * DEADLINE_S)
            assert response.status_code == 200, response.text


def answers(stack: Stack, key: str) -> bool:
    """Return whether the stack answers a request 200 now (within 2 s)."""
    try:
        with stack.client(key) as client:
            return client.get("/v1/positions", params={"jd": J2000}, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def resume(pid: int) -> None:
    """SIGCONT ``pid`` if it still exists (the supervisor may have killed it)."""
    try:
        os.kill(pid, signal.SIGCONT)
    except ProcessLookupError:
        pass


def test_requests_go_around_a_frozen_service_process_which_is_restarted_and_serves_again(stack, key):
    answers_promptly(stack, key, 4)  # the gateway's connections to both processes are up
    first, second = ephemeris_pid(stack, 0), ephemeris_pid(stack, 1)
    assert None not in (first, second)
    os.kill(first, signal.SIGSTOP)
    try:
        # Half of these are sent to the frozen process before its connection fails.
        answers_promptly(stack, key, 6)
        eventually(lambda: ephemeris_pid(stack, 0) not in (None, first), "the frozen process replaced by a new one")
    finally:
        resume(first)
    assert "restarting ephemeris-0" in stack.log_path.read_text(errors="replace")
    # Until its compute child is warm the new process reports NOT_SERVING, and with the other
    # frozen the gateway then rightly answers 503; on a loaded machine that takes seconds.
    eventually(
        lambda: grpc_serving(load_settings(stack.env).service_addresses["ephemeris"][0]), "the new process serving"
    )
    os.kill(second, signal.SIGSTOP)
    try:
        # Only the restarted process can answer these.
        answers_promptly(stack, key, 4)
    finally:
        resume(second)


def test_a_frozen_gateway_is_killed_and_started_again(stack, key):
    # Before the killed gateway's test: this gateway has answered the supervisor's probes
    # for seconds, so the unhealthy limit applies, not a new process's start-up time.
    frozen = gateway_pid(stack)
    os.kill(frozen, signal.SIGSTOP)
    try:
        eventually(lambda: gateway_pid(stack) not in (None, frozen), "a new gateway process")
        eventually(lambda: answers(stack, key), "an answer from the new gateway")
    finally:
        resume(frozen)


def test_a_killed_gateway_is_started_again_and_the_stack_answers(stack, key):
    killed = gateway_pid(stack)
    os.kill(killed, signal.SIGKILL)
    eventually(lambda: gateway_pid(stack) not in (None, killed), "a new gateway process")
    eventually(lambda: answers(stack, key), "an answer from the new gateway")
    assert stack.process.poll() is None


def test_sigterm_still_stops_every_process_after_restarts_a_frozen_one_gracefully(stack):
    children = [ephemeris_pid(stack, 0), ephemeris_pid(stack, 1), gateway_pid(stack)]
    assert None not in children, children
    os.kill(children[1], signal.SIGSTOP)
    stack.process.send_signal(signal.SIGTERM)
    assert stack.process.wait(timeout=30) == 0
    assert not any(Path(f"/proc/{pid}").exists() for pid in children)
    # Woken up, the frozen process stopped as the others did, not killed at the end of the grace time.
    port = int(load_settings(stack.env).service_addresses["ephemeris"][1].rsplit(":", 1)[1])
    stopped = [
        json.loads(line)
        for line in stack.log_path.read_text(errors="replace").splitlines()
        if line.startswith("{") and '"service_stopped"' in line
    ]
    assert port in [line["port"] for line in stopped]


def test_the_processes_of_a_killed_supervisor_stop_and_free_their_ports(processes, tmp_path):
    orphaned = start_stack(tmp_path)
    started = children(orphaned.process.pid)
    try:
        assert len(started) == 7, (
            started
        )  # two ephemeris processes, three other services, a webhook worker, the gateway
        orphaned.process.kill()
        orphaned.process.wait()
        eventually(lambda: not any(running(pid) for pid in started), "every process stopped")
        assert busy_ports(load_settings(orphaned.env)) == []  # the next `make run` can start
    finally:
        orphaned.process.kill()
        for pid in started:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
