"""Test keys' traffic counted by computation (issue 48, part 2; docs/limits.md, "Test keys";
``gateway/key_modes.py``): whatever the shape of a test key's requests (one call, a wheel, a
scan, a forecast, a batch of 50), a minute of them computes at most what the test rate's
credits buy a live key, and a batch holds a test slot for each sub-request it runs at once."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest

from gateway.key_modes import TEST_MAX_CONCURRENT, TEST_RATE_PER_MINUTE, limits_for_test_keys
from shared.runtime.config import load_settings
from store.choice import open_configured_store
from tests.api.in_process_pool import InProcessPool, in_process_pools
from tests.api.test_conventions_api import assert_error, balance
from tests.api.test_limits_api import wait_for_fresh_window
from tests.api.test_test_keys_api import account, test_key

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
POSITIONS = {"endpoint": "/v1/positions", "params": {"datetime": "2024-03-20T12:00:00Z", "bodies": "sun,moon"}}


@dataclass(frozen=True)
class Shape:
    """One shape of request a test key may send, and what it counts against the test rate:
    the credits it would cost through a live key (``/pricing``), at least 1."""

    method: str
    path: str
    params: dict[str, Any]
    status: int
    computations: int

    def send(self, client):
        if self.method == "GET":
            return client.get(self.path, params=self.params)
        return client.post(self.path, json=self.params)


SHAPES = [
    pytest.param(Shape("GET", POSITIONS["endpoint"], POSITIONS["params"], 200, 1), id="single-positions"),
    pytest.param(Shape("GET", "/v1/places", {"q": "London"}, 200, 1), id="free-endpoint-counts-1"),
    pytest.param(
        Shape("GET", "/v1/positions", {"datetime": "2024-03-20T12:00:00Z", "bodies": "vulcan"}, 400, 1),
        id="refused-for-its-parameters-counts-1",
    ),
    pytest.param(Shape("GET", "/v1/chart-wheel", BIRTH, 200, 3), id="wheel"),
    pytest.param(
        Shape(
            "GET",
            "/v1/stations",
            {"start": "2024-01-01T00:00:00Z", "end": "2025-01-01T00:00:00Z", "bodies": "mercury"},
            200,
            2,
        ),
        id="scan-stations",
    ),
    pytest.param(
        Shape(
            "GET", "/v1/forecast", {**BIRTH, "start": "2026-03-01T00:00:00Z", "end": "2026-04-01T00:00:00Z"}, 200, 10
        ),
        id="forecast",
    ),
    pytest.param(Shape("POST", "/v1/batch", {"requests": [POSITIONS] * 50}, 200, 50), id="batch-of-50"),
    pytest.param(
        Shape(
            "POST",
            "/v1/batch",
            {
                "requests": [
                    POSITIONS,
                    {"endpoint": "/v1/chart-wheel", "params": {**BIRTH, "format": "json"}},
                    {"endpoint": "/v1/natal-chart", "params": BIRTH},
                    {"endpoint": "/v1/no-such-thing", "params": {}},
                    {"endpoint": "/v1/positions", "params": {"datetime": "not a time"}},
                ]
            },
            200,
            1 + 3 + 2 + 1 + 1,
        ),
        id="batch-mixed-with-failures",
    ),
]


@pytest.mark.parametrize("shape", SHAPES)
def test_a_test_key_request_counts_what_it_would_cost_a_live_key_and_a_minute_holds_no_more(stack, shape: Shape):
    wait_for_fresh_window(margin_s=30)
    name = account(stack, credits=0)
    served = 0
    with stack.client(test_key(stack, name)) as client:
        first = shape.send(client)
        assert first.status_code == shape.status, first.text
        assert int(first.headers["x-ratelimit-remaining"]) == TEST_RATE_PER_MINUTE - shape.computations
        served += 1
        while (response := shape.send(client)).status_code == shape.status:
            served += 1
        assert_error(response, 429, "rate_limit_exceeded")
    # As many as fit the minute, not one more; the refusal tells what the window has left.
    assert served == TEST_RATE_PER_MINUTE // shape.computations
    assert int(response.headers["x-ratelimit-remaining"]) == TEST_RATE_PER_MINUTE - served * shape.computations
    assert int(response.headers["retry-after"]) >= 1


def test_a_test_batch_refused_for_the_rate_counts_nothing_and_what_fits_is_still_served(stack):
    wait_for_fresh_window(margin_s=30)
    name = account(stack, credits=0)
    with stack.client(test_key(stack, name)) as client:
        assert client.post("/v1/batch", json={"requests": [POSITIONS] * 50}).status_code == 200
        refused = client.post("/v1/batch", json={"requests": [POSITIONS] * 11})
        assert_error(refused, 429, "rate_limit_exceeded")
        assert refused.headers["x-ratelimit-remaining"] == "10"
        fits = client.post("/v1/batch", json={"requests": [POSITIONS] * 10})
    assert fits.status_code == 200, fits.text
    assert fits.json()["data"]["summary"]["succeeded"] == 10
    assert fits.headers["x-ratelimit-remaining"] == "0"


def test_a_test_batch_that_no_minute_could_hold_is_a_400_that_counts_one(stack):
    wait_for_fresh_window(margin_s=30)
    name = account(stack, credits=0)
    natal = {"endpoint": "/v1/natal-chart", "params": BIRTH}  # 2 credits each: 100 in all
    with stack.client(test_key(stack, name)) as client:
        response = client.post("/v1/batch", json={"requests": [natal] * 50})
    assert_error(response, 400, "invalid_parameter", "requests")
    assert f"{TEST_RATE_PER_MINUTE} a minute" in response.json()["errors"][0]["message"]
    assert response.headers["x-ratelimit-remaining"] == str(TEST_RATE_PER_MINUTE - 1)


def test_a_live_keys_batch_still_counts_one_request_and_pays_its_credits(stack):
    wait_for_fresh_window(margin_s=30)
    name = account(stack, credits=100, rate=10)
    live = stack.admin("key", "create", "--account", name).stdout.strip()
    with stack.client(live) as client:
        response = client.post("/v1/batch", json={"requests": [POSITIONS] * 50})
    assert response.status_code == 200, response.text
    assert (response.json()["meta"]["credits_used"], response.headers["x-ratelimit-remaining"]) == (50, "9")


def test_a_test_batch_needs_a_test_slot_for_each_subrequest_it_runs_at_once(stack):
    wait_for_fresh_window(margin_s=30)
    name = account(stack, credits=0)
    held = hold_test_slots(stack, name, 1)  # one test request in flight, on another gateway
    try:
        with stack.client(test_key(stack, name)) as client:
            # A batch of five runs them at once: it needs all five test slots, and four are free.
            busy = client.post("/v1/batch", json={"requests": [POSITIONS] * TEST_MAX_CONCURRENT})
            assert_error(busy, 429, "rate_limit_exceeded")
            assert "concurrent" in busy.json()["errors"][0]["message"]
            # Four fit; a batch of 50 runs five at a time, so it needs all five too.
            fits = client.post("/v1/batch", json={"requests": [POSITIONS] * (TEST_MAX_CONCURRENT - 1)})
            assert fits.status_code == 200, fits.text
            assert_error(client.post("/v1/batch", json={"requests": [POSITIONS] * 50}), 429, "rate_limit_exceeded")
    finally:
        release_test_slots(stack, name, held)
    with stack.client(test_key(stack, name)) as client:
        whole = client.post("/v1/batch", json={"requests": [POSITIONS] * 50})
    assert whole.status_code == 200, whole.text
    assert whole.json()["data"]["summary"]["succeeded"] == 50


#: Clients sending at once in the concurrency proofs (the issue's figure).
CLIENTS = 10
#: The shapes the concurrent clients cycle through: (shape, what it counts).
CYCLED = [
    Shape("GET", POSITIONS["endpoint"], POSITIONS["params"], 200, 1),
    Shape("POST", "/v1/batch", {"requests": [POSITIONS] * 50}, 200, 50),
    Shape("GET", "/v1/chart-wheel", BIRTH, 200, 3),
    Shape(
        "GET",
        "/v1/stations",
        {"start": "2024-01-01T00:00:00Z", "end": "2025-01-01T00:00:00Z", "bodies": "mercury"},
        200,
        2,
    ),
    Shape(
        "POST", "/v1/batch", {"requests": [POSITIONS, {"endpoint": "/v1/natal-chart", "params": BIRTH}] * 5}, 200, 15
    ),
    Shape("GET", "/v1/forecast", {**BIRTH, "start": "2026-03-01T00:00:00Z", "end": "2026-04-01T00:00:00Z"}, 200, 10),
]


def clients_at_once(open_client: Callable[[int], Any], stop_at_s: float) -> list[tuple[Shape, Any]]:
    """Return every (shape, response) of CLIENTS clients sending CYCLED shapes back to back
    until ``stop_at_s`` (Unix seconds); ``open_client(index)`` opens client ``index``'s
    HTTP client (a context manager)."""

    def one_client(index: int) -> list[tuple[Shape, Any]]:
        seen = []
        with open_client(index) as client:
            turn = index
            while time.time() < stop_at_s:
                shape = CYCLED[turn % len(CYCLED)]
                turn += 1
                seen.append((shape, shape.send(client)))
        return seen

    with ThreadPoolExecutor(CLIENTS) as pool:
        return [pair for seen in pool.map(one_client, range(CLIENTS)) for pair in seen]


#: The 429s a test key's own excess may get: over its rate, or over its share of a service.
REFUSED_AS_EXCESS = ("rate_limit_exceeded", "too_many_concurrent_requests")


def rate_refused(response: Any) -> bool:
    """Return whether ``response`` is the test limits' refusal of a rate spent."""
    return response.status_code == 429 and response.json()["errors"][0]["code"] == "rate_limit_exceeded"


