"""The key and credit store's interfaces: ``Keys``, ``CreditLedger``, ``Limiter`` and
``IdempotencyRecords``, which together make the ``Store`` every backend implements.

Three backends implement :class:`Store`: ``SqliteStore`` (embedded, one file) and
``NatsStore`` (JetStream), which pass one contract suite (``tests/unit/store/test_store_contract.py``),
and ``MemoryStore`` (one process's dictionaries, for the benchmarks' stub gateway). What they
share lives beside this module: the key format (``key_format.py``), origins (``origins.py``),
the bounds of what they accept (``bounds.py``), the records (``records.py``) and the store's
errors (``errors.py``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from datetime import date, datetime
from typing import Protocol, runtime_checkable

from shared.errors import InsufficientCredits
from store.chart_records import StoredChart
from store.idempotency_records import IdempotencyRecord, StoredAnswer
from store.key_format import KeyMode
from store.owner_records import OwnerRecord, SessionRecord, SignInThrottle
from store.records import Account, Admission, AdmittedCharge, ChargeNote, KeyRecord, LedgerEntry, Usage, UsageRow
from store.spend_caps import SpendCap, SpendStatus, SpendWarning
from store.status_records import LatencyHistogram, ProbeDay, ProbeResult
from store.webhook_records import KEEP_DELIVERIES, Delivery, Webhook


@runtime_checkable
class Keys(Protocol):
    """The API keys: looked up by hash on every request, their life cycle, and the feed of changes
    that keeps every gateway's key cache honest (what ``gateway/auth.py`` and the admin API use)."""

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
        """Return ``(plain_key, record)``; the plain key is never stored, only its hash.
        ``name`` is what its owner calls it (``bounds.validate_key_name``); ``mode`` ``test``
        makes a ``svc_test_`` key (``key_format.validate_key_mode``; ValueError otherwise)."""
        ...

    async def find_key_by_hash(self, key_hash: str) -> KeyRecord | None:
        """Return the key whose SHA-256 hex digest is ``key_hash``, in any state; None if none."""
        ...

    async def get_key(self, key_id: str) -> KeyRecord | None:
        """Return the key with id ``key_id``; None if none."""
        ...

    async def revoke_key(self, key_id: str) -> KeyRecord:
        """Return the key after revoking it (revoking twice keeps the first time). Raises KeyNotFound."""
        ...

    async def update_origins(self, key_id: str, origins: Iterable[str], browser_only: bool | None = None) -> KeyRecord:
        """Return the active key with its allowed origins replaced (and browser_only when given).
        Raises KeyNotFound, KeyNotActive, ValueError for an origin that can never match."""
        ...

    async def list_keys(self, account: str) -> list[KeyRecord]:
        """Return every key of the account (id or name), oldest first. Raises AccountNotFound."""
        ...

    def key_changes(self) -> AsyncIterator[str | None]:
        """Yield, as they happen, the hash of each key that changed (created, revoked, origins
        updated) in any process, or None when changes may have been missed (after a
        reconnection, or when the backend cannot tell which key): the caller then forgets every
        cached key. The iterator ends when the store is closed.
        """
        ...


@runtime_checkable
class CreditLedger(Protocol):
    """Accounts and their credits: every change of a balance is a ledger entry named by its
    request id (what ``gateway/accounting.py`` charges and refunds, and the admin API tops up)."""

    async def create_account(
        self, name: str, credits: int, rate_per_minute: int = 300, max_concurrent: int = 50
    ) -> Account:
        """Return a new account with an opening balance of ``credits``; names are unique
        (case-insensitive). Raises AccountExists."""
        ...

    async def get_account(self, account: str) -> Account | None:
        """Return the account whose id, or else whose name, is ``account``; None if none."""
        ...

    async def top_up(self, account: str, credits: int, *, request_id: str | None = None, reason: str = "top-up") -> int:
        """Return the balance after adding ``credits`` (idempotent per ``request_id``)."""
        ...

    async def reserve(self, account_id: str, credits: int, request_id: str, note: ChargeNote | None = None) -> int:
        """Return the balance after debiting ``credits`` atomically, the debit's ledger row
        carrying ``note`` (what it paid for) when given.

        Raises InsufficientCredits (the balance is left untouched) when the balance cannot
        cover it; the balance never goes negative. A second reserve with the same
        ``request_id`` charges nothing and returns the current balance.
        """
        ...

    async def refund(self, account_id: str, credits: int, request_id: str) -> int:
        """Return the balance after giving back up to the credits debited for ``request_id``.

        Idempotent: a second refund of the same request changes nothing. A request with no
        debit has nothing to refund (nothing changes). Raises ValueError when ``credits``
        exceeds what that request was charged.
        """
        ...

    async def balance(self, account_id: str) -> int:
        """Return the account's balance in credits. Raises AccountNotFound."""
        ...

    async def usage(self, account_id: str, since: datetime | None = None) -> Usage:
        """Return ledger totals for the account from ``since`` (inclusive; default all)."""
        ...

    async def daily_usage(
        self, account_id: str, first_day: date, last_day: date, key_id: str | None = None
    ) -> list[UsageRow]:
        """Return the requests charged to the account from ``first_day`` to ``last_day`` (UTC
        days, inclusive), one row per day, key and endpoint that had any, ordered by day, key
        id, endpoint; only ``key_id``'s when given (rows of no key for an unknown id).

        A request counts on the UTC day of its debit, under the key and endpoint its note
        names, and costs its debit less what was refunded of it (``store/usage_rows.py``).
        Raises AccountNotFound, ValueError when ``last_day`` precedes ``first_day``.
        """
        ...


