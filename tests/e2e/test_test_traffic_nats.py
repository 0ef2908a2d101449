"""Test keys at their limits on real processes, two gateways on one NATS JetStream store (issue
48, part 2: "Test keys at their limits: single requests, batches of 50, wheels and scans, 10
concurrent clients ...: at most the documented computations a minute, on one gateway and on
two with NATS"; docs/limits.md, "Test keys").

Ten clients, half through each gateway, send test-key requests of every shape back to back
across a minute's boundary. Every answer carries the window it was counted in
(``X-RateLimit-Reset``), so the bound is checked window by window: what the answered requests
would have cost a live key never passes TEST_RATE_PER_MINUTE in any window, while a sampler
reading the store sees no more than TEST_MAX_CONCURRENT test slots held at any moment. The
in-process table over the shapes, and the single gateway, are ``tests/api/test_test_traffic_api.py``.

Measured 2026-12-06 on the shared 2-core machine: 60 and 60 in the two windows (5 slots at
most); before test traffic was counted by computation, 761 and 882.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time

import httpx
import pytest

from deploy.local_stack import Stack, start_gateway
from deploy.nats_server import NatsServer
from gateway.key_modes import TEST_MAX_CONCURRENT, TEST_RATE_PER_MINUTE
from shared.runtime.config import load_settings
from store.choice import open_configured_store
from store.nats_test_traffic import traffic_entry_of_test_keys
from store.records import RATE_WINDOW_S
from tests.api.test_test_traffic_api import clients_at_once, computed_by_window, rate_refused

#: Seconds of traffic: the run starts this long before a minute's boundary ends the window and
#: goes on as long past it, so two windows are filled and each is checked.
EACH_SIDE_OF_THE_BOUNDARY_S = 12


@pytest.fixture(scope="module")
def nats(processes, tmp_path_factory):
    server = NatsServer(tmp_path_factory.mktemp("nats"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stack_a(nats, module_real_stacks) -> Stack:
    return module_real_stacks.real("test-traffic-nats", {"CELESTIAL_NATS_URL": nats.url})


@pytest.fixture(scope="module")
def gateway_b(stack_a):
    extra = start_gateway(stack_a)
    yield extra
    extra.stop()


def test_ten_clients_on_two_gateways_never_pass_the_test_computations_of_a_minute(stack_a, gateway_b):
    name = f"tt-{os.urandom(5).hex()}"
    stack_a.admin("account", "create", name, "--credits", "0", "--rate-per-minute", "1000", "--max-concurrent", "100")
    key = stack_a.admin("key", "create", "--account", name, "--test").stdout.strip()
    account_id = json.loads(stack_a.admin("account", "show", name, "--json").stdout)["id"]
    # Start EACH_SIDE_OF_THE_BOUNDARY_S before a window ends (waiting for that moment, at most a minute).
    left_s = RATE_WINDOW_S - time.time() % RATE_WINDOW_S
    if left_s > EACH_SIDE_OF_THE_BOUNDARY_S:
        time.sleep(left_s - EACH_SIDE_OF_THE_BOUNDARY_S)
    boundary_s = (time.time() // RATE_WINDOW_S + 1) * RATE_WINDOW_S
    stop_at_s = boundary_s + EACH_SIDE_OF_THE_BOUNDARY_S
    most_slots_held = sample_test_slots(stack_a, account_id, until_s=stop_at_s)

    def open_client(index: int) -> httpx.Client:  # half through each gateway
        base_url = (stack_a.base_url, gateway_b.base_url)[index % 2]
        return httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {key}"}, timeout=60)

    outcomes = clients_at_once(open_client, stop_at_s)
    computed = computed_by_window(outcomes)
    # Both windows were served, each up to the bound and no further.
    assert set(computed) >= {int(boundary_s), int(boundary_s) + RATE_WINDOW_S}, computed
    assert max(computed.values()) <= TEST_RATE_PER_MINUTE, computed
    assert any(rate_refused(response) for _, response in outcomes)  # they asked for more
    assert 0 < most_slots_held.result() <= TEST_MAX_CONCURRENT
    assert json.loads(stack_a.admin("account", "show", name, "--json").stdout)["balance"] == 0


class Sampled:
    """The largest number of test slots a sampler thread saw held, once it has finished."""

    def __init__(self, thread: threading.Thread, most: list[int]):
        self._thread, self._most = thread, most

    def result(self) -> int:
        self._thread.join()
        return self._most[0]


def sample_test_slots(stack: Stack, account_id: str, until_s: float) -> Sampled:
    """Start reading the account's test-traffic entry in the NATS store until ``until_s`` (Unix
    seconds), keeping the most live slots it held at one read."""
    most = [0]

    async def sample() -> None:
        store = await open_configured_store(load_settings(stack.env))
        try:
            while time.time() < until_s:
                limits = await store._read_limits(traffic_entry_of_test_keys(account_id))
                live = [slot for slot in limits.slots.values() if slot.expires_s > time.time()]
                most[0] = max(most[0], len(live))
                await asyncio.sleep(0.02)
        finally:
            await store.close()

    thread = threading.Thread(target=lambda: asyncio.run(sample()), daemon=True)
    thread.start()
    return Sampled(thread, most)