def computed_by_window(outcomes: list[tuple[Shape, Any]]) -> dict[int, int]:
    """Return what the answered requests counted, by the window each was counted in (its
    ``X-RateLimit-Reset``), checking every other answer is a 429 with Retry-After: the test
    limits' refusal (``rate_limit_exceeded``), or, on a loaded machine, the fair share's refusal
    of the account's own excess (``too_many_concurrent_requests``: its calls hold its share of a
    service longer than a call may wait, gateway/fair_share.py), which computes nothing either."""
    computed: dict[int, int] = defaultdict(int)
    for shape, response in outcomes:
        if response.status_code == 429:
            code = response.json()["errors"][0]["code"]
            assert_error(response, 429, code if code in REFUSED_AS_EXCESS else "rate_limit_exceeded")
            assert int(response.headers["retry-after"]) >= 1
            continue
        assert response.status_code == shape.status, response.text  # never a 5xx
        computed[int(response.headers["x-ratelimit-reset"])] += shape.computations
    return dict(computed)


def test_ten_clients_of_every_shape_at_once_never_pass_the_test_computations_of_a_minute(stack):
    name = account(stack, credits=0)
    key = test_key(stack, name)
    outcomes = clients_at_once(lambda index: stack.client(key), stop_at_s=time.time() + CONCURRENT_RUN_S)
    computed = computed_by_window(outcomes)
    assert 0 < max(computed.values()) <= TEST_RATE_PER_MINUTE, computed
    assert any(rate_refused(response) for _, response in outcomes)  # they asked for more
    assert balance(stack, name) == 0


