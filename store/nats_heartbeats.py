"""The NATS store's gateway heartbeats: each gateway's store beats in a key-value entry, watches
the others' beats, and when one stops, frees the concurrency slots that gateway held and
refunds the charges made under them, within seconds of its death instead of after the slots'
120 s lease (issue 48: a gateway killed with 30 batches in flight left 824 credits taken for
128 s, refusing a customer near a cap or a zero balance meanwhile).

Bucket ``P_HEARTBEATS`` (``P`` the store's prefix): ``<holder_id>`` -> ``{"beat": n, "at_s":
Unix seconds}``, rewritten every HEARTBEAT_S by the store whose ``holder_id`` it is (the name
on the slots it holds, ``nats_limiter.py``). A beat is judged stopped on the watcher's own
clock, by its value not changing for DEAD_AFTER_S, so no two hosts' clocks are compared. The
survivors then free the dead store's slots (each limiter entry under compare-and-set, each
refund once per request id: two survivors at once free and refund once) and delete its beat at
the revision they read, so a store that beats again meanwhile is never forgotten.

A gateway frozen (or cut off from NATS) past DEAD_AFTER_S is taken for dead: its requests in
flight are refunded and, if they finish, served free. Slots of a store that never beat (a
tool, a test) are left to their lease, as before.
"""

from __future__ import annotations

import asyncio
import time

import nats.js.errors
import orjson
import structlog
from nats.js import api
from nats.js.kv import KeyValue

from store.errors import StoreError
from store.nats_connection import NatsConnection, WrongLastSequence

log = structlog.get_logger("celestial.store")

#: Seconds between a store's beats, and between its looks at the others'.
HEARTBEAT_S = 1.0
#: Seconds a beat may stay unchanged before its store is taken for dead: several beats, so a
#: loaded machine's late beat is not a death, and short enough that its slots are freed and
#: their charges refunded within 15 s of the death (the beat last seen, this wait, one look).
DEAD_AFTER_S = 8.0
#: Seconds a beat is kept in the bucket without being rewritten: a store that stopped with
#: no survivor to forget it is forgotten by the server (its slots lapse by their lease).
BEAT_KEPT_S = 86_400.0


class NatsHeartbeats(NatsConnection):
    """Heartbeats of the gateways sharing one NATS store. :meth:`free_slots_of` is the
    limiter's (``nats_limiter.py``; the two are parts of one :class:`~store.nats_store.NatsStore`)."""

    _heartbeats: KeyValue | None = None

    async def _ensure_layout(self) -> None:
        await super()._ensure_layout()
        js = self._nc.jetstream(timeout=max(self._timeout_s, 2.0))
        config = api.KeyValueConfig(
            bucket=f"{self.prefix}_HEARTBEATS",
            history=1,
            ttl=BEAT_KEPT_S,
            storage=api.StorageType.FILE,
            replicas=self._replicas,
            direct=True,
        )
        await self._call(js.create_key_value(config))
        self._heartbeats = await self._call(self._js.key_value(config.bucket))

    async def follow_peers(self, beat_s: float = HEARTBEAT_S, dead_after_s: float = DEAD_AFTER_S) -> None:
        """Beat every ``beat_s`` seconds and free the slots of each other store whose beat has
        not changed for ``dead_after_s`` seconds, until cancelled or the store is closed. A
        look that fails (NATS unreachable) or comes late (this process frozen) starts every
        peer's wait again: only time this store watched counts against a peer."""
        beat = 0
        seen: dict[str, tuple[bytes, float]] = {}  # holder -> (its beat, monotonic s it was first seen)
        last_look_s = time.monotonic()
        while not self._closed:
            try:
                beat += 1
                value = orjson.dumps({"beat": beat, "at_s": time.time()})
                await self._call(self._heartbeats.put(self.holder_id, value))
                beats = await self._listing(self._heartbeats, ">")
                now_s = time.monotonic()
                if now_s - last_look_s > dead_after_s / 2:
                    seen.clear()  # this process was not looking: its peers get their full wait
                last_look_s = now_s
                listed = {
                    holder: seen[holder] if holder in seen and seen[holder][0] == theirs else (theirs, now_s)
                    for holder, theirs in beats.items()
                    if holder != self.holder_id
                }
                # A listing may miss a key now and then (_listing's docstring): a peer missing
                # from one keeps its wait, else a missed listing in every few would restart it
                # for ever; one unlisted for twice the wait was forgotten by a survivor.
                seen = {
                    **{h: kept for h, kept in seen.items() if now_s - kept[1] <= 2 * dead_after_s},
                    **listed,
                }
                for holder, (theirs, since_s) in list(seen.items()):
                    if now_s - since_s > dead_after_s:
                        await self._settle_dead(holder, theirs)
                        del seen[holder]
            except StoreError as error:
                log.warning("heartbeat_failed", error=type(error).__name__)
                seen.clear()
            except Exception:
                # Whatever failed (a dead peer's refund refused), this store must keep beating,
                # or the others would take it for dead: the peer is settled again next time.
                log.exception("heartbeat_look_failed")
                seen.clear()
            await asyncio.sleep(beat_s)

    async def _settle_dead(self, holder: str, last_beat: bytes) -> None:
        """Free the slots of ``holder``, whose beat stopped at ``last_beat``, then delete its
        beat unless it has beaten again meanwhile."""
        freed = await self.free_slots_of(holder)
        log.warning("gateway_presumed_dead", holder=holder, slots_freed=freed)
        found = await self._get(self._heartbeats, holder)
        if found is None or found[1] != last_beat:
            return
        try:
            await self._call(self._heartbeats.delete(holder, last=found[0]))
        except (WrongLastSequence, nats.js.errors.NotFoundError):
            pass  # beat again, or deleted by another survivor: either way not this one's to forget
