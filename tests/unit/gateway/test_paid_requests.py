"""gateway/paid_requests.py: the paid pipeline on the app in process: a 2xx costs the
operation's ``(http).credits`` and says so in ``meta`` (decisions.md: "Only a 2xx response
costs credits"); a refused input, a failing or late service and a balance too small each
cost nothing (400, 503, 504, 402); a document answer carries its RFC 9530 Content-Digest;
a client that leaves has its work cancelled; a pool behind a DNS name plans the configured
number of processes."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from starlette.requests import Request

from celestial.v1 import search_service_pb2 as search_pb
from celestial.v1.common_pb2 import Place
from gateway.endpoints import discover_endpoints
from gateway.paid_requests import (
    Gateway,
    content_digest,
    deadline_passed,
    planned_processes,
    until_disconnected,
)
from shared.errors import ClientGone, DeadlineExceeded, ServiceUnavailable
from shared.runtime.config import load_settings
from tests.api.in_process_pool import in_process_pools
from tests.api.in_process_stack import AppStack

NATAL = "/v1/natal-chart?datetime=2024-03-20T12:00:00Z&lat=51.5&lon=-0.1"
NATAL_CREDITS = 2  # protos/celestial/v1/ephemeris_service.proto, (http).credits of /v1/natal-chart


class _Failing:
    """An ephemeris pool that answers as the real one unless told to raise ``failure``."""

    def __init__(self, pool):
        self._pool = pool
        self.failure: BaseException | None = None

    def __getattr__(self, name: str):
        return getattr(self._pool, name)

    async def call(self, *args, **kwargs):
        if self.failure is not None:
            raise self.failure
        return await self._pool.call(*args, **kwargs)


@pytest.fixture(scope="module")
def ephemeris() -> _Failing:
    return _Failing(None)


@pytest.fixture(scope="module")
def stack(module_stacks, ephemeris) -> AppStack:
    pools = in_process_pools()
    ephemeris._pool = pools["ephemeris"]
    pools["ephemeris"] = ephemeris
    return module_stacks.in_process("paid-requests", pools=pools)


@pytest.fixture
def account(stack):
    """(an HTTP client with a fresh key, the account's name) of an account with 10 credits."""
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        yield client, name


def _balance(client) -> int:
    return client.get("/v1/places?q=London").json()["meta"]["credits_remaining"]


def test_a_success_costs_the_operations_credits_and_says_so_in_meta(account):
    client, _ = account
    before = _balance(client)
    response = client.get(NATAL)
    assert response.status_code == 200, response.text
    meta = response.json()["meta"]
    assert meta["credits_used"] == NATAL_CREDITS and meta["credits_remaining"] == before - NATAL_CREDITS
    assert _balance(client) == before - NATAL_CREDITS and meta["request_id"] == response.headers["x-request-id"]


def test_a_refused_input_costs_nothing(account):
    client, _ = account
    before = _balance(client)
    assert client.get("/v1/natal-chart?datetime=yesterday&lat=51.5&lon=0").status_code == 400
    assert client.post("/v1/natal-chart", json=["not", "an", "object"]).json()["errors"][0]["code"] == "invalid_body"
    assert _balance(client) == before


@pytest.mark.parametrize(
    ("failure", "status"),
    [
        (ServiceUnavailable("The ephemeris service is unavailable."), 503),
        (DeadlineExceeded("late"), 504),
        (RuntimeError("a bug"), 500),
    ],
)
def test_a_failed_call_is_refunded(account, ephemeris, failure, status):
    client, _ = account
    before = _balance(client)
    ephemeris.failure = failure
    try:
        response = client.get(NATAL)
    finally:
        ephemeris.failure = None
    assert response.status_code == status
    assert _balance(client) == before


def test_a_call_past_its_deadline_is_504_naming_the_deadline(account, ephemeris):
    client, _ = account
    ephemeris.failure = DeadlineExceeded("late")
    try:
        error = client.get(NATAL).json()["errors"][0]
    finally:
        ephemeris.failure = None
    assert (
        error["code"] == "deadline_exceeded"
        and "/v1/natal-chart did not finish within its deadline of" in error["message"]
    )


def test_a_balance_too_small_is_402_and_takes_nothing(stack):
    _, key = stack.new_key(credits=1)
    with stack.client(key) as client:
        response = client.get(NATAL)
        assert (response.status_code, response.json()["errors"][0]["code"]) == (402, "insufficient_credits")
        assert _balance(client) == 1


def test_the_content_digest_is_rfc_9530s():
    # RFC 9530 §2 example: the SHA-256 of {"hello": "world"}.
    assert content_digest(b'{"hello": "world"}') == "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:"


def test_an_engine_search_past_its_deadline_says_what_makes_it_slow():
    by_path = {e.path: e for e in discover_endpoints()}
    assert "latitude" in deadline_passed(by_path["/v1/heliacal"], 3).suggestion
    assert (
        deadline_passed(by_path["/v1/transits"], 20).message
        == "/v1/transits did not finish within its deadline of 20 s and was stopped."
    )


def test_a_heliacal_search_stopped_beyond_the_engines_latitudes_is_400_naming_lat_and_within_them_504():
    heliacal = {e.path: e for e in discover_endpoints()}["/v1/heliacal"]
    polar = search_pb.FindHeliacalEventRequest(body="mercury", event="morning_first", place=Place(lat=80.0, lon=31.0))
    refused = deadline_passed(heliacal, 2.5, polar)
    assert (refused.http_status, refused.code, refused.param) == (400, "invalid_parameter", "lat")
    temperate = search_pb.FindHeliacalEventRequest(
        body="mercury", event="morning_first", place=Place(lat=45.0, lon=31.0)
    )
    assert deadline_passed(heliacal, 2.5, temperate).http_status == 504


def test_a_pool_plans_one_process_per_listed_address_or_the_configured_count_behind_a_name():
    settings = load_settings({})
    listed = replace(settings, service_addresses={"search": ("127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3")})
    named = replace(settings, service_addresses={"search": ("search.svc:5000",)}, service_processes={"search": 6})
    assert planned_processes(listed, "search") == 3 and planned_processes(named, "search") == 6
    assert planned_processes(replace(settings, service_addresses={}), "search") == 1


def test_planning_a_pool_for_its_replicas_resizes_both_its_shares_and_an_accounts_scans():
    settings = load_settings(
        {
            "CELESTIAL_SEARCH_ADDRESSES": "search:50051",
            "CELESTIAL_SEARCH_PROCESSES": "8",
            "CELESTIAL_SERVICE_QUEUE": "4",
        }
    )
    gateway = Gateway(settings, store=None, endpoints=[], pools={})
    gateway.plan_for("search", 3)
    assert gateway.processes["search"] == 3
    for shares in (gateway.shares, gateway.bounded_shares):
        assert (shares["search"].processes, shares["search"].capacity) == (3, 12)
    assert gateway.shares["ephemeris"].capacity == settings.service_processes["ephemeris"] * 4  # the others stay


def test_a_client_that_leaves_cancels_the_work_and_is_client_gone():
    async def scenario():
        async def receive():
            await asyncio.sleep(0.01)
            return {"type": "http.disconnect"}

        request = Request({"type": "http", "method": "GET", "path": "/", "headers": [], "query_string": b""}, receive)
        cancelled = asyncio.Event()

        async def work():
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                cancelled.set()
                raise

        with pytest.raises(ClientGone):
            await until_disconnected(request, work())
        return cancelled.is_set()

    assert asyncio.run(scenario())


def test_work_that_finishes_while_the_client_stays_is_returned():
    async def scenario():
        async def receive():
            await asyncio.sleep(10)
            return {"type": "http.disconnect"}

        async def work():
            return "answer"

        request = Request({"type": "http", "method": "GET", "path": "/", "headers": [], "query_string": b""}, receive)
        return await until_disconnected(request, work())

    assert asyncio.run(scenario()) == "answer"


def test_a_bounded_call_never_waits_for_a_place_held_by_another_accounts_compute_child_calls():
    """Issue 48, part 3: one account's PNG wheels (computed by the ephemeris processes' compute
    children) hold every place of the pool's share; another account's positions (bounded,
    computed on the processes' own loops) take a place in the bounded calls' lane at once."""
    from celestial.v1 import ephemeris_service_pb2 as ephemeris_pb
    from gateway.paid_requests import Gateway
    from store.records import Account

    class Answering:
        costs = in_process_pools()["ephemeris"].costs

        async def call(self, method_path, message, response_cls, **_):
            return response_cls()

    by_path = {e.path: e for e in discover_endpoints()}
    settings = load_settings({"CELESTIAL_EPHEMERIS_ADDRESSES": "127.0.0.1:1", "CELESTIAL_QUEUE_WAIT_S": "0.05"})
    gateway = Gateway(settings, store=None, endpoints=[], pools={"ephemeris": Answering()})
    flood, other = Account("flood", "flood", 0), Account("other", "other", 0)

    async def scenario():
        wheels = gateway.shares["ephemeris"]
        for _ in range(wheels.capacity):
            await wheels.acquire(flood.id, wheels.capacity, 0.001)
        wheel = ephemeris_pb.DrawChartWheelRequest()
        with pytest.raises(ServiceUnavailable):  # the child's share is full for everyone else
            await gateway.call_in_turn(other, by_path["/v1/chart-wheel"], wheel, "r1")
        positions = ephemeris_pb.ComputePositionsRequest()
        await gateway.call_in_turn(other, by_path["/v1/positions"], positions, "r2")

    asyncio.run(scenario())
