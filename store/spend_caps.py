"""Spend caps: the most credits an account, or one of its keys, may spend per UTC day and per
UTC calendar month, as pure arithmetic over an account's :class:`SpendBook`.

A book holds the caps set on the account (scope ``""``) and on its keys (scope: the key id),
what each scope has spent in the current day and month, and which 80% warnings have been given
in them. Every store keeps one book per account beside its balance and rewrites it in the same
atomic step as the debit or refund that changes it (an SQLite write transaction; on NATS the
compare-and-set of the account's ledger entry, which carries the book): so a debit that would
pass a cap is refused whichever gateway makes it, and the bound on overshoot is 0
(docs/limits.md, "Spend caps").

Periods are read on the writer's clock and only move forward: a book already in a later day or
month (written by a gateway whose clock runs ahead) is counted into, never rolled back.
"""

from __future__ import annotations

import calendar
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal

from shared.errors import SpendCapReached

Period = Literal["daily", "monthly"]
PERIODS: tuple[Period, ...] = ("daily", "monthly")
#: The scope of the account's own cap and spend in a book (a key's scope is its id).
ACCOUNT_SCOPE = ""
#: The share of a cap at which its owners are warned, once per period: 80 % (issue 39), kept
#: as a fraction of integers so the comparison is exact.
WARN_NUMERATOR, WARN_DENOMINATOR = 4, 5
#: The most a cap may be, in credits: a cap above any balance the store accepts caps nothing.
MAX_CAP = 10**12


@dataclass(frozen=True)
class SpendCap:
    """The caps of one scope in credits: per UTC day and per UTC month (None: no cap)."""

    daily: int | None = None
    monthly: int | None = None

    def of(self, period: Period) -> int | None:
        """Return the cap of ``period`` in credits (None: unlimited)."""
        return self.daily if period == "daily" else self.monthly

    @property
    def empty(self) -> bool:
        """Return whether no cap is set."""
        return self.daily is None and self.monthly is None


def validate_cap(cap: SpendCap) -> SpendCap:
    """Return ``cap`` when each of its caps is None or an integer from 0 to MAX_CAP; ValueError otherwise."""
    for period in PERIODS:
        value = cap.of(period)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CAP):
            raise ValueError(f"a {period} cap must be a whole number of credits from 0 to {MAX_CAP}")
    return cap


def now_s() -> float:
    """Return the current Unix time in seconds: the clock the stores read periods on (one
    name, so a test can move it)."""
    return time.time()


def period_labels(now_s: float) -> tuple[str, str]:
    """Return the UTC day (``YYYY-MM-DD``) and month (``YYYY-MM``) of the Unix second ``now_s``."""
    day = datetime.fromtimestamp(now_s, UTC).date().isoformat()
    return day, day[:7]


def resets_at(period: Period, label: str) -> datetime:
    """Return the instant (UTC) at which the period labelled ``label`` ends and its spend restarts."""
    if period == "daily":
        return datetime.combine(date.fromisoformat(label) + timedelta(days=1), datetime.min.time(), UTC)
    year, month = int(label[:4]), int(label[5:7])
    days = calendar.monthrange(year, month)[1]
    return datetime(year, month, 1, tzinfo=UTC) + timedelta(days=days)


def iso_instant(moment: datetime) -> str:
    """Return an aware instant as ISO 8601 UTC to the millisecond with a Z
    (``2026-11-28T00:00:00.000Z``), as every answer writes a time stamp (docs/conventions.md)."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class SpendLine:
    """One scope's caps and what it spent in the current day and month, in credits."""

    key_id: str  # '' for the account itself
    cap: SpendCap
    daily_spent: int
    monthly_spent: int

    def spent(self, period: Period) -> int:
        """Return the credits spent in ``period``."""
        return self.daily_spent if period == "daily" else self.monthly_spent


