"""gateway/dashboard/usage.py: an account's usage over the last 30 UTC days, from its ledger
rows (issue 24: credits and requests per day, per endpoint, each key's last use, the last
requests); the ledger rows below are written by hand and the figures derived by hand."""

from __future__ import annotations

from datetime import UTC, date, datetime

from gateway.dashboard.usage import (
    UNNOTED_ENDPOINT,
    USAGE_DAYS,
    usage_figures,
    usage_window_start,
)
from store.records import ChargeNote, LedgerEntry


def test_usage_figures_count_debits_less_refunds_per_utc_day_and_list_the_newest_requests():
    today = date(2026, 3, 31)
    at = lambda day, hour: datetime(2026, 3, day, hour, tzinfo=UTC)  # noqa: E731
    entries = [
        LedgerEntry(at(1, 0), "debit", 9, "too-old"),  # 31 days ago: outside the window
        LedgerEntry(at(2, 0), "topup", 100, "open"),
        LedgerEntry(at(2, 1), "debit", 2, "a", ChargeNote("/v1/positions", "key_1", "req-a")),
        LedgerEntry(at(31, 1), "debit", 5, "b", ChargeNote("/v1/transits", "key_2", "req-b")),
        LedgerEntry(at(31, 2), "refund", 5, "b"),
        LedgerEntry(at(31, 3), "debit", 1, "c"),  # from before the ledger kept notes
    ]
    assert usage_window_start(today) == datetime(2026, 3, 2, tzinfo=UTC)
    figures = usage_figures(entries, today)
    assert len(figures.days) == USAGE_DAYS and figures.days[0] == date(2026, 3, 2)
    assert (figures.credits_per_day[0], figures.credits_per_day[-1]) == (2, 1)
    assert (figures.requests_per_day[0], figures.requests_per_day[-1]) == (1, 2)
    assert (figures.requests, figures.credits_used) == (3, 3)
    assert [(r.charge_id, r.request_id, r.endpoint, r.credits, r.refunded) for r in figures.recent][:3] == [
        ("c", "", "", 1, False),
        ("b", "req-b", "/v1/transits", 0, True),
        ("a", "req-a", "/v1/positions", 2, False),
    ]


def test_usage_figures_count_requests_per_endpoint_and_each_keys_last_use():
    today = date(2026, 3, 31)
    at = lambda day, hour: datetime(2026, 3, day, hour, tzinfo=UTC)  # noqa: E731
    entries = [
        LedgerEntry(
            at(1, 0), "debit", 1, "old", ChargeNote("/v1/houses", "key_1", "r0")
        ),  # outside the window: not counted
        LedgerEntry(at(3, 0), "debit", 1, "a", ChargeNote("/v1/positions", "key_1", "r1")),
        LedgerEntry(at(4, 0), "debit", 1, "b", ChargeNote("/v1/positions", "key_2", "r2")),
        LedgerEntry(at(5, 0), "debit", 5, "c", ChargeNote("/v1/transits", "key_1", "r3")),
        LedgerEntry(at(6, 0), "debit", 1, "d"),
    ]
    figures = usage_figures(entries, today)
    assert figures.requests_per_endpoint == [("/v1/positions", 2), (UNNOTED_ENDPOINT, 1), ("/v1/transits", 1)]
    assert figures.last_used == {"key_1": at(5, 0), "key_2": at(4, 0)}


def test_usage_figures_of_one_key_count_only_its_requests_and_their_refunds():
    today = date(2026, 3, 31)
    at = lambda hour: datetime(2026, 3, 31, hour, tzinfo=UTC)  # noqa: E731
    entries = [
        LedgerEntry(at(1), "debit", 2, "a", ChargeNote("/v1/positions", "key_1", "req-a")),
        LedgerEntry(at(2), "debit", 5, "b", ChargeNote("/v1/transits", "key_2", "req-b")),
        LedgerEntry(at(3), "refund", 5, "b"),
        LedgerEntry(at(4), "debit", 3, "c", ChargeNote("/v1/transits", "key_2", "req-c")),
    ]
    figures = usage_figures(entries, today, key_id="key_2")
    assert (figures.requests, figures.credits_used) == (2, (5 - 5) + 3)
    assert [(r.charge_id, r.key_id) for r in figures.recent] == [("c", "key_2"), ("b", "key_2")]
    assert set(figures.last_used) == {"key_1", "key_2"}  # the keys page's "last used" stays whole


def test_each_recent_request_names_the_key_that_made_it():
    today = date(2026, 3, 31)
    entries = [
        LedgerEntry(
            datetime(2026, 3, 31, 1, tzinfo=UTC), "debit", 2, "a", ChargeNote("/v1/positions", "key_1", "req-a")
        )
    ]
    assert [r.key_id for r in usage_figures(entries, today).recent] == ["key_1"]
