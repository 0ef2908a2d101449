"""gateway/account_api.py: reading /v1/usage's query, shaping its figures and /v1/account's
answer, and the usage cache's staleness bound.

References: issue 39 part 4 (up to 90 days, default the last 30, at most 60 s stale), the
module's docstring; the whole routes are proved in tests/api/test_usage_api.py.
"""

from __future__ import annotations

import asyncio
from datetime import date

import pytest

from gateway.account_api import (
    ACCOUNT_PATH,
    DEFAULT_USAGE_DAYS,
    MAX_USAGE_DAYS,
    NOT_RECORDED,
    USAGE_PATH,
    USAGE_STALE_MAX_S,
    UsageCache,
    UsageQuery,
    account_data,
    read_usage_query,
    usage_cache_s,
    usage_data,
)
from gateway.endpoints import account_operations, discover_endpoints
from gateway.reference.openapi import build_openapi
from kernel.errors import RangeTooLong
from shared.errors import InvalidParameter
from store.records import Account, KeyRecord, UsageRow, utc_now
from store.spend_caps import SpendBook

TODAY = date(2026, 5, 30)


def test_the_default_range_is_the_30_days_ending_today():
    assert read_usage_query([], TODAY) == UsageQuery(date(2026, 5, 1), TODAY)


def test_a_start_alone_runs_to_today():
    assert read_usage_query([("start", "2026-05-20")], TODAY) == UsageQuery(date(2026, 5, 20), TODAY)


def test_an_end_alone_takes_the_30_days_ending_with_it():
    assert read_usage_query([("end", "2026-03-30")], TODAY) == UsageQuery(date(2026, 3, 1), date(2026, 3, 30))


def test_90_days_are_accepted_and_91_refused_range_too_long():
    assert read_usage_query([("start", "2026-01-01"), ("end", "2026-03-31")], TODAY).first_day == date(2026, 1, 1)
    with pytest.raises(RangeTooLong) as refused:
        read_usage_query([("start", "2026-01-01"), ("end", "2026-04-01")], TODAY)
    assert "start=2026-01-02&end=2026-04-01" in refused.value.suggestion


@pytest.mark.parametrize(
    ("items", "param"),
    [
        ([("group", "day")], "group"),
        ([("start", "2026-05-01"), ("start", "2026-05-02")], "start"),
        ([("start", "2026-5-1")], "start"),
        ([("end", "20260501")], "end"),
        ([("start", "2026-05-02"), ("end", "2026-05-01")], "end"),
        ([("key", " ")], "key"),
    ],
)
def test_a_bad_query_is_refused_naming_its_parameter(items, param):
    with pytest.raises(InvalidParameter) as refused:
        read_usage_query(items, TODAY)
    assert refused.value.param == param


def test_every_day_of_the_range_is_answered_even_without_requests():
    data = usage_data([], UsageQuery(date(2026, 5, 1), date(2026, 5, 3)))
    assert [day["date"] for day in data["days"]] == ["2026-05-01", "2026-05-02", "2026-05-03"]
    assert all(
        (day["credits"], day["requests"], day["by_key"], day["by_endpoint"]) == (0, 0, {}, {}) for day in data["days"]
    )


def test_rows_add_up_per_day_per_key_per_endpoint_and_over_the_range():
    rows = [
        UsageRow(date(2026, 5, 1), "key_a", "/v1/positions", 3, 3),
        UsageRow(date(2026, 5, 1), "key_b", "/v1/positions", 1, 1),
        UsageRow(date(2026, 5, 2), "key_a", "/v1/natal-chart", 2, 4),
    ]
    data = usage_data(rows, UsageQuery(date(2026, 5, 1), date(2026, 5, 2)))
    assert data["days"][0]["by_key"] == {"key_a": {"credits": 3, "requests": 3}, "key_b": {"credits": 1, "requests": 1}}
    assert data["days"][1]["by_endpoint"] == {"/v1/natal-chart": {"credits": 4, "requests": 2}}
    assert (data["total"]["credits"], data["total"]["requests"]) == (3 + 1 + 4, 3 + 1 + 2)
    assert data["total"]["by_key"]["key_a"] == {"credits": 3 + 4, "requests": 3 + 2}


