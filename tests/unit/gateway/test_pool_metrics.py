"""gateway/pool_metrics.py: at each scrape, each pool's waiting calls by lane and the wait a
call of a new account can expect, as the fair share sees them (gateway/fair_share.py); the
wait of each granted call and the calls shed by their error code (docs/operating.md)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import pytest
from prometheus_client import REGISTRY

from gateway.fair_share import FairShare
from gateway.pool_metrics import BOUNDED_LANE, LANE_NAMES, expected_wait_now_s, record_shed, refresh, watch
from shared.runtime.metrics_endpoint import exposition
from tests.api.in_process_stack import AppStack


@dataclass
class Pools:
    shares: dict[str, FairShare] = field(default_factory=lambda: {"search": FairShare(1, 1)})
    bounded_shares: dict[str, FairShare] = field(default_factory=lambda: {"search": FairShare(1, 1)})


def depth(lane: str, pool: str = "search") -> float | None:
    return REGISTRY.get_sample_value("celestial_pool_queue_depth", {"pool": pool, "lane": lane})


def expected_wait(pool: str = "search") -> float | None:
    return REGISTRY.get_sample_value("celestial_pool_expected_wait_seconds", {"pool": pool})


def with_waiting_calls(pools: Pools, calls: list[tuple[str, float]], then):
    """Hold the search pool's one place, queue ``calls`` (account, expected seconds), and return ``then()``."""

    async def scenario():
        share = pools.shares["search"]
        await share.acquire("holder", 1, 5.0)
        waiting = [asyncio.ensure_future(share.acquire(a, 1, 5.0, expected_s=s)) for a, s in calls]
        await asyncio.sleep(0)
        try:
            return then()
        finally:
            for call in waiting:
                call.cancel()
            await asyncio.gather(*waiting, return_exceptions=True)

    return asyncio.run(scenario())


def test_the_queue_depth_is_each_lanes_waiting_calls_at_the_scrape():
    pools = Pools()
    watch(pools)
    calls = [("a", 0.005), ("b", 0.005), ("c", 0.5), ("d", 2.0)]
    seen = with_waiting_calls(pools, calls, lambda: (refresh(), [depth(lane) for lane in LANE_NAMES])[1])
    assert seen == [2, 0, 1, 1]
    refresh()
    assert [depth(lane) for lane in (*LANE_NAMES, BOUNDED_LANE)] == [0, 0, 0, 0, 0]


def test_the_expected_wait_is_the_fair_shares_figure_for_a_new_account():
    pools = Pools()
    watch(pools)
    share = pools.shares["search"]
    figures = with_waiting_calls(
        pools,
        [("a", 0.2), ("b", 0.4)],
        lambda: (refresh(), (expected_wait(), share.expected_wait_s("", 0, 0.0)))[1],
    )
    assert figures[0] == pytest.approx(figures[1]) and figures[0] == pytest.approx(0.6)


def test_nothing_waits_nothing_is_expected():
    assert expected_wait_now_s(FairShare(4, 1)) == 0.0


def test_the_gauges_are_refreshed_by_the_scrape_itself():
    pools = Pools()
    watch(pools)
    text = with_waiting_calls(pools, [("a", 0.5)], exposition).decode()
    assert 'celestial_pool_queue_depth{lane="under_1s",pool="search"} 1.0' in text


def test_a_granted_call_records_its_queue_wait(session_stacks):
    stack: AppStack = session_stacks.in_process("app")
    labels = {"pool": "ephemeris"}
    before = REGISTRY.get_sample_value("celestial_pool_queue_wait_seconds_count", labels) or 0.0
    with stack.client(stack.new_key()[1]) as client:
        assert client.get("/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=sun").status_code == 200
    assert REGISTRY.get_sample_value("celestial_pool_queue_wait_seconds_count", labels) - before == 1


def test_a_shed_call_is_counted_by_pool_and_code():
    labels = {"pool": "search", "reason": "service_unavailable"}
    before = REGISTRY.get_sample_value("celestial_requests_shed_total", labels) or 0.0
    record_shed("search", "service_unavailable")
    assert REGISTRY.get_sample_value("celestial_requests_shed_total", labels) - before == 1
