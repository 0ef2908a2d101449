"""store/usage_rows.py: an account's charged requests folded into rows per UTC day, key and
endpoint (what NATS and the memory store answer ``daily_usage`` with; SQLite's SQL follows
the same rules, held by the contract suite).

References: the module's docstring (a request counts on the UTC day of its debit and costs
its debit less its refunds, whenever they came), store/interfaces.py CreditLedger.daily_usage.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from store.records import ChargeNote, LedgerEntry, UsageRow
from store.usage_rows import day_bounds_s, usage_rows

MAY_1, MAY_2, MAY_3 = date(2026, 5, 1), date(2026, 5, 2), date(2026, 5, 3)


def at(day: date, hour: int, minute: int = 0, second: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=UTC)


def debit(
    moment: datetime, credits: int, request_id: str, key_id: str = "key_a", endpoint: str = "/v1/positions"
) -> LedgerEntry:
    return LedgerEntry(moment, "debit", credits, request_id, ChargeNote(endpoint, key_id, f"http-{request_id}"))


def refund(moment: datetime, credits: int, request_id: str) -> LedgerEntry:
    return LedgerEntry(moment, "refund", credits, request_id)


def test_each_debit_counts_on_its_own_utc_day():
    entries = [debit(at(MAY_1, 23, 59, 59), 2, "a"), debit(at(MAY_2, 0), 3, "b")]
    assert usage_rows(entries, MAY_1, MAY_2) == [
        UsageRow(MAY_1, "key_a", "/v1/positions", 1, 2),
        UsageRow(MAY_2, "key_a", "/v1/positions", 1, 3),
    ]


def test_a_refund_after_midnight_is_taken_off_the_day_of_its_debit():
    entries = [debit(at(MAY_1, 23, 59, 59), 4, "a"), refund(at(MAY_2, 0, 0, 1), 4, "a")]
    assert usage_rows(entries, MAY_1, MAY_2) == [UsageRow(MAY_1, "key_a", "/v1/positions", 1, 0)]


def test_debits_outside_the_days_are_left_out():
    entries = [debit(at(MAY_1, 12), 2, "a"), debit(at(MAY_2, 12), 3, "b"), debit(at(MAY_3, 12), 5, "c")]
    assert usage_rows(entries, MAY_2, MAY_2) == [UsageRow(MAY_2, "key_a", "/v1/positions", 1, 3)]


def test_rows_are_grouped_by_key_and_endpoint_and_ordered_by_day_key_endpoint():
    entries = [
        debit(at(MAY_2, 1), 1, "a", "key_b", "/v1/aspects"),
        debit(at(MAY_1, 1), 2, "b", "key_b", "/v1/positions"),
        debit(at(MAY_1, 2), 3, "c", "key_a", "/v1/transits"),
        debit(at(MAY_1, 3), 4, "d", "key_a", "/v1/transits"),
    ]
    assert usage_rows(entries, MAY_1, MAY_2) == [
        UsageRow(MAY_1, "key_a", "/v1/transits", 2, 3 + 4),
        UsageRow(MAY_1, "key_b", "/v1/positions", 1, 2),
        UsageRow(MAY_2, "key_b", "/v1/aspects", 1, 1),
    ]


def test_one_keys_rows_leave_out_the_other_keys():
    entries = [debit(at(MAY_1, 1), 2, "a", "key_a"), debit(at(MAY_1, 2), 3, "b", "key_b")]
    assert usage_rows(entries, MAY_1, MAY_1, key_id="key_b") == [UsageRow(MAY_1, "key_b", "/v1/positions", 1, 3)]


def test_a_refund_of_a_debit_before_the_days_changes_nothing():
    entries = [debit(at(MAY_1, 23), 4, "a"), refund(at(MAY_2, 1), 4, "a")]
    assert usage_rows(entries, MAY_2, MAY_2) == []


def test_the_days_span_from_the_first_midnight_to_the_midnight_after_the_last():
    assert day_bounds_s(MAY_1, MAY_2) == (at(MAY_1, 0).timestamp(), at(MAY_3, 0).timestamp())


def test_a_range_that_ends_before_it_starts_is_refused():
    with pytest.raises(ValueError):
        usage_rows([], MAY_2, MAY_1)