@runtime_checkable
class Limiter(Protocol):
    """Each account's rate window and concurrency slots, shared by every gateway (what
    ``gateway/accounting.py`` admits and releases)."""

    async def set_limits(
        self, account: str, *, rate_per_minute: int | None = None, max_concurrent: int | None = None
    ) -> Account:
        """Return the account (id or name) after changing the limits given (each >= 1).
        Raises AccountNotFound, ValueError."""
        ...

    async def admit(
        self, account: Account, slot_id: str, now_s: float | None = None, *, charge: tuple[str, int] | None = None
    ) -> Admission:
        """Return whether one more request of ``account`` may run now, across every gateway.

        Allowed: the request counts in the account's current fixed window of RATE_WINDOW_S
        seconds (windows start at multiples of RATE_WINDOW_S in Unix time) and holds the
        concurrency slot ``slot_id`` until :meth:`release` or, at the latest, SLOT_LEASE_S.
        Refused (the window's count has reached ``account.rate_per_minute``, or
        ``account.max_concurrent`` slots are held): nothing is counted or held. ``now_s`` is Unix
        seconds (default: now), for tests.

        ``charge`` (request id, credits) is the charge the request makes under the slot: if the
        slot's lease runs out unreleased (its gateway died mid-request), the next admission of
        the account refunds it, whichever process makes it. An allowed admission refunds every
        such lapsed charge (refunds are idempotent per request id, so a charge never comes back
        twice).
        """
        ...

    async def release(self, account_id: str, slot_id: str) -> None:
        """Free the concurrency slot ``slot_id``; releasing an unknown or freed slot is a no-op."""
        ...

    async def hold_charge(self, account_id: str, slot_id: str, charge: tuple[str, int]) -> None:
        """Record that the request holding ``slot_id`` makes ``charge`` (request id, credits)
        under it (a batch's item, charged after the batch's one admission), before the charge
        is made: if the slot lapses unreleased, the account's next admission refunds it (a
        charge never made gives nothing back). A slot not held records nothing."""
        ...

    async def admit_and_reserve(
        self,
        account: Account,
        slot_id: str,
        credits: int,
        request_id: str,
        now_s: float | None = None,
        note: ChargeNote | None = None,
    ) -> AdmittedCharge:
        """Return the outcome of :meth:`admit` followed, when it allows, by :meth:`reserve`
        (its ledger row carrying ``note``).

        The same rules and effects as the two calls in sequence (a request refused by the
        limits is not charged; one admitted but short of credits stays counted and holds its
        slot), in one step where the backend allows it: a paid request's hot path.
        """
        ...


@runtime_checkable
class LimiterForTestKeys(Protocol):
    """Each account's rate window and concurrency slots for the requests of its test keys,
    apart from the live ones (what ``gateway/key_modes.py`` admits and releases): test
    traffic never uses up the live limit, nor live traffic the test limit."""

    async def admit_test_traffic(
        self, account: Account, slot_id: str, now_s: float | None = None, *, computations: int = 1, slots: int = 1
    ) -> Admission:
        """Return whether one more test-key request of ``account`` may run now, across every
        gateway, under ``account.rate_per_minute`` and ``account.max_concurrent`` taken as the
        test limits: the rules of :meth:`Limiter.admit` on a window and slots of their own.
        The request counts ``computations`` in the window and holds ``slots`` slots (the ids
        of ``rules.slot_group(slot_id, slots)``), all or nothing, in one atomic step (a test
        key's traffic is counted by computation: ``gateway/key_modes.py``). Test requests
        charge nothing, so their slots hold no charges."""
        ...

    async def release_test_traffic(self, account_id: str, slot_id: str, slots: int = 1) -> None:
        """Free the ``slots`` test-traffic slots held under ``slot_id``; releasing an unknown
        or freed slot is a no-op."""
        ...


