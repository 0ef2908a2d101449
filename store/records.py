"""The store's records: accounts, keys, usage, and the outcomes of admitting and charging a
request; with the conversions of the instants they hold.

Credits move only through ledger rows. Each row is keyed by ``(request_id, kind)``, unique, so
a retried debit, refund or top-up with the same request id is applied once. ``request_id``
must be minted by the server (never a client-supplied ``X-Request-Id`` on its own): a client
that could choose it could replay one id and have later requests treated as retries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Literal

from shared.errors import InsufficientCredits
from store.key_format import KeyMode

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
    name: str = ""  # what its owner calls it ("production backend"); '' when unnamed
    mode: KeyMode = "live"  # "test": answers like a live key, never charged (store/key_format.py)

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


@dataclass(frozen=True)
class ChargeNote:
    """What a debit paid for, kept on its ledger row for the account's owner: the endpoint's
    path, the id of the key that called, and the request's id as its client saw it
    (``meta.request_id``, the ``X-Request-Id``). Never the request's parameters."""

    endpoint: str = ""
    key_id: str = ""
    request_id: str = ""

    def __post_init__(self) -> None:
        for name in ("endpoint", "key_id", "request_id"):
            if len(getattr(self, name)) > CHARGE_NOTE_MAX_CHARS:
                raise ValueError(f"a charge note's {name} has more than {CHARGE_NOTE_MAX_CHARS} characters")


#: The longest member of a ChargeNote (a path, a key id, a request id are all far shorter).
CHARGE_NOTE_MAX_CHARS = 200


@dataclass(frozen=True)
class LedgerEntry:
    """One ledger row as an account's owner may see it: when, which kind, how many credits,
    under which request id (the ledger's charge id), and for a debit what it paid for (never
    the request's parameters: the ledger has none)."""

    at: datetime
    kind: LedgerKind
    credits: int
    request_id: str
    note: ChargeNote = ChargeNote()


@dataclass(frozen=True)
class UsageRow:
    """Requests charged to an account on one UTC day through one key at one endpoint
    (:meth:`CreditLedger.daily_usage`): how many (debit rows) and the credits they cost once
    their refunds are taken off. ``key_id`` and ``endpoint`` are '' for debits made before the
    ledger kept notes."""

    day: date
    key_id: str
    endpoint: str
    requests: int
    credits: int


#: Length of a rate-limit window: limits are requests per minute (decisions.md, Limits).
RATE_WINDOW_S = 60
#: How long a concurrency slot is held at most when its holder never releases it (a gateway
#: killed mid-request): longer than any deadline, so a live request is never dropped early.
SLOT_LEASE_S = 120


@dataclass(frozen=True)
class Admission:
    """The outcome of :meth:`Store.admit`: whether a request may run under its account's limits.

    ``limit`` is the account's requests per minute and ``remaining`` what is left of it in the
    current window after this request (when refused, what the window has left: 0 for a request
    counting one refused for the rate, more for a test batch that needs more than is left);
    ``reset_at_s`` is the Unix second at which the window ends. A refused request has
    ``retry_after_s`` >= 1 and ``reason`` ``rate`` or ``concurrency``; it took no slot and did
    not count towards the window.
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
