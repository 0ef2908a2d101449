"""store/nats_heartbeats.py: a gateway's store beats; when its beat stops, the survivors free
the slots it held and refund the charges made under them, once, within 15 s of its death
(issue 48), not after the slots' 120 s lease; a store still beating, or one that never beat,
keeps its slots.

References: docs/stores.md (design notes: heartbeats), docs/reliability.md.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import nats

#: The issue's bound: a dead gateway's charges are refunded within this many seconds of its death.
REFUNDED_WITHIN_S = 15.0

_BEAT_CHARGE_AND_HANG = """
import asyncio, sys
from store.nats_store import open_nats_store

async def main(url, prefix, account_id):
    store = await open_nats_store(url, prefix=prefix)
    beating = asyncio.create_task(store.follow_peers())
    while await store._get(store._heartbeats, store.holder_id) is None:
        await asyncio.sleep(0.05)
    account = await store.get_account(account_id)
    await store.admit_and_reserve(account, "slot-killed", 4, "req-killed")
    await store.admit(account, "batch-killed")
    await store.hold_charge(account.id, "batch-killed", ("item-killed", 3))
    await store.reserve(account.id, 3, "item-killed")
    print("charged", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main(*sys.argv[1:]))
"""


async def _slots(url: str, prefix: str, account_id: str) -> dict:
    """Return the slots of the account's limiter entry, read with a plain client."""
    nc = await nats.connect(url)
    try:
        entry = await (await nc.jetstream().key_value(f"{prefix}_LIMITS")).get(account_id)
        return json.loads(entry.value)["slots"]
    finally:
        await nc.close()


async def _until(predicate, within_s: float, what: str) -> None:
    """Return once ``await predicate()`` holds, polled every 50 ms; fail past ``within_s`` seconds."""
    started = time.monotonic()
    while not await predicate():
        assert time.monotonic() - started < within_s, f"{what}: not within {within_s} s"
        await asyncio.sleep(0.05)


async def _beats_seen(store, holder: str, count: int) -> None:
    """Return once ``holder``'s store has beaten ``count`` more times (read through ``store``)."""
    first = json.loads((await store._get(store._heartbeats, holder))[1])["beat"]

    async def beaten() -> bool:
        found = await store._get(store._heartbeats, holder)
        return found is not None and json.loads(found[1])["beat"] >= first + count

    await _until(beaten, count * 5.0, f"{count} beats")


def test_a_killed_gateways_charges_are_refunded_once_and_its_slots_freed_within_15_s(nats_factory):
    async def body():
        survivors = [await nats_factory.open() for _ in range(2)]
        following = [asyncio.create_task(store.follow_peers()) for store in survivors]
        store = survivors[0]
        try:
            account = await store.create_account("acme", 10)
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                _BEAT_CHARGE_AND_HANG,
                nats_factory.url,
                nats_factory.prefix,
                account.id,
                stdout=asyncio.subprocess.PIPE,
                cwd=str(Path(__file__).resolve().parents[3]),
            )
            try:
                assert (await asyncio.wait_for(process.stdout.readline(), 30.0)).strip() == b"charged"
            finally:
                process.kill()  # SIGKILL: the process that charged can refund nothing now
                await process.wait()
            assert await store.balance(account.id) == 3
            assert len(await _slots(nats_factory.url, nats_factory.prefix, account.id)) == 2

            async def settled() -> bool:
                slots = await _slots(nats_factory.url, nats_factory.prefix, account.id)
                return await store.balance(account.id) == 10 and slots == {}

            # Within 15 s of the kill, so long before the slots' lease (SLOT_LEASE_S) ends.
            await _until(settled, REFUNDED_WITHIN_S, "the dead gateway's charges refunded")
            usage = await store.usage(account.id)
            assert (usage.credits_debited, usage.credits_refunded) == (7, 7)  # each charge refunded once
        finally:
            for task in following:
                task.cancel()
            for survivor in survivors:
                await survivor.close()

    asyncio.run(body())


