"""The shared key and credit store on NATS JetStream: every gateway process talks to one server.

The design (ledger under compare-and-set, the limiter in a key-value entry, how any process
refunds any request) is in the README's "Design notes: the NATS store"; the layout is below.
``P`` is the ``prefix`` option (``CELESTIAL`` in production).

- Stream ``P_LEDGER``: one subject per account, ``p.ledger.<account_id>``; each message one
  entry ``{kind, request_id, credits, balance_after, at_s}`` (``kind`` debit, refund or
  topup), published with ``Nats-Msg-Id: <kind>:<request_id>`` and
  ``Nats-Expected-Last-Subject-Sequence``. The balance is the last entry's ``balance_after``.
- Bucket ``P_LIMITS``: ``<account_id>`` -> ``{window_start_s, admitted, slots: {slot_id:
  [lease end in Unix seconds, request id charged under it or null, its credits]}}``.
- Bucket ``P_ACCOUNTS``: ``id.<account_id>`` -> the account record; ``name.<sha256 of the
  folded name>`` -> account id (created with ``create``: names are unique); ``topup.<sha256 of
  request id>`` -> ``{account_id, credits}`` of an invoice top-up, so retrying it is harmless
  after the de-duplication window too.
- Bucket ``P_KEYS``: ``hash.<sha256>`` -> the key record; ``id.<key_id>`` and
  ``acct.<account_id>.<key_id>`` -> the hash (indexes, written before the record).
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import string
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, AsyncIterator, Awaitable, Callable, Iterable

import nats
import nats.errors
import nats.js.errors
import orjson
import structlog
from nats.aio.msg import Msg
from nats.js import api
from nats.js.kv import KeyValue

from gateway.store import rules
from gateway.store.interfaces import (
    Account,
    AccountExists,
    Admission,
    AdmittedCharge,
    KeyNotActive,
    KeyRecord,
    LedgerConflict,
    StoreError,
    StoreOutcomeUnknown,
    StoreUnavailable,
    Usage,
    admit_then_reserve,
    check_balance_ceiling,
    generate_key,
    hash_key,
    new_account_id,
    new_key_id,
    no_such_account,
    no_such_key,
    prefix_hint,
    quoted,
    require_aware,
    require_credits,
    require_future_expiry,
    validate_limits,
    validate_new_account,
    validate_origins,
)

log = structlog.get_logger("celestial.store")

#: Default prefix of stream and bucket names; the ledger subjects use it in lowercase.
DEFAULT_PREFIX = "CELESTIAL"
#: How far back the ledger is de-duplicated by request id, in seconds: a retried debit or
#: refund within it is recognised by any process; a refund by a process that did not charge
#: the request looks for the debit this far back.
DEFAULT_DUPLICATE_WINDOW_S = 3600.0
#: How long a process remembers the ledger sequence of its own debits, in seconds, so that
#: refunding one reads one entry instead of scanning the account's ledger. Longer than any
#: request's deadline; a later refund scans, as another process's would.
OWN_DEBITS_REMEMBERED_S = 600.0
#: How long a usage scan starts before ``since``, in seconds, so that entries written by a
#: gateway whose clock runs ahead of the server's are still found (then filtered on ``at_s``).
USAGE_CLOCK_MARGIN_S = 300.0

_PREFIX_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")
# Account and key ids become subject tokens: nothing that could be a wildcard or separator.
_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
_HASH_RE = re.compile(r"[0-9a-f]{64}")
# A request id becomes a header value: printable, no whitespace, bounded.
_REQUEST_ID_RE = re.compile(r"[\x21-\x7e]{1,200}")
_ASCII_FOLD = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
# JetStream error codes: 10071 "wrong last sequence" (10164 its constant form on newer
# servers); 10058 "stream name already in use with a different configuration".
_WRONG_LAST_SEQUENCE = (10071, 10164)
_STREAM_CONFIG_DIFFERS = 10058
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
_CLOSED = object()
_RECONNECTED = object()


class _WrongLastSequence(Exception):
    """The subject's last sequence was not the one expected: another writer came first."""


@dataclass(frozen=True)
class _Head:
    """The last ledger entry of an account: its stream sequence and the balance after it."""

    seq: int
    balance: int


