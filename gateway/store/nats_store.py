"""The shared key and credit store on NATS JetStream: every gateway process talks to one server.

Layout (``P`` is the ``prefix`` option, ``CELESTIAL`` in production):

- Stream ``P_LEDGER`` (file storage, no limits, deletes and purges denied), one subject per
  account, ``p.ledger.<account_id>``. Each message is one ledger entry, JSON
  ``{kind, request_id, credits, balance_after, at_s, limits}`` (``kind`` debit, refund or
  topup; ``at_s`` Unix seconds of the writer's clock; ``limits`` below). The account's
  balance *is* ``balance_after`` of the last message on its subject, so balance and ledger
  cannot disagree. The opening balance is a top-up entry written at account creation (even
  of 0 credits: it is the subject's first entry, which is what makes the account exist for
  the ledger).
- The account's admission state rides in the same entries: ``limits`` = ``{window_start_s,
  count, slots: {slot_id: expires_s}}`` (the rate window and the concurrency slots held), and
  the last entry's is the account's. So a paid request is one write: its admission and its
  debit are decided together and recorded in one entry, under the same compare-and-set as
  the balance. An admission that charges nothing (a request refused for its parameters, a
  batch), and a release that finds no other write to ride along with within
  RELEASE_DELAY_S, is a ``limits`` entry: ``{kind: "limits", request_id: <its message id>,
  credits: 0, ...}``, which moves no credits and is not usage. Every other entry carries the
  state of the entry before it forward. A refusal computed from the cache is confirmed on a
  fresh read before it is returned, so limits are exact across gateways; the state is small
  (at most ``max_concurrent`` slots) and, being in the ledger, survives a server restart.
  The price is ledger size: each entry carries the slots held (some 60 bytes each), and a
  quiet account's release, with no write to ride along with, is an entry of its own (up to
  two entries per request where a ledger of credits alone has one).
- Every ledger write is a publish with ``Nats-Expected-Last-Subject-Sequence`` set to the
  sequence of the entry it computed ``balance_after`` from (optimistic concurrency: of two
  writers that read the same balance, one is refused and re-reads) and ``Nats-Msg-Id``
  ``<kind>:<request_id>`` (JetStream de-duplication, checked by the server before the
  expected sequence: a retry is acknowledged as a duplicate, with the sequence of the entry
  already stored, and not written again). The last (sequence, balance) of each account is
  cached, so a debit is normally one round trip; the cache is only ever a guess, the
  expected-sequence check is the authority, and a refused write re-reads the last entry.
- Admissions, debits and releases of one account that arrive while its previous ledger write
  is in flight are written together by the account's writer task (group commit); several
  debits make one batch entry ``{kind: "debits", entries:
  [{request_id, credits}], credits (their sum), balance_after, at_s}`` with ``Nats-Msg-Id``
  ``debits:<uuid>`` (group commit: under load one publish serves many requests of a busy
  account); a debit that arrives alone is written alone, as above. The de-duplication table
  cannot name a debit inside a batch entry, so the store remembers its own last
  DEBITS_REMEMBERED debits (request id -> account, credits, sequence): a refund, or a
  retried reserve, in this process finds them there. Another process would not recognise a
  retry of a request debited in a batch; no gateway makes one (charge ids are minted per
  request, and the process that charged is the one that refunds). A batch whose answer is
  lost is found again by its message id and refunded whole.
- A refund finds its debit by "probing" the de-duplication table: a publish with
  ``Nats-Msg-Id: debit:<request_id>`` and an expected sequence that can never match is
  answered with the debit's sequence when the debit exists and refused, storing nothing,
  when it does not. One round trip whatever the size of the ledger, where scanning the
  account's recent entries costs one message per request the account made meanwhile. It
  bounds refunds to the de-duplication window (``duplicate_window_s``, 1 h): a refund later
  than that after its debit finds nothing and gives nothing back (it never mints credits),
  and since the refund's own id is de-duplicated in the same window, a refund can never be
  paid twice. Gateways refund at the end of the request (seconds), or retry while the server
  is down. The same window bounds retried debits: a retry of a request id more than 1 h
  later would be charged again (ids are minted per request by the gateway, so only a bug
  retries that late). Top-ups with an explicit request id (invoices) are also recorded in an
  index entry, so retrying one is harmless at any time. The server keeps the window's ids in
  memory (about 100 bytes each: some 36 MB at 100 paid requests per second). That the server
  checks de-duplication before the expected sequence is what the probe relies on; the store
  tests pin it (were it ever reversed, a probe would find nothing: no refund, never a wrong one).
  The ledger keeps every entry (no age or size limit): it is the account's history.
- KV bucket ``P_ACCOUNTS``: ``id.<account_id>`` -> the account record (updated with
  compare-and-set on its revision, e.g. ``set_limits``); ``name.<sha256 of the folded name>``
  -> account id, written with ``create`` so names are unique (case-insensitively, folding
  ASCII letters only, as SQLite's NOCASE does); ``topup.<sha256 of request id>`` -> the
  top-up index above.
- KV bucket ``P_KEYS``: ``hash.<sha256>`` -> the key record (what authentication reads: one
  round trip), ``id.<key_id>`` -> hash and ``acct.<account_id>.<key_id>`` -> hash (indexes for
  ``get_key`` and ``list_keys``). Indexes are written before the record, so a crash halfway
  leaves indexes to nothing, never a usable key that cannot be found and revoked.
  ``key_changes`` is an ordered consumer on ``hash.*`` (headers only): the subject is the
  key's hash. It delivers stored changes only (a core subscription would also see writes the
  stream refuses, and could announce a change before it can be read back).

Costs (the figures: README, Performance): a call costs about one round trip each, most of
it Python (nats-py) rather than the server: one publish for ``reserve``, ``admit``,
``admit_and_reserve`` and ``release``; one read for ``find_key_by_hash`` and ``balance``;
two reads sent at once for ``get_account`` by id; a probe, a read and a publish for
``refund``. A write whose cached head another gateway has moved meanwhile costs a refused
write, a read and a write. Each round trip costs the gateway CPU under load, which is what
the layout minimises: a paid request is one publish (admission and debit in one entry, its
release riding along with the account's next write), where keeping the admission state in a
key-value bucket of its own made it two and measurably lowered the store benchmark's
throughput.

Failures: the connection reconnects forever (``reconnect_wait_s`` apart) and publishes are
never buffered while disconnected, so while the server is unreachable every call raises
:class:`StoreUnavailable` at once; a call in flight when the connection drops raises it after
``request_timeout_s`` (1 s). The outcome of a write is then unknown: a debit or an admission
may have been stored without its answer arriving. The store remembers such debits and slots
(and releases that failed: gateways do not retry them) and, once the server answers again
and the request can no longer be in flight, refunds the debit and frees the slot (the refund
finds nothing when the debit was never stored), so a 503 costs nothing. Limits of that: the
memory is the process's (a gateway that dies first leaves that one debit charged), and an
admission so undone still counts in its rate window. A reserve retried with the same request
id settles it the other way: the caller then knows the request is charged. One store serves
one event loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import string
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, AsyncIterator, Callable, Iterable

import nats
import nats.errors
import nats.js.errors
import orjson
import structlog
from nats.aio.msg import Msg
from nats.js import api

from shared.kernel.errors import InsufficientCredits

from gateway.store.interfaces import (
    MAX_BALANCE,
    RATE_WINDOW_S,
    SLOT_LEASE_S,
    Account,
    AccountExists,
    AccountNotFound,
    Admission,
    AdmittedCharge,
    KeyNotActive,
    KeyNotFound,
    KeyRecord,
    LedgerConflict,
    StoreError,
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
#: How far back the ledger is de-duplicated by request id (see the module docstring), in seconds.
DEFAULT_DUPLICATE_WINDOW_S = 3600.0
#: How long a release may wait for the account's next admission to share its write, in
#: seconds. Holding a finished request's slot this much longer only makes the concurrency
#: limit briefly stricter; under load nearly every release rides along with an admission.
RELEASE_DELAY_S = 0.05
#: How long a usage scan starts before ``since``, in seconds, so that entries written by a
#: gateway whose clock runs ahead of the server's are still found (they are then filtered on
#: their own ``at_s``, as SQLite filters on the writer's clock).
USAGE_CLOCK_MARGIN_S = 300.0
#: How many of this process's most recent debits it remembers (request id -> account, credits,
#: ledger sequence): how a retried reserve and a refund find a debit written inside a batch
#: entry, which the server's de-duplication table cannot name. About 150 bytes each.
DEBITS_REMEMBERED = 200_000

_PREFIX_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")
# Account and key ids become subject tokens: nothing that could be a wildcard or separator.
_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
_HASH_RE = re.compile(r"[0-9a-f]{64}")
# A request id becomes a header value: printable, no whitespace, bounded.
_REQUEST_ID_RE = re.compile(r"[\x21-\x7e]{1,200}")
_ASCII_FOLD = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)

_MSG_ID = "Nats-Msg-Id"
_EXPECTED_LAST_SUBJECT_SEQ = "Nats-Expected-Last-Subject-Sequence"
_KV_OPERATION = "KV-Operation"
# JetStream error codes: 10071 "wrong last sequence", 10164 its constant form (newer servers);
# 10058 "stream name already in use with a different configuration".
_WRONG_LAST_SEQUENCE = (10071, 10164)
_STREAM_CONFIG_DIFFERS = 10058
# An expected sequence no subject ever reaches: a publish carrying it can only be refused,
# or answered as a duplicate, never stored.
_NEVER = str(2**63 - 1)
_SCAN_BATCH = 1000

# Failures of the transport: the server may not have seen the request at all.
_NOT_SENT = (
    nats.errors.ConnectionClosedError,
    nats.errors.ConnectionReconnectingError,
    nats.errors.OutboundBufferLimitError,
    nats.errors.ConnectionDrainingError,
    nats.errors.StaleConnectionError,
    nats.errors.NoRespondersError,
    nats.js.errors.NoStreamResponseError,
    OSError,
)


class _WrongLastSequence(Exception):
    """The subject's last sequence was not the one expected: someone else wrote first."""


