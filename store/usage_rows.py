"""An account's charged requests folded into rows per UTC day, key and endpoint
(:class:`~store.records.UsageRow`): what ``daily_usage`` returns in the stores that read the
ledger's entries one by one (NATS, memory); the SQLite store groups them in SQL to the same
rules, and the contract suite holds both to them.

A request counts on the UTC day of its debit, under its debit's key and endpoint, and costs
its debit less whatever was refunded of it, whenever the refund came: a request refunded
just after midnight is still a request of the day it was charged.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

from store.records import LedgerEntry, UsageRow


def day_bounds_s(first_day: date, last_day: date) -> tuple[float, float]:
    """Return the Unix seconds of the start of ``first_day`` and of the day after
    ``last_day`` (UTC): the half-open span of the days. Raises ValueError when ``last_day``
    precedes ``first_day``."""
    if last_day < first_day:
        raise ValueError(f"the range ends ({last_day}) before it starts ({first_day})")
    start = datetime(first_day.year, first_day.month, first_day.day, tzinfo=UTC)
    after = datetime(last_day.year, last_day.month, last_day.day, tzinfo=UTC) + timedelta(days=1)
    return start.timestamp(), after.timestamp()


def usage_rows(
    entries: Iterable[LedgerEntry], first_day: date, last_day: date, key_id: str | None = None
) -> list[UsageRow]:
    """Return the rows of the requests debited from ``first_day`` to ``last_day`` (UTC,
    inclusive) among ``entries`` (one account's, with the refunds of those debits whenever
    they came), only ``key_id``'s when given; ordered by day, key id, endpoint.
    Raises ValueError when ``last_day`` precedes ``first_day``."""
    start_s, after_s = day_bounds_s(first_day, last_day)
    debits: dict[str, LedgerEntry] = {}
    refunded: dict[str, int] = {}
    for entry in entries:
        if entry.kind == "debit":
            at_s = entry.at.timestamp()
            if start_s <= at_s < after_s and (key_id is None or entry.note.key_id == key_id):
                debits[entry.request_id] = entry
        elif entry.kind == "refund":
            refunded[entry.request_id] = refunded.get(entry.request_id, 0) + entry.credits
    totals: dict[tuple[date, str, str], list[int]] = {}
    for request_id, debit in debits.items():
        total = totals.setdefault((debit.at.astimezone(UTC).date(), debit.note.key_id, debit.note.endpoint), [0, 0])
        total[0] += 1
        total[1] += debit.credits - refunded.get(request_id, 0)
    return [
        UsageRow(day, key, endpoint, requests, credits)
        for (day, key, endpoint), (requests, credits) in sorted(totals.items())
    ]
