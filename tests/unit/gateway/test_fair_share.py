"""The gateway's fair share of a service pool (gateway/fair_share.py), one test per rule."""

from __future__ import annotations

import asyncio
import time

import pytest

from gateway.fair_share import FairShare, Overloaded, TurnNotCome, lane_of

LONG_S = 60.0


async def started(share: FairShare, account: str, limit: int, wait_s: float = LONG_S, **call) -> asyncio.Task:
    """Return the task of one call of ``account`` waiting for (or holding) its turn."""
    task = asyncio.ensure_future(share.acquire(account, limit, wait_s, **call))
    await asyncio.sleep(0)
    return task


def test_a_call_with_room_starts_at_once():
    async def scenario():
        share = FairShare(capacity=2)
        await share.acquire("a", 2, wait_s=0.001)
        await share.acquire("b", 2, wait_s=0.001)
        assert share.in_flight == 2

    asyncio.run(scenario())


def test_no_more_calls_than_the_capacity_are_in_flight():
    async def scenario():
        share = FairShare(capacity=2)
        first, second, third = [await started(share, name, 5) for name in "abc"]
        assert first.done() and second.done() and not third.done()
        share.release("a")
        await asyncio.sleep(0)
        assert third.done() and share.in_flight == 2

    asyncio.run(scenario())


def test_an_account_has_at_most_its_limit_in_flight_even_with_room():
    async def scenario():
        share = FairShare(capacity=8)
        calls = [await started(share, "flood", 2) for _ in range(4)]
        assert [call.done() for call in calls] == [True, True, False, False]
        other = await started(share, "other", 2)
        assert other.done()  # the flood's waiting calls leave room for another account

    asyncio.run(scenario())


def test_waiting_calls_are_granted_round_robin_across_accounts():
    async def scenario():
        share = FairShare(capacity=1)
        holder = await started(share, "a", 1)
        assert holder.done()
        order: list[str] = []

        async def call(account: str) -> None:
            await share.acquire(account, 1, LONG_S)
            order.append(account)

        # Account a queues three calls before b and c queue one each.
        tasks = [asyncio.ensure_future(call(account)) for account in ("a", "a", "a", "b", "c")]
        await asyncio.sleep(0)
        for _ in tasks:
            share.release(order[-1] if order else "a")
            await asyncio.sleep(0)
        assert order == ["a", "b", "c", "a", "a"]

    asyncio.run(scenario())


def test_an_accounts_calls_keep_their_order():
    async def scenario():
        share = FairShare(capacity=1)
        await share.acquire("a", 1, LONG_S)
        order: list[int] = []

        async def call(index: int) -> None:
            await share.acquire("a", 1, LONG_S)
            order.append(index)
            share.release("a")

        tasks = [asyncio.ensure_future(call(index)) for index in range(5)]
        await asyncio.sleep(0)
        share.release("a")
        await asyncio.gather(*tasks)
        assert order == [0, 1, 2, 3, 4]

    asyncio.run(scenario())


def test_a_call_not_granted_within_its_wait_raises_and_takes_nothing():
    async def scenario():
        share = FairShare(capacity=1)
        await share.acquire("a", 1, LONG_S)
        with pytest.raises(TimeoutError):
            await share.acquire("b", 1, wait_s=0.05)
        share.release("a")
        assert share.in_flight == 0
        await share.acquire("c", 1, wait_s=0.001)  # nothing is left waiting or held for b

    asyncio.run(scenario())


def test_a_call_cancelled_while_waiting_takes_nothing():
    async def scenario():
        share = FairShare(capacity=1)
        await share.acquire("a", 1, LONG_S)
        waiting = await started(share, "b", 1)
        waiting.cancel()
        # Released before the cancelled task has run its clean-up: the turn must not go to it.
        share.release("a")
        await asyncio.gather(waiting, return_exceptions=True)
        assert share.in_flight == 0
        await share.acquire("c", 1, wait_s=0.001)

    asyncio.run(scenario())


