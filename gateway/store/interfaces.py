"""The key and credit store: records, the ``Store`` protocol every backend implements, key rules.

Three backends implement :class:`Store`: ``SqliteStore`` (embedded, one file) and
``NatsStore`` (JetStream), which pass one contract suite (``tests/unit/test_store_contract.py``),
and ``MemoryStore`` (one process's dictionaries, for the benchmarks' stub gateway).
Everything here is backend-neutral: the records, the key format, the hash, origin validation
and the store's own (non-HTTP) exceptions.

Credits move only through ledger rows. Each row is keyed by ``(request_id, kind)``, unique, so
a retried debit, refund or top-up with the same request id is applied once. ``request_id``
must be minted by the server (never a client-supplied ``X-Request-Id`` on its own): a client
that could choose it could replay one id and have later requests treated as retries.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import AsyncIterator, Iterable, Literal, Protocol, runtime_checkable

from shared.errors import InsufficientCredits

#: The fixed prefix of every key (spec, Authentication 2), there for secret scanners.
KEY_PREFIX = "svc_live_"
#: Length of the random part: ``secrets.token_urlsafe(24)`` gives 32 characters (192 bits).
KEY_RANDOM_CHARS = 32
_KEY_RANDOM_BYTES = 24
#: Characters of the random part shown in listings; 4 of 32 leave 168 secret bits.
PREFIX_HINT_CHARS = 4
_KEY_RE = re.compile(r"svc_live_[A-Za-z0-9_-]{32}")
#: Anything that starts like a key, whole, cut short or run on: what no message may repeat.
_KEY_LIKE_RE = re.compile(r"svc_live_[A-Za-z0-9_-]+")

#: An origin as browsers serialise it (the WHATWG URL standard): ``http`` or ``https``, a
#: lowercase ASCII host (IDNs in punycode; an IP address in its canonical form), the port only
#: when it is not the scheme's default, and nothing else: no userinfo, path, trailing slash,
#: query, fragment or wildcard. Matching is exact string comparison (spec, Authentication 5), so
#: anything a browser can never send is refused when it is configured, not silently dead.
_ORIGIN_RE = re.compile(
    r"(?P<scheme>https?)://(?P<host>[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[(?P<ipv6>[0-9a-f:.]+)\])"
    r"(?::(?P<port>[1-9][0-9]{0,4}))?"
)
#: The port a browser leaves out of the Origin it sends, per scheme.
DEFAULT_PORTS = {"http": 80, "https": 443}
_MAX_PORT = 65535
#: A host whose last label is a number is an IPv4 address to a browser (``127.1``, ``0x7f.1``).
_NUMERIC_LABEL_RE = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)")

#: An account name: 1-64 ASCII letters, digits, '.', '_' or '-', the first a letter or digit,
#: without one of RESERVED_NAME_PREFIXES. A name is a path segment of the admin API
#: (``/admin/v1/accounts/{account}``), so it holds no '/', space or control character and is
#: never '.' or '..' (which clients resolve away); ASCII only, so that case-insensitive
#: uniqueness means the same in every store.
ACCOUNT_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
#: Prefixes a name may not take: an account id's (a name must never read as another account's
#: id) and a key's (a key pasted as a name would then be shown in every view and log line).
ACCOUNT_ID_PREFIX = "acct_"
RESERVED_NAME_PREFIXES = (ACCOUNT_ID_PREFIX, KEY_PREFIX)
ACCOUNT_NAME_RULE = (
    "1-64 ASCII letters, digits, '.', '_' or '-', starting with a letter or digit,"
    f" not starting with {' or '.join(map(repr, RESERVED_NAME_PREFIXES))}"
)

KeyState = Literal["active", "revoked", "expired"]
LedgerKind = Literal["debit", "refund", "topup"]


def utc_now() -> datetime:
    """Return the current time as an aware UTC datetime."""
    return datetime.now(UTC)


def to_unix_s(moment: datetime | None) -> float | None:
    """Return an aware datetime as Unix seconds (None stays None): how stores keep instants."""
    return None if moment is None else moment.timestamp()


def from_unix_s(seconds: float | None) -> datetime | None:
    """Return Unix seconds as an aware UTC datetime (None stays None)."""
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC)


def generate_key() -> str:
    """Return a new plain key: ``svc_live_`` plus 32 URL-safe random characters."""
    return KEY_PREFIX + secrets.token_urlsafe(_KEY_RANDOM_BYTES)


def new_account_id() -> str:
    """Return a fresh account id: ``acct_`` plus 16 random hex digits (a subject-safe token)."""
    return ACCOUNT_ID_PREFIX + secrets.token_hex(8)


def new_key_id() -> str:
    """Return a fresh key id: ``key_`` plus 16 random hex digits (not secret: it names the key)."""
    return "key_" + secrets.token_hex(8)


def is_well_formed_key(candidate: str) -> bool:
    """Return whether ``candidate`` has the key format (prefix, length, alphabet)."""
    return _KEY_RE.fullmatch(candidate) is not None


def hash_key(plain_key: str) -> str:
    """Return the SHA-256 hex digest under which a key is stored and looked up.

    No salt is needed: the key carries 192 random bits, so the digest cannot be reversed by
    search, and an unsalted digest lets every gateway find a key with one indexed lookup.
    """
    return hashlib.sha256(plain_key.encode("utf-8")).hexdigest()


def prefix_hint(plain_key: str) -> str:
    """Return the first characters of the key's random part, safe to show in listings."""
    return plain_key[len(KEY_PREFIX) : len(KEY_PREFIX) + PREFIX_HINT_CHARS]


