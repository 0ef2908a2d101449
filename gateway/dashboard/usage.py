"""An account's balance and usage as its owner sees them, computed from the ledger's rows:
credits spent per day, requests per day and per endpoint, when each key was last used, and
the last requests (never their parameters: a debit's note holds only the endpoint, the key
and the request id).

The totals are the ledger's, as ``celestial-admin usage`` prints them: a request is a debit
row, credits spent are debits less refunds.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from store.records import LedgerEntry

#: Days the usage page covers (issue 24: "the last 30 days"), today included.
USAGE_DAYS = 30
#: Requests listed on the usage page (issue 24: "the last 50 requests").
RECENT_REQUESTS = 50
#: How a charge from before the ledger kept notes (schema 6) is counted per endpoint.
UNNOTED_ENDPOINT = "(not recorded)"


@dataclass(frozen=True)
class RecentRequest:
    """One charged request: when, its endpoint, its request id as the client saw it
    (``meta.request_id``; a batch's sub-request is ``{batch id}.{index}``), the ledger's charge
    id, what it cost once any refund is taken off, and whether it was refunded (a failed
    request gives its credits back). Rows written before the ledger kept notes have an empty
    endpoint and request id."""

    at: datetime
    endpoint: str
    request_id: str
    charge_id: str
    credits: int
    refunded: bool
    key_id: str = ""  # the key that made it; '' before the ledger kept notes


@dataclass(frozen=True)
class UsageFigures:
    """What the usage page shows for the days ``days`` (oldest first, UTC)."""

    days: list[date]
    credits_per_day: list[int]
    requests_per_day: list[int]
    requests: int
    credits_used: int
    recent: list[RecentRequest]
    #: (endpoint, requests charged) over the days, the most requested first.
    requests_per_endpoint: list[tuple[str, int]]
    #: Key id to the time of its newest charged request over the days.
    last_used: dict[str, datetime]


def usage_window_start(today: date) -> datetime:
    """Return the first instant (UTC midnight) of the USAGE_DAYS days ending with ``today``."""
    first = today - timedelta(days=USAGE_DAYS - 1)
    return datetime(first.year, first.month, first.day, tzinfo=UTC)


def usage_figures(entries: list[LedgerEntry], today: date, key_id: str | None = None) -> UsageFigures:
    """Return the figures of ``entries`` (an account's ledger rows since
    :func:`usage_window_start`), per UTC day up to ``today``; only the requests of the key
    ``key_id`` (and their refunds) when given, but ``last_used`` always of every key."""
    days = [today - timedelta(days=offset) for offset in range(USAGE_DAYS - 1, -1, -1)]
    index = {day: position for position, day in enumerate(days)}
    credits = [0] * USAGE_DAYS
    requests = [0] * USAGE_DAYS
    debits: dict[str, LedgerEntry] = {}
    refunds: dict[str, int] = {}
    per_endpoint: Counter[str] = Counter()
    last_used: dict[str, datetime] = {}
    for entry in entries:
        position = index.get(entry.at.date())
        if entry.kind == "debit":
            if entry.note.key_id and entry.at > last_used.get(entry.note.key_id, entry.at - timedelta(seconds=1)):
                last_used[entry.note.key_id] = entry.at
            if key_id is not None and entry.note.key_id != key_id:
                continue
            debits[entry.request_id] = entry
            if position is not None:
                credits[position] += entry.credits
                requests[position] += 1
                per_endpoint[entry.note.endpoint or UNNOTED_ENDPOINT] += 1
        elif entry.kind == "refund":
            # A refund carries no note: under a key filter it counts when its debit did.
            if key_id is not None and entry.request_id not in debits:
                continue
            refunds[entry.request_id] = refunds.get(entry.request_id, 0) + entry.credits
            if position is not None:
                credits[position] -= entry.credits
    newest = sorted(debits.values(), key=lambda entry: (entry.at, entry.request_id), reverse=True)[:RECENT_REQUESTS]
    recent = [
        RecentRequest(
            entry.at,
            entry.note.endpoint,
            entry.note.request_id,
            entry.request_id,
            entry.credits - refunds.get(entry.request_id, 0),
            entry.request_id in refunds,
            entry.note.key_id,
        )
        for entry in newest
    ]
    by_count = sorted(per_endpoint.items(), key=lambda item: (-item[1], item[0]))
    return UsageFigures(days, credits, requests, sum(requests), sum(credits), recent, by_count, last_used)
