"""An account's balance and usage as its owner sees them, computed from the ledger's rows:
credits spent per day, requests per day, and the last requests (never their parameters).

The totals are the ledger's, as ``celestial-admin usage`` prints them: a request is a debit
row, credits spent are debits less refunds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from gateway.store.records import LedgerEntry

#: Days the usage page covers (issue 24: "the last 30 days"), today included.
USAGE_DAYS = 30
#: Requests listed on the usage page (issue 24: "the last 50 requests").
RECENT_REQUESTS = 50


@dataclass(frozen=True)
class RecentRequest:
    """One charged request: when, its charge id (the ledger's request id, minted by the
    gateway: not the request's X-Request-Id), what it cost once any refund is taken off, and
    whether it was refunded (a failed request gives its credits back)."""

    at: datetime
    request_id: str
    credits: int
    refunded: bool


@dataclass(frozen=True)
class UsageFigures:
    """What the usage page shows for the days ``days`` (oldest first, UTC)."""

    days: list[date]
    credits_per_day: list[int]
    requests_per_day: list[int]
    requests: int
    credits_used: int
    recent: list[RecentRequest]


def usage_window_start(today: date) -> datetime:
    """Return the first instant (UTC midnight) of the USAGE_DAYS days ending with ``today``."""
    first = today - timedelta(days=USAGE_DAYS - 1)
    return datetime(first.year, first.month, first.day, tzinfo=UTC)


def usage_figures(entries: list[LedgerEntry], today: date) -> UsageFigures:
    """Return the figures of ``entries`` (an account's ledger rows since
    :func:`usage_window_start`), per UTC day up to ``today``."""
    days = [today - timedelta(days=offset) for offset in range(USAGE_DAYS - 1, -1, -1)]
    index = {day: position for position, day in enumerate(days)}
    credits = [0] * USAGE_DAYS
    requests = [0] * USAGE_DAYS
    debits: dict[str, LedgerEntry] = {}
    refunds: dict[str, int] = {}
    for entry in entries:
        position = index.get(entry.at.date())
        if entry.kind == "debit":
            debits[entry.request_id] = entry
            if position is not None:
                credits[position] += entry.credits
                requests[position] += 1
        elif entry.kind == "refund":
            refunds[entry.request_id] = refunds.get(entry.request_id, 0) + entry.credits
            if position is not None:
                credits[position] -= entry.credits
    newest = sorted(debits.values(), key=lambda entry: (entry.at, entry.request_id), reverse=True)[:RECENT_REQUESTS]
    recent = [
        RecentRequest(entry.at, entry.request_id, entry.credits - refunds.get(entry.request_id, 0), entry.request_id in refunds)
        for entry in newest
    ]
    return UsageFigures(days, credits, requests, sum(requests), sum(credits), recent)