def test_a_call_granted_as_it_is_cancelled_passes_its_turn_on():
    async def scenario():
        share = FairShare(capacity=1)
        await share.acquire("a", 1, LONG_S)
        cancelled = await started(share, "b", 1)
        next_in_turn = await started(share, "c", 1)
        share.release("a")  # grants b's call ...
        cancelled.cancel()  # ... whose task is cancelled before it runs
        await asyncio.gather(cancelled, return_exceptions=True)
        await asyncio.sleep(0)
        assert cancelled.cancelled()
        assert next_in_turn.done() and share.in_flight == 1 and share.account_in_flight("b") == 0

    asyncio.run(scenario())


def test_an_account_does_not_take_the_last_free_place_while_another_accounts_call_waits():
    """Issue 36: two processes; a and b hold one call each and both wait with another. When
    b's call ends, the place goes to b's waiting call, not to a's second (a came first)."""

    async def scenario():
        share = FairShare(capacity=2, processes=2)
        await share.acquire("a", 2, LONG_S)
        await share.acquire("b", 2, LONG_S)
        a_second = await started(share, "a", 2)
        b_second = await started(share, "b", 2)
        share.release("b")
        await asyncio.sleep(0)
        assert b_second.done() and not a_second.done()
        assert share.account_in_flight("a") == 1 and share.account_in_flight("b") == 1

    asyncio.run(scenario())


def test_an_account_alone_may_still_use_every_place():
    async def scenario():
        share = FairShare(capacity=4, processes=4)
        for _ in range(4):
            await share.acquire("a", 4, wait_s=0.001)
        assert share.account_in_flight("a") == 4

    asyncio.run(scenario())


def test_a_short_call_waits_behind_one_long_call_of_its_account_not_behind_all_of_them():
    """Issue 36: the lanes. One place; an account queues ten 130 ms scans, then ten 5 ms
    searches: the searches are granted before all but at most one of the scans (the lanes
    share the account's turns by time: ten searches take less than one scan)."""

    async def scenario():
        share = FairShare(capacity=1, processes=1)
        await share.acquire("a", 1, LONG_S, expected_s=0.13)
        order: list[str] = []

        async def call(name: str, expected_s: float) -> None:
            await share.acquire("a", 1, LONG_S, expected_s=expected_s)
            order.append(name)
            await asyncio.sleep(0)
            share.release("a")

        tasks = [asyncio.ensure_future(call(f"scan{index}", 0.13)) for index in range(10)]
        tasks += [asyncio.ensure_future(call(f"search{index}", 0.005)) for index in range(10)]
        await asyncio.sleep(0)
        share.release("a")
        await asyncio.gather(*tasks)
        first = order[:11]
        assert sum(name.startswith("search") for name in first) == 10, order
        assert [name for name in order if name.startswith("scan")] == [f"scan{index}" for index in range(10)]
        assert [name for name in order if name.startswith("search")] == [f"search{index}" for index in range(10)]

    asyncio.run(scenario())


def test_the_lanes_are_decades_of_expected_service_time():
    assert [lane_of(seconds) for seconds in (0.0, 0.005, 0.05, 0.13, 1.4, 20.0)] == [0, 0, 1, 2, 3, 3]


def test_a_call_whose_expected_wait_exceeds_its_allowance_is_refused_at_once_and_takes_nothing():
    """Issue 36: shed early. One place, held by a 1 s call; two 1 s calls wait: a third would
    wait about 3 s, so with 2 s allowed it is refused at once, and a call that need not wait
    never is."""

    async def scenario():
        share = FairShare(capacity=1, processes=1)
        await share.acquire("a", 1, LONG_S, expected_s=1.0)
        waiting = [await started(share, "a", 1, expected_s=1.0, shed_after_s=2.0) for _ in range(2)]
        with pytest.raises(Overloaded) as refused:
            await share.acquire("a", 1, LONG_S, expected_s=1.0, shed_after_s=2.0)
        assert refused.value.expected_wait_s > 2.0
        assert share.waiting() == 2 and not any(task.done() for task in waiting)
        other = FairShare(capacity=1, processes=1)
        await other.acquire("a", 1, 0.001, expected_s=1.0, shed_after_s=0.0)  # room: it starts
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)

    asyncio.run(scenario())


