"""The replicas a gateway plans for behind a pool's DNS name (gateway/pool_replicas.py), one
test per rule. The names are answered from a table (tests/name_table.py): no DNS query is sent."""

from __future__ import annotations

import asyncio

import pytest
import structlog

from gateway.pool_replicas import PoolReplicas, follow_pools, live_replicas, named_pools, pool_name
from shared.runtime.config import load_settings
from tests.name_table import NameTable

NAME = "search-pool"


def named_pool(most: int = 3) -> PoolReplicas:
    return PoolReplicas("search", NAME, 50051, most=most)


def test_a_pool_named_by_one_dns_name_is_resolved_by_its_name_and_port():
    assert pool_name(("search:50051",)) == ("search", 50051)
    assert pool_name(("dns:///search.celestial.svc:50051",)) == ("search.celestial.svc", 50051)


def test_a_pool_given_as_addresses_keeps_its_count():
    assert pool_name(("127.0.0.1:1",)) is None
    assert pool_name(("127.0.0.1:1", "127.0.0.1:2")) is None
    assert pool_name(("[::1]:50051",)) is None
    assert pool_name(()) is None


def test_a_pool_named_through_a_dns_server_of_its_own_keeps_its_count():
    assert pool_name(("dns://127.0.0.1:5353/search.pool.test:50051",)) is None


def test_the_replicas_are_the_distinct_addresses_at_most_the_stated_processes_at_least_one():
    assert live_replicas(["127.0.0.1", "127.0.0.2", "127.0.0.1"], most=8) == 2
    assert live_replicas([f"127.0.0.{index}" for index in range(12)], most=8) == 8
    assert live_replicas([], most=8) == 1


def test_a_resolution_counts_the_addresses_the_name_answers():
    async def scenario():
        pool = named_pool()
        assert await pool.resolve(NameTable({NAME: ["127.0.0.1", "127.0.0.2"]})) == 2
        assert await pool.resolve(NameTable({NAME: ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"]})) == 3

    asyncio.run(scenario())


def test_a_failed_resolution_keeps_the_last_good_count():
    async def scenario():
        pool = named_pool()
        assert await pool.resolve(NameTable({NAME: ["127.0.0.1", "127.0.0.2"]})) == 2
        assert await pool.resolve(NameTable({})) == 2  # the name does not resolve
        assert await pool.resolve(NameTable({NAME: []})) == 2  # the name answers no address

    asyncio.run(scenario())


def test_a_name_that_never_resolved_leaves_the_plan_as_it_was():
    async def scenario():
        assert await named_pool().resolve(NameTable({})) is None

    asyncio.run(scenario())


def test_a_failing_name_is_logged_once_until_it_resolves_again():
    async def scenario():
        pool = named_pool()
        failing, answering = NameTable({}), NameTable({NAME: ["127.0.0.1"]})
        with structlog.testing.capture_logs() as logged:
            for resolver in (failing, failing, failing, answering, failing, failing):
                await pool.resolve(resolver)
        return [entry for entry in logged if entry["event"] == "pool_resolution_failed"]

    failures = asyncio.run(scenario())
    assert len(failures) == 2
    assert failures[0]["service"] == "search" and failures[0]["planned"] == 3  # the stated count, still planned
    assert failures[1]["planned"] == 1


def test_the_named_pools_are_the_pools_whose_address_is_one_name():
    settings = load_settings(
        {
            "CELESTIAL_SEARCH_ADDRESSES": "search:50051",
            "CELESTIAL_SEARCH_PROCESSES": "8",
            "CELESTIAL_EPHEMERIS_ADDRESSES": "127.0.0.1:1,127.0.0.1:2",
        }
    )
    assert [(pool.service, pool.host, pool.port, pool.most) for pool in named_pools(settings)] == [
        ("search", "search", 50051, 8)
    ]


def test_following_returns_at_once_when_no_pool_is_named():
    planned: list[tuple[str, int]] = []
    asyncio.run(follow_pools(load_settings({}), NameTable({}), lambda *plan: planned.append(plan)))
    assert planned == []


def test_following_plans_each_named_pool_for_its_answer_again_and_again():
    settings = load_settings(
        {
            "CELESTIAL_SEARCH_ADDRESSES": f"{NAME}:50051",
            "CELESTIAL_SEARCH_PROCESSES": "3",
            "CELESTIAL_POOL_RESOLVE_S": "0",
        }
    )
    names = NameTable({NAME: ["127.0.0.1"]})

    async def scenario():
        planned: list[int] = []
        grown = asyncio.Event()

        def plan_for(service: str, replicas: int) -> None:
            assert service == "search"
            planned.append(replicas)
            if replicas == 1:
                names.names[NAME] = ["127.0.0.1", "127.0.0.2"]
            else:
                grown.set()

        following = asyncio.create_task(follow_pools(settings, names, plan_for))
        await asyncio.wait_for(grown.wait(), timeout=30)
        following.cancel()
        with pytest.raises(asyncio.CancelledError):
            await following
        return planned

    planned = asyncio.run(scenario())
    assert planned[0] == 1 and planned[-1] == 2
