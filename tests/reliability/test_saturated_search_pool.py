"""Issue 23, items 1, 7 and 8, on real processes: a saturated search pool stays fair to every
account, tells a call it cannot start soon so at once, and charges nothing for what no client
read.

The stack runs one search process; the widest transit scan (tests/api/test_transits_api.py)
takes about 0.5 s of it (1.4 s before the scan was made faster), so a test saturates the pool with as many scans as the
wait needs. CELESTIAL_QUEUE_WAIT_S is 3 s: a call whose turn has not come by then is refused with Retry-After,
429 too_many_concurrent_requests when its own account's calls held it back (issue 48), 503 when the pool is full for
everyone.
"""

from __future__ import annotations

import math
import random
import statistics
import threading
import time

import httpx
import pytest

from tests.api.test_transits_api import WIDEST

QUEUE_WAIT_S = 3.0
TRANSITS_COST = 5
# How late past its wait a refused call may be answered on a machine running the stack's
# processes and the test's threads on two cores.
ANSWERED_WITHIN_S = QUEUE_WAIT_S + 2.0


@pytest.fixture(scope="module")
def stack(module_real_stacks):
    return module_real_stacks.real(
        "saturated-search", {"CELESTIAL_QUEUE_WAIT_S": str(QUEUE_WAIT_S), "CELESTIAL_SEARCH_PROCESSES": "1"}
    )


def balance(stack, name: str) -> int:
    import json

    return json.loads(stack.admin("account", "show", name, "--json").stdout)["balance"]


def widest_scan_alone_s(stack, key: str) -> float:
    """Return the median time of three widest scans sent one after another on an idle pool."""
    times = []
    with stack.client(key) as client:
        for _ in range(3):
            started = time.monotonic()
            assert client.get("/v1/transits", params=WIDEST).status_code == 200
            times.append(time.monotonic() - started)
    return statistics.median(times)


def test_one_account_flooding_the_pool_with_batches_leaves_another_accounts_scan_its_turn(stack):
    _, flood_key = stack.new_key(credits=1_000_000)
    _, other_key = stack.new_key(credits=1_000)
    alone_s = widest_scan_alone_s(stack, other_key)
    batch = {"requests": [{"endpoint": "/v1/transits", "params": WIDEST}] * 50}
    batch_statuses: list[list[int]] = []

    def flood() -> None:
        with stack.client(flood_key) as client:
            reply = client.post("/v1/batch", json=batch)
            batch_statuses.append([result["status"] for result in reply.json()["data"]["results"]])

    flooders = [threading.Thread(target=flood) for _ in range(2)]
    for thread in flooders:
        thread.start()
    try:
        time.sleep(1.0)  # a hundred scans of the flood wait for the one process
        started = time.monotonic()
        with stack.client(other_key) as client:
            reply = client.get("/v1/transits", params=WIDEST)
        waited_s = time.monotonic() - started
    finally:
        for thread in flooders:
            thread.join()
    print(f"another account's widest scan under the flood: {waited_s:.2f} s; alone: {alone_s:.2f} s")
    assert reply.status_code == 200
    # Its turn comes next: it waits at most for the flood's scan under way, then runs.
    assert waited_s < 3 * alone_s + 0.5, f"answered in {waited_s:.1f} s; alone a scan takes {alone_s:.1f} s"
    # The flood's sub-requests beyond its share are its own excess (issue 48), never a 5xx.
    assert all(set(statuses) <= {200, 429} for statuses in batch_statuses)


def test_an_accounts_call_that_cannot_start_within_the_stated_wait_is_its_429_with_retry_after_at_once_and_free(stack):
    name, key = stack.new_key(credits=10_000)
    _, timing_key = stack.new_key(credits=1_000)
    # Enough scans at once that the last ones' turn cannot come within the wait however fast
    # the machine runs them (the scan's own time measured here): a fixed count saturated the
    # pool only while a scan took over 0.5 s.
    concurrent = math.ceil(QUEUE_WAIT_S / widest_scan_alone_s(stack, timing_key)) + 4
    answers: list[tuple[int, float, httpx.Response]] = []

    def scan() -> None:
        started = time.monotonic()
        with stack.client(key) as client:
            reply = client.get("/v1/transits", params=WIDEST)
        answers.append((reply.status_code, time.monotonic() - started, reply))

    scanners = [threading.Thread(target=scan) for _ in range(concurrent)]
    for thread in scanners:
        thread.start()
    for thread in scanners:
        thread.join()
    statuses = sorted(status for status, _, _ in answers)
    # One account's own scans beyond its share: its excess, 429 (issue 48), not the pool's 503.
    assert set(statuses) == {200, 429}, statuses
    print(
        f"{concurrent} concurrent widest scans: {statuses.count(200)} answered 200, {statuses.count(429)} 429 after "
        f"{max(took for status, took, _ in answers if status == 429):.2f} s at most"
    )
    for status, took_s, reply in answers:
        if status == 429:
            assert took_s < ANSWERED_WITHIN_S, f"a refused call took {took_s:.1f} s"
            assert int(reply.headers["Retry-After"]) >= 1
            error = reply.json()["errors"][0]
            assert error["code"] == "too_many_concurrent_requests" and error["suggestion"]
    assert balance(stack, name) == 10_000 - TRANSITS_COST * statuses.count(200)


def test_hundreds_of_queued_scans_abandoned_under_load_cost_nothing(stack):
    """Clients hang up 0.05-0.4 s after sending a widest scan (which takes over a second even
    alone) while others wait for theirs: the balance pays exactly the answers a client read."""
    name, key = stack.new_key(credits=100_000)
    read_costs: list[int] = []
    abandoned: list[int] = []
    stop_reading = threading.Event()

    def read_answers() -> None:
        with stack.client(key) as client:
            while not stop_reading.is_set():
                reply = client.get("/v1/transits", params=WIDEST)
                if reply.status_code == 200:
                    read_costs.append(reply.json()["meta"]["credits_used"])

    refused_at_once: list[int] = []

    def abandon(count: int, seed: int) -> None:
        chance = random.Random(seed)
        for _ in range(count):
            try:
                with httpx.Client(
                    base_url=stack.base_url,
                    headers={"Authorization": f"Bearer {key}"},
                    timeout=chance.uniform(0.05, 0.4),
                ) as client:
                    # A scan that would wait longer than its deadline class allows is refused
                    # at once (429: the account's own excess, free): an answer too, but never a
                    # charged one.
                    refused_at_once.append(client.get("/v1/transits", params=WIDEST).status_code)
            except httpx.TimeoutException:
                abandoned.append(1)

    readers = [threading.Thread(target=read_answers) for _ in range(2)]
    abandoners = [threading.Thread(target=abandon, args=(25, seed)) for seed in range(8)]
    for thread in readers + abandoners:
        thread.start()
    for thread in abandoners:
        thread.join()
    stop_reading.set()
    for thread in readers:
        thread.join()
    assert len(abandoned) + len(refused_at_once) == 200
    assert set(refused_at_once) <= {429}  # not one widest scan can be answered within 0.4 s
    assert abandoned, "some scans were queued, then abandoned"
    assert read_costs, "the readers were answered too"
    # Wait for the last abandoned calls' refunds: each lands as its cancellation reaches it.
    expected = 100_000 - sum(read_costs)
    settled_by = time.monotonic() + 10
    while balance(stack, name) != expected and time.monotonic() < settled_by:
        time.sleep(0.2)
    assert balance(stack, name) == expected
