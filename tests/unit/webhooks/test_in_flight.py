"""webhooks/in_flight.py: each attempt runs on its own; an account whose slots are all held by
hanging receivers does not delay another account's attempt; nothing starts past the worker's
bound; a slot comes back when its attempt ends, however it ends."""

from __future__ import annotations

import asyncio
import time

from tests.webhook_receiver import Receiver
from webhooks.account_slots import AccountSlots
from webhooks.delivery import send
from webhooks.in_flight import InFlight, put_off_s

SECRET = "whsec_" + "ab" * 32


def test_an_account_whose_slots_hang_on_dripping_receivers_does_not_delay_another_accounts_attempt():
    async def scenario(dripping_url: str, healthy_url: str):
        flights = InFlight(10, AccountSlots(2))
        outcomes: dict[str, object] = {}

        def attempt(name: str, url: str, timeout_s: float):
            async def run() -> None:
                outcomes[name] = await send(url, b"{}", SECRET, "fc_1", 1, timeout_s, development=True)
            return run

        assert flights.start("A", attempt("a1", dripping_url, 3.0)) and flights.start("A", attempt("a2", dripping_url, 3.0))
        assert not flights.start("A", attempt("a3", dripping_url, 3.0))  # refused at once, not queued
        started = time.monotonic()
        assert flights.start("B", attempt("b", healthy_url, 3.0))
        while "b" not in outcomes and time.monotonic() - started < 3.0:
            await asyncio.sleep(0.01)
        hanging = {name for name in ("a1", "a2") if name not in outcomes}
        await flights.drain(5.0)
        return outcomes, hanging

    with Receiver() as dripping, Receiver() as healthy:
        dripping.drip_s = 0.5
        outcomes, hanging = asyncio.run(scenario(dripping.url, healthy.url))
    assert outcomes["b"].succeeded and hanging == {"a1", "a2"}  # B delivered while A's still hung
    assert [outcomes[a].error for a in ("a1", "a2")] == ["timeout", "timeout"] and "a3" not in outcomes


def test_no_attempt_starts_past_the_workers_bound_until_one_ends():
    async def scenario():
        flights = InFlight(1, AccountSlots(4))
        release = asyncio.Event()
        assert flights.start("A", release.wait)
        assert not flights.has_room() and not flights.start("B", release.wait)
        release.set()
        await asyncio.wait_for(flights.wait_room(), 1.0)
        return flights.has_room(), len(flights)

    assert asyncio.run(scenario()) == (True, 0)


def test_an_attempt_that_fails_gives_its_slot_back():
    async def scenario():
        slots = AccountSlots(1)
        flights = InFlight(4, slots)

        async def broken() -> None:
            raise RuntimeError("the store went away")

        assert flights.start("A", broken)
        await flights.drain(1.0)
        return slots.held("A")

    assert asyncio.run(scenario()) == 0


def test_a_job_put_off_on_nats_comes_back_within_the_deadline_jittered():
    delays = {round(put_off_s(10.0), 3) for _ in range(50)}
    assert all(5.0 <= d <= 10.0 for d in delays) and len(delays) > 1