@runtime_checkable
class IdempotencyRecords(Protocol):
    """Each account's ``Idempotency-Key`` records, shared by every gateway (what
    ``gateway/idempotency.py`` claims, completes and releases; the rules are
    ``store/idempotency_records.py``'s). ``key`` is the client's key; ``now_s`` Unix seconds
    (default: now), for tests."""

    async def claim_idempotency(
        self, account_id: str, key: str, fingerprint: str, claim_id: str, lease_s: float, now_s: float | None = None
    ) -> IdempotencyRecord:
        """Return the account's record of ``key`` after trying to claim it, in one atomic step.

        Where no live record holds the key (none, expired, or in progress past its lease:
        ``idempotency_records.may_take``) a new in-progress record is written with
        ``fingerprint``, ``claim_id`` and a lease of ``lease_s`` seconds, and returned: the
        caller holds the claim when the record's ``claim_id`` is its own. Otherwise the record
        found is returned unchanged (of two claims at once, exactly one wins).
        """
        ...

    async def complete_idempotency(
        self, account_id: str, key: str, claim_id: str, answer: StoredAnswer, now_s: float | None = None
    ) -> bool:
        """Return whether ``answer`` was stored in the record of ``key`` held by ``claim_id``
        (False: the claim was lost, taken over after its lease, or the record expired).
        Raises ValueError for a body above MAX_STORED_ANSWER_BYTES."""
        ...

    async def release_idempotency(self, account_id: str, key: str, claim_id: str) -> None:
        """Forget the in-progress record of ``key`` held by ``claim_id`` (its request charged
        nothing); a record of another claim, or one with an answer, is left alone."""
        ...


@runtime_checkable
class SpendCaps(Protocol):
    """The spend caps of accounts and keys (``store/spend_caps.py``), kept by the ledger: every
    :meth:`CreditLedger.reserve` checks them in the same atomic step as the debit, and raises
    SpendCapReached (nothing debited) when the debit would pass the account's cap or the cap
    of the key its note names; a refund frees what it gives back in the current periods."""

    async def set_spend_cap(self, account: str, cap: SpendCap, key_id: str | None = None) -> SpendStatus:
        """Return the account's (id or name) spend status after replacing the caps of the
        account, or of its key ``key_id``, by ``cap`` (an empty cap clears them). Raises
        AccountNotFound, KeyNotFound (no such key on the account), ValueError (a bad cap)."""
        ...

    async def spend_status(self, account: str) -> SpendStatus:
        """Return the account's (id or name) caps and spend in the current UTC day and month,
        read from the ledger. Raises AccountNotFound."""
        ...

    def take_spend_warnings(self) -> list[SpendWarning]:
        """Return, and forget, the 80 % warnings due from debits this process made: each cap's
        first debit of a period at or past 80 % of it, decided in the debit's atomic step, so
        of all processes exactly one is handed each warning."""
        ...


@runtime_checkable
class Limiters(Limiter, LimiterForTestKeys, Protocol):
    """Both limiters, the live traffic's and the test keys' (what ``gateway/accounting.py`` admits under)."""


@runtime_checkable
class Store(Keys, CreditLedger, Limiters, SpendCaps, IdempotencyRecords, Protocol):
    """The whole store a backend implements: keys, the credit ledger, the limiters, the
    spend caps and the idempotency records. Every method is async; implementations are
    process-safe."""

    async def close(self) -> None:
        """Release connections; the store is unusable afterwards."""
        ...


@runtime_checkable
class GatewayHeartbeats(Protocol):
    """A store shared by several gateway processes whose slots a dead gateway would hold until
    their lease ends (the NATS store): each gateway beats, and frees a dead peer's slots and
    refunds their charges (``store/nats_heartbeats.py``). A store of one process (SQLite) has
    no peers and does not implement it: its slots lapse by their lease."""

    async def follow_peers(self) -> None:
        """Beat and watch the other gateways' beats until cancelled or the store is closed."""
        ...