def redact_keys(text: str) -> str:
    """Return ``text`` with anything shaped like a plain key cut to its prefix (``svc_live_...``).

    Every message built from a value a client or an admin supplied goes through it (an error
    body, a CLI error line), so no answer repeats a key even when one was sent in its place.
    """
    return _KEY_LIKE_RE.sub(KEY_PREFIX + "...", text)


#: Characters of a supplied value a message repeats; a longer value is cut, so a message stays
#: a line whatever was sent.
QUOTED_CHARS = 80


def exception_message(exc: BaseException) -> str:
    """Return the message an exception was raised with (its class name when it has none)."""
    return str(exc.args[0]) if exc.args else type(exc).__name__


def quoted(value: object) -> str:
    """Return ``repr(value)`` for a message, any key in it redacted (:func:`redact_keys`), cut
    to QUOTED_CHARS."""
    text = redact_keys(repr(value))
    return text if len(text) <= QUOTED_CHARS else text[:QUOTED_CHARS] + "..."


def validate_origins(origins: Iterable[str]) -> tuple[str, ...]:
    """Return ``origins`` as a de-duplicated tuple, in order, refusing what can never match.

    Raises ``ValueError`` for anything a browser never sends as an ``Origin`` (see
    ``_ORIGIN_RE``): another scheme, uppercase letters, a path or trailing slash, userinfo,
    a query, a wildcard, a non-ASCII host, the scheme's default port or a port out of range,
    an IP address not in its canonical form.
    """
    if isinstance(origins, str):
        raise ValueError("origins must be a list of strings, not one string")
    seen: list[str] = []
    for origin in origins:
        problem = _origin_problem(origin)
        if problem is not None:
            raise ValueError(f"not an origin: {quoted(origin)}; expected http(s)://host[:port] ({problem})")
        if origin not in seen:
            seen.append(origin)
    return tuple(seen)


def _origin_problem(origin: object) -> str | None:
    """Return why ``origin`` is not one a browser sends, or None when it is."""
    if not isinstance(origin, str):
        return "an origin is a string"
    if "*" in origin:
        return "wildcards are not supported; list each origin"
    if origin != origin.lower():
        return f"browsers send it lowercase: {quoted(origin.lower())}"
    if not origin.isascii():
        return "browsers send a non-ASCII host in its punycode (xn--) form"
    match = _ORIGIN_RE.fullmatch(origin)
    if match is None:
        rest = origin.partition("://")[2]
        if not origin.startswith(("http://", "https://")):
            return "only http and https origins can be configured"
        if "@" in rest:
            return "an origin has no user name or password"
        if any(mark in rest for mark in "/?#"):
            return "an origin has no path, trailing slash, query or fragment"
        return "not a host and optional port"
    scheme, host, port = match["scheme"], match["host"], match["port"]
    if port is not None and int(port) == DEFAULT_PORTS[scheme]:
        return f"browsers leave out the default port: {quoted(f'{scheme}://{host}')}"
    if port is not None and int(port) > _MAX_PORT:
        return f"a port is at most {_MAX_PORT}"
    canonical = _canonical_ip(match["ipv6"], host)
    if canonical == "":
        return "not a valid IP address"
    if canonical is not None and canonical != host:
        return f"browsers send this address as {quoted(canonical)}"
    return None