#: Seconds the in-process concurrency proof runs (two gateways on NATS, across a minute's
#: boundary: ``tests/e2e/test_test_traffic_nats.py``).
CONCURRENT_RUN_S = 5.0


class InFlightCounted(InProcessPool):
    """The ephemeris pool, counting the calls in flight at once: each waits (at most
    FILL_WAIT_S) until TEST_MAX_CONCURRENT are in flight together, so a batch that ran more
    at once would be seen to, and one that runs that many is seen to run exactly that many."""

    def __init__(self) -> None:
        super().__init__("ephemeris", in_process_pools()["ephemeris"]._handlers)
        self.in_flight = self.most = 0
        self._filled: asyncio.Event | None = None

    async def call(self, *args, **kwargs):
        self._filled = self._filled or asyncio.Event()
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        try:
            if self.in_flight >= TEST_MAX_CONCURRENT:
                self._filled.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._filled.wait(), FILL_WAIT_S)
            return await super().call(*args, **kwargs)
        finally:
            self.in_flight -= 1


#: The longest a counted call waits for the others to be in flight with it (seconds).
FILL_WAIT_S = 5.0


def test_a_test_batch_runs_no_more_subrequests_at_once_than_the_test_concurrency(module_stacks):
    counted = InFlightCounted()
    # A service that takes more at once than the test concurrency: only the batch's slots bound it.
    roomy = {"CELESTIAL_SERVICE_QUEUE": str(4 * TEST_MAX_CONCURRENT)}
    stack = module_stacks.in_process("in-flight-counted", roomy, pools={**in_process_pools(), "ephemeris": counted})
    name = account(stack, credits=0)
    with stack.client(test_key(stack, name)) as client:
        response = client.post("/v1/batch", json={"requests": [POSITIONS] * 50})
    assert response.status_code == 200, response.text
    assert response.json()["data"]["summary"]["succeeded"] == 50
    assert counted.most == TEST_MAX_CONCURRENT  # fifty sub-requests, five at a time


def hold_test_slots(stack, account_name: str, count: int) -> list[str]:
    """Take ``count`` test-traffic slots of the account in the stack's store; return their ids."""
    return _with_account(stack, account_name, _hold, count)


def release_test_slots(stack, account_name: str, slots: list[str]) -> None:
    _with_account(stack, account_name, _release, slots)


async def _hold(store, account, count: int) -> list[str]:
    slots = [f"held-{index}" for index in range(count)]
    for slot in slots:
        # Counting nothing in the window: only the slot is held, as by a request in flight.
        assert (await store.admit_test_traffic(limits_for_test_keys(account), slot, computations=0)).allowed
    return slots


async def _release(store, account, slots: list[str]) -> None:
    for slot in slots:
        await store.release_test_traffic(account.id, slot)


def _with_account(stack, account_name: str, work, argument):
    async def run():
        store = await open_configured_store(load_settings(stack.env))
        try:
            return await work(store, await store.get_account(account_name), argument)
        finally:
            await store.close()

    return asyncio.run(run())