@dataclass(frozen=True)
class _Limits:
    """An account's limiter entry: its revision (0: none yet), rate window and slots held
    (slot id -> lease end, Unix seconds)."""

    revision: int
    window: rules.Window | None
    slots: dict[str, float]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _fold(name: str) -> str:
    """Return ``name`` with ASCII letters lowercased: the case-insensitivity SQLite's NOCASE has."""
    return name.translate(_ASCII_FOLD)


def _from_s(seconds: float | None) -> datetime | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC)


def _to_s(moment: datetime | None) -> float | None:
    return None if moment is None else moment.timestamp()


def _account(doc: dict, balance: int) -> Account:
    return Account(
        id=doc["id"],
        name=doc["name"],
        balance=balance,
        rate_per_minute=doc["rate_per_minute"],
        max_concurrent=doc["max_concurrent"],
        created_at=_from_s(doc["created_at_s"]),
    )


def _key_record(doc: dict) -> KeyRecord:
    return KeyRecord(
        key_id=doc["key_id"],
        account_id=doc["account_id"],
        key_hash=doc["key_hash"],
        prefix_hint=doc["prefix_hint"],
        created_at=_from_s(doc["created_at_s"]),
        expires_at=_from_s(doc["expires_at_s"]),
        revoked_at=_from_s(doc["revoked_at_s"]),
        allowed_origins=tuple(doc["allowed_origins"]),
        browser_only=doc["browser_only"],
    )


def _check_request_id(request_id: str) -> str:
    if not isinstance(request_id, str) or _REQUEST_ID_RE.fullmatch(request_id) is None:
        raise ValueError(f"request_id must be 1-200 printable ASCII characters without spaces, got {quoted(request_id)}")
    return request_id


def _check_account_id(account_id: str) -> str:
    if not isinstance(account_id, str) or _TOKEN_RE.fullmatch(account_id) is None:
        raise no_such_account(account_id)
    return account_id


