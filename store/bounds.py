"""What the stores accept: the account name grammar, the bounds of credits and limits, and
the moments a key may expire at.

Every store checks these, and both admin interfaces (the CLI and the HTTP API) describe them,
so a value is refused the same way wherever it comes from.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from store.errors import BalanceCeiling
from store.key_format import KEY_PREFIX, TEST_KEY_PREFIX, contains_key_prefix, quoted
from store.records import utc_now
from store.spend_caps import iso_instant

#: An account name: 1-64 ASCII letters, digits, '.', '_' or '-', the first a letter or digit,
#: without one of RESERVED_NAME_PREFIXES. A name is a path segment of the admin API
#: (``/admin/v1/accounts/{account}``), so it holds no '/', space or control character and is
#: never '.' or '..' (which clients resolve away); ASCII only, so that case-insensitive
#: uniqueness means the same in every store.
ACCOUNT_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
#: Prefixes a name may not take: an account id's (a name must never read as another account's
#: id) and a key's (a key pasted as a name would then be shown in every view and log line).
ACCOUNT_ID_PREFIX = "acct_"
RESERVED_NAME_PREFIXES = (ACCOUNT_ID_PREFIX, KEY_PREFIX, TEST_KEY_PREFIX)
ACCOUNT_NAME_RULE = (
    "1-64 ASCII letters, digits, '.', '_' or '-', starting with a letter or digit,"
    f" not starting with {' or '.join(map(repr, RESERVED_NAME_PREFIXES))}"
)


def new_account_id() -> str:
    """Return a fresh account id: ``acct_`` plus 16 random hex digits (a subject-safe token)."""
    return ACCOUNT_ID_PREFIX + secrets.token_hex(8)


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


#: Longest name a key may have: enough to say what uses it ("production backend, EU").
KEY_NAME_MAX_CHARS = 64
KEY_NAME_RULE = f"at most {KEY_NAME_MAX_CHARS} characters, no control characters"


def validate_key_name(name: object) -> str:
    """Return a key's name with surrounding spaces removed ('' for no name); raise ValueError
    for one too long, with control characters, or shaped like a key (it is shown everywhere)."""
    if not isinstance(name, str):
        raise ValueError(f"a key name must be text ({KEY_NAME_RULE})")
    name = name.strip()
    if len(name) > KEY_NAME_MAX_CHARS or any(ord(c) < 32 or ord(c) == 127 for c in name) or contains_key_prefix(name):
        raise ValueError(f"invalid key name {quoted(name)}: {KEY_NAME_RULE}, not a key")
    return name


def require_future_expiry(expires_at: datetime | None) -> datetime | None:
    """Return ``expires_at`` in UTC (None for a key that never expires), refusing naive or past moments."""
    expires_at = require_aware(expires_at, "expires_at")
    if expires_at is not None and expires_at <= utc_now():
        raise ValueError(f"expires_at must be in the future, got {iso_instant(expires_at)}")
    return expires_at


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
