"""Whose excess a refusal is (issue 48): an account's own excess concurrency at a service pool
is that account's 429 ``too_many_concurrent_requests`` with Retry-After while the other
accounts are served; 503 ``service_unavailable`` only for a pool full for everyone.

The search pool here plans for one process holding two calls (CELESTIAL_SERVICE_QUEUE=2): a
scan's share is the one process. Station scans are held in the pool until the test lets them
go (:class:`HeldPool`), so which calls are in flight is known, not raced.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.api.held_pool import HeldPool
from tests.api.in_process_pool import in_process_pools

STATIONS = "/v1/stations"
STATIONS_PARAMS = {"start": "2024-01-01T00:00:00Z", "end": "2024-03-01T00:00:00Z"}
ECLIPSES = "/v1/eclipses/lunar"
ECLIPSES_PARAMS = {"datetime": "2024-01-01T00:00:00Z"}


@pytest.fixture
def held():
    pools = in_process_pools()
    pools["search"] = HeldPool(pools["search"])
    return pools


@pytest.fixture
def stack(module_stacks, held):
    env = {
        "CELESTIAL_SERVICE_QUEUE": "2",
        "CELESTIAL_QUEUE_WAIT_S": "0.3",
        "CELESTIAL_SEARCH_ADDRESSES": "127.0.0.1:1",
    }
    return module_stacks.in_process("concurrency-refusals", env, held)


def hold_stations(stack, key: str, count: int, held_pool: HeldPool, workers: ThreadPoolExecutor) -> list:
    """Send ``count`` station scans of ``key`` that stay in flight; return their futures."""
    before = held_pool.held
    sent = [workers.submit(lambda: stack.client(key).get(STATIONS, params=STATIONS_PARAMS)) for _ in range(count)]
    held_pool.wait_held(before + count)
    return sent


def test_an_accounts_own_excess_is_its_429_with_retry_after_while_another_account_is_served(stack, held):
    _, flood = stack.new_key()
    _, other = stack.new_key()
    with ThreadPoolExecutor(max_workers=4) as workers:
        sent = hold_stations(stack, flood, 1, held["search"], workers)
        with stack.client(flood) as client:
            refused = client.get(STATIONS, params=STATIONS_PARAMS)
        with stack.client(other) as client:
            served = client.get(ECLIPSES, params=ECLIPSES_PARAMS)
        held["search"].let_go()
        assert [future.result().status_code for future in sent] == [200]
    assert refused.status_code == 429, refused.text
    assert refused.json()["errors"][0]["code"] == "too_many_concurrent_requests"
    assert int(refused.headers["Retry-After"]) >= 1
    assert served.status_code == 200, served.text


def test_a_pool_full_for_everyone_is_503_with_retry_after(stack, held):
    _, first = stack.new_key()
    _, second = stack.new_key()
    _, third = stack.new_key()
    with ThreadPoolExecutor(max_workers=4) as workers:
        sent = hold_stations(stack, first, 1, held["search"], workers)
        sent += hold_stations(stack, second, 1, held["search"], workers)
        with stack.client(third) as client:
            refused = client.get(ECLIPSES, params=ECLIPSES_PARAMS)
        held["search"].let_go()
        assert [future.result().status_code for future in sent] == [200, 200]
    assert refused.status_code == 503, refused.text
    assert refused.json()["errors"][0]["code"] == "service_unavailable"
    assert int(refused.headers["Retry-After"]) >= 1
