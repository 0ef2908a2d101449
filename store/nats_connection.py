"""The NATS JetStream connection every part of the NATS store shares: connecting and
reconnecting, the stream and buckets it needs, and one round trip with its failures mapped to
the store's errors (a call never sent is StoreUnavailable; one sent whose answer never came is
StoreOutcomeUnknown).
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import string
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import nats
import nats.errors
import nats.js.errors
import orjson
import structlog
from nats.aio.msg import Msg
from nats.js import api
from nats.js.kv import KeyValue

from store.errors import StoreError, StoreOutcomeUnknown, StoreUnavailable, no_such_account
from store.key_format import quoted

log = structlog.get_logger("celestial.store")

#: Default prefix of stream and bucket names; the ledger subjects use it in lowercase.
DEFAULT_PREFIX = "CELESTIAL"
#: How far back the ledger is de-duplicated by request id, in seconds: a retried debit or
#: refund within it is recognised by any process; a refund by a process that did not charge
#: the request looks for the debit this far back.
DEFAULT_DUPLICATE_WINDOW_S = 3600.0

_PREFIX_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")
# Account and key ids become subject tokens: nothing that could be a wildcard or separator.
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
HASH_RE = re.compile(r"[0-9a-f]{64}")
# A request id becomes a header value: printable, no whitespace, bounded.
_REQUEST_ID_RE = re.compile(r"[\x21-\x7e]{1,200}")
_ASCII_FOLD = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
# JetStream error codes: 10071 "wrong last sequence" (10164 its constant form on newer
# servers); 10058 "stream name already in use with a different configuration".
_WRONG_LAST_SEQUENCE = (10071, 10164)
STREAM_CONFIG_DIFFERS = 10058
_SCAN_BATCH = 500

# Failures before the request left this process: the server never saw it.
_NOT_SENT = (
    nats.errors.ConnectionReconnectingError,
    nats.errors.OutboundBufferLimitError,
    nats.errors.ConnectionDrainingError,
    nats.errors.NoRespondersError,
    nats.js.errors.NoStreamResponseError,
)
# Failures after it may have: the connection went, or no answer came in time.
_NO_ANSWER = (
    nats.errors.TimeoutError,
    asyncio.TimeoutError,
    nats.errors.ConnectionClosedError,
    nats.errors.StaleConnectionError,
    OSError,
)
# What a key watch's queue receives besides key hashes: the store closed, the connection came back.
CLOSED = object()
RECONNECTED = object()


class WrongLastSequence(Exception):
    """The subject's last sequence was not the one expected: another writer came first."""


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fold_case(name: str) -> str:
    """Return ``name`` with ASCII letters lowercased: the case-insensitivity SQLite's NOCASE has."""
    return name.translate(_ASCII_FOLD)


def check_request_id(request_id: str) -> str:
    if not isinstance(request_id, str) or _REQUEST_ID_RE.fullmatch(request_id) is None:
        raise ValueError(
            f"request_id must be 1-200 printable ASCII characters without spaces, got {quoted(request_id)}"
        )
    return request_id


def check_account_id(account_id: str) -> str:
    if not isinstance(account_id, str) or TOKEN_RE.fullmatch(account_id) is None:
        raise no_such_account(account_id)
    return account_id


@dataclass
class DurablePull:
    """A durable pull consumer of a work-queue stream, as this process binds it: explicit
    acknowledgement, redelivered without limit, at most ``max_ack_pending`` unacknowledged.
    :meth:`NatsConnection._pull_next` binds it on first use, and again after a failed fetch or
    for another acknowledgement wait."""

    stream: str
    durable: str
    max_ack_pending: int
    subscription: Any = None
    ack_wait_s: float = 0.0