class NatsStore:
    """The key and credit store on NATS JetStream, shared by every gateway.

    Open it with :func:`open_nats_store`. One store serves one event loop.
    """

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
        # Guesses of each account's ledger head and limiter entry: the server's compare-and-set
        # checks them on every write, and a refused write reads the truth.
        self._heads: dict[str, _Head] = {}
        self._limit_cache: dict[str, _Limits] = {}
        # One writer per account and process: this process never races itself.
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        # This process's recent debits: request id -> (account id, credits, time.monotonic() s).
        self._own_debits: dict[str, tuple[str, int, float]] = {}
        self._restorers: set[asyncio.Task] = set()
        self._watches: set[_Watch] = set()
        self._watch_setups: set[asyncio.Task] = set()

    # --- connection ---------------------------------------------------------------------------

    async def _connect(self, url: str, connect_timeout_s: float, reconnect_wait_s: float, name: str | None) -> None:
        nc = nats.NATS()
        try:
            # max_reconnect_attempts=-1 also makes the first connect retry forever: the
            # wait_for is what bounds it.
            await asyncio.wait_for(
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
                ),
                connect_timeout_s,
            )
        except (asyncio.TimeoutError, OSError, nats.errors.Error) as exc:
            try:
                await nc.close()
            except Exception:  # a half-open client may fail to close: there is nothing to keep
                pass
            raise StoreUnavailable(f"cannot reach NATS at {url} within {connect_timeout_s} s") from exc
        self._nc = nc
        self._js = nc.jetstream(timeout=self._timeout_s)

    async def _on_error(self, error: Exception) -> None:
        log.debug("nats_error", error=repr(error))  # every failed reconnect attempt lands here

    async def _on_disconnected(self) -> None:
        if not self._closed:
            log.warning("nats_disconnected", prefix=self.prefix)

    async def _on_reconnected(self) -> None:
        log.info("nats_reconnected", prefix=self.prefix)
        for watch in list(self._watches):
            watch.queue.put_nowait(_RECONNECTED)
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
                bucket=f"{self.prefix}_{suffix}", history=1, storage=api.StorageType.FILE,
                replicas=self._replicas, direct=True,
            )
            await self._call(js.create_key_value(config))
            buckets.append(await self._call(self._js.key_value(config.bucket)))
        self._accounts, self._keys, self._limits = buckets

    async def _add_or_update_stream(self, config: api.StreamConfig) -> None:
        jsm = self._nc.jsm(timeout=max(self._timeout_s, 2.0))
        try:
            await jsm.add_stream(config)
        except nats.js.errors.APIError as exc:
            if exc.err_code != _STREAM_CONFIG_DIFFERS:
                raise
            await jsm.update_stream(config)  # made by an older version: bring it to this one

    async def close(self) -> None:
        """Close the connection and end every ``key_changes`` iterator; the store is unusable afterwards."""
        if self._closed:
            return
        self._closed = True
        for watch in list(self._watches):
            watch.queue.put_nowait(_CLOSED)
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

    async def _call(self, awaitable: Awaitable) -> Any:
        """Return the result of one nats-py call, its transport and server failures mapped to
        store errors. Outcomes the caller decides on (not found, a refused compare-and-set)
        come back as nats-py's NotFoundError and as _WrongLastSequence."""
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
            raise _WrongLastSequence(exc.description) from exc
        except nats.js.errors.APIError as exc:
            if exc.err_code in _WRONG_LAST_SEQUENCE:
                raise _WrongLastSequence(exc.description) from exc
            if str(exc.code) in ("503", "408"):  # JetStream not ready, or timed out inside the server
                raise StoreUnavailable(f"JetStream unavailable: {exc.description}") from exc
            raise StoreError(f"JetStream error {exc.code}/{exc.err_code}: {exc.description}") from exc
        except _NOT_SENT as exc:
            raise StoreUnavailable(f"NATS request not sent: {type(exc).__name__}") from exc
        except _NO_ANSWER as exc:
            raise StoreOutcomeUnknown(f"no answer from NATS within {self._timeout_s} s ({type(exc).__name__})") from exc

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
        except _WrongLastSequence:
            return False
        return True

    async def _scan(self, stream: str, subject: str, each: Callable[[Msg], None], since_s: float | None = None) -> None:
        """Call ``each`` on every message of ``stream`` on ``subject`` (from ``since_s``, Unix
        seconds of the server's clock, or from the start), in order, as the stream was when the
        scan began, through an ephemeral pull consumer deleted afterwards."""
        self._check_open()
        config = api.ConsumerConfig(
            ack_policy=api.AckPolicy.NONE, mem_storage=True, num_replicas=1, inactive_threshold=30.0,
            deliver_policy=api.DeliverPolicy.ALL if since_s is None else api.DeliverPolicy.BY_START_TIME,
            opt_start_time=None if since_s is None else datetime.fromtimestamp(max(0.0, since_s), UTC),
        )
        subscription = await self._call(self._js.pull_subscribe(subject, stream=stream, config=config))
        try:
            remaining = (await self._call(subscription.consumer_info())).num_pending
            while remaining > 0:
                messages = await self._call(subscription.fetch(min(remaining, _SCAN_BATCH), timeout=self._timeout_s * 2))
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

    # --- accounts ---------------------------------------------------------------------------------

    async def _find_account(self, account: str) -> tuple[int, dict] | None:
        """Return (revision, record) of the account whose id, or else name, is ``account``."""
        if not isinstance(account, str) or not account:
            return None
        if account.startswith("acct_"):  # ids always start so, names never do
            if _TOKEN_RE.fullmatch(account) is None:
                return None
            return await self._get_json(self._accounts, f"id.{account}")
        indexed = await self._get(self._accounts, f"name.{_digest(_fold(account))}")
        if indexed is None:
            return None
        return await self._get_json(self._accounts, f"id.{indexed[1].decode()}")

    async def _account_record(self, account: str) -> dict:
        found = await self._find_account(account)
        if found is None:
            raise no_such_account(account)
        return found[1]

    async def create_account(self, name: str, credits: int, rate_per_minute: int = 300, max_concurrent: int = 50) -> Account:
        """Return a new account holding ``credits``; raises AccountExists for a taken name (any case)."""
        validate_new_account(name, credits, rate_per_minute, max_concurrent)
        name_key = f"name.{_digest(_fold(name))}"
        if await self._get(self._accounts, name_key) is not None:
            raise AccountExists(f"an account named {quoted(name)} already exists")
        account_id = new_account_id()
        # The ledger first: an account record never exists without its opening entry. A
        # creation that loses the name race below leaves only that entry, on an unused subject.
        await self._append(account_id, "topup", f"open:{account_id}", credits, _Head(0, 0), reason="opening balance")
        doc = {
            "id": account_id,
            "name": name,
            "rate_per_minute": rate_per_minute,
            "max_concurrent": max_concurrent,
            "created_at_s": time.time(),
        }
        await self._call(self._accounts.create(f"id.{account_id}", orjson.dumps(doc)))
        if not await self._create(self._accounts, name_key, account_id.encode()):
            await self._call(self._accounts.delete(f"id.{account_id}"))
            raise AccountExists(f"an account named {quoted(name)} already exists")
        return _account(doc, credits)

    async def get_account(self, account: str) -> Account | None:
        """Return the account whose id, or else whose name, is ``account``; None if none."""
        if isinstance(account, str) and account.startswith("acct_") and _TOKEN_RE.fullmatch(account):
            # By id (the authentication path): record and balance asked at once, not in turn.
            found, head = await asyncio.gather(self._get_json(self._accounts, f"id.{account}"), self._read_head(account))
        else:
            found = await self._find_account(account)
            head = None if found is None else await self._read_head(found[1]["id"])
        if found is None or head is None:
            return None
        return _account(found[1], head.balance)

    async def set_limits(self, account: str, *, rate_per_minute: int | None = None, max_concurrent: int | None = None) -> Account:
        """Return the account (id or name) after changing the limits given (each >= 1).

        Every live key of the account is then reported by :meth:`key_changes` (its record is
        rewritten unchanged), since gateways cache a key together with its account's limits.
        Raises AccountNotFound, ValueError.
        """
        validate_limits(rate_per_minute, max_concurrent)
        await self._await_watch_setups()
        while True:
            found = await self._find_account(account)
            if found is None:
                raise no_such_account(account)
            revision, doc = found
            if rate_per_minute is None and max_concurrent is None:
                break
            doc = {**doc}
            if rate_per_minute is not None:
                doc["rate_per_minute"] = rate_per_minute
            if max_concurrent is not None:
                doc["max_concurrent"] = max_concurrent
            try:
                await self._call(self._accounts.update(f"id.{doc['id']}", orjson.dumps(doc), last=revision))
            except _WrongLastSequence:
                continue  # changed meanwhile: apply the change to the newer record
            await self._announce_keys_of(doc["id"])
            break
        return _account(doc, await self.balance(doc["id"]))

    async def _announce_keys_of(self, account_id: str) -> None:
        """Rewrite each live key record of the account unchanged, so followers drop their copies."""
        for key_hash in await self._key_hashes_of(account_id):
            got = await self._get(self._keys, f"hash.{key_hash}")
            if got is None or orjson.loads(got[1])["revoked_at_s"] is not None:
                continue
            try:
                await self._call(self._keys.update(f"hash.{key_hash}", got[1], last=got[0]))
            except _WrongLastSequence:
                pass  # changed meanwhile: that write was announced itself

    # --- the ledger ---------------------------------------------------------------------------------

    async def _read_head(self, account_id: str) -> _Head | None:
        """Return the account's last ledger entry (and cache it); None if the account has none."""
        if _TOKEN_RE.fullmatch(account_id or "") is None:
            return None
        try:
            message = await self._call(self._js.get_last_msg(self._ledger_stream, self._ledger_prefix + account_id, direct=True))
        except nats.js.errors.NotFoundError:
            self._heads.pop(account_id, None)
            return None
        head = self._heads[account_id] = _Head(message.seq, orjson.loads(message.data)["balance_after"])
        return head

    async def _head(self, account_id: str, *, fresh: bool = False) -> _Head:
        """Return the cached head (read when ``fresh`` or not cached); AccountNotFound if none."""
        head = None if fresh else self._heads.get(account_id)
        if head is None:
            head = await self._read_head(account_id)
        if head is None:
            raise no_such_account(account_id)
        return head

    async def _append(self, account_id: str, kind: str, request_id: str, delta: int, head: _Head, **extra: Any) -> tuple[int, bool]:
        """Publish one entry moving the balance by ``delta`` after ``head``; return (its
        sequence, whether the server already held an entry of this kind and request id: then
        nothing was written and the sequence is that entry's).

        Raises _WrongLastSequence when ``head`` is no longer the account's last entry.
        """
        entry = {"kind": kind, "request_id": request_id, "credits": abs(delta), "balance_after": head.balance + delta, "at_s": time.time(), **extra}
        headers = {"Nats-Msg-Id": f"{kind}:{request_id}", "Nats-Expected-Last-Subject-Sequence": str(head.seq)}
        try:
            ack = await self._call(self._js.publish(self._ledger_prefix + account_id, orjson.dumps(entry), headers=headers))
        except StoreUnavailable:
            self._heads.pop(account_id, None)
            raise
        if not ack.duplicate:
            self._heads[account_id] = _Head(ack.seq, entry["balance_after"])
        return ack.seq, ack.duplicate

    async def _write(self, account_id: str, kind: str, request_id: str, delta: int, check: Callable[[_Head], None] | None = None, **extra: Any) -> tuple[int, bool]:
        """Return what :meth:`_append` returns, retrying on a newer head until the write is
        decided; ``check(head)`` raises (writing nothing) when the entry may not follow ``head``."""
        head, fresh = self._heads.get(account_id), False
        if head is None:
            head, fresh = await self._head(account_id, fresh=True), True
        while True:
            if check is not None:
                try:
                    check(head)
                except Exception:
                    if fresh:
                        raise
                    head, fresh = await self._head(account_id, fresh=True), True  # the cache may be behind
                    continue
            try:
                return await self._append(account_id, kind, request_id, delta, head, **extra)
            except _WrongLastSequence:
                head, fresh = await self._head(account_id, fresh=True), True

    async def _entry_at(self, seq: int) -> tuple[str, dict]:
        """Return (account id, entry) of the ledger entry at ``seq``."""
        message = await self._call(self._js.get_msg(self._ledger_stream, seq=seq, direct=True))
        return message.subject[len(self._ledger_prefix):], orjson.loads(message.data)

    async def reserve(self, account_id: str, credits: int, request_id: str) -> int:
        """Return the balance after debiting ``credits``; InsufficientCredits (nothing written)
        when the balance cannot cover them.

        A retry with the same ``request_id`` within the de-duplication window, from any
        process, charges nothing and returns the current balance (LedgerConflict when it was
        for another account or amount).
        """
        require_credits(credits)
        _check_request_id(request_id)
        _check_account_id(account_id)
        async with self._lock("ledger", account_id):
            own = self._own_debit(request_id)
            if own is not None:  # a retry of this process's own debit
                if own[:2] != (account_id, credits):
                    raise LedgerConflict(f"request {quoted(request_id)} already has a debit on other terms")
                return (await self._head(account_id, fresh=True)).balance
            seq, duplicate = await self._write(
                account_id, "debit", request_id, -credits, lambda head: rules.charge(head.balance, credits)
            )
            if duplicate:
                charged_to, entry = await self._entry_at(seq)
                if charged_to != account_id or entry["kind"] != "debit" or entry["credits"] != credits:
                    raise LedgerConflict(f"request {quoted(request_id)} already has a debit on other terms")
                return (await self._head(account_id, fresh=True)).balance
            self._remember_debit(request_id, account_id, credits)
            return self._heads[account_id].balance

    def _remember_debit(self, request_id: str, account_id: str, credits: int) -> None:
        now = time.monotonic()
        if len(self._own_debits) > 1000:
            self._own_debits = {rid: kept for rid, kept in self._own_debits.items() if now - kept[2] < OWN_DEBITS_REMEMBERED_S}
        self._own_debits[request_id] = (account_id, credits, now)

    def _own_debit(self, request_id: str) -> tuple[str, int, float] | None:
        """Return (account id, credits, when) of this process's recent debit of ``request_id``."""
        own = self._own_debits.get(request_id)
        return own if own is not None and time.monotonic() - own[2] < OWN_DEBITS_REMEMBERED_S else None

    async def refund(self, account_id: str, credits: int, request_id: str) -> int:
        """Return the balance after giving back ``credits`` of the debit of ``request_id``, once.

        Any process can refund any request debited within the de-duplication window; a
        request with no debit found gets nothing (a refund never mints credits). Raises
        ValueError when ``credits`` exceeds the debit, LedgerConflict when the debit was
        another account's, AccountNotFound.
        """
        require_credits(credits)
        _check_request_id(request_id)
        _check_account_id(account_id)
        # Looked up before taking the account's lock: a lookup that reads the ledger must not
        # hold up the account's debits. A refund written meanwhile by another process has the
        # same message id, so the server's de-duplication keeps it to one.
        charged, refunded = await self._find_debit(account_id, request_id)
        due = rules.refund_due(charged, refunded, credits, request_id)
        async with self._lock("ledger", account_id):
            duplicate = True
            if due:
                _, duplicate = await self._write(account_id, "refund", request_id, due)
            return (await self._head(account_id, fresh=duplicate)).balance

    async def _find_debit(self, account_id: str, request_id: str) -> tuple[int | None, bool]:
        """Return (credits debited for ``request_id`` on the account, or None; whether a refund
        of it is already known). This process knows its own recent debits (a refund written
        since is then caught by the ledger's de-duplication); any other is looked for in the
        account's ledger over the de-duplication window."""
        own = self._own_debit(request_id)
        if own is not None:
            if own[0] != account_id:
                raise LedgerConflict(f"request {quoted(request_id)} was charged to another account")
            return own[1], False
        await self._head(account_id)
        found: dict[str, int] = {}

        def look(message: Msg) -> None:
            entry = orjson.loads(message.data)
            if entry["request_id"] == request_id:
                found[entry["kind"]] = entry["credits"]

        await self._scan(self._ledger_stream, self._ledger_prefix + account_id, look, time.time() - self._duplicate_window_s)
        return found.get("debit"), "refund" in found

    async def top_up(self, account: str, credits: int, *, request_id: str | None = None, reason: str = "top-up") -> int:
        """Return the balance after adding ``credits`` to the account (id or name).

        Idempotent per ``request_id`` at any distance in time (an index entry backs the
        de-duplication window); LedgerConflict when the id was used on other terms;
        BalanceCeiling past MAX_BALANCE.
        """
        require_credits(credits)
        explicit = request_id is not None
        request_id = _check_request_id(request_id) if explicit else f"topup:{uuid.uuid4()}"
        account_id = (await self._account_record(account))["id"]
        index_key = f"topup.{_digest(request_id)}"
        async with self._lock("ledger", account_id):
            if explicit:
                found = await self._get_json(self._accounts, index_key)
                if found is not None:
                    if (found[1]["account_id"], found[1]["credits"]) != (account_id, credits):
                        raise LedgerConflict(f"request {quoted(request_id)} already has a topup on other terms")
                    return (await self._head(account_id, fresh=True)).balance
            seq, duplicate = await self._write(
                account_id, "topup", request_id, credits,
                lambda head: check_balance_ceiling(account_id, head.balance, credits), reason=reason,
            )
            if duplicate:
                topped_up, entry = await self._entry_at(seq)
                if topped_up != account_id or entry["credits"] != credits:
                    raise LedgerConflict(f"request {quoted(request_id)} already has a topup on other terms")
            if explicit:
                await self._create(self._accounts, index_key, orjson.dumps({"account_id": account_id, "credits": credits}))
            return (await self._head(account_id, fresh=duplicate)).balance

    async def balance(self, account_id: str) -> int:
        """Return the account's balance in credits (always read from the server). Raises AccountNotFound."""
        return (await self._head(account_id, fresh=True)).balance

    async def usage(self, account_id: str, since: datetime | None = None) -> Usage:
        """Return ledger totals for the account from ``since`` (inclusive, on the writers' clocks).

        Reads the account's entries since then (its whole ledger when ``since`` is None), one
        batch at a time. Raises AccountNotFound.
        """
        since = require_aware(since, "since")
        await self._head(account_id, fresh=True)
        totals = {"debit": [0, 0], "refund": [0, 0], "topup": [0, 0]}
        since_s = None if since is None else since.timestamp()

        def count(message: Msg) -> None:
            entry = orjson.loads(message.data)
            if since_s is None or entry["at_s"] >= since_s:
                total = totals[entry["kind"]]
                total[0] += 1
                total[1] += entry["credits"]

        start_s = None if since_s is None else since_s - USAGE_CLOCK_MARGIN_S
        await self._scan(self._ledger_stream, self._ledger_prefix + account_id, count, start_s)
        return Usage(
            account_id=account_id,
            since=since,
            requests=totals["debit"][0],
            refunds=totals["refund"][0],
            credits_debited=totals["debit"][1],
            credits_refunded=totals["refund"][1],
            credits_topped_up=totals["topup"][1],
        )

    # --- the limiter ----------------------------------------------------------------------------

    async def _read_limits(self, account_id: str) -> _Limits:
        got = await self._get_json(self._limits, account_id)
        if got is None:
            limits = _Limits(0, None, {})
        else:
            window = None if got[1]["window_start_s"] is None else rules.Window(got[1]["window_start_s"], got[1]["admitted"])
            limits = _Limits(got[0], window, {slot_id: rules.Slot(*fields) for slot_id, fields in got[1]["slots"].items()})
        self._limit_cache[account_id] = limits
        return limits

    async def _write_limits(self, account_id: str, limits: _Limits) -> None:
        """Store ``limits`` over the entry at ``limits.revision``; _WrongLastSequence if it moved."""
        doc = {
            "window_start_s": None if limits.window is None else limits.window.start_s,
            "admitted": 0 if limits.window is None else limits.window.admitted,
            "slots": {slot_id: [slot.expires_s, slot.charge_id, slot.credits] for slot_id, slot in limits.slots.items()},
        }
        try:
            revision = await self._call(self._limits.update(account_id, orjson.dumps(doc), last=limits.revision))
        except (_WrongLastSequence, StoreUnavailable):
            self._limit_cache.pop(account_id, None)
            raise
        self._limit_cache[account_id] = _Limits(revision, limits.window, limits.slots)

    async def admit(
        self, account: Account, slot_id: str, now_s: float | None = None, *, charge: tuple[str, int] | None = None
    ) -> Admission:
        """Return the admission of one request of ``account`` at ``now_s`` (Unix seconds),
        holding the concurrency slot ``slot_id`` (for SLOT_LEASE_S at most, with ``charge``)
        when allowed; the charges of lapsed slots are refunded before the entry that drops them
        is written, so a failure in between leaves them to the next admission.

        A refusal counts nothing and holds nothing, and is decided on a fresh read.
        """
        now_s = time.time() if now_s is None else now_s
        account_id = _check_account_id(account.id)
        async with self._lock("limits", account_id):
            limits = self._limit_cache.get(account_id)
            fresh = limits is None
            if fresh:
                limits = await self._read_limits(account_id)
            while True:
                live = rules.live_slots(limits.slots, now_s)
                admission, window = rules.admit(limits.window, len(live), account.rate_per_minute, account.max_concurrent, now_s)
                if window is None and not fresh:
                    limits, fresh = await self._read_limits(account_id), True  # the cache may be behind
                    continue
                if window is None:
                    return admission
                for charge_id, credits in rules.lapsed_charges(limits.slots, now_s):
                    await self.refund(account_id, credits, charge_id)
                try:
                    await self._write_limits(account_id, _Limits(limits.revision, window, rules.hold(live, slot_id, now_s, charge)))
                except _WrongLastSequence:
                    limits, fresh = await self._read_limits(account_id), True
                    continue
                return admission

    async def release(self, account_id: str, slot_id: str) -> None:
        """Free the concurrency slot ``slot_id`` of the account; an unknown or freed slot is a no-op."""
        _check_account_id(account_id)
        async with self._lock("limits", account_id):
            limits = self._limit_cache.get(account_id)
            if limits is None or slot_id not in limits.slots:
                limits = await self._read_limits(account_id)
            while slot_id in limits.slots:
                slots = rules.release(limits.slots, slot_id)
                try:
                    await self._write_limits(account_id, _Limits(limits.revision, limits.window, slots))
                    return
                except _WrongLastSequence:
                    limits = await self._read_limits(account_id)

    async def admit_and_reserve(self, account: Account, slot_id: str, credits: int, request_id: str, now_s: float | None = None) -> AdmittedCharge:
        """Return the admission and, when allowed, the charge (two writes: the limiter's, then the ledger's)."""
        return await admit_then_reserve(self, account, slot_id, credits, request_id, now_s)

    # --- keys -------------------------------------------------------------------------------------

    async def create_key(
        self, account: str, *, expires_at: datetime | None = None, allowed_origins: Iterable[str] = (), browser_only: bool = False
    ) -> tuple[str, KeyRecord]:
        """Return ``(plain_key, record)``; only the key's SHA-256 hash reaches the server."""
        expires_at = require_future_expiry(expires_at)
        origins = validate_origins(allowed_origins)
        await self._await_watch_setups()
        account_id = (await self._account_record(account))["id"]
        plain, key_id = generate_key(), new_key_id()
        key_hash = hash_key(plain)
        doc = {
            "key_id": key_id,
            "account_id": account_id,
            "key_hash": key_hash,
            "prefix_hint": prefix_hint(plain),
            "created_at_s": time.time(),
            "expires_at_s": _to_s(expires_at),
            "revoked_at_s": None,
            "allowed_origins": list(origins),
            "browser_only": bool(browser_only),
        }
        # Indexes before the record: a crash halfway leaves indexes to nothing, never a key
        # that works but cannot be found and revoked.
        await self._call(self._keys.create(f"id.{key_id}", key_hash.encode()))
        await self._call(self._keys.create(f"acct.{account_id}.{key_id}", key_hash.encode()))
        await self._call(self._keys.create(f"hash.{key_hash}", orjson.dumps(doc)))
        return plain, _key_record(doc)

    async def find_key_by_hash(self, key_hash: str) -> KeyRecord | None:
        """Return the key whose SHA-256 hex digest is ``key_hash``, in any state; None if none."""
        if not isinstance(key_hash, str) or _HASH_RE.fullmatch(key_hash) is None:
            return None  # never send anything else (a plain key, say) to the server
        found = await self._get_json(self._keys, f"hash.{key_hash}")
        return None if found is None else _key_record(found[1])

    async def _key_doc(self, key_id: str) -> tuple[int, dict] | None:
        if not isinstance(key_id, str) or _TOKEN_RE.fullmatch(key_id) is None:
            return None
        indexed = await self._get(self._keys, f"id.{key_id}")
        return None if indexed is None else await self._get_json(self._keys, f"hash.{indexed[1].decode()}")

    async def get_key(self, key_id: str) -> KeyRecord | None:
        """Return the key with id ``key_id``; None if none."""
        found = await self._key_doc(key_id)
        return None if found is None else _key_record(found[1])

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
                return _key_record(doc)
            try:
                await self._call(self._keys.update(f"hash.{doc['key_hash']}", orjson.dumps(changed), last=revision))
            except _WrongLastSequence:
                continue
            return _key_record(changed)

    async def revoke_key(self, key_id: str) -> KeyRecord:
        """Return the key after revoking it (revoking twice keeps the first time). Raises KeyNotFound."""
        now_s = time.time()
        return await self._change_key(key_id, lambda doc: None if doc["revoked_at_s"] is not None else {**doc, "revoked_at_s": now_s})

    async def update_origins(self, key_id: str, origins: Iterable[str], browser_only: bool | None = None) -> KeyRecord:
        """Return the active key with its allowed origins replaced (and browser_only when given).
        Raises KeyNotFound, KeyNotActive, ValueError for an origin that can never match."""
        checked = list(validate_origins(origins))

        def update(doc: dict) -> dict:
            state = _key_record(doc).state()
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
        records = [_key_record(doc) for _, doc in filter(None, found)]
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
            queue.put_nowait(msg.subject[len(keys_subject):])

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
                if item is _CLOSED:
                    return
                if item is _RECONNECTED:
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


async def open_nats_store(
    url: str,
    *,
    prefix: str = DEFAULT_PREFIX,
    request_timeout_s: float = 1.0,
    connect_timeout_s: float = 2.0,
    reconnect_wait_s: float = 0.25,
    duplicate_window_s: float = DEFAULT_DUPLICATE_WINDOW_S,
    replicas: int = 1,
    name: str | None = None,
) -> NatsStore:
    """Return a connected NatsStore on the server at ``url``, its stream and buckets created if missing.

    Times are in seconds: ``request_timeout_s`` per round trip, ``connect_timeout_s`` for the
    first connection (StoreUnavailable past it), ``reconnect_wait_s`` between reconnection
    attempts (which go on forever). ``prefix`` names the stream and buckets; ``name`` labels
    the connection in the server's monitoring.
    """
    store = NatsStore(prefix=prefix, request_timeout_s=request_timeout_s, duplicate_window_s=duplicate_window_s, replicas=replicas)
    await store._connect(url, connect_timeout_s, reconnect_wait_s, name)
    try:
        await store._ensure_layout()
    except BaseException:
        await store.close()
        raise
    return store