def test_a_debit_without_a_note_counts_under_not_recorded():
    data = usage_data([UsageRow(date(2026, 5, 1), "", "", 1, 2)], UsageQuery(date(2026, 5, 1), date(2026, 5, 1)))
    assert data["total"]["by_key"] == data["total"]["by_endpoint"] == {NOT_RECORDED: {"credits": 2, "requests": 1}}


def test_the_account_answer_holds_limits_and_the_keys_settings_but_no_hash():
    record = KeyRecord(
        "key_a", "acct_1", "f" * 64, "AbCd", utc_now(), allowed_origins=("https://app.example",), name="web"
    )
    data = account_data(
        Account("acct_1", "acme", 42, rate_per_minute=120, max_concurrent=7), record, SpendBook().status("acct_1", 0)
    )
    assert data["account"]["limits"] == {"rate_per_minute": 120, "max_concurrent": 7}
    assert (data["key"]["key_id"], data["key"]["name"], data["key"]["allowed_origins"]) == (
        "key_a",
        "web",
        ["https://app.example"],
    )
    assert "f" * 64 not in repr(data)


def test_the_cache_age_is_never_set_above_60_s():
    assert (usage_cache_s(600), usage_cache_s(30), usage_cache_s(-1)) == (60.0, 30.0, 0.0)


class Clock:
    def __init__(self) -> None:
        self.now_s = 1000.0

    def __call__(self) -> float:
        return self.now_s


def test_a_cached_figure_is_served_until_its_read_is_max_age_old_then_read_again():
    clock, reads = Clock(), []

    async def read():
        reads.append(clock.now_s)
        return [UsageRow(TODAY, "key_a", "/v1/positions", len(reads), len(reads))]

    async def run():
        cache = UsageCache(60, clock=clock)
        query = UsageQuery(TODAY, TODAY)
        first = await cache.rows("acct", query, read)
        clock.now_s += 59.9
        within = await cache.rows("acct", query, read)
        clock.now_s += 0.1
        after = await cache.rows("acct", query, read)
        return first, within, after

    first, within, after = asyncio.run(run())
    assert within == first
    assert after[1][0].requests == 2
    assert reads == [1000.0, 1060.0]


def test_each_account_and_query_has_its_own_figures():
    clock, reads = Clock(), []

    async def read():
        reads.append(1)
        return []

    async def run():
        cache = UsageCache(60, clock=clock)
        await cache.rows("acct", UsageQuery(TODAY, TODAY), read)
        await cache.rows("other", UsageQuery(TODAY, TODAY), read)
        await cache.rows("acct", UsageQuery(TODAY, TODAY, "key_a"), read)

    asyncio.run(run())
    assert len(reads) == 3


def test_a_cache_age_of_0_reads_the_store_every_time():
    reads = []

    async def read():
        reads.append(1)
        return []

    async def run():
        cache = UsageCache(0, clock=Clock())
        for _ in range(2):
            await cache.rows("acct", UsageQuery(TODAY, TODAY), read)

    asyncio.run(run())
    assert len(reads) == 2


def _description(rpc: str) -> str:
    return build_openapi(discover_endpoints(), version="test")["paths"][
        next(e.path for e in account_operations() if e.method.name == rpc)
    ]["get"]["description"]


def test_usage_and_account_are_served_at_the_paths_their_rpcs_declare():
    declared = {e.method.name: (e.path, e.http.gateway.method) for e in account_operations()}
    assert (declared["GetUsage"], declared["GetAccount"]) == ((USAGE_PATH, "GET"), (ACCOUNT_PATH, "GET"))


def test_usages_description_says_the_range_and_staleness_the_gateway_applies():
    described = _description("GetUsage")
    assert f"up to {MAX_USAGE_DAYS} days" in described and f"the last {DEFAULT_USAGE_DAYS}" in described
    assert f"at most {USAGE_STALE_MAX_S:g} s old" in described