class _OutcomeUnknown(StoreUnavailable):
    """The request was sent but no answer came: it may or may not have been applied."""


@dataclass(frozen=True)
class _Stored:
    """One message read back from a stream."""

    subject: str
    seq: int
    data: bytes
    headers: dict[str, str]


@dataclass(frozen=True)
class _Limits:
    """An account's admission state: the current rate window (start, Unix seconds, and the
    requests counted in it) and the concurrency slots held (slot id -> lease end, Unix s)."""

    window_start_s: int
    count: int
    slots: dict[str, float]

    def as_doc(self) -> dict:
        return {"window_start_s": self.window_start_s, "count": self.count, "slots": self.slots}


_NO_LIMITS = _Limits(0, 0, {})


@dataclass(frozen=True)
class _Head:
    """The last ledger entry of an account: its stream sequence, the balance after it and the
    admission state it carries."""

    seq: int
    balance: int
    limits: _Limits = _NO_LIMITS


@dataclass
class _PendingAdmit:
    """One admission waiting for its account's next ledger write; with ``debit`` (request id,
    credits) the charge it allows is written in the same entry."""

    rate: int
    max_concurrent: int
    slot_id: str
    now_s: float
    future: asyncio.Future
    debit: tuple[str, int] | None = None


@dataclass
class _PendingDebit:
    """One debit waiting for its account's next ledger write."""

    request_id: str
    credits: int
    future: asyncio.Future


@dataclass
class _AccountQueue:
    """What one account's writer has yet to write: admissions, debits and slot releases."""

    admits: list[_PendingAdmit] = field(default_factory=list)
    debits: list[_PendingDebit] = field(default_factory=list)
    releases: list[tuple[str, asyncio.Future]] = field(default_factory=list)
    release_timer_set: bool = False

    def __bool__(self) -> bool:
        return bool(self.admits or self.debits or self.releases)
_CLOSED = object()
_RECONNECTED = object()


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


def _insufficient(credits: int, balance: int) -> InsufficientCredits:
    return InsufficientCredits(
        f"This request costs {credits} credit{'s' if credits != 1 else ''}; the balance is {balance}."
    )