class NatsConnection:
    """The connection and round trips the NATS store's parts share. The state of every part
    (ledger heads, limiter entries, key watches) is set up here, once."""

    def __init__(
        self,
        *,
        prefix: str = DEFAULT_PREFIX,
        request_timeout_s: float = 1.0,
        duplicate_window_s: float = DEFAULT_DUPLICATE_WINDOW_S,
        replicas: int = 1,
    ):
        """Prepare a store (not yet connected: :func:`open_nats_store` connects it).

        ``prefix`` names the stream and buckets, so several stores can share one server;
        ``request_timeout_s`` bounds each round trip in seconds; ``duplicate_window_s`` is the
        ledger's de-duplication window in seconds; ``replicas`` the replication factor.
        """
        if not isinstance(prefix, str) or _PREFIX_RE.fullmatch(prefix) is None:
            raise ValueError(f"prefix must be a letter then up to 31 of [A-Za-z0-9_-], got {prefix!r}")
        self.prefix = prefix
        self._timeout_s = request_timeout_s
        self._duplicate_window_s = duplicate_window_s
        self._replicas = replicas
        self._ledger_stream = f"{prefix}_LEDGER"
        self._ledger_prefix = f"{prefix.lower()}.ledger."
        self._nc: nats.NATS | None = None
        self._js: Any = None
        self._accounts: KeyValue | None = None
        self._keys: KeyValue | None = None
        self._limits: KeyValue | None = None
        self._closed = False
        #: This store's name on the concurrency slots it holds and on its heartbeat, new for
        #: each store opened (each gateway process): ``nats_heartbeats.py``.
        self.holder_id = "h" + secrets.token_hex(8)
        # Guesses of each account's ledger head (nats_ledger._Head) and limiter entry
        # (nats_limiter._Limits): the server's compare-and-set checks them on every write, and
        # a refused write reads the truth.
        self._heads: dict[str, Any] = {}
        self._limit_cache: dict[str, Any] = {}
        # Each account's slots whose release waits for its limiter lock: the next write of the
        # entry drops them all (nats_limiter.NatsLimiter.release).
        self._releasing: dict[str, set[str]] = {}
        # One writer per account and process: this process never races itself.
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        # This process's recent debits: request id -> (account id, credits, time.monotonic() s).
        self._own_debits: dict[str, tuple[str, int, float]] = {}
        # The 80 % warnings of spend caps this process's debits were the first to reach
        # (store/spend_caps.py), until take_spend_warnings hands them over.
        self._spend_warnings: list = []
        self._restorers: set[asyncio.Task] = set()
        self._watches: set[Any] = set()  # nats_keys._Watch, one per key_changes iterator
        self._watch_setups: set[asyncio.Task] = set()

    # --- connection ---------------------------------------------------------------------------

    async def _connect(self, url: str, connect_timeout_s: float, reconnect_wait_s: float, name: str | None) -> None:
        nc = nats.NATS()
        # max_reconnect_attempts=-1 also makes the first connect retry forever, so the wait
        # below is what bounds it. asyncio.wait, not wait_for: Python 3.11's wait_for can lose
        # its cancellation when it races the client's own per-attempt wait_for, and then
        # waits on the retry loop for ever; closing the client is what ends that loop.
        connecting = asyncio.ensure_future(
            nc.connect(
                servers=[url],
                name=name or f"celestial-store-{self.prefix}",
                allow_reconnect=True,
                max_reconnect_attempts=-1,
                reconnect_time_wait=reconnect_wait_s,
                connect_timeout=max(0.1, min(connect_timeout_s, 2.0)),
                # No buffering while disconnected: a call fails at once instead of being
                # sent, maybe long after its caller gave up, when the connection returns.
                pending_size=0,
                ping_interval=5,
                max_outstanding_pings=2,
                error_cb=self._on_error,
                disconnected_cb=self._on_disconnected,
                reconnected_cb=self._on_reconnected,
            )
        )
        done, _ = await asyncio.wait({connecting}, timeout=connect_timeout_s)
        failure = None if not done else connecting.exception()
        if done and failure is None:
            self._nc = nc
            self._js = nc.jetstream(timeout=self._timeout_s)
            return
        connecting.cancel()
        try:
            await asyncio.wait_for(nc.close(), connect_timeout_s)
        except Exception:  # a half-open client may fail to close: there is nothing to keep
            pass
        await asyncio.wait({connecting}, timeout=connect_timeout_s)
        raise StoreUnavailable(f"cannot reach NATS at {url} within {connect_timeout_s} s") from failure

    async def _on_error(self, error: Exception) -> None:
        log.debug("nats_error", error=repr(error))  # every failed reconnect attempt lands here

    async def _on_disconnected(self) -> None:
        if not self._closed:
            log.warning("nats_disconnected", prefix=self.prefix)

    async def _on_reconnected(self) -> None:
        log.info("nats_reconnected", prefix=self.prefix)
        for watch in list(self._watches):
            watch.queue.put_nowait(RECONNECTED)
        # Not awaited here: nats-py awaits this callback inside its reconnection procedure.
        task = asyncio.get_running_loop().create_task(self._restore_layout())
        self._restorers.add(task)
        task.add_done_callback(self._restorers.discard)

    async def _restore_layout(self) -> None:
        while not self._closed:
            try:
                await self._ensure_layout()
                return
            except StoreError as error:  # JetStream may still be starting: try again shortly
                log.warning("nats_layout_not_restored", error=type(error).__name__)
                await asyncio.sleep(0.25)

    async def _ensure_layout(self) -> None:
        """Create the ledger stream and the three buckets unless they exist (idempotent)."""
        ledger = api.StreamConfig(
            name=self._ledger_stream,
            subjects=[self._ledger_prefix + "*"],
            storage=api.StorageType.FILE,
            retention=api.RetentionPolicy.LIMITS,
            duplicate_window=self._duplicate_window_s,
            allow_direct=True,
            deny_delete=True,
            deny_purge=True,
            num_replicas=self._replicas,
        )
        await self._call(self._add_or_update_stream(ledger))
        js = self._nc.jetstream(timeout=max(self._timeout_s, 2.0))
        buckets = []
        for suffix in ("ACCOUNTS", "KEYS", "LIMITS"):
            config = api.KeyValueConfig(
                bucket=f"{self.prefix}_{suffix}",
                history=1,
                storage=api.StorageType.FILE,
                replicas=self._replicas,
                direct=True,
            )
            await self._call(js.create_key_value(config))
            buckets.append(await self._call(self._js.key_value(config.bucket)))
        self._accounts, self._keys, self._limits = buckets

    async def _add_or_update_stream(self, config: api.StreamConfig) -> None:
        jsm = self._nc.jsm(timeout=max(self._timeout_s, 2.0))
        try:
            await jsm.add_stream(config)
        except nats.js.errors.APIError as exc:
            if exc.err_code != STREAM_CONFIG_DIFFERS:
                raise
            await jsm.update_stream(config)  # made by an older version: bring it to this one

    async def close(self) -> None:
        """Close the connection and end every ``key_changes`` iterator; the store is unusable afterwards."""
        if self._closed:
            return
        self._closed = True
        for watch in list(self._watches):
            watch.queue.put_nowait(CLOSED)
        for task in list(self._watch_setups) + list(self._restorers):
            task.cancel()
        if self._nc is not None:
            try:
                await self._nc.close()
            except Exception as exc:  # closing a broken connection: nothing is left to release
                log.debug("nats_close_failed", error=repr(exc))

    # --- round trips -----------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed or self._nc is None:
            raise StoreError("the store is closed")
        if not self._nc.is_connected:
            raise StoreUnavailable("the NATS server is unreachable (reconnecting)")

    async def _pull_next(self, consumer: DurablePull, wait_s: float, ack_wait_s: float) -> Msg | None:
        """Return ``consumer``'s next message (unacknowledged for ``ack_wait_s`` seconds, it goes
        to another process), waiting up to ``wait_s`` seconds; None when none came."""
        if consumer.subscription is None or consumer.ack_wait_s != ack_wait_s:
            config = api.ConsumerConfig(
                durable_name=consumer.durable,
                ack_policy=api.AckPolicy.EXPLICIT,
                ack_wait=ack_wait_s,
                max_deliver=-1,
                max_ack_pending=consumer.max_ack_pending,
            )
            jsm = self._nc.jsm(timeout=max(self._timeout_s, 2.0))
            try:
                await self._call(jsm.add_consumer(consumer.stream, config))
            except StoreError:
                # Made with another ack_wait: the last process started sets it (every process
                # of a deployment runs with one setting).
                await self._call(jsm.update_consumer(consumer.stream, config))
            consumer.subscription = await self._call(
                self._js.pull_subscribe_bind(consumer.durable, stream=consumer.stream)
            )
            consumer.ack_wait_s = ack_wait_s
        self._check_open()
        try:
            # Not through _call: a fetch that times out found nothing, it lost no answer.
            (message,) = await consumer.subscription.fetch(1, timeout=wait_s)
        except (nats.errors.TimeoutError, TimeoutError):
            return None
        except Exception:
            consumer.subscription = None  # bound again on the next call (after a reconnection)
            raise
        return message

    async def _call(self, awaitable: Awaitable) -> Any:
        """Return the result of one nats-py call, its transport and server failures mapped to
        store errors. Outcomes the caller decides on (not found, a refused compare-and-set)
        come back as nats-py's NotFoundError and as WrongLastSequence."""
        try:
            self._check_open()
        except BaseException:
            awaitable.close()
            raise
        try:
            return await awaitable
        except nats.js.errors.NotFoundError:
            raise
        except nats.js.errors.KeyWrongLastSequenceError as exc:
            raise WrongLastSequence(exc.description) from exc
        except nats.js.errors.APIError as exc:
            if exc.err_code in _WRONG_LAST_SEQUENCE:
                raise WrongLastSequence(exc.description) from exc
            if str(exc.code) in ("503", "408"):  # JetStream not ready, or timed out inside the server
                raise StoreUnavailable(f"JetStream unavailable: {exc.description}") from exc
            raise StoreError(f"JetStream error {exc.code}/{exc.err_code}: {exc.description}") from exc
        except _NOT_SENT as exc:
            raise StoreUnavailable(f"NATS request not sent: {type(exc).__name__}") from exc
        except _NO_ANSWER as exc:
            raise StoreOutcomeUnknown(f"no answer from NATS within {self._timeout_s} s ({type(exc).__name__})") from exc

    async def _listing(self, bucket: KeyValue, subject: str) -> dict[str, bytes]:
        """Return the value of every live key of ``bucket`` matching ``subject``, by key.

        A KV watch hands over the entries as they are now, then None. That None can come first
        (nats-py puts it when the consumer's info shows nothing pending and none is counted yet,
        though the server may have sent them all: a listing of 300 came back empty about once
        in 100), so the entries are counted, deletions included, until as many came as the
        consumer delivered."""
        watcher = await self._call(bucket.watch(subject))
        found: dict[str, bytes] = {}
        received = 0
        try:
            while True:
                entry = await self._call(watcher.updates(timeout=self._timeout_s * 2))
                if entry is None:
                    info = await self._call(watcher._sub.consumer_info())
                    if received >= info.delivered.consumer_seq + info.num_pending:
                        break
                    continue
                received += 1
                if entry.operation is None and entry.value:
                    found[entry.key] = entry.value
                else:
                    found.pop(entry.key, None)
                if entry.delta == 0:
                    break
        finally:
            try:
                await watcher.stop()
            except Exception:  # the consumer goes with a broken connection anyway
                pass
        return found

    async def _get(self, bucket: KeyValue, key: str) -> tuple[int, bytes] | None:
        """Return (revision, value) of ``key``; None if absent or deleted."""
        try:
            entry = await self._call(bucket.get(key))
        except nats.js.errors.NotFoundError:
            return None
        return entry.revision, entry.value

    async def _get_json(self, bucket: KeyValue, key: str) -> tuple[int, dict] | None:
        got = await self._get(bucket, key)
        return None if got is None else (got[0], orjson.loads(got[1]))

    async def _create(self, bucket: KeyValue, key: str, value: bytes) -> bool:
        """Return whether ``key`` was created; False if it exists already."""
        try:
            await self._call(bucket.create(key, value))
        except WrongLastSequence:
            return False
        return True

    async def _scan(self, stream: str, subject: str, each: Callable[[Msg], None], since_s: float | None = None) -> None:
        """Call ``each`` on every message of ``stream`` on ``subject`` (from ``since_s``, Unix
        seconds of the server's clock, or from the start), in order, as the stream was when the
        scan began, through an ephemeral pull consumer deleted afterwards."""
        self._check_open()
        config = api.ConsumerConfig(
            ack_policy=api.AckPolicy.NONE,
            mem_storage=True,
            num_replicas=1,
            inactive_threshold=30.0,
            deliver_policy=api.DeliverPolicy.ALL if since_s is None else api.DeliverPolicy.BY_START_TIME,
            opt_start_time=None if since_s is None else datetime.fromtimestamp(max(0.0, since_s), UTC),
        )
        subscription = await self._call(self._js.pull_subscribe(subject, stream=stream, config=config))
        try:
            remaining = (await self._call(subscription.consumer_info())).num_pending
            while remaining > 0:
                messages = await self._call(
                    subscription.fetch(min(remaining, _SCAN_BATCH), timeout=self._timeout_s * 2)
                )
                for message in messages:
                    each(message)
                remaining -= len(messages)
        finally:
            try:
                await subscription.unsubscribe()
                await self._nc.jsm().delete_consumer(stream, config.name)
            except Exception:  # inactive_threshold removes it anyway
                pass

    def _lock(self, kind: str, account_id: str) -> asyncio.Lock:
        return self._locks.setdefault((kind, account_id), asyncio.Lock())