def _canonical_ip(ipv6: str | None, host: str) -> str | None:
    """Return the host as browsers write it when it is an IP address (``""`` when it is not
    a valid one), None when it is a domain name."""
    try:
        if ipv6 is not None:
            return f"[{ipaddress.IPv6Address(ipv6).compressed}]"
        if _NUMERIC_LABEL_RE.fullmatch(host.rsplit(".", 1)[-1]):
            return str(ipaddress.IPv4Address(host))
    except ValueError:
        return ""
    return None


def require_aware(moment: datetime | None, name: str) -> datetime | None:
    """Return ``moment`` converted to UTC, refusing naive datetimes."""
    if moment is None:
        return None
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{name} must be timezone-aware, e.g. datetime(2030, 1, 1, tzinfo=UTC)")
    return moment.astimezone(UTC)


def validate_account_name(name: object) -> str:
    """Return ``name`` when it follows the account name grammar (``ACCOUNT_NAME_RE``); raise
    ValueError otherwise."""
    if not isinstance(name, str) or ACCOUNT_NAME_RE.fullmatch(name) is None or name.startswith(RESERVED_NAME_PREFIXES):
        raise ValueError(f"an account name is {ACCOUNT_NAME_RULE}; got {quoted(name)}")
    return name


def validate_new_account(name: str, credits: int, rate_per_minute: int, max_concurrent: int) -> None:
    """Return None when the fields of a new account are acceptable; raise ValueError otherwise.

    The name follows the account name grammar; the opening balance, rate and concurrency
    limits are within their bounds (``OPENING_BALANCE``, ``RATE_PER_MINUTE``, ``MAX_CONCURRENT``).
    """
    validate_account_name(name)
    OPENING_BALANCE.check(credits)
    validate_limits(rate_per_minute, max_concurrent)


def validate_limits(rate_per_minute: int | None, max_concurrent: int | None) -> None:
    """Return None when each limit given (None: not given) is within its bound; raise ValueError otherwise."""
    if rate_per_minute is not None:
        RATE_PER_MINUTE.check(rate_per_minute)
    if max_concurrent is not None:
        MAX_CONCURRENT.check(max_concurrent)


def require_future_expiry(expires_at: datetime | None) -> datetime | None:
    """Return ``expires_at`` in UTC (None for a key that never expires), refusing naive or past moments."""
    expires_at = require_aware(expires_at, "expires_at")
    if expires_at is not None and expires_at <= utc_now():
        raise ValueError(f"expires_at must be in the future, got {expires_at.isoformat()}")
    return expires_at


# --- bounds ----------------------------------------------------------------------------------

#: The largest balance an account may hold, so also the largest opening balance or top-up:
#: 10^15 credits, more than any account will buy. Every integer up to 2^53 (about 9.007 * 10^15)
#: is exact in a JSON client's double (JavaScript's Number), and every store keeps 64-bit
#: integers: a balance that stays under 10^15 never loses a credit on its way to a client,
#: and the room left below 2^53 absorbs the refunds of requests that were in flight when a
#: top-up reached the ceiling (a refund only gives back what was charged).
MAX_BALANCE = 10**15