class NatsStore:
    """The :class:`~gateway.store.interfaces.Store` on NATS JetStream, shared by every gateway.

    Open it with :func:`open_nats_store`; the design is in the module docstring.
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

        ``prefix`` names the streams and buckets (``<prefix>_LEDGER`` ...), so several stores
        can share one server; ``request_timeout_s`` bounds each round trip in seconds;
        ``duplicate_window_s`` is the ledger's de-duplication window in seconds; ``replicas``
        the stream replication factor (1 for a single server).
        """
        if not isinstance(prefix, str) or _PREFIX_RE.fullmatch(prefix) is None:
            raise ValueError(f"prefix must be a letter then up to 31 of [A-Za-z0-9_-], got {prefix!r}")
        self.prefix = prefix
        self._timeout_s = request_timeout_s
        self._duplicate_window_s = duplicate_window_s
        self._replicas = replicas
        self._ledger_stream = f"{prefix}_LEDGER"
        self._ledger_prefix = f"{prefix.lower()}.ledger."
        self._accounts = f"{prefix}_ACCOUNTS"
        self._keys = f"{prefix}_KEYS"
        self._nc: nats.NATS | None = None
        self._closed = False
        # Guesses, each checked by the server on the next write (expected sequence/revision).
        self._heads: dict[str, _Head] = {}
        # One writer per account at a time within this process: concurrent requests of one
        # account would otherwise mostly refuse each other's compare-and-set.
        self._ledger_locks: dict[str, asyncio.Lock] = {}
        self._queues: dict[str, _AccountQueue] = {}
        self._restorers: set[asyncio.Task] = set()
        self._writers: dict[str, asyncio.Task] = {}
        # Writes whose answer was lost (see the module docstring), undone once the server
        # answers: request id -> (account id, credits, when to look), (account id, slot id) ->
        # when to release; times are time.monotonic() seconds.
        self._unknown_debits: dict[str, tuple[str, int, float]] = {}
        # Batch entries whose answer was lost: message id -> (account id, [(request id,
        # credits)], when to look).
        self._unknown_batches: dict[str, tuple[str, list[tuple[str, int]], float]] = {}
        # This process's recent debits: request id -> (account id, credits, ledger sequence).
        self._debits: OrderedDict[str, tuple[str, int, int]] = OrderedDict()
        self._unknown_slots: dict[tuple[str, str], float] = {}
        self._reconciler: asyncio.Task | None = None
        self._watches: set[_Watch] = set()
        self._watch_setups: set[asyncio.Task] = set()

    # --- connection ---------------------------------------------------------------------------

    async def _connect(
        self, url: str, connect_timeout_s: float, reconnect_wait_s: float, name: str | None
    ) -> None:
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

    async def _on_error(self, error: Exception) -> None:
        # nats-py reports every failed reconnect attempt here; one line at debug level each.
        log.debug("nats_error", error=repr(error))

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
        """Create the ledger stream and the two buckets unless they exist (idempotent)."""
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
        await self._js_call(self._add_or_update_stream(ledger))
        js = self._nc.jetstream(timeout=max(self._timeout_s, 2.0))
        for bucket in (self._accounts, self._keys):
            config = api.KeyValueConfig(
                bucket=bucket, history=1, storage=api.StorageType.FILE, replicas=self._replicas, direct=True
            )
            await self._js_call(js.create_key_value(config))

    async def _add_or_update_stream(self, config: api.StreamConfig) -> None:
        jsm = self._nc.jsm(timeout=max(self._timeout_s, 2.0))
        try:
            await jsm.add_stream(config)
        except nats.js.errors.APIError as exc:
            if exc.err_code != _STREAM_CONFIG_DIFFERS:
                raise
            # Created by an older version of this code, or changed by hand: bring it to
            # this configuration (the server refuses changes it cannot make, e.g. storage).
            await jsm.update_stream(config)

    async def close(self) -> None:
        """Close the connection and end every ``key_changes`` iterator; the store is unusable afterwards."""
        if self._closed:
            return
        self._closed = True
        for watch in list(self._watches):
            watch.queue.put_nowait(_CLOSED)
        if self._reconciler is not None:
            self._reconciler.cancel()
        for task in list(self._watch_setups) + list(self._restorers):
            task.cancel()
        if self._nc is not None:
            try:
                await self._nc.close()
            except Exception as exc:  # closing a broken connection: nothing is left to release
                log.debug("nats_close_failed", error=repr(exc))

    # --- round trips -----------------------------------------------------------------------------

    def _connection(self) -> nats.NATS:
        if self._closed or self._nc is None:
            raise StoreError("the store is closed")
        if not self._nc.is_connected:
            raise StoreUnavailable("the NATS server is unreachable (reconnecting)")
        return self._nc

    async def _request(self, subject: str, payload: bytes = b"", headers: dict[str, str] | None = None) -> Msg:
        """Return the reply to one request; StoreUnavailable when the server does not answer."""
        nc = self._connection()
        try:
            return await nc.request(subject, payload, timeout=self._timeout_s, headers=headers)
        except nats.errors.TimeoutError as exc:
            raise _OutcomeUnknown(f"no answer from NATS within {self._timeout_s} s") from exc
        except _NOT_SENT as exc:
            raise StoreUnavailable(f"NATS request failed: {type(exc).__name__}") from exc

    async def _js_call(self, awaitable: Any) -> Any:
        """Return the result of a nats-py JetStream call, with its failures mapped to store errors."""
        try:
            self._connection()
        except BaseException:
            awaitable.close()
            raise
        try:
            return await awaitable
        except nats.js.errors.ServiceUnavailableError as exc:  # no responders: JetStream not (yet) up
            raise StoreUnavailable(f"JetStream unavailable: {exc.description}") from exc
        except nats.js.errors.APIError as exc:
            error = {"code": exc.code, "err_code": exc.err_code, "description": exc.description}
            raise self._api_error(error) from exc
        except nats.errors.TimeoutError as exc:
            raise _OutcomeUnknown(f"no answer from NATS within {self._timeout_s} s") from exc
        except _NOT_SENT as exc:
            raise StoreUnavailable(f"NATS request failed: {type(exc).__name__}") from exc

    @staticmethod
    def _api_error(error: dict) -> StoreError:
        code, err_code, description = error.get("code"), error.get("err_code"), error.get("description")
        if code in (503, 408):  # JetStream not ready (a server starting) or a request timed out inside it
            return StoreUnavailable(f"JetStream unavailable: {description}")
        return StoreError(f"JetStream error {code}/{err_code}: {description}")

    async def _publish(
        self,
        subject: str,
        payload: bytes,
        *,
        msg_id: str | None = None,
        expected_seq: int | str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bool]:
        """Return (stream sequence, whether it was a duplicate) of a JetStream publish.

        Raises _WrongLastSequence when ``expected_seq`` is not the subject's last sequence.
        """
        headers = dict(headers or {})
        if msg_id is not None:
            headers[_MSG_ID] = msg_id
        if expected_seq is not None:
            headers[_EXPECTED_LAST_SUBJECT_SEQ] = str(expected_seq)
        reply = orjson.loads((await self._request(subject, payload, headers or None)).data)
        error = reply.get("error")
        if error:
            if error.get("err_code") in _WRONG_LAST_SEQUENCE:
                raise _WrongLastSequence(error.get("description"))
            raise self._api_error(error)
        return reply["seq"], bool(reply.get("duplicate"))

    async def _direct_get(self, subject: str, payload: bytes = b"") -> _Stored | None:
        msg = await self._request(subject, payload)
        headers = msg.headers or {}
        status = headers.get("Status")
        if status is not None:
            if status == "404":
                return None
            if status in ("408", "503"):
                raise StoreUnavailable(f"JetStream direct get: {status} {headers.get('Description', '')}")
            raise StoreError(f"JetStream direct get failed: {status} {headers.get('Description', '')}")
        return _Stored(headers["Nats-Subject"], int(headers["Nats-Sequence"]), msg.data, headers)

    async def _last_on(self, stream: str, subject: str) -> _Stored | None:
        """Return the last message of ``stream`` on ``subject``; None if there is none."""
        return await self._direct_get(f"$JS.API.DIRECT.GET.{stream}.{subject}")

    async def _at_seq(self, stream: str, seq: int) -> _Stored | None:
        """Return the message of ``stream`` at sequence ``seq``; None if there is none."""
        return await self._direct_get(f"$JS.API.DIRECT.GET.{stream}", orjson.dumps({"seq": seq}))

    # --- key-value helpers ------------------------------------------------------------------------

    async def _kv_get(self, bucket: str, key: str) -> tuple[int, bytes] | None:
        """Return (revision, value) of ``key`` in ``bucket``; None if absent or deleted."""
        stored = await self._last_on(f"KV_{bucket}", f"$KV.{bucket}.{key}")
        if stored is None or stored.headers.get(_KV_OPERATION) in ("DEL", "PURGE"):
            return None
        return stored.seq, stored.data

    async def _kv_json(self, bucket: str, key: str) -> tuple[int, dict] | None:
        got = await self._kv_get(bucket, key)
        return None if got is None else (got[0], orjson.loads(got[1]))

    async def _kv_write(self, bucket: str, key: str, value: bytes, last: int) -> int:
        """Return the new revision of ``key``, written only if its revision is ``last`` (0: absent).

        Raises _WrongLastSequence otherwise.
        """
        seq, _ = await self._publish(f"$KV.{bucket}.{key}", value, expected_seq=last)
        return seq

    async def _kv_create(self, bucket: str, key: str, value: bytes) -> bool:
        """Return whether ``key`` was created; False if it already exists."""
        try:
            await self._kv_write(bucket, key, value, 0)
        except _WrongLastSequence:
            return False
        return True

    async def _kv_delete(self, bucket: str, key: str) -> None:
        await self._publish(f"$KV.{bucket}.{key}", b"", headers={_KV_OPERATION: "DEL"})

    # --- accounts ---------------------------------------------------------------------------------

    async def _find_account(self, account: str) -> tuple[int, dict] | None:
        """Return (revision, record) of the account whose id, or else name, is ``account``."""
        if not isinstance(account, str) or not account:
            return None
        # Names never start with "acct_" and ids always do, so one lookup decides.
        if account.startswith("acct_"):
            if _TOKEN_RE.fullmatch(account) is None:
                return None
            return await self._kv_json(self._accounts, f"id.{account}")
        indexed = await self._kv_get(self._accounts, f"name.{_digest(_fold(account))}")
        if indexed is None:
            return None
        return await self._kv_json(self._accounts, f"id.{indexed[1].decode()}")

    async def _account_record(self, account: str) -> dict:
        found = await self._find_account(account)
        if found is None:
            raise no_such_account(account)
        return found[1]

    async def create_account(
        self, name: str, credits: int, rate_per_minute: int = 300, max_concurrent: int = 50
    ) -> Account:
        """Return a new account holding ``credits``; raises AccountExists for a taken name (any case)."""
        validate_new_account(name, credits, rate_per_minute, max_concurrent)
        name_key = f"name.{_digest(_fold(name))}"
        if await self._kv_get(self._accounts, name_key) is not None:
            raise AccountExists(f"an account named {quoted(name)} already exists")
        account_id = new_account_id()
        now_s = time.time()
        # The ledger first: an account record never exists without its opening entry. A
        # creation that loses the name race below leaves only this entry, on a subject no
        # account will ever use.
        opening = {
            "kind": "topup",
            "request_id": f"open:{account_id}",
            "credits": credits,
            "balance_after": credits,
            "at_s": now_s,
            "reason": "opening balance",
            "limits": _NO_LIMITS.as_doc(),
        }
        seq, _ = await self._publish(
            self._ledger_prefix + account_id,
            orjson.dumps(opening),
            msg_id=f"topup:open:{account_id}",
            expected_seq=0,
        )
        self._heads[account_id] = _Head(seq, credits)
        doc = {
            "id": account_id,
            "name": name,
            "rate_per_minute": rate_per_minute,
            "max_concurrent": max_concurrent,
            "created_at_s": now_s,
        }
        await self._kv_write(self._accounts, f"id.{account_id}", orjson.dumps(doc), 0)
        if not await self._kv_create(self._accounts, name_key, account_id.encode()):
            await self._kv_delete(self._accounts, f"id.{account_id}")
            raise AccountExists(f"an account named {quoted(name)} already exists")
        return _account(doc, credits)

    async def get_account(self, account: str) -> Account | None:
        """Return the account whose id, or else whose name, is ``account``; None if none."""
        if isinstance(account, str) and account.startswith("acct_") and _TOKEN_RE.fullmatch(account):
            # By id (the authentication path): record and balance asked at once, not in turn.
            found, head = await asyncio.gather(
                self._kv_json(self._accounts, f"id.{account}"), self._read_head(account, missing_ok=True)
            )
        else:
            found = await self._find_account(account)
            head = None if found is None else await self._read_head(found[1]["id"], missing_ok=True)
        if found is None or head is None:
            return None
        return _account(found[1], head.balance)

    async def set_limits(
        self, account: str, *, rate_per_minute: int | None = None, max_concurrent: int | None = None
    ) -> Account:
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
                await self._kv_write(self._accounts, f"id.{doc['id']}", orjson.dumps(doc), revision)
            except _WrongLastSequence:
                continue  # changed meanwhile: apply the change to the newer record
            await self._announce_keys_of(doc["id"])
            break
        head = await self._read_head(doc["id"])
        return _account(doc, head.balance)

    async def _announce_keys_of(self, account_id: str) -> None:
        """Rewrite each live key record of the account unchanged, so followers drop their copies."""
        for key_hash in await self._key_hashes_of(account_id):
            got = await self._kv_get(self._keys, f"hash.{key_hash}")
            if got is None or orjson.loads(got[1])["revoked_at_s"] is not None:
                continue
            try:
                await self._kv_write(self._keys, f"hash.{key_hash}", got[1], got[0])
            except _WrongLastSequence:
                pass  # changed meanwhile: that write was announced itself

    # --- credits ----------------------------------------------------------------------------------

    def _ledger_lock(self, account_id: str) -> asyncio.Lock:
        lock = self._ledger_locks.get(account_id)
        if lock is None:
            lock = self._ledger_locks[account_id] = asyncio.Lock()
        return lock

    async def _read_head(self, account_id: str, *, missing_ok: bool = False) -> _Head | None:
        """Return the account's last ledger entry (and cache it); AccountNotFound if none."""
        stored = None
        if _TOKEN_RE.fullmatch(account_id or ""):
            stored = await self._last_on(self._ledger_stream, self._ledger_prefix + account_id)
        if stored is None:
            self._heads.pop(account_id, None)
            if missing_ok:
                return None
            raise no_such_account(account_id)
        entry = orjson.loads(stored.data)
        limits = entry.get("limits")
        head = _Head(
            stored.seq,
            entry["balance_after"],
            _NO_LIMITS if limits is None else _Limits(**limits),
        )
        self._heads[account_id] = head
        return head

    async def _entry_at(self, seq: int, subject: str, kind: str, credits: int | None) -> dict:
        """Return the ledger entry at ``seq``; LedgerConflict unless it is a ``kind`` entry on
        ``subject`` (and of ``credits``, when given)."""
        stored = await self._at_seq(self._ledger_stream, seq)
        if stored is None:
            raise StoreError(f"ledger entry {seq} is missing (the ledger denies deletes)")
        entry = orjson.loads(stored.data)
        if stored.subject != subject or entry["kind"] != kind:
            raise LedgerConflict(f"request {quoted(entry['request_id'])} already has a {kind} on another account")
        if credits is not None and entry["credits"] != credits:
            raise LedgerConflict(
                f"request {quoted(entry['request_id'])} already has a {kind} of {entry['credits']} credits"
            )
        return entry

    async def _probe(self, subject: str, msg_id: str) -> int | None:
        """Return the sequence of the ledger entry published with ``msg_id`` within the
        de-duplication window; None if there is none. Stores nothing."""
        try:
            seq, duplicate = await self._publish(subject, b"", msg_id=msg_id, expected_seq=_NEVER)
        except _WrongLastSequence:
            return None
        if not duplicate:
            raise StoreError(f"probe for {msg_id!r} was stored as an entry: the server broke an expected sequence")
        return seq

    async def _append(
        self, account_id: str, kind: str, request_id: str, credits: int, delta: int, head: _Head, **extra: Any
    ) -> tuple[_Head | None, int | None]:
        """Publish one entry moving the balance by ``delta`` after ``head``.

        Returns (new head, None) when written, (None, sequence of the stored entry) for a
        duplicate. Raises _WrongLastSequence when ``head`` is no longer the last entry.
        """
        balance = head.balance + delta
        entry = {
            "kind": kind,
            "request_id": request_id,
            "credits": credits,
            "balance_after": balance,
            "at_s": time.time(),
            **extra,
            "limits": head.limits.as_doc(),
        }
        seq, duplicate = await self._publish(
            self._ledger_prefix + account_id,
            orjson.dumps(entry),
            msg_id=f"{kind}:{request_id}",
            expected_seq=head.seq,
        )
        if duplicate:
            return None, seq
        new_head = _Head(seq, balance, head.limits)
        self._heads[account_id] = new_head
        return new_head, None

    async def reserve(self, account_id: str, credits: int, request_id: str) -> int:
        """Return the balance after debiting ``credits`` atomically (one round trip when cached).

        Raises InsufficientCredits (nothing written) when the balance cannot cover it. A second
        reserve with the same ``request_id`` charges nothing and returns the current balance
        (LedgerConflict when it was for another account or amount): recognised by this process
        for its last DEBITS_REMEMBERED debits, and by any process within the de-duplication
        window for a debit written alone.

        Written by the account's writer together with whatever else of the account waits
        while its previous write is in flight (group commit).
        """
        require_credits(credits)
        _check_request_id(request_id)
        if not isinstance(account_id, str) or _TOKEN_RE.fullmatch(account_id) is None:
            raise no_such_account(account_id)
        if request_id in self._debits:
            self._check_same_debit(request_id, account_id, credits)
            self._unknown_debits.pop(request_id, None)
            return (await self._read_head(account_id)).balance
        future = asyncio.get_running_loop().create_future()
        self._queue(account_id).debits.append(_PendingDebit(request_id, credits, future))
        self._kick(account_id)
        return await future

    def _check_same_debit(self, request_id: str, account_id: str, credits: int) -> None:
        """Raise LedgerConflict unless the remembered debit of ``request_id`` has these terms."""
        charged_account, charged, _ = self._debits[request_id]
        if charged_account != account_id:
            raise LedgerConflict(f"request {quoted(request_id)} already has a debit on another account")
        if charged != credits:
            raise LedgerConflict(f"request {quoted(request_id)} already has a debit of {charged} credits")

    def _remember_debit(self, request_id: str, account_id: str, credits: int, seq: int) -> None:
        self._debits[request_id] = (account_id, credits, seq)
        self._debits.move_to_end(request_id)
        while len(self._debits) > DEBITS_REMEMBERED:
            self._debits.popitem(last=False)

    async def refund(self, account_id: str, credits: int, request_id: str) -> int:
        """Return the balance after giving back up to the credits debited for ``request_id``.

        Idempotent; a request with no debit (within the de-duplication window) gets nothing.
        Raises ValueError when ``credits`` exceeds the debit, LedgerConflict when the debit was
        another account's, AccountNotFound.
        """
        require_credits(credits)
        _check_request_id(request_id)
        if not isinstance(account_id, str) or _TOKEN_RE.fullmatch(account_id) is None:
            raise no_such_account(account_id)
        async with self._ledger_lock(account_id):
            return await self._refund(account_id, credits, request_id)

    async def _refund(self, account_id: str, credits: int, request_id: str) -> int:
        charged = await self._charged(account_id, request_id)
        if charged is None:
            # Nothing was charged, so there is nothing to give back: a refund never mints credits.
            return (await self._read_head(account_id)).balance
        if credits > charged:
            raise ValueError(f"cannot refund {credits} credits: request {quoted(request_id)} was charged {charged}")
        head = self._heads.get(account_id) or await self._read_head(account_id)
        while True:
            try:
                new_head, duplicate_seq = await self._append(
                    account_id, "refund", request_id, credits, credits, head
                )
            except _WrongLastSequence:
                head = await self._read_head(account_id)
                continue
            except StoreUnavailable:
                self._heads.pop(account_id, None)
                raise
            if new_head is not None:
                return new_head.balance
            return (await self._read_head(account_id)).balance  # refunded before: nothing changes

    async def _charged(self, account_id: str, request_id: str) -> int | None:
        """Return the credits debited for ``request_id``, None when no debit is found.

        This process's own recent debits (batched or not) are known here; another debit is
        found by probing the de-duplication table, so within its window. LedgerConflict when
        the debit was another account's.
        """
        remembered = self._debits.get(request_id)
        if remembered is not None:
            if remembered[0] != account_id:
                raise LedgerConflict(f"request {quoted(request_id)} was charged to another account")
            return remembered[1]
        subject = self._ledger_prefix + account_id
        seq = await self._probe(subject, f"debit:{request_id}")
        if seq is None:
            return None
        stored = await self._at_seq(self._ledger_stream, seq)
        if stored is None:
            raise StoreError(f"ledger entry {seq} is missing (the ledger denies deletes)")
        if stored.subject != subject:
            raise LedgerConflict(f"request {quoted(request_id)} was charged to another account")
        return orjson.loads(stored.data)["credits"]

    async def top_up(
        self, account: str, credits: int, *, request_id: str | None = None, reason: str = "top-up"
    ) -> int:
        """Return the balance after adding ``credits`` to the account (id or name).

        Idempotent per ``request_id`` at any distance in time (an index entry backs the
        de-duplication window); LedgerConflict when the id was used on other terms.
        """
        require_credits(credits)
        explicit = request_id is not None
        request_id = _check_request_id(request_id) if explicit else f"topup:{uuid.uuid4()}"
        account_id = (await self._account_record(account))["id"]
        subject = self._ledger_prefix + account_id
        index_key = f"topup.{_digest(request_id)}"
        index = orjson.dumps({"account_id": account_id, "credits": credits})
        async with self._ledger_lock(account_id):
            if explicit:
                found = await self._kv_json(self._accounts, index_key)
                if found is not None:
                    if (found[1]["account_id"], found[1]["credits"]) != (account_id, credits):
                        raise LedgerConflict(f"request {quoted(request_id)} already has a topup on other terms")
                    return (await self._read_head(account_id)).balance
            head = await self._read_head(account_id)
            while True:
                if head.balance + credits > MAX_BALANCE:
                    return await self._top_up_past_ceiling(account_id, head, credits, request_id if explicit else None)
                try:
                    new_head, duplicate_seq = await self._append(
                        account_id, "topup", request_id, credits, credits, head, reason=reason
                    )
                except _WrongLastSequence:
                    head = await self._read_head(account_id)
                    continue
                except StoreUnavailable:
                    self._heads.pop(account_id, None)
                    raise
                break
            if duplicate_seq is not None:
                await self._entry_at(duplicate_seq, subject, "topup", credits)
            if explicit:
                await self._kv_create(self._accounts, index_key, index)
            if new_head is not None:
                return new_head.balance
            return (await self._read_head(account_id)).balance

    async def _top_up_past_ceiling(self, account_id: str, head: _Head, credits: int, request_id: str | None) -> int:
        """Return the balance when the top-up ``request_id`` was written already (a retry whose
        index entry was lost); raise BalanceCeiling otherwise, having written nothing.

        Called with the account's ledger lock held when ``head`` plus ``credits`` is past MAX_BALANCE.
        """
        subject = self._ledger_prefix + account_id
        seq = None if request_id is None else await self._probe(subject, f"topup:{request_id}")
        if seq is None:
            check_balance_ceiling(account_id, head.balance, credits)
        await self._entry_at(seq, subject, "topup", credits)
        return (await self._read_head(account_id)).balance

    async def balance(self, account_id: str) -> int:
        """Return the account's balance in credits (always read from the server). Raises AccountNotFound."""
        return (await self._read_head(account_id)).balance

    async def usage(self, account_id: str, since: datetime | None = None) -> Usage:
        """Return ledger totals for the account from ``since`` (inclusive, on the writers' clocks).

        Reads the account's entries since then with one ephemeral consumer (the whole ledger of
        the account when ``since`` is None). Raises AccountNotFound.
        """
        since = require_aware(since, "since")
        await self._read_head(account_id)
        if since is None:
            config = api.ConsumerConfig(deliver_policy=api.DeliverPolicy.ALL)
        else:
            start = max(0.0, since.timestamp() - USAGE_CLOCK_MARGIN_S)
            config = api.ConsumerConfig(
                deliver_policy=api.DeliverPolicy.BY_START_TIME, opt_start_time=datetime.fromtimestamp(start, UTC)
            )
        totals = {"debit": [0, 0], "refund": [0, 0], "topup": [0, 0]}
        since_s = None if since is None else since.timestamp()

        def count(message: Msg) -> None:
            entry = orjson.loads(message.data)
            if entry["kind"] == "limits":  # admissions and releases only: no credits moved
                return
            if since_s is None or entry["at_s"] >= since_s:
                if entry["kind"] == "debits":  # a batch entry: one debit per request in it
                    total = totals["debit"]
                    total[0] += len(entry["entries"])
                else:
                    total = totals[entry["kind"]]
                    total[0] += 1
                total[1] += entry["credits"]

        await self._scan(self._ledger_stream, self._ledger_prefix + account_id, config, count)
        return Usage(
            account_id=account_id,
            since=since,
            requests=totals["debit"][0],
            refunds=totals["refund"][0],
            credits_debited=totals["debit"][1],
            credits_refunded=totals["refund"][1],
            credits_topped_up=totals["topup"][1],
        )

    async def _scan(
        self, stream: str, filter_subject: str, config: api.ConsumerConfig, each: Callable[[Msg], None]
    ) -> None:
        """Call ``each`` on every message ``config`` selects on ``filter_subject``, in order, as
        the stream was when the scan began, through an ephemeral pull consumer deleted afterwards.

        Messages are handed over one batch at a time and not kept, so a long ledger costs time,
        not memory.
        """
        nc = self._connection()
        config.filter_subject = filter_subject
        config.ack_policy = api.AckPolicy.NONE
        config.mem_storage = True
        config.num_replicas = 1
        config.inactive_threshold = 30.0  # removed by the server if this process dies mid-scan
        jsm = nc.jsm(timeout=self._timeout_s)
        inbox = nc.new_inbox()
        subscription = None
        try:
            subscription = await nc.subscribe(inbox)
            info = await self._js_call(jsm.add_consumer(stream, config=config))
            remaining = info.num_pending  # what matched at creation; later messages are not read
            next_subject = f"$JS.API.CONSUMER.MSG.NEXT.{stream}.{info.name}"
            try:
                while remaining > 0:
                    batch = min(remaining, _SCAN_BATCH)
                    request = {"batch": batch, "expires": int(self._timeout_s * 1e9)}
                    await nc.publish(next_subject, orjson.dumps(request), reply=inbox)
                    received = 0
                    while received < batch:
                        message = await subscription.next_msg(timeout=self._timeout_s * 2)
                        status = (message.headers or {}).get("Status")
                        if status is not None:
                            if status == "100":
                                continue  # heartbeat
                            raise StoreUnavailable(f"scan of {stream} ended early: {status}")
                        each(message)
                        received += 1
                    remaining -= received
            finally:
                try:
                    await jsm.delete_consumer(stream, info.name)
                except Exception:  # inactive_threshold removes it anyway
                    pass
        except nats.errors.TimeoutError as exc:
            raise StoreUnavailable(f"scan of {stream} got no answer within {self._timeout_s * 2} s") from exc
        except _NOT_SENT as exc:
            raise StoreUnavailable(f"scan of {stream} failed: {type(exc).__name__}") from exc
        finally:
            if subscription is not None:
                try:
                    await subscription.unsubscribe()
                except Exception:  # a closed connection has no subscription left
                    pass

    # --- keys -------------------------------------------------------------------------------------

    async def create_key(
        self,
        account: str,
        *,
        expires_at: datetime | None = None,
        allowed_origins: Iterable[str] = (),
        browser_only: bool = False,
    ) -> tuple[str, KeyRecord]:
        """Return ``(plain_key, record)``; only the key's SHA-256 hash reaches the server."""
        expires_at = require_future_expiry(expires_at)
        origins = validate_origins(allowed_origins)
        await self._await_watch_setups()
        account_id = (await self._account_record(account))["id"]
        plain = generate_key()
        key_id = new_key_id()
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
        await self._kv_write(self._keys, f"id.{key_id}", key_hash.encode(), 0)
        await self._kv_write(self._keys, f"acct.{account_id}.{key_id}", key_hash.encode(), 0)
        await self._kv_write(self._keys, f"hash.{key_hash}", orjson.dumps(doc), 0)
        return plain, _key_record(doc)

    async def find_key_by_hash(self, key_hash: str) -> KeyRecord | None:
        """Return the key whose SHA-256 hex digest is ``key_hash``, in any state; None if none."""
        if not isinstance(key_hash, str) or _HASH_RE.fullmatch(key_hash) is None:
            return None  # never send anything else (a plain key, say) to the server
        found = await self._kv_json(self._keys, f"hash.{key_hash}")
        return None if found is None else _key_record(found[1])

    async def _key_doc(self, key_id: str) -> tuple[int, dict] | None:
        if not isinstance(key_id, str) or _TOKEN_RE.fullmatch(key_id) is None:
            return None
        indexed = await self._kv_get(self._keys, f"id.{key_id}")
        if indexed is None:
            return None
        return await self._kv_json(self._keys, f"hash.{indexed[1].decode()}")

    async def get_key(self, key_id: str) -> KeyRecord | None:
        """Return the key with id ``key_id``; None if none."""
        found = await self._key_doc(key_id)
        return None if found is None else _key_record(found[1])

    async def _change_key(self, key_id: str, change: Callable[[dict], dict | None]) -> KeyRecord:
        """Return the key after writing ``change(doc)`` (a new doc, or None to leave it) with
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
                await self._kv_write(self._keys, f"hash.{doc['key_hash']}", orjson.dumps(changed), revision)
            except _WrongLastSequence:
                continue
            return _key_record(changed)

    async def revoke_key(self, key_id: str) -> KeyRecord:
        """Return the key after revoking it (revoking twice keeps the first time). Raises KeyNotFound."""
        now_s = time.time()

        def revoke(doc: dict) -> dict | None:
            return None if doc["revoked_at_s"] is not None else {**doc, "revoked_at_s": now_s}

        return await self._change_key(key_id, revoke)

    async def update_origins(
        self, key_id: str, origins: Iterable[str], browser_only: bool | None = None
    ) -> KeyRecord:
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
        config = api.ConsumerConfig(deliver_policy=api.DeliverPolicy.LAST_PER_SUBJECT)
        messages: list[Msg] = []
        await self._scan(f"KV_{self._keys}", f"$KV.{self._keys}.acct.{account_id}.*", config, messages.append)
        return [m.data.decode() for m in messages if (m.headers or {}).get(_KV_OPERATION) is None]

    async def list_keys(self, account: str) -> list[KeyRecord]:
        """Return every key of the account (id or name), oldest first. Raises AccountNotFound."""
        account_id = (await self._account_record(account))["id"]
        hashes = await self._key_hashes_of(account_id)
        found = await asyncio.gather(*(self._kv_json(self._keys, f"hash.{h}") for h in hashes))
        # An index without a record is a creation cut short before the key was handed out.
        records = [_key_record(doc) for _, doc in filter(None, found)]
        return sorted(records, key=lambda record: (record.created_at, record.key_id))

    # --- key changes -----------------------------------------------------------------------------

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
        prefix_len = len(f"$KV.{self._keys}.hash.")
        queue = watch.queue

        async def changed(msg: Msg) -> None:
            queue.put_nowait(msg.subject[prefix_len:])

        old, watch.subscription = watch.subscription, None
        if old is not None:
            try:
                await old.unsubscribe()
            except Exception:  # the old consumer may be gone with the server
                pass
        js = self._connection().jetstream(timeout=self._timeout_s)
        watch.subscription = await self._js_call(
            js.subscribe(
                f"$KV.{self._keys}.hash.*",
                stream=f"KV_{self._keys}",
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

    # --- the account's writer: admissions, debits and releases in one ledger entry ---------------

    async def admit(self, account: Account, slot_id: str, now_s: float | None = None) -> Admission:
        """Return whether one more request of ``account`` may run now, across every gateway.

        Allowed: counted in the current window of RATE_WINDOW_S seconds and holding ``slot_id``
        until :meth:`release` or SLOT_LEASE_S. Refused: nothing counted or held;
        ``retry_after_s`` is the whole seconds until the window resets (>= 1) for ``rate``, 1
        for ``concurrency``. The window only moves forward (a gateway whose clock runs behind
        counts into the newest window). Uses the limits of ``account`` as given; raises
        AccountNotFound when the account does not exist. ``now_s``: Unix seconds (default now).
        """
        return await self._enqueue_admit(account, slot_id, now_s, None)

    async def admit_and_reserve(
        self, account: Account, slot_id: str, credits: int, request_id: str, now_s: float | None = None
    ) -> AdmittedCharge:
        """Return :meth:`admit` then, when allowed, :meth:`reserve`, decided together and written
        as one ledger entry: one round trip for a paid request."""
        require_credits(credits)
        _check_request_id(request_id)
        if request_id in self._debits:  # a retry: the debit is known, only the admission is new
            return await admit_then_reserve(self, account, slot_id, credits, request_id, now_s)
        return await self._enqueue_admit(account, slot_id, now_s, (request_id, credits))

    async def _enqueue_admit(
        self, account: Account, slot_id: str, now_s: float | None, debit: tuple[str, int] | None
    ) -> Any:
        now_s = time.time() if now_s is None else now_s
        account_id = account.id
        if not isinstance(account_id, str) or _TOKEN_RE.fullmatch(account_id) is None:
            raise no_such_account(account_id)
        future = asyncio.get_running_loop().create_future()
        pending = _PendingAdmit(account.rate_per_minute, account.max_concurrent, slot_id, now_s, future, debit)
        self._queue(account_id).admits.append(pending)
        self._kick(account_id)
        return await future

    async def release(self, account_id: str, slot_id: str) -> None:
        """Free the concurrency slot ``slot_id``; releasing an unknown or freed slot is a no-op.

        Waits up to RELEASE_DELAY_S for another write of the account to ride along with.
        Raises StoreUnavailable when the server does not answer; the store then frees the slot
        itself once the server answers again (gateways do not retry a release, and holding the
        slot for the whole SLOT_LEASE_S would refuse requests for nothing).
        """
        if not isinstance(account_id, str) or _TOKEN_RE.fullmatch(account_id) is None:
            return
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        queue = self._queue(account_id)
        queue.releases.append((slot_id, future))
        if not queue.release_timer_set:
            queue.release_timer_set = True
            loop.call_later(RELEASE_DELAY_S, self._kick, account_id)
        try:
            await future
        except StoreUnavailable:
            self._unknown_slots[(account_id, slot_id)] = time.monotonic()  # releasing twice is harmless
            self._start_reconciler()
            raise
        self._unknown_slots.pop((account_id, slot_id), None)

    def _queue(self, account_id: str) -> _AccountQueue:
        queue = self._queues.get(account_id)
        if queue is None:
            queue = self._queues[account_id] = _AccountQueue()
        return queue

    def _kick(self, account_id: str) -> None:
        """Start the account's writer unless one is running (it takes whatever is pending)."""
        queue = self._queue(account_id)
        queue.release_timer_set = False
        if self._closed:
            closed = StoreUnavailable("the store is closed")
            for future in _futures(queue.admits, queue.debits, queue.releases):
                _settle(future, error=closed)
            self._queues.pop(account_id, None)
            return
        if account_id not in self._writers:
            self._writers[account_id] = asyncio.get_running_loop().create_task(self._write_account(account_id))

    async def _write_account(self, account_id: str) -> None:
        """Write the account's waiting admissions, debits and releases until none is left,
        each round as one ledger entry (the ledger lock held)."""
        admits: list[_PendingAdmit] = []
        debits: list[_PendingDebit] = []
        releases: list[tuple[str, asyncio.Future]] = []
        try:
            while True:
                queue = self._queues.get(account_id)
                if not queue:
                    return
                admits = [p for p in queue.admits if not p.future.done()]
                debits = [p for p in queue.debits if not p.future.done()]
                releases = queue.releases
                queue.admits, queue.debits, queue.releases = [], [], []
                if admits or debits or releases:
                    async with self._ledger_lock(account_id):
                        await self._commit(account_id, admits, debits, releases)
        except BaseException as exc:  # cancelled at close, or a bug: no caller waits forever
            stopped = StoreError(f"account writer stopped: {exc!r}")
            queue = self._queues.pop(account_id, _AccountQueue())
            for future in _futures(admits + queue.admits, debits + queue.debits, releases + queue.releases):
                _settle(future, error=stopped)
            raise
        finally:
            self._writers.pop(account_id, None)
            if not self._queues.get(account_id):
                self._queues.pop(account_id, None)

    async def _commit(
        self,
        account_id: str,
        admits: list[_PendingAdmit],
        debits: list[_PendingDebit],
        releases: list[tuple[str, asyncio.Future]],
    ) -> None:
        """Decide ``admits`` and ``debits`` in order after freeing ``releases``, write the
        outcome as one ledger entry and settle every caller (the ledger lock held).

        Decisions start from the cached head; a refusal, a short balance or a release of a slot
        the cache has not seen may be an artefact of a stale cache (another gateway wrote
        since), so it is confirmed on a fresh read before it is answered. A short debit is
        also probed: a retry of a request already charged is not a new charge.
        """
        subject = self._ledger_prefix + account_id
        released = [slot for slot, _ in releases]
        precharged: set[str] = set()
        try:
            head = self._heads.get(account_id)
            fresh = head is None
            if head is None:
                head = await self._read_head(account_id)
            while True:
                decided = _decide_round(head, admits, debits, released, precharged)
                if not fresh and (decided.doubt or decided.short):
                    head, fresh = await self._read_head(account_id), True
                    continue
                if decided.short and await self._find_precharged(account_id, decided.short, admits, debits, precharged):
                    continue
                if not (decided.changed or decided.charged):
                    break
                entry, message_id = _ledger_entry(
                    decided.charged, head.balance - decided.balance, decided.balance, decided.limits
                )
                try:
                    seq, duplicate = await self._publish(
                        subject, orjson.dumps(entry), msg_id=message_id, expected_seq=head.seq
                    )
                except _WrongLastSequence:
                    head, fresh = await self._read_head(account_id), True
                    continue
                except _OutcomeUnknown:
                    self._remember_unknown(account_id, message_id, decided)
                    raise
                if duplicate:
                    if len(decided.charged) != 1:
                        raise StoreError(f"ledger entry {message_id!r} was stored twice: ids are minted once")
                    # Only a lone debit's id can repeat: that request was charged before, and
                    # nothing of this entry was written. Decide again with it granted.
                    request_id, credits = decided.charged[0]
                    await self._entry_at(seq, subject, "debit", credits)
                    self._remember_debit(request_id, account_id, credits, seq)
                    precharged.add(request_id)
                    head, fresh = await self._read_head(account_id), True
                    continue
                self._heads[account_id] = _Head(seq, decided.balance, decided.limits)
                for request_id, credits in decided.charged:
                    self._remember_debit(request_id, account_id, credits, seq)
                break
        except Exception as exc:
            if isinstance(exc, StoreUnavailable):
                self._heads.pop(account_id, None)
            for future in _futures(admits, debits, []):
                _settle(future, error=exc)
            for _, future in releases:  # no account holds no slot: releasing is a no-op
                _settle(future, error=None if isinstance(exc, AccountNotFound) else exc)
            return
        # The callers now know these requests are charged: none is a debit to undo.
        for request_id in precharged | {request_id for request_id, _ in decided.charged}:
            self._unknown_debits.pop(request_id, None)
        _settle_round(decided, releases)

    async def _find_precharged(
        self,
        account_id: str,
        short: list[str],
        admits: list[_PendingAdmit],
        debits: list[_PendingDebit],
        precharged: set[str],
    ) -> bool:
        """Return whether any request of ``short`` already has its debit in the ledger (a
        retry), adding those to ``precharged``; LedgerConflict when it was on other terms."""
        subject = self._ledger_prefix + account_id
        terms = dict(_debit_terms(admits, debits))
        found = False
        for request_id in short:
            seq = await self._probe(subject, f"debit:{request_id}")
            if seq is not None:
                await self._entry_at(seq, subject, "debit", terms[request_id])
                self._remember_debit(request_id, account_id, terms[request_id], seq)
                precharged.add(request_id)
                found = True
        return found

    def _remember_unknown(self, account_id: str, message_id: str, decided: _Round) -> None:
        """Note the debits and slots of an entry whose answer was lost, for the reconciler."""
        self._heads.pop(account_id, None)
        settle_after = self._settled_after()
        if len(decided.charged) == 1:
            request_id, credits = decided.charged[0]
            self._unknown_debits[request_id] = (account_id, credits, settle_after)
        elif decided.charged:
            self._unknown_batches[message_id] = (account_id, decided.charged, settle_after)
        for pending, admission, _ in decided.admitted:
            if admission.allowed:
                self._unknown_slots[(account_id, pending.slot_id)] = settle_after
        self._start_reconciler()

    # --- writes whose answer was lost ------------------------------------------------------------

    async def _undo_batch(self, message_id: str, account_id: str, debits: list[tuple[str, int]]) -> None:
        """Refund every debit of a batch entry whose answer was lost, if it was stored (the
        ledger lock held); StoreUnavailable leaves it for the next round."""
        seq = await self._probe(self._ledger_prefix + account_id, message_id)
        if seq is None:
            return  # never stored: nothing was charged
        for request_id, credits in debits:
            self._remember_debit(request_id, account_id, credits, seq)
        for request_id, credits in debits:
            await self._undo_debit(account_id, credits, request_id)

    async def _undo_debit(self, account_id: str, credits: int, request_id: str) -> None:
        """Refund one debit whose answer was lost (nothing happens if it was never stored);
        StoreUnavailable propagates, any other failure is logged and given up."""
        try:
            await self._refund(account_id, credits, request_id)
        except StoreUnavailable:
            raise
        except (StoreError, ValueError) as exc:
            log.error("unanswered_debit_not_undone", account_id=account_id, error=repr(exc))
        else:
            log.info("unanswered_debit_undone", account_id=account_id, request_id=request_id)

    def _settled_after(self) -> float:
        """Return the monotonic time after which a request sent now and unanswered has either
        been applied or never will be: it may still sit in the server's queue until then."""
        return time.monotonic() + 2 * self._timeout_s

    def _start_reconciler(self) -> None:
        if self._reconciler is None or self._reconciler.done():
            self._reconciler = asyncio.get_running_loop().create_task(self._reconcile())

    async def _reconcile(self) -> None:
        """Undo each write whose answer was lost, once it has settled and the server answers:
        refund the debit (nothing happens if it was never stored) and free the slot. Runs
        until none is left or the store closes."""
        while (self._unknown_debits or self._unknown_batches or self._unknown_slots) and not self._closed:
            await asyncio.sleep(0.1)
            if self._nc is None or not self._nc.is_connected:
                continue
            now = time.monotonic()
            try:
                for request_id, unknown in list(self._unknown_debits.items()):
                    account_id, credits, due = unknown
                    if due > now:
                        continue
                    async with self._ledger_lock(account_id):
                        if self._unknown_debits.get(request_id) is not unknown:
                            continue  # a retry of that reserve settled it meanwhile
                        await self._undo_debit(account_id, credits, request_id)
                        self._unknown_debits.pop(request_id, None)
                for message_id, unknown_batch in list(self._unknown_batches.items()):
                    account_id, debits, due = unknown_batch
                    if due > now:
                        continue
                    async with self._ledger_lock(account_id):
                        await self._undo_batch(message_id, account_id, debits)
                    self._unknown_batches.pop(message_id, None)
                for (account_id, slot_id), due in list(self._unknown_slots.items()):
                    if due <= now:
                        await self.release(account_id, slot_id)
            except StoreUnavailable:
                continue


