"""Issue 48, part 3, on real processes: one tenant's load never makes another's calls fail,
and its own excess is its own 429, never a 5xx.

The stack is `make run`'s (two ephemeris processes, one search process). One account floods
the ephemeris pool with 1,600 px PNG chart wheels (about 0.08 s of CPU each, in the processes'
compute children) while another account's positions (computed on the processes' own loops,
in a fair-share lane of their own at the gateway) are all answered 200; one account's 64
clients cycle scans and a short search while a second account's short searches are all
answered 200. The loading account hears 200 or 429 ``too_many_concurrent_requests`` with
Retry-After, never a 5xx. The latencies are `bench/tenant_isolation.py`'s to print.
"""

from __future__ import annotations

import asyncio
import threading
from urllib.parse import urlencode

import httpx
import pytest

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
WHEEL_PNG = "/v1/chart-wheel?" + urlencode({**BIRTH, "format": "png", "size": 1600})
POSITIONS = "/v1/positions?datetime=2024-03-20T12:00:00Z"
TRANSITS = "/v1/transits?" + urlencode({**BIRTH, "start": "2024-01-01T00:00:00Z", "end": "2024-12-31T00:00:00Z"})
STATIONS = "/v1/stations?" + urlencode({"start": "2024-01-01T00:00:00Z", "end": "2026-01-01T00:00:00Z"})
ECLIPSES = "/v1/eclipses/lunar?" + urlencode({"datetime": "2024-01-01T00:00:00Z", "lat": 51.5, "lon": -0.13})
WHEEL_CLIENTS = 16
WHEELS_EACH = 3
MIXED_CLIENTS = 64
MIXED_ROUNDS = 2


@pytest.fixture(scope="module")
def stack(module_real_stacks):
    return module_real_stacks.real("tenant-isolation")


async def _load(stack, key: str, clients: int, paths: list[str], rounds: int) -> list[httpx.Response]:
    """Return every answer of ``clients`` concurrent clients of ``key``, each sending ``paths``
    (from its own place in the list) ``rounds`` times."""
    answers: list[httpx.Response] = []
    async with httpx.AsyncClient(
        base_url=stack.base_url,
        headers={"Authorization": f"Bearer {key}"},
        timeout=120,
        limits=httpx.Limits(max_connections=clients),
    ) as client:

        async def one(start: int) -> None:
            for turn in range(rounds * len(paths)):
                answers.append(await client.get(paths[(start + turn) % len(paths)]))

        await asyncio.gather(*(one(index) for index in range(clients)))
    return answers


def _while_loaded(stack, load_key: str, clients: int, paths: list[str], rounds: int, other_key: str, probe: str):
    """Return the loading account's answers and the other account's statuses, sent one after
    another from before the load starts until it has ended."""
    loaded: list[httpx.Response] = []
    done = threading.Event()

    def run_load() -> None:
        try:
            loaded.extend(asyncio.run(_load(stack, load_key, clients, paths, rounds)))
        finally:
            done.set()

    other: list[int] = []
    loading = threading.Thread(target=run_load)
    with stack.client(other_key) as client:
        loading.start()
        while not done.is_set():
            other.append(client.get(probe).status_code)
    loading.join()
    return loaded, other


def _only_200_or_its_own_429(answers: list[httpx.Response]) -> None:
    statuses = {answer.status_code for answer in answers}
    assert statuses <= {200, 429}, sorted(statuses)
    for answer in answers:
        if answer.status_code == 429:
            assert answer.json()["errors"][0]["code"] == "too_many_concurrent_requests", answer.text
            assert int(answer.headers["Retry-After"]) >= 1


def test_another_accounts_positions_are_served_while_one_account_floods_png_wheels(stack):
    _, flood = stack.new_key(credits=10**7, rate_per_minute=10**6, max_concurrent=1000)
    _, other = stack.new_key(credits=10**7, rate_per_minute=10**6, max_concurrent=1000)
    wheels, positions = _while_loaded(stack, flood, WHEEL_CLIENTS, [WHEEL_PNG], WHEELS_EACH, other, POSITIONS)
    _only_200_or_its_own_429(wheels)
    assert any(answer.status_code == 200 for answer in wheels)
    assert positions and set(positions) == {200}, positions


def test_one_accounts_mixed_load_is_its_own_429_while_a_second_accounts_short_searches_are_served(stack):
    _, mixed = stack.new_key(credits=10**7, rate_per_minute=10**6, max_concurrent=1000)
    _, second = stack.new_key(credits=10**7, rate_per_minute=10**6, max_concurrent=1000)
    answers, searches = _while_loaded(
        stack, mixed, MIXED_CLIENTS, [TRANSITS, STATIONS, ECLIPSES], MIXED_ROUNDS, second, ECLIPSES
    )
    _only_200_or_its_own_429(answers)
    # 64 clients on one search process: most of them are over the account's share at once.
    assert any(answer.status_code == 429 for answer in answers)
    assert searches and set(searches) == {200}, searches