def test_a_gateway_plans_for_the_stated_processes_behind_a_pools_dns_name():
    from gateway.paid_requests import Gateway
    from shared.runtime.config import load_settings

    settings = load_settings(
        {
            "CELESTIAL_SEARCH_ADDRESSES": "search:50051",
            "CELESTIAL_SEARCH_PROCESSES": "16",
            "CELESTIAL_SERVICE_QUEUE": "4",
        }
    )
    gateway = Gateway(settings, store=None, endpoints=[], pools={})
    assert gateway.processes["search"] == 16 and gateway.shares["search"].capacity == 64
    listed = Gateway(
        load_settings({"CELESTIAL_SEARCH_ADDRESSES": "127.0.0.1:1,127.0.0.1:2", "CELESTIAL_SEARCH_PROCESSES": "16"}),
        store=None,
        endpoints=[],
        pools={},
    )
    assert listed.processes["search"] == 2  # a list of addresses counts itself


def test_a_call_refused_while_its_account_holds_its_whole_share_is_that_accounts_own_excess():
    """Issue 48: an account's own excess is its own 429, not a busy pool's 503. One process,
    room for four; the flood holds its share (the process) with a 1 s call: its next call
    would wait about 1 s, past the 0.5 s allowed, and is refused as its own."""

    async def scenario():
        share = FairShare(capacity=4, processes=1)
        await share.acquire("flood", 1, LONG_S, expected_s=1.0)
        with pytest.raises(Overloaded) as refused:
            await share.acquire("flood", 1, LONG_S, expected_s=1.0, shed_after_s=0.5)
        assert refused.value.own is True
        await share.acquire("other", 1, 0.001, expected_s=1.0, shed_after_s=0.5)  # room for the others

    asyncio.run(scenario())


def test_a_call_refused_by_a_pool_full_of_other_accounts_calls_is_not_its_own_excess():
    """A pool full for everyone: two accounts hold its two places with 1 s calls; a third
    account holding nothing would wait past its allowance, and the refusal is not its own."""

    async def scenario():
        share = FairShare(capacity=2, processes=1)
        await share.acquire("a", 1, LONG_S, expected_s=1.0)
        await share.acquire("b", 1, LONG_S, expected_s=1.0)
        waiting = [await started(share, name, 1, expected_s=1.0) for name in "ab"]
        with pytest.raises(Overloaded) as refused:
            await share.acquire("c", 1, LONG_S, expected_s=0.2, shed_after_s=0.5)
        assert refused.value.own is False
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)

    asyncio.run(scenario())


def test_a_call_whose_own_accounts_calls_waiting_ahead_make_the_wait_too_long_is_its_own_excess():
    """Its share not yet held (four places, a limit of four), but its own calls waiting ahead
    of it alone exceed the allowance: its excess, whatever the other accounts do."""

    async def scenario():
        share = FairShare(capacity=1, processes=1)
        await share.acquire("other", 1, LONG_S, expected_s=0.1)
        waiting = [await started(share, "flood", 4, expected_s=1.0, shed_after_s=5.0) for _ in range(2)]
        with pytest.raises(Overloaded) as refused:
            await share.acquire("flood", 4, LONG_S, expected_s=1.0, shed_after_s=1.5)
        assert refused.value.own is True
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)

    asyncio.run(scenario())


def test_a_call_whose_turn_does_not_come_says_whether_its_accounts_own_calls_held_it():
    """Not granted within its wait: its own excess while the account's calls hold its share,
    the pool's when other accounts' calls fill it."""

    async def scenario():
        share = FairShare(capacity=2, processes=1)
        await share.acquire("flood", 1, LONG_S)
        with pytest.raises(TurnNotCome) as own:
            await share.acquire("flood", 1, 0.01)
        assert own.value.own is True and isinstance(own.value, TimeoutError)
        await share.acquire("other", 1, LONG_S)
        with pytest.raises(TurnNotCome) as full:
            await share.acquire("third", 1, 0.01)
        assert full.value.own is False

    asyncio.run(scenario())