@dataclass(frozen=True)
class SpendStatus:
    """An account's caps and spend now: its own line and one per key with a cap or a spend."""

    account_id: str
    day: str
    month: str
    account: SpendLine
    keys: tuple[SpendLine, ...] = ()

    def resets_at(self, period: Period) -> datetime:
        """Return when the current ``period`` ends."""
        return resets_at(period, self.day if period == "daily" else self.month)

    def key(self, key_id: str) -> SpendLine:
        """Return the line of ``key_id`` (no cap, nothing spent when the book has none)."""
        return next((line for line in self.keys if line.key_id == key_id), SpendLine(key_id, SpendCap(), 0, 0))


@dataclass(frozen=True)
class SpendWarning:
    """A cap of which 80 % is now spent, to be told once per period to the account's owners."""

    account_id: str
    key_id: str  # '' for the account's own cap
    period: Period
    cap: int
    spent: int
    resets_at: datetime


def _warn_tag(scope: str, period: Period) -> str:
    return f"{scope}|{period}"


@dataclass(frozen=True)
class SpendBook:
    """An account's caps, spend and warnings given, in its current day and month (see module)."""

    day: str = ""
    month: str = ""
    caps: Mapping[str, SpendCap] = field(default_factory=dict)
    #: scope -> (credits spent in ``day``, credits spent in ``month``)
    spent: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    #: the warnings given in the current periods, each ``scope|period``
    warned: frozenset[str] = frozenset()

    @classmethod
    def from_json(cls, doc: Mapping[str, Any] | None) -> SpendBook:
        """Return the book of its stored form (:meth:`to_json`); an empty book for None or {}."""
        if not doc:
            return cls()
        return cls(
            doc.get("day", ""),
            doc.get("month", ""),
            {scope: SpendCap(*pair) for scope, pair in doc.get("caps", {}).items()},
            {scope: (pair[0], pair[1]) for scope, pair in doc.get("spent", {}).items()},
            frozenset(doc.get("warned", ())),
        )

    def to_json(self) -> dict:
        """Return the book as JSON-ready data (what the stores keep)."""
        return {
            "day": self.day,
            "month": self.month,
            "caps": {scope: [cap.daily, cap.monthly] for scope, cap in self.caps.items()},
            "spent": {scope: list(pair) for scope, pair in self.spent.items()},
            "warned": sorted(self.warned),
        }

    def at(self, now_s: float) -> SpendBook:
        """Return the book moved to the day and month of ``now_s`` (never backwards): the spend
        and warnings of a period that ended are dropped."""
        day, month = period_labels(now_s)
        day, month = max(day, self.day), max(month, self.month)
        if (day, month) == (self.day, self.month):
            return self
        new_day, new_month = day != self.day, month != self.month
        spent = {}
        for scope, (daily, monthly) in self.spent.items():
            pair = (0 if new_day else daily, 0 if new_month else monthly)
            if pair != (0, 0):
                spent[scope] = pair
        warned = frozenset(
            tag
            for tag in self.warned
            if not (new_day and tag.endswith("|daily")) and not (new_month and tag.endswith("|monthly"))
        )
        return replace(self, day=day, month=month, spent=spent, warned=warned)

    def spent_of(self, scope: str, period: Period) -> int:
        """Return the credits ``scope`` spent in the book's current ``period``."""
        pair = self.spent.get(scope, (0, 0))
        return pair[0] if period == "daily" else pair[1]

    def debit(
        self, account_id: str, key_id: str, credits: int, now_s: float
    ) -> tuple[SpendBook, tuple[SpendWarning, ...]]:
        """Return the book after spending ``credits`` through ``key_id`` ('' for none) at
        ``now_s``, and the 80 % warnings this spend is the first to reach in their period.

        Raises SpendCapReached (the book unchanged) when the spend would pass a cap of the
        account or of the key: spent + credits > cap. Of several caps passed, the one that
        resets last is reported (a month's before a day's, the account's before the key's).
        """
        book = self.at(now_s)
        scopes = [ACCOUNT_SCOPE] + ([key_id] if key_id else [])
        for period in ("monthly", "daily"):
            for scope in scopes:
                cap = book.caps.get(scope, SpendCap()).of(period)
                if cap is not None and book.spent_of(scope, period) + credits > cap:
                    raise book._refusal(scope, period, cap, credits)
        spent = dict(book.spent)
        for scope in scopes:
            daily, monthly = spent.get(scope, (0, 0))
            spent[scope] = (daily + credits, monthly + credits)
        book = replace(book, spent=spent)
        warnings = []
        warned = set(book.warned)
        for scope in scopes:
            for period in PERIODS:
                cap = book.caps.get(scope, SpendCap()).of(period)
                tag = _warn_tag(scope, period)
                used = book.spent_of(scope, period)
                if cap and tag not in warned and used * WARN_DENOMINATOR >= cap * WARN_NUMERATOR:
                    warned.add(tag)
                    warnings.append(SpendWarning(account_id, scope, period, cap, used, book.resets_at(period)))
        return replace(book, warned=frozenset(warned)), tuple(warnings)

    def refund(self, key_id: str, credits: int, debited_at_s: float, now_s: float) -> SpendBook:
        """Return the book after giving back ``credits`` of a debit made at ``debited_at_s``
        through ``key_id``: taken off the current day's and month's spend when the debit fell
        in them (a refund of an earlier period's debit frees nothing now), never below 0."""
        book = self.at(now_s)
        day, month = period_labels(debited_at_s)
        in_day, in_month = day == book.day, month == book.month
        if not (in_day or in_month):
            return book
        spent = dict(book.spent)
        for scope in [ACCOUNT_SCOPE] + ([key_id] if key_id else []):
            daily, monthly = spent.get(scope, (0, 0))
            spent[scope] = (
                max(0, daily - credits) if in_day else daily,
                max(0, monthly - credits) if in_month else monthly,
            )
        return replace(book, spent=spent)

    def with_cap(self, key_id: str, cap: SpendCap, now_s: float) -> SpendBook:
        """Return the book with the caps of ``key_id`` ('' for the account) replaced by ``cap``
        (an empty cap clears them); what was spent stays counted against the new caps."""
        validate_cap(cap)
        book = self.at(now_s)
        caps = dict(book.caps)
        if cap.empty:
            caps.pop(key_id, None)
        else:
            caps[key_id] = cap
        return replace(book, caps=caps)

    def status(self, account_id: str, now_s: float) -> SpendStatus:
        """Return the account's caps and spend at ``now_s``: its own line, then one per key
        with a cap or a spend in the current month, by key id."""
        book = self.at(now_s)

        def line(scope: str) -> SpendLine:
            return SpendLine(
                scope, book.caps.get(scope, SpendCap()), book.spent_of(scope, "daily"), book.spent_of(scope, "monthly")
            )

        keys = sorted((set(book.caps) | set(book.spent)) - {ACCOUNT_SCOPE})
        return SpendStatus(account_id, book.day, book.month, line(ACCOUNT_SCOPE), tuple(line(key) for key in keys))

    def resets_at(self, period: Period) -> datetime:
        """Return when the book's current ``period`` ends."""
        return resets_at(period, self.day if period == "daily" else self.month)

    def _refusal(self, scope: str, period: Period, cap: int, credits: int) -> SpendCapReached:
        spent = self.spent_of(scope, period)
        whose = "the account's" if scope == ACCOUNT_SCOPE else f"key {scope}'s"
        when = iso_instant(self.resets_at(period))
        figures = {
            "scope": "account" if scope == ACCOUNT_SCOPE else "key",
            "period": period,
            "cap": cap,
            "spent": spent,
            "resets_at": when,
        }
        if scope != ACCOUNT_SCOPE:
            figures["key_id"] = scope
        return SpendCapReached(
            f"This request costs {credits} credits, which would pass {whose} {period} spend cap of {cap} credits "
            f"({spent} spent this {'day' if period == 'daily' else 'month'}, UTC); the cap resets at {when}.",
            cap=figures,
        )