async def admit_then_reserve(
    store: Store,
    account: Account,
    slot_id: str,
    credits: int,
    request_id: str,
    now_s: float | None = None,
    note: ChargeNote | None = None,
) -> AdmittedCharge:
    """Return :meth:`Store.admit_and_reserve` done as its two steps, for a store with no
    cheaper way to do both at once."""
    admission = await store.admit(account, slot_id, now_s, charge=(request_id, credits))
    if not admission.allowed:
        return AdmittedCharge(admission)
    try:
        return AdmittedCharge(admission, balance=await store.reserve(account.id, credits, request_id, note))
    except InsufficientCredits as short:
        return AdmittedCharge(admission, insufficient=short)


@runtime_checkable
class StoredCharts(Protocol):
    """The births an account keeps (issue 40, part 1), each read, changed and deleted only
    under the account that made it."""

    async def create_chart(self, chart: StoredChart, limit: int) -> StoredChart:
        """Keep ``chart`` (its id new, see ``new_chart_id``) and return it. Raises
        ChartLimitReached when its account keeps ``limit`` charts already."""
        ...

    async def get_chart(self, account_id: str, chart_id: str) -> StoredChart | None:
        """Return the account's chart of that id, None when it has none (another account's
        chart included: one account never learns of another's)."""
        ...

    async def replace_chart(self, chart: StoredChart) -> StoredChart | None:
        """Store ``chart`` over the account's chart of the same id and return it; None when
        the account has no such chart (deleted meanwhile)."""
        ...

    async def delete_chart(self, account_id: str, chart_id: str) -> bool:
        """Forget the account's chart of that id at once; return whether there was one."""
        ...

    async def list_charts(self, account_id: str, after: str | None, limit: int) -> list[StoredChart]:
        """Return up to ``limit`` of the account's charts in the order they were made (their
        ids' order), those after the id ``after`` when given."""
        ...


@runtime_checkable
class Webhooks(Protocol):
    """The webhook subscriptions accounts keep (issue 40, part 3), their recent deliveries and
    the events already delivered; a subscription is read, changed and deleted only under its
    account, and listed across accounts only for the delivery workers (:meth:`all_webhooks`)."""

    async def create_webhook(self, webhook: Webhook, limit: int) -> Webhook:
        """Keep ``webhook`` (its id new, see ``new_webhook_id``) and return it. Raises
        WebhookLimitReached when its account keeps ``limit`` subscriptions already."""
        ...

    async def get_webhook(self, account_id: str, webhook_id: str) -> Webhook | None:
        """Return the account's subscription of that id; None when it has none (another
        account's included)."""
        ...

    async def replace_webhook(self, webhook: Webhook) -> Webhook | None:
        """Store ``webhook`` over the account's subscription of the same id and return it;
        None when nothing was written: the account has no such subscription (deleted
        meanwhile), or it has ended, which is final (``webhook_records.replacement``)."""
        ...

    async def end_chart_webhooks(self, account_id: str, chart_id: str) -> int:
        """End every subscription of the account naming stored chart ``chart_id`` (state
        ``ended``, reason ``chart_deleted``: ``webhook_records.ended``), whatever its state;
        return how many were ended now (those ended already are left as they are)."""
        ...

    async def delete_webhook(self, account_id: str, webhook_id: str) -> bool:
        """Forget the account's subscription of that id and its deliveries; return whether
        there was one."""
        ...

    async def list_webhooks(self, account_id: str) -> list[Webhook]:
        """Return the account's subscriptions in the order they were made."""
        ...

    async def all_webhooks(self) -> list[Webhook]:
        """Return every account's subscriptions (what the delivery workers schedule)."""
        ...

    async def record_delivery(self, delivery: Delivery, keep: int = KEEP_DELIVERIES) -> None:
        """Add ``delivery`` to its subscription's recent deliveries, keeping the ``keep``
        newest; a subscription deleted meanwhile keeps nothing."""
        ...

    async def recent_deliveries(self, webhook_id: str, limit: int) -> list[Delivery]:
        """Return up to ``limit`` of the subscription's recent deliveries, newest first."""
        ...

    async def mark_delivered(self, webhook_id: str, event_id: str) -> bool:
        """Mark the event delivered to the subscription (a 2xx was received); return True
        the first time, False when it was marked already (by any process). A mark lasts
        ``DELIVERED_MARK_S`` seconds at least."""
        ...

    async def is_delivered(self, webhook_id: str, event_id: str) -> bool:
        """Return whether the event was marked delivered to the subscription."""
        ...


@runtime_checkable
class LedgerHistory(Protocol):
    """An account's ledger rows one by one (what the dashboard's usage page draws)."""

    async def ledger_entries(self, account_id: str, since: datetime) -> list[LedgerEntry]:
        """Return the account's ledger rows from ``since`` (inclusive), oldest first.
        Raises AccountNotFound."""
        ...