@dataclass(frozen=True)
class Bound:
    """The inclusive range of one integer the stores and both admin interfaces accept."""

    name: str
    minimum: int
    maximum: int

    def check(self, value: object) -> int:
        """Return ``value`` when it is an integer (not a boolean) in range; raise ValueError otherwise."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{self.name} must be an integer, got {quoted(value)}")
        if not self.minimum <= value <= self.maximum:
            raise ValueError(f"{self.name} must be {self.describe()}, got {value}")
        return value

    def describe(self) -> str:
        """Return the range in words, e.g. ``between 1 and 1000000``."""
        return f"between {self.minimum} and {self.maximum}"


#: Credits given to a new account: none up to the ceiling.
OPENING_BALANCE = Bound("credits", 0, MAX_BALANCE)
#: Credits moved by one top-up, debit or refund: at least one, at most the ceiling.
CREDITS = Bound("credits", 1, MAX_BALANCE)
#: Requests per minute: up to 10^9 (over 16 million a second), beyond what any deployment
#: serves, so every real limit fits; an unlimited account is one with this limit.
RATE_PER_MINUTE = Bound("rate_per_minute", 1, 10**9)
#: Requests in flight: up to 10^6, beyond the connections any deployment holds.
MAX_CONCURRENT = Bound("max_concurrent", 1, 10**6)


def require_credits(credits: int) -> int:
    """Return ``credits`` if it is within ``CREDITS`` (one top-up, debit or refund), else raise ValueError."""
    return CREDITS.check(credits)


def check_balance_ceiling(account: str, balance: int, credits: int) -> None:
    """Return None when adding ``credits`` keeps ``balance`` within MAX_BALANCE; raise BalanceCeiling otherwise."""
    if balance + credits > MAX_BALANCE:
        raise BalanceCeiling(
            f"a top-up of {credits} credits would take the balance of account {account} past"
            f" {MAX_BALANCE}; the balance is {balance}"
        )


# --- records ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Account:
    """An account: its credit balance and the limits all its keys share."""

    id: str
    name: str
    balance: int
    rate_per_minute: int = 300
    max_concurrent: int = 50
    created_at: datetime = field(default_factory=utc_now)


@dataclass(frozen=True)
class KeyRecord:
    """What the store keeps of a key: its hash and settings, never the key itself."""

    key_id: str
    account_id: str
    key_hash: str = field(repr=False)  # kept out of repr so a logged record shows no digest
    prefix_hint: str
    created_at: datetime
    expires_at: datetime | None = None
    revoked_at: datetime | None = None
    allowed_origins: tuple[str, ...] = ()
    browser_only: bool = False

    def state(self, now: datetime | None = None) -> KeyState:
        """Return ``active``, ``revoked`` or ``expired`` at ``now`` (default: the current time).

        A revoked key is revoked whatever ``now`` is (revocation is immediate, and a gateway
        whose clock runs behind the admin's must not read it as "not yet"); revocation wins over
        expiry; a key whose expiry equals ``now`` is expired.
        """
        if self.revoked_at is not None:
            return "revoked"
        now = utc_now() if now is None else now
        if self.expires_at is not None and self.expires_at <= now:
            return "expired"
        return "active"


@dataclass(frozen=True)
class Usage:
    """Ledger totals of one account since a moment (or since it was created)."""

    account_id: str
    since: datetime | None
    requests: int  # debit rows: requests charged
    refunds: int  # refund rows
    credits_debited: int
    credits_refunded: int
    credits_topped_up: int  # includes the opening balance given at creation

    @property
    def credits_used(self) -> int:
        """Return the credits actually spent: debits less refunds."""
        return self.credits_debited - self.credits_refunded

    @classmethod
    def of_totals(cls, account_id: str, since: datetime | None, totals: dict[str, tuple[int, int]]) -> Usage:
        """Return the usage from ``totals``: ledger entry kind (debit, refund, topup) -> (entries, credits)."""
        return cls(
            account_id=account_id,
            since=since,
            requests=totals["debit"][0],
            refunds=totals["refund"][0],
            credits_debited=totals["debit"][1],
            credits_refunded=totals["refund"][1],
            credits_topped_up=totals["topup"][1],
        )


#: Length of a rate-limit window: limits are requests per minute (decisions.md, Limits).
RATE_WINDOW_S = 60
#: How long a concurrency slot is held at most when its holder never releases it (a gateway
#: killed mid-request): longer than any deadline, so a live request is never dropped early.
SLOT_LEASE_S = 120


@dataclass(frozen=True)
class Admission:
    """The outcome of :meth:`Store.admit`: whether a request may run under its account's limits.

    ``limit`` is the account's requests per minute and ``remaining`` what is left of it in the
    current window after this request (0 when refused for the rate, the window's real count
    when refused for concurrency); ``reset_at_s`` is the Unix second
    at which the window ends. A refused request has ``retry_after_s`` >= 1 and ``reason``
    ``rate`` or ``concurrency``; it took no slot and did not count towards the window.
    """

    allowed: bool
    limit: int
    remaining: int
    reset_at_s: int
    retry_after_s: int = 0
    reason: Literal["ok", "rate", "concurrency"] = "ok"


@dataclass(frozen=True)
class AdmittedCharge:
    """The outcome of :meth:`Store.admit_and_reserve`: the admission, then the charge it allowed.

    Refused by the limits: ``balance`` and ``insufficient`` are None, nothing was counted,
    held or charged. Admitted: the request counts and holds its slot whatever follows; then
    either ``balance`` is the balance after the debit, or ``insufficient`` is the 402 to
    answer because the balance could not cover the cost (nothing was debited).
    """

    admission: Admission
    balance: int | None = None
    insufficient: InsufficientCredits | None = None


async def admit_then_reserve(
    store: Store, account: Account, slot_id: str, credits: int, request_id: str, now_s: float | None = None
) -> AdmittedCharge:
    """Return :meth:`Store.admit_and_reserve` done as its two steps, for a store with no
    cheaper way to do both at once."""
    admission = await store.admit(account, slot_id, now_s, charge=(request_id, credits))
    if not admission.allowed:
        return AdmittedCharge(admission)
    try:
        return AdmittedCharge(admission, balance=await store.reserve(account.id, credits, request_id))
    except InsufficientCredits as short:
        return AdmittedCharge(admission, insufficient=short)


# --- errors (store level; the gateway maps them, or never sees them) -------------------------


class StoreError(Exception):
    """Base of the store's own failures (not client errors: those are CelestialError)."""


class AccountNotFound(StoreError, LookupError):
    """No account has that id or name."""


class AccountExists(StoreError, ValueError):
    """Another account already has that name."""


class KeyNotFound(StoreError, LookupError):
    """No key has that id."""


def no_such_account(account: object) -> AccountNotFound:
    """Return the AccountNotFound for a name or id looked up in vain (any key in it redacted)."""
    return AccountNotFound(f"no account {quoted(account)}")


def no_such_key(key_id: object) -> KeyNotFound:
    """Return the KeyNotFound for a key id looked up in vain, never repeating a plain key sent
    in its place (a common slip: the id is the ``key_...`` that listings show)."""
    hint = ""
    if isinstance(key_id, str) and KEY_PREFIX in key_id:
        hint = " (that is an API key, not a key id: key ids start with 'key_'; list the account's keys to find it)"
    return KeyNotFound(f"no key {quoted(key_id)}{hint}")


class KeyNotActive(StoreError, ValueError):
    """The operation needs an active key and the key is revoked or expired."""


class BalanceCeiling(StoreError, ValueError):
    """A top-up would take the balance past MAX_BALANCE; nothing was changed."""


class LedgerConflict(StoreError, ValueError):
    """A request id already has a ledger row of that kind for another account or amount."""


class StoreUnavailable(StoreError):
    """The store cannot be reached (a NATS server down); nothing was changed by the call.

    The gateway answers 503 ``service_unavailable`` and charges nothing.
    """


class StoreOutcomeUnknown(StoreUnavailable):
    """A write reached the store but its answer never came back (the connection dropped, or no
    answer within the time limit): it may or may not have been applied.

    The gateway answers 503 like any StoreUnavailable, and refunds the request's charge once
    the store answers again (a refund of a debit never written gives nothing back).
    """


class StoreBusy(StoreError):
    """The store stayed locked by other writers for longer than the store's wait limit."""


# --- the protocol ----------------------------------------------------------------------------


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
    ) -> tuple[str, KeyRecord]:
        """Return ``(plain_key, record)``; the plain key is never stored, only its hash."""
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

    async def update_origins(
        self, key_id: str, origins: Iterable[str], browser_only: bool | None = None
    ) -> KeyRecord:
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

    async def top_up(
        self, account: str, credits: int, *, request_id: str | None = None, reason: str = "top-up"
    ) -> int:
        """Return the balance after adding ``credits`` (idempotent per ``request_id``)."""
        ...

    async def reserve(self, account_id: str, credits: int, request_id: str) -> int:
        """Return the balance after debiting ``credits`` atomically.

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
        self, account: Account, slot_id: str, credits: int, request_id: str, now_s: float | None = None
    ) -> AdmittedCharge:
        """Return the outcome of :meth:`admit` followed, when it allows, by :meth:`reserve`.

        The same rules and effects as the two calls in sequence (a request refused by the
        limits is not charged; one admitted but short of credits stays counted and holds its
        slot), in one step where the backend allows it: a paid request's hot path.
        """
        ...


@runtime_checkable
class Store(Keys, CreditLedger, Limiter, Protocol):
    """The whole store a backend implements: keys, the credit ledger and the limiter. Every
    method is async; implementations are process-safe."""

    async def close(self) -> None:
        """Release connections; the store is unusable afterwards."""
        ...
