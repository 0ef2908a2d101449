"""webhooks/in_flight.py: each attempt runs on its own; an account whose slots are all held by
hanging receivers does not delay another account's attempt; nothing starts past the worker's
bound; a slot comes back when its attempt ends, however it ends."""

from __future__ import annotations

import asyncio
import time

from deploy.webhook_receiver import Receiver
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

        assert flights.start("A", attempt("a1", dripping_url, 3.0)) and flights.start(
            "A", attempt("a2", dripping_url, 3.0)
        )
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


def test_an_attempt_waiting_for_its_accounts_slot_starts_the_moment_one_ends():
    async def scenario():
        flights = InFlight(8, AccountSlots(1))
        first_done, order = asyncio.Event(), []

        async def first() -> None:
            await first_done.wait()
            order.append("first")

        async def second() -> None:
            order.append("second")

        assert flights.start("A", first) and not flights.start("A", second)
        assert flights.hold("A", second) and flights.waiting() == 1
        await asyncio.sleep(0.05)
        assert order == []  # nothing overtakes the slot's holder
        first_done.set()
        await flights.drain(1.0)
        return order, flights.waiting(), flights.slots.held("A")

    assert asyncio.run(scenario()) == (["first", "second"], 0, 0)


def test_one_account_waits_only_its_share_and_the_worker_no_more_than_its_bound():
    async def scenario():
        flights = InFlight(20, AccountSlots(1))
        never = asyncio.Event()
        flights.start("A", never.wait)
        held = [flights.hold("A", never.wait) for _ in range(flights.waiting_per_account + 1)]
        others = [flights.hold(f"acct-{n}", never.wait) for n in range(20)]
        never.set()
        await flights.drain(1.0)
        return held, others

    held, others = asyncio.run(scenario())
    assert held == [True] * 4 + [False]  # 4 waiting per slot
    assert others.count(True) == 20 - 4  # the worker's bound holds the rest back


def test_what_keeps_a_waiting_job_the_workers_is_called_for_each():
    async def scenario():
        flights = InFlight(8, AccountSlots(1))
        never, kept = asyncio.Event(), []

        async def keep() -> None:
            kept.append(1)

        flights.start("A", never.wait)
        flights.hold("A", never.wait, keep)
        flights.hold("A", never.wait, keep)
        await flights.keep_waiting()
        never.set()
        await flights.drain(1.0)
        return len(kept)

    assert asyncio.run(scenario()) == 2


def test_an_attempt_held_for_want_of_room_starts_when_any_attempt_ends():
    async def scenario():
        flights = InFlight(1, AccountSlots(4))
        release, ran = asyncio.Event(), []

        async def waiting() -> None:
            ran.append("B")

        flights.start("A", release.wait)
        assert not flights.start("B", waiting) and flights.hold("B", waiting)
        release.set()
        await flights.drain(1.0)
        return ran

    assert asyncio.run(scenario()) == ["B"]