def test_a_store_still_beating_keeps_its_slots(nats_factory):
    async def body():
        holder, watcher = await nats_factory.open(), await nats_factory.open()
        following = [
            asyncio.create_task(store.follow_peers(beat_s=0.05, dead_after_s=0.5)) for store in (holder, watcher)
        ]
        try:
            account = await holder.create_account("acme", 10)
            await holder.admit_and_reserve(account, "slot-live", 4, "req-live")
            await _until(lambda: _has_beat(watcher, holder.holder_id), 5.0, "the holder's first beat")
            await _beats_seen(watcher, watcher.holder_id, 30)  # the watcher looked 30 times
            assert list(await _slots(nats_factory.url, nats_factory.prefix, account.id)) == ["slot-live"]
            assert await watcher.balance(account.id) == 6
        finally:
            for task in following:
                task.cancel()
            await holder.close()
            await watcher.close()

    asyncio.run(body())


def test_the_slots_of_a_store_that_never_beat_are_left_to_their_lease(nats_factory):
    async def body():
        tool, watcher = await nats_factory.open(), await nats_factory.open()
        following = asyncio.create_task(watcher.follow_peers(beat_s=0.05, dead_after_s=0.5))
        try:
            account = await tool.create_account("acme", 10)
            await tool.admit_and_reserve(account, "slot-tool", 4, "req-tool")
            await tool.close()
            await _until(lambda: _has_beat(watcher, watcher.holder_id), 5.0, "the watcher's first beat")
            await _beats_seen(watcher, watcher.holder_id, 30)
            assert list(await _slots(nats_factory.url, nats_factory.prefix, account.id)) == ["slot-tool"]
        finally:
            following.cancel()
            await watcher.close()

    asyncio.run(body())


def test_freeing_a_holders_slots_leaves_the_others_and_frees_nothing_twice(nats_factory):
    async def body():
        dead, alive = await nats_factory.open(), await nats_factory.open()
        try:
            account = await dead.create_account("acme", 10)
            await dead.admit_and_reserve(account, "slot-dead", 4, "req-dead")
            await alive.admit_and_reserve(account, "slot-alive", 2, "req-alive")
            assert await alive.free_slots_of(dead.holder_id) == 1
            assert await alive.free_slots_of(dead.holder_id) == 0
            assert list(await _slots(nats_factory.url, nats_factory.prefix, account.id)) == ["slot-alive"]
            assert await alive.balance(account.id) == 8  # the dead one's 4 back, the live one's 2 kept
        finally:
            await dead.close()
            await alive.close()

    asyncio.run(body())


async def _has_beat(store, holder: str) -> bool:
    return await store._get(store._heartbeats, holder) is not None


def test_a_failure_settling_a_dead_peer_never_stops_the_beat(nats_factory):
    async def body():
        dead, watcher = await nats_factory.open(), await nats_factory.open()
        failures = []

        async def refused(holder: str) -> int:
            failures.append(holder)
            raise ValueError("a refund refused")

        watcher.free_slots_of = refused
        beating = asyncio.create_task(dead.follow_peers(beat_s=0.05))
        await _until(lambda: _has_beat(watcher, dead.holder_id), 5.0, "the peer's first beat")
        beating.cancel()  # the peer dies
        # A look later than half the wait restarts every peer's wait: 2 s keeps a loaded
        # machine's looks (a listing of the session's beats each) well within it.
        following = asyncio.create_task(watcher.follow_peers(beat_s=0.05, dead_after_s=2.0))
        try:
            await _until(lambda: _failed(failures), 30.0, "an attempt to settle the dead peer")
            await _beats_seen(watcher, watcher.holder_id, 10)  # still beating after the failure
            assert not following.done()
        finally:
            following.cancel()
            await dead.close()
            await watcher.close()

    asyncio.run(body())


async def _failed(failures: list) -> bool:
    return bool(failures)
