"""A gateway plans a pool named by one DNS name for the replicas the name answers (issue 50,
part 3; gateway/pool_replicas.py): the expected wait its autoscaler reads is the wait over the
replicas that run.

The search pool is the name ``search-pool``, planned for at most three processes of one place
each (CELESTIAL_SERVICE_QUEUE=1), the name resolved again every 20 ms from a table the test
changes (no DNS query is sent). Station scans are held in the pool until the test lets them go
(:class:`~tests.api.held_pool.HeldPool`), each expected to take 1 s, so which calls run and how
long a newcomer would wait are known, not raced.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from gateway.endpoints import discover_endpoints
from gateway.fair_share import lane_of
from tests.api.held_pool import HeldPool
from tests.api.in_process_pool import in_process_pools
from tests.name_table import PUBLIC_NAMES, NameTable

NAME = "search-pool"
MOST = 3
STATIONS = "/v1/stations"
STATIONS_PARAMS = {"start": "2024-01-01T00:00:00Z", "end": "2024-03-01T00:00:00Z"}
POSITIONS_PARAMS = {"datetime": "2024-03-20T12:00:00Z", "bodies": "sun"}
SCAN_S = 1.0
ENV = {
    "CELESTIAL_SEARCH_ADDRESSES": f"{NAME}:50051",
    "CELESTIAL_SEARCH_PROCESSES": str(MOST),
    "CELESTIAL_SERVICE_QUEUE": "1",
    "CELESTIAL_QUEUE_WAIT_S": "30",
    "CELESTIAL_POOL_RESOLVE_S": "0.02",
}


def eventually(condition, what: str, within_s: float = 30.0) -> None:
    """Return once ``condition()`` holds (polled); fail after ``within_s`` seconds."""
    deadline = time.monotonic() + within_s
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"not within {within_s} s: {what}")
        time.sleep(0.01)


@pytest.fixture
def held():
    pools = in_process_pools()
    pools["search"] = HeldPool(pools["search"])
    stations_rpc = next(e.rpc_path for e in discover_endpoints() if e.path == STATIONS)
    pools["search"].costs.record(stations_rpc, SCAN_S)
    return pools


def search_share(stack):
    return stack.app.state.gateway.shares["search"]


def newcomers_wait_s(stack) -> float:
    """Return how long (seconds) another account's station scan would wait for its turn now."""
    return search_share(stack).expected_wait_s("newcomer", lane_of(SCAN_S), SCAN_S)


def failures_logged(stack) -> int:
    return stack.log_path.read_text().count('"pool_resolution_failed"')


def test_as_the_name_grows_from_one_replica_to_three_the_wait_falls_and_more_scans_run_at_once(module_stacks, held):
    names = NameTable({**PUBLIC_NAMES, NAME: ["127.0.0.1"]})
    stack = module_stacks.in_process("pool-replicas", ENV, held, names)
    gateway = stack.app.state.gateway
    eventually(lambda: gateway.processes["search"] == 1, "planned for the one replica the name answers")
    keys = [stack.new_key()[1] for _ in range(4)]
    with ThreadPoolExecutor(max_workers=4) as workers:
        sent = []
        for count, key in enumerate(keys, start=1):
            sent.append(workers.submit(lambda key=key: stack.client(key).get(STATIONS, params=STATIONS_PARAMS)))
            if count == 1:
                held["search"].wait_held(1)
            else:
                eventually(lambda count=count: search_share(stack).waiting() == count - 1, "the scan waiting")
        assert held["search"].held == 1 and search_share(stack).waiting() == 3
        one_replica_s = newcomers_wait_s(stack)

        names.names[NAME] = ["127.0.0.1", "127.0.0.2", "127.0.0.3"]
        held["search"].wait_held(3)  # two waiting scans start at once
        eventually(lambda: gateway.processes["search"] == 3, "planned for the three replicas")
        assert held["search"].held == 3 and search_share(stack).waiting() == 1
        three_replicas_s = newcomers_wait_s(stack)

        held["search"].let_go()
        assert [future.result().status_code for future in sent] == [200] * 4
    assert one_replica_s == pytest.approx(4 * SCAN_S)  # the running scan, then three waiting ahead
    assert three_replicas_s == pytest.approx(2 * SCAN_S / 3)  # one waiting ahead, three processes
    assert search_share(stack).capacity == 3


def test_a_name_that_stops_resolving_keeps_the_last_count_and_is_logged_once(module_stacks):
    names = NameTable({**PUBLIC_NAMES, NAME: ["127.0.0.1", "127.0.0.2"]})
    stack = module_stacks.in_process("pool-replicas-failing", ENV, in_process_pools(), names)
    gateway = stack.app.state.gateway
    eventually(lambda: gateway.processes["search"] == 2, "planned for the two replicas")
    logged_before = failures_logged(stack)
    del names.names[NAME]
    asked = len(names.asked)
    eventually(lambda: len(names.asked) >= asked + 5, "the name asked again and again")
    assert gateway.processes["search"] == 2 and search_share(stack).capacity == 2
    eventually(lambda: failures_logged(stack) > logged_before, "the failure logged")
    assert failures_logged(stack) == logged_before + 1


def test_a_gateway_whose_pool_name_does_not_resolve_yet_starts_and_plans_once_it_does(module_stacks):
    names = NameTable(dict(PUBLIC_NAMES))
    stack = module_stacks.in_process("pool-replicas-unresolved", ENV, in_process_pools(), names)
    gateway = stack.app.state.gateway
    eventually(lambda: NAME in names.asked, "the name asked")
    with stack.client() as client:
        assert client.get("/readyz").status_code == 200
    with stack.client(stack.new_key()[1]) as client:
        assert client.get("/v1/positions", params=POSITIONS_PARAMS).status_code == 200
    assert gateway.processes["search"] == MOST  # the stated most, until the name answers
    names.names[NAME] = ["127.0.0.1", "127.0.0.2"]
    eventually(lambda: gateway.processes["search"] == 2, "planned for the two replicas")


class Unanswered:
    """A resolver that never answers: every question waits until it is cancelled."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def __call__(self, host: str, port: int) -> list[str]:
        self.asked.append(host)
        await asyncio.get_running_loop().create_future()  # never set
        return []


def test_the_first_resolution_never_delays_the_start_or_readiness(module_stacks):
    resolver = Unanswered()
    stack = module_stacks.in_process("pool-replicas-unanswered", ENV, in_process_pools(), resolver)
    eventually(lambda: resolver.asked, "the name asked")
    with stack.client() as client:
        assert client.get("/readyz").status_code == 200
    assert stack.app.state.gateway.processes["search"] == MOST
