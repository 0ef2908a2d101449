"""The NATS store's exact per-account caps (stored charts, webhook subscriptions): each
account's places under a cap in one key-value entry, taken and given back under
compare-and-set (``kv.update(last=revision)``), as the balance is on the ledger.

Bucket ``P_CAPS`` (``P`` the store's prefix): ``<kind>.<account_id>`` -> ``{"places":
{item id: Unix seconds the place was taken}}``. A creation takes a place (refused when the
places number the cap) and then writes its record; a deletion purges the record and then gives
the place back. A place is an id, not a count: giving one back twice (two deletions of one
chart at once) frees it once.

A process dying between the two writes leaves a place without a record (a creation's before
its record, a deletion's after the purge). Nothing is lost for ever: a creation that finds the
places full lists the account's records and drops each place that has none and was taken more
than UNRECORDED_PLACE_S ago, then tries again. An account whose entry does not exist yet (its
records made before this entry did) gets one listing its records as they are.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable

import orjson
from nats.js import api
from nats.js.kv import KeyValue

from store.errors import StoreError, StoreUnavailable
from store.nats_connection import NatsConnection, WrongLastSequence, check_account_id

#: Seconds a place may stand without its record before a full account drops it: far more than
#: the one round trip (a second at most) between taking a place and writing the record, so the
#: place of a creation in flight is never dropped.
UNRECORDED_PLACE_S = 60.0


def stale_places(places: dict[str, float], recorded: set[str], now_s: float) -> list[str]:
    """Return the ids of the places with no record that were taken more than
    UNRECORDED_PLACE_S before ``now_s`` (Unix seconds): left by a process that died between
    its two writes."""
    return [item for item, taken_s in places.items() if item not in recorded and now_s - taken_s > UNRECORDED_PLACE_S]


class NatsCaps(NatsConnection):
    """Places under the per-account caps, for :class:`~store.nats_charts.NatsCharts` and
    :class:`~store.nats_webhooks.NatsWebhooks`."""

    _caps: KeyValue | None = None

    async def _ensure_layout(self) -> None:
        await super()._ensure_layout()
        js = self._nc.jetstream(timeout=max(self._timeout_s, 2.0))
        config = api.KeyValueConfig(
            bucket=f"{self.prefix}_CAPS",
            history=1,
            storage=api.StorageType.FILE,
            replicas=self._replicas,
            direct=True,
        )
        await self._call(js.create_key_value(config))
        self._caps = await self._call(self._js.key_value(config.bucket))

    async def _places(self, key: str) -> tuple[int, dict[str, float]] | None:
        """Return (revision, places) of the entry ``key``; None when it does not exist."""
        found = await self._get_json(self._caps, key)
        return None if found is None else (found[0], found[1]["places"])

    async def _write_places(self, key: str, revision: int | None, places: dict[str, float]) -> bool:
        """Write ``places`` over the entry at ``revision`` (None: create it); return False when
        another writer came first."""
        value = orjson.dumps({"places": places})
        if revision is None:
            return await self._create(self._caps, key, value)
        try:
            await self._call(self._caps.update(key, value, last=revision))
        except WrongLastSequence:
            return False
        return True

    async def _take_place(
        self,
        kind: str,
        account_id: str,
        item_id: str,
        limit: int,
        recorded: Callable[[], Awaitable[set[str]]],
    ) -> bool:
        """Return whether a place under the cap ``limit`` was taken for ``item_id`` of the
        account; False (nothing written) when its places number ``limit``, none of them stale.
        ``recorded()`` returns the ids of the account's records as stored (read only to start
        the entry or to find stale places)."""
        key = f"{kind}.{check_account_id(account_id)}"
        while True:
            found = await self._places(key)
            if found is None:
                revision, places = None, dict.fromkeys(await recorded(), 0.0)
            else:
                revision, places = found
            if item_id in places:
                return True
            if len(places) >= limit:
                stale = [] if revision is None else stale_places(places, await recorded(), time.time())
                if not stale:
                    return False
                kept = {item: taken_s for item, taken_s in places.items() if item not in stale}
                await self._write_places(key, revision, kept)  # lost to another writer: read again
                continue
            if await self._write_places(key, revision, {**places, item_id: time.time()}):
                return True

    async def _give_place(self, kind: str, account_id: str, item_id: str) -> None:
        """Give back the place of ``item_id`` (one not held is a no-op)."""
        key = f"{kind}.{check_account_id(account_id)}"
        while (found := await self._places(key)) is not None and item_id in found[1]:
            revision, places = found
            if await self._write_places(key, revision, {i: t for i, t in places.items() if i != item_id}):
                return

    async def _with_place(
        self,
        kind: str,
        account_id: str,
        item_id: str,
        limit: int,
        recorded: Callable[[], Awaitable[set[str]]],
        write: Callable[[], Awaitable[bool]],
    ) -> bool | None:
        """Return None when the cap refused a place, else what ``write()`` (the record's
        creation) returned: False gives the place back, as does a write that never reached the
        server; any other failure keeps it, since the record may exist (a place found without
        its record is dropped once stale)."""
        if not await self._take_place(kind, account_id, item_id, limit, recorded):
            return None
        try:
            written = await write()
        except StoreUnavailable:
            with contextlib.suppress(StoreError):  # left to go stale
                await self._give_place(kind, account_id, item_id)
            raise
        if not written:
            await self._give_place(kind, account_id, item_id)
        return written