def _settle(future: asyncio.Future, result: Any = None, *, error: BaseException | None = None) -> None:
    """Give a waiting caller its result or error, unless it has stopped waiting."""
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _decide(
    state: _Limits, limit: int, max_concurrent: int, slot_id: str, now_s: float
) -> tuple[Admission, _Limits | None]:
    """Return the admission of one request at ``now_s`` given ``state``, and the state after
    it if it is allowed (None if refused)."""
    window_start_s = int(now_s // RATE_WINDOW_S) * RATE_WINDOW_S
    admitted = 0
    if state.window_start_s >= window_start_s:
        window_start_s, admitted = state.window_start_s, state.count
    reset_at_s = window_start_s + RATE_WINDOW_S
    if admitted >= limit:
        return Admission(False, limit, 0, reset_at_s, max(1, math.ceil(reset_at_s - now_s)), "rate"), None
    slots = {slot: expires for slot, expires in state.slots.items() if expires > now_s}
    if len(slots) >= max_concurrent:
        return Admission(False, limit, limit - admitted, reset_at_s, 1, "concurrency"), None
    slots[slot_id] = now_s + SLOT_LEASE_S
    return Admission(True, limit, limit - admitted - 1, reset_at_s), _Limits(window_start_s, admitted + 1, slots)


@dataclass
class _Round:
    """The decisions of one write of an account's writer, made from one head."""

    limits: _Limits  # the admission state after the write
    balance: int  # the balance after the write
    changed: bool  # whether the admission state changed: a write is due even with no debit
    doubt: bool  # a refusal, or a release of a slot the head does not hold
    charged: list[tuple[str, int]]  # (request id, credits) debited, in order
    short: list[str]  # request ids the balance did not cover
    # Each admission, with the balance after its debit (None: it had none, or was short).
    admitted: list[tuple[_PendingAdmit, Admission, int | None]]
    # Each plain debit, with the balance after it (None: short).
    debited: list[tuple[_PendingDebit, int | None]]


def _decide_round(
    head: _Head,
    admits: list[_PendingAdmit],
    debits: list[_PendingDebit],
    released: list[str],
    precharged: set[str],
) -> _Round:
    """Return the decisions for ``admits`` then ``debits``, each in arrival order, from
    ``head`` with the slots ``released`` freed first (so a freed slot is there for an admission
    of the same write). An admission's debit is charged only when it is allowed. Debits of
    ``precharged`` request ids are already in the ledger: granted, not charged again."""
    limits = head.limits
    changed = any(slot in limits.slots for slot in released)
    doubt = any(slot not in limits.slots for slot in released)
    if changed:
        limits = replace(limits, slots={k: v for k, v in limits.slots.items() if k not in released})
    balance = head.balance
    charged: list[tuple[str, int]] = []
    short: list[str] = []

    def charge(request_id: str, credits: int) -> int | None:
        nonlocal balance
        if request_id in precharged:
            return balance
        if credits > balance:
            short.append(request_id)
            return None
        balance -= credits
        charged.append((request_id, credits))
        return balance

    admitted: list[tuple[_PendingAdmit, Admission, int | None]] = []
    for pending in admits:
        admission, after_admission = _decide(limits, pending.rate, pending.max_concurrent, pending.slot_id, pending.now_s)
        after = None
        if after_admission is None:
            doubt = True
        else:
            limits, changed = after_admission, True
            if pending.debit is not None:
                after = charge(*pending.debit)
        admitted.append((pending, admission, after))
    debited = [(pending, charge(pending.request_id, pending.credits)) for pending in debits]
    return _Round(limits, balance, changed, doubt, charged, short, admitted, debited)


def _settle_round(decided: _Round, releases: list[tuple[str, asyncio.Future]]) -> None:
    """Give every caller of a written (or nothing-to-write) round its outcome."""
    for pending, admission, after in decided.admitted:
        if pending.debit is None:
            _settle(pending.future, admission)
        elif not admission.allowed:
            _settle(pending.future, AdmittedCharge(admission))
        elif after is None:
            _settle(pending.future, AdmittedCharge(admission, insufficient=_insufficient(pending.debit[1], decided.balance)))
        else:
            _settle(pending.future, AdmittedCharge(admission, balance=after))
    for pending, after in decided.debited:
        if after is None:
            _settle(pending.future, error=_insufficient(pending.credits, decided.balance))
        else:
            _settle(pending.future, after)
    for _, future in releases:
        _settle(future)


def _ledger_entry(charged: list[tuple[str, int]], credits: int, balance_after: int, limits: _Limits) -> tuple[dict, str]:
    """Return the ledger entry recording ``charged`` (request id, credits) and the admission
    state ``limits``, and its de-duplication id: a lone debit is a ``debit`` entry named after
    its request, several a ``debits`` entry named after the batch, none a ``limits`` entry."""
    entry: dict[str, Any]
    if len(charged) == 1:
        request_id, _ = charged[0]
        entry = {"kind": "debit", "request_id": request_id}
        message_id = f"debit:{request_id}"
    elif charged:
        entry = {"kind": "debits", "entries": [{"request_id": r, "credits": c} for r, c in charged]}
        message_id = f"debits:{uuid.uuid4().hex}"
    else:
        message_id = f"limits:{uuid.uuid4().hex}"
        entry = {"kind": "limits", "request_id": message_id}
    entry.update(credits=credits, balance_after=balance_after, at_s=time.time(), limits=limits.as_doc())
    return entry, message_id


def _debit_terms(admits: list[_PendingAdmit], debits: list[_PendingDebit]) -> Iterable[tuple[str, int]]:
    """Yield (request id, credits) of every debit waiting in ``admits`` and ``debits``."""
    for pending in admits:
        if pending.debit is not None:
            yield pending.debit
    for pending in debits:
        yield pending.request_id, pending.credits


def _futures(
    admits: list[_PendingAdmit], debits: list[_PendingDebit], releases: list[tuple[str, asyncio.Future]]
) -> list[asyncio.Future]:
    return [p.future for p in admits] + [p.future for p in debits] + [f for _, f in releases]


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
    store = NatsStore(
        prefix=prefix,
        request_timeout_s=request_timeout_s,
        duplicate_window_s=duplicate_window_s,
        replicas=replicas,
    )
    await store._connect(url, connect_timeout_s, reconnect_wait_s, name)
    try:
        await store._ensure_layout()
    except BaseException:
        await store.close()
        raise
    return store