def test_a_call_whose_turn_comes_as_its_wait_ends_takes_it():
    """The flood's call under way ends in the same turn of the loop as its next call's wait (a
    loop slowed by load runs both at once): the turn came, and the call takes it. Before, it
    gave the turn back and was refused as the pool's (503, its account's share now looking
    free), not its own excess: the flood test's one 5xx sub-request."""

    async def scenario():
        share = FairShare(capacity=4, processes=1)
        await share.acquire("flood", 1, LONG_S)
        waiting = await started(share, "flood", 1, wait_s=0.05)
        asyncio.get_running_loop().call_soon(share.release, "flood")  # runs before the timer ...
        time.sleep(0.1)  # ... which is due by then, the loop busy past the wait
        (outcome,) = await asyncio.gather(waiting, return_exceptions=True)
        return outcome, share.account_in_flight("flood")

    outcome, in_flight = asyncio.run(scenario())
    assert (outcome, in_flight) == (None, 1)


# --- resizing to the replicas a pool has (issue 50) ----------------------------------------------


def test_resizing_makes_the_capacity_that_many_processes_places():
    share = FairShare(capacity=8, processes=2)
    share.resize(3)
    assert (share.processes, share.capacity) == (3, 12)
    share.resize(0)
    assert (share.processes, share.capacity) == (1, 4)  # never below one process


def test_growing_grants_the_waiting_calls_at_once():
    async def scenario():
        share = FairShare(capacity=1, processes=1)
        calls = [await started(share, name, 1) for name in "abc"]
        assert [call.done() for call in calls] == [True, False, False]
        share.resize(3)
        await asyncio.sleep(0)
        assert all(call.done() for call in calls) and share.in_flight == 3

    asyncio.run(scenario())


def test_growing_raises_a_waiting_calls_account_limit_with_the_pool():
    """A scan's limit is the pool's processes: a scan that waited for its account's one
    process takes one of the three the pool has now."""

    async def scenario():
        share = FairShare(capacity=4, processes=1)
        scans = [await started(share, "a", share.processes) for _ in range(3)]
        assert [scan.done() for scan in scans] == [True, False, False]
        share.resize(3)
        await asyncio.sleep(0)
        assert all(scan.done() for scan in scans) and share.account_in_flight("a") == 3

    asyncio.run(scenario())


def test_resizing_keeps_the_waiting_calls_and_their_order():
    async def scenario():
        share = FairShare(capacity=1, processes=1)
        await share.acquire("holder", 1, LONG_S)
        order: list[str] = []

        async def call(account: str) -> None:
            await share.acquire(account, 1, LONG_S)
            order.append(account)

        tasks = [asyncio.ensure_future(call(account)) for account in "abcde"]
        await asyncio.sleep(0)
        share.resize(2)  # one more place: a
        await asyncio.sleep(0)
        share.resize(1)
        share.resize(3)  # b, then c, d and e as the calls end
        await asyncio.sleep(0)
        assert order == ["a", "b"] and share.waiting() == 3
        for account in ("holder", "a", "b"):
            share.release(account)
        await asyncio.gather(*tasks)
        assert order == ["a", "b", "c", "d", "e"]

    asyncio.run(scenario())


def test_shrinking_stops_no_call_in_flight_and_starts_new_calls_only_below_the_new_bound():
    async def scenario():
        share = FairShare(capacity=3, processes=3)
        running = [await started(share, name, 3) for name in "abc"]
        assert all(call.done() and not call.cancelled() for call in running)
        share.resize(1)
        assert share.in_flight == 3  # the three calls run on
        waiting = await started(share, "d", 3)
        share.release("a")
        share.release("b")
        await asyncio.sleep(0)
        assert not waiting.done()  # two of the old calls ended: still not below the one place
        share.release("c")
        await asyncio.sleep(0)
        assert waiting.done() and share.in_flight == 1

    asyncio.run(scenario())


def test_the_expected_wait_falls_as_the_pool_grows():
    async def scenario():
        share = FairShare(capacity=1, processes=1)
        for account in "abc":
            await started(share, account, 1, expected_s=1.0)
        one_process = share.expected_wait_s("d", lane_of(1.0), 1.0)
        share.resize(3)
        await asyncio.sleep(0)
        for account in "ef":
            await started(share, account, 3, expected_s=1.0)
        three_processes = share.expected_wait_s("d", lane_of(1.0), 1.0)
        assert one_process == pytest.approx(3.0) and three_processes == pytest.approx(1.0)

    asyncio.run(scenario())