@runtime_checkable
class Owners(Protocol):
    """The people who sign in to an account's dashboard: owners, their invites and passwords,
    their sessions, and the throttles on failed sign-ins (what ``gateway/dashboard`` uses).

    Secrets never reach the store: invites and sessions are kept as digests of their tokens
    (``owner_records.digest_secret``), passwords as argon2 hashes made by the caller.
    """

    async def invite_owner(self, account: str, email: str, invite_digest: str, expires_at: datetime) -> OwnerRecord:
        """Return the owner of ``email`` on the account (id or name), created if new, holding
        this invite (any earlier invite of the owner no longer works). Raises AccountNotFound,
        OwnerElsewhere (the email owns another account), ValueError (not an email)."""
        ...

    async def get_owner(self, owner_id: str) -> OwnerRecord | None:
        """Return the owner with id ``owner_id``; None if none."""
        ...

    async def find_owner_by_email(self, email: str) -> OwnerRecord | None:
        """Return the owner of ``email`` (any case); None if none or not an email."""
        ...

    async def list_owners(self, account: str) -> list[OwnerRecord]:
        """Return the owners of the account (id or name), oldest first. Raises AccountNotFound."""
        ...

    async def redeem_invite(self, owner_id: str, invite_digest: str, password_hash: str, now: datetime) -> OwnerRecord:
        """Return the owner after setting its password from a live invite, which is used up
        (one write: of two redemptions of one invite, one wins). Ends every session of the
        owner. Raises InviteNotValid (unknown owner, wrong, used, superseded or expired invite)."""
        ...

    async def set_password(self, owner_id: str, password_hash: str) -> OwnerRecord:
        """Return the owner after replacing its password hash; ends every session of the owner.
        Raises OwnerNotFound."""
        ...

    async def create_session(self, owner_id: str, secret_digest: str, now: datetime) -> SessionRecord:
        """Return a new session of the owner at its current session epoch. Raises OwnerNotFound."""
        ...

    async def get_session(self, session_id: str) -> SessionRecord | None:
        """Return the session with id ``session_id``; None if none (or ended)."""
        ...

    async def touch_session(self, session_id: str, now: datetime) -> None:
        """Record that the session was used at ``now`` (its idle expiry counts from there);
        an unknown or ended session is left alone."""
        ...

    async def end_session(self, session_id: str) -> None:
        """End the session on every gateway; ending an unknown or ended session is a no-op."""
        ...

    async def record_sign_in_failure(
        self, subject: str, now_s: float, window_s: float, max_failures: int, lockout_s: float
    ) -> SignInThrottle:
        """Return the subject's throttle after one more failed sign-in
        (:meth:`SignInThrottle.after_failure`, applied atomically across processes)."""
        ...

    async def get_sign_in_throttle(self, subject: str) -> SignInThrottle | None:
        """Return the subject's throttle; None if it has no failure recorded."""
        ...

    async def clear_sign_in_throttle(self, subject: str) -> None:
        """Forget the subject's failures and lift its lock-out (a success, or the operator)."""
        ...


@runtime_checkable
class StatusRecords(Protocol):
    """What the public status page reads (issue 50, part 5; ``store/status_records.py``): every
    gateway's latency histograms and probe results, added into totals every gateway reads alike
    (SqliteStore and NatsStore; not MemoryStore, whose gateway shows a page without figures)."""

    async def add_latencies(self, minutes: Sequence[LatencyHistogram]) -> None:
        """Add minute histograms (``period_s`` MINUTE_S) into the kept minute, hour and day
        totals of their class, and forget the periods no longer kept. ValueError for a
        histogram a store may not keep (``status_records.check_histogram``)."""
        ...

    async def latencies(self, period_s: int, since_s: int) -> list[LatencyHistogram]:
        """Return the kept totals of ``period_s`` periods that began at ``since_s`` (Unix
        seconds) or later, by start then class."""
        ...

    async def add_probe_results(self, results: Sequence[ProbeResult]) -> None:
        """Mark each result's minute up or down (down wins: ``status_records.merge_probe_marks``)."""
        ...

    async def probe_days(self, first_day: date) -> list[ProbeDay]:
        """Return the kept probe days from ``first_day`` (UTC) on, oldest first."""
        ...


@runtime_checkable
class DashboardStore(Store, LedgerHistory, Owners, Protocol):
    """A store the dashboard can run on: the whole Store, the ledger's rows and the owners
    (SqliteStore and NatsStore; not MemoryStore, the benchmarks' reference)."""
