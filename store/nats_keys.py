"""The NATS store's keys: records found by hash in one read, indexes by id and by account,
and the change feed every gateway follows (an ordered consumer on the key records)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterable
from datetime import datetime
from typing import Any

import orjson
from nats.aio.msg import Msg
from nats.js import api

from store.bounds import require_future_expiry, validate_key_name
from store.errors import KeyNotActive, StoreUnavailable, no_such_key
from store.key_format import KeyMode, generate_key, hash_key, new_key_id, prefix_hint
from store.nats_connection import (
    CLOSED,
    HASH_RE,
    RECONNECTED,
    TOKEN_RE,
    NatsConnection,
    WrongLastSequence,
)
from store.origins import validate_origins
from store.records import KeyRecord, from_unix_s, to_unix_s


def key_record_of(doc: dict) -> KeyRecord:
    return KeyRecord(
        key_id=doc["key_id"],
        account_id=doc["account_id"],
        key_hash=doc["key_hash"],
        prefix_hint=doc["prefix_hint"],
        created_at=from_unix_s(doc["created_at_s"]),
        expires_at=from_unix_s(doc["expires_at_s"]),
        revoked_at=from_unix_s(doc["revoked_at_s"]),
        allowed_origins=tuple(doc["allowed_origins"]),
        browser_only=doc["browser_only"],
        name=doc.get("name", ""),  # records written before keys had names have none
        mode=doc.get("mode", "live"),  # records written before test keys are live keys
    )


class NatsKeys(NatsConnection):
    """API keys and their change feed (the store's :class:`~store.interfaces.Keys`)."""

    async def _announce_keys_of(self, account_id: str) -> None:
        """Rewrite each live key record of the account unchanged, so followers drop their copies."""
        for key_hash in await self._key_hashes_of(account_id):
            got = await self._get(self._keys, f"hash.{key_hash}")
            if got is None or orjson.loads(got[1])["revoked_at_s"] is not None:
                continue
            try:
                await self._call(self._keys.update(f"hash.{key_hash}", got[1], last=got[0]))
            except WrongLastSequence:
                pass  # changed meanwhile: that write was announced itself

    async def create_key(
        self,
        account: str,
        *,
        expires_at: datetime | None = None,
        allowed_origins: Iterable[str] = (),
        browser_only: bool = False,
        name: str = "",
        mode: KeyMode = "live",
    ) -> tuple[str, KeyRecord]:
        """Return ``(plain_key, record)``; only the key's SHA-256 hash reaches the server."""
        expires_at = require_future_expiry(expires_at)
        origins = validate_origins(allowed_origins)
        name = validate_key_name(name)
        await self._await_watch_setups()
        account_id = (await self._account_record(account))["id"]
        plain, key_id = generate_key(mode), new_key_id()
        key_hash = hash_key(plain)
        doc = {
            "key_id": key_id,
            "account_id": account_id,
            "key_hash": key_hash,
            "prefix_hint": prefix_hint(plain),
            "created_at_s": time.time(),
            "expires_at_s": to_unix_s(expires_at),
            "revoked_at_s": None,
            "allowed_origins": list(origins),
            "browser_only": bool(browser_only),
            "name": name,
            "mode": mode,
        }
        # Indexes before the record: a crash halfway leaves indexes to nothing, never a key
        # that works but cannot be found and revoked.
        await self._call(self._keys.create(f"id.{key_id}", key_hash.encode()))
        await self._call(self._keys.create(f"acct.{account_id}.{key_id}", key_hash.encode()))
        await self._call(self._keys.create(f"hash.{key_hash}", orjson.dumps(doc)))
        return plain, key_record_of(doc)

    async def find_key_by_hash(self, key_hash: str) -> KeyRecord | None:
        """Return the key whose SHA-256 hex digest is ``key_hash``, in any state; None if none."""
        if not isinstance(key_hash, str) or HASH_RE.fullmatch(key_hash) is None:
            return None  # never send anything else (a plain key, say) to the server
        found = await self._get_json(self._keys, f"hash.{key_hash}")
        return None if found is None else key_record_of(found[1])

    async def _key_doc(self, key_id: str) -> tuple[int, dict] | None:
        if not isinstance(key_id, str) or TOKEN_RE.fullmatch(key_id) is None:
            return None
        indexed = await self._get(self._keys, f"id.{key_id}")
        return None if indexed is None else await self._get_json(self._keys, f"hash.{indexed[1].decode()}")

    async def get_key(self, key_id: str) -> KeyRecord | None:
        """Return the key with id ``key_id``; None if none."""
        found = await self._key_doc(key_id)
        return None if found is None else key_record_of(found[1])

    async def _change_key(self, key_id: str, change: Callable[[dict], dict | None]) -> KeyRecord:
        """Return the key after writing ``change(doc)`` (a new doc, or None to leave it) under
        compare-and-set, retried on a concurrent write. Raises KeyNotFound."""
        await self._await_watch_setups()
        while True:
            found = await self._key_doc(key_id)
            if found is None:
                raise no_such_key(key_id)
            revision, doc = found
            changed = change(doc)
            if changed is None:
                return key_record_of(doc)
            try:
                await self._call(self._keys.update(f"hash.{doc['key_hash']}", orjson.dumps(changed), last=revision))
            except WrongLastSequence:
                continue
            return key_record_of(changed)

    async def revoke_key(self, key_id: str) -> KeyRecord:
        """Return the key after revoking it (revoking twice keeps the first time). Raises KeyNotFound."""
        now_s = time.time()
        return await self._change_key(
            key_id, lambda doc: None if doc["revoked_at_s"] is not None else {**doc, "revoked_at_s": now_s}
        )

    async def update_origins(self, key_id: str, origins: Iterable[str], browser_only: bool | None = None) -> KeyRecord:
        """Return the active key with its allowed origins replaced (and browser_only when given).
        Raises KeyNotFound, KeyNotActive, ValueError for an origin that can never match."""
        checked = list(validate_origins(origins))

        def update(doc: dict) -> dict:
            state = key_record_of(doc).state()
            if state != "active":
                raise KeyNotActive(f"key {key_id} is {state}; only an active key's origins can change")
            flag = doc["browser_only"] if browser_only is None else bool(browser_only)
            return {**doc, "allowed_origins": checked, "browser_only": flag}

        return await self._change_key(key_id, update)

    async def _key_hashes_of(self, account_id: str) -> list[str]:
        """Return the hashes of the account's keys, from the ``acct.<account_id>.*`` index."""
        watcher = await self._call(self._keys.watch(f"acct.{account_id}.*", ignore_deletes=True))
        hashes: list[str] = []
        try:
            # The watcher hands over the index entries as they are now, then None.
            while (entry := await self._call(watcher.updates(timeout=self._timeout_s * 2))) is not None:
                hashes.append(entry.value.decode())
        finally:
            try:
                await watcher.stop()
            except Exception:  # the consumer goes with a broken connection anyway
                pass
        return hashes

    async def list_keys(self, account: str) -> list[KeyRecord]:
        """Return every key of the account (id or name), oldest first. Raises AccountNotFound."""
        account_id = (await self._account_record(account))["id"]
        hashes = await self._key_hashes_of(account_id)
        found = await asyncio.gather(*(self._get_json(self._keys, f"hash.{h}") for h in hashes))
        # An index without a record is a creation cut short before the key was handed out.
        records = [key_record_of(doc) for _, doc in filter(None, found)]
        return sorted(records, key=lambda record: (record.created_at, record.key_id))

    # --- key changes ------------------------------------------------------------------------------

    def key_changes(self) -> AsyncIterator[str | None]:
        """Return an async iterator of the hashes of keys changed from now on in any process,
        None after a reconnection (changes may have been missed). It ends when the store closes.

        The consumer is created by a task started here, and this store's own key writes wait
        for it, so a change this process makes after the call is always reported.
        """
        if self._closed:
            return _nothing()
        watch = _Watch()
        self._watches.add(watch)
        watch.ready = asyncio.get_running_loop().create_task(self._subscribe(watch))
        self._watch_setups.add(watch.ready)
        watch.ready.add_done_callback(self._watch_setups.discard)
        # Its failure is raised by the iterator; marking it retrieved here keeps asyncio from
        # also logging it when the iterator is dropped unstarted.
        watch.ready.add_done_callback(lambda task: task.cancelled() or task.exception())
        return self._follow(watch)

    async def _await_watch_setups(self) -> None:
        if self._watch_setups:
            await asyncio.wait(set(self._watch_setups))

    async def _subscribe(self, watch: _Watch) -> None:
        keys_subject = f"$KV.{self.prefix}_KEYS.hash."
        queue = watch.queue

        async def changed(msg: Msg) -> None:
            queue.put_nowait(msg.subject[len(keys_subject) :])

        old, watch.subscription = watch.subscription, None
        if old is not None:
            try:
                await old.unsubscribe()
            except Exception:  # the old consumer may be gone with the server
                pass
        # An ordered consumer of stored changes only: a core subscription would also see
        # writes the stream refuses, and could announce a change before it can be read back.
        watch.subscription = await self._call(
            self._js.subscribe(
                keys_subject + "*",
                stream=f"KV_{self.prefix}_KEYS",
                cb=changed,
                ordered_consumer=True,
                deliver_policy=api.DeliverPolicy.NEW,
                headers_only=True,
                idle_heartbeat=2.0,
                inactive_threshold=30.0,
            )
        )

    async def _follow(self, watch: _Watch) -> AsyncIterator[str | None]:
        try:
            # wait() rather than await: close() cancels a setup still running, and that must
            # end this iterator, not cancel the task iterating it.
            await asyncio.wait((watch.ready,))
            if watch.ready.cancelled():
                return
            watch.ready.result()  # raises StoreUnavailable when the consumer could not be made
            while True:
                item = await watch.queue.get()
                if item is CLOSED:
                    return
                if item is RECONNECTED:
                    # The server may have restarted and lost the (in-memory) consumer: a new
                    # one starts from now, and None tells the caller what it may have missed.
                    while not self._closed:
                        try:
                            await self._subscribe(watch)
                            break
                        except StoreUnavailable:
                            await asyncio.sleep(0.1)
                    if self._closed:
                        return
                    yield None
                    continue
                yield item
        finally:
            self._watches.discard(watch)
            if not watch.ready.done():
                watch.ready.cancel()
            if watch.subscription is not None and not self._closed:
                try:
                    await watch.subscription.unsubscribe()
                except Exception:  # nothing to free on a broken connection
                    pass


class _Watch:
    """One ``key_changes`` iterator: its queue of hashes and markers, and its subscription."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue = asyncio.Queue()
        self.subscription: Any = None
        self.ready: asyncio.Task | None = None


async def _nothing() -> AsyncIterator[str | None]:
    return
    yield  # an async generator that ends at once
