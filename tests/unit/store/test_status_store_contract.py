"""The contract of the status page's records (issue 50, part 5), run against every store
(SQLite here, NATS in ``tests/nats/store/test_status_store_contract.py``): every gateway's
minutes add up into the minute, hour and day totals every gateway reads, and every gateway's
probes into one mark per minute, down winning."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import pytest

from store.interfaces import StatusRecords
from store.status_records import (
    DAY_S,
    HOUR_S,
    MINUTE_S,
    LatencyHistogram,
    ProbeResult,
    day_of,
    period_start,
)
from tests.unit.store.test_store_contract import factory, with_store  # noqa: F401 (factory is the fixture)


def a_minute(start_s: int, op_class: str = "quick", counts=(3, 2, 0, 1), errors: int = 1) -> LatencyHistogram:
    return LatencyHistogram(MINUTE_S, start_s, op_class, tuple(counts), errors)


def this_minute() -> int:
    return period_start(time.time(), MINUTE_S)


@with_store
async def test_each_store_keeps_status_records(store):
    assert isinstance(store, StatusRecords)


@with_store
async def test_a_minute_is_read_back_as_its_minute_hour_and_day(store):
    minute = this_minute()
    await store.add_latencies([a_minute(minute)])
    for period_s in (MINUTE_S, HOUR_S, DAY_S):
        (kept,) = await store.latencies(period_s, period_start(minute, period_s))
        assert (kept.start_s, kept.op_class, kept.counts, kept.errors) == (
            period_start(minute, period_s),
            "quick",
            (3, 2, 0, 1),
            1,
        )


@with_store
async def test_additions_to_one_minute_add_up(store):
    minute = this_minute()
    await store.add_latencies([a_minute(minute)])
    await store.add_latencies([a_minute(minute, counts=(1, 0, 0, 0), errors=0)])
    (kept,) = await store.latencies(MINUTE_S, minute)
    assert (kept.counts, kept.errors) == ((4, 2, 0, 1), 1)


@with_store
async def test_two_minutes_of_one_hour_add_up_in_the_hour(store):
    hour = period_start(time.time(), HOUR_S)
    await store.add_latencies([a_minute(hour), a_minute(hour + MINUTE_S)])
    assert [h.counts for h in await store.latencies(MINUTE_S, hour)] == [(3, 2, 0, 1), (3, 2, 0, 1)]
    (kept,) = await store.latencies(HOUR_S, hour)
    assert (kept.counts, kept.errors) == ((6, 4, 0, 2), 2)


@with_store
async def test_classes_are_kept_apart(store):
    minute = this_minute()
    await store.add_latencies([a_minute(minute, "quick"), a_minute(minute, "search", counts=(0, 0, 0, 5), errors=0)])
    kept = {h.op_class: h.counts for h in await store.latencies(MINUTE_S, minute)}
    assert kept == {"quick": (3, 2, 0, 1), "search": (0, 0, 0, 5)}


@with_store
async def test_periods_before_since_are_not_read(store):
    minute = this_minute()
    await store.add_latencies([a_minute(minute - MINUTE_S), a_minute(minute)])
    assert [h.start_s for h in await store.latencies(MINUTE_S, minute)] == [minute]


@with_store
async def test_a_histogram_of_other_buckets_replaces_the_kept_one(store):
    minute = this_minute()
    await store.add_latencies([a_minute(minute)])
    await store.add_latencies([a_minute(minute, counts=(1, 1), errors=0)])
    (kept,) = await store.latencies(MINUTE_S, minute)
    assert kept.counts == (1, 1)


@with_store
async def test_a_histogram_a_store_may_not_keep_is_refused(store):
    for histogram in (
        a_minute(this_minute(), "Quick!"),
        a_minute(this_minute() + 1),
        a_minute(this_minute(), counts=(1, -1)),
        a_minute(this_minute(), counts=(1,), errors=2),
    ):
        with pytest.raises(ValueError):
            await store.add_latencies([histogram])


@pytest.mark.parametrize("order", ["up_first", "down_first"])
def test_a_minute_with_a_failed_probe_is_down_whatever_the_order(factory, order):  # noqa: F811
    async def body():
        first, second = await factory.open(), await factory.open()
        try:
            now = time.time()
            results = [ProbeResult(now, True), ProbeResult(now, False)]
            if order == "down_first":
                results.reverse()
            await first.add_probe_results([results[0]])
            await second.add_probe_results([results[1]])
            (day,) = await first.probe_days(day_of(now))
            assert (day.day, day.up_minutes, day.down_minutes) == (day_of(now), 0, 1)
        finally:
            await first.close()
            await second.close()

    asyncio.run(body())


def test_two_gateways_minutes_add_up_and_both_read_the_same(factory):  # noqa: F811
    async def body():
        first, second = await factory.open(), await factory.open()
        try:
            minute = this_minute()
            await first.add_latencies([a_minute(minute)])
            await second.add_latencies([a_minute(minute)])
            read = [await s.latencies(HOUR_S, period_start(minute, HOUR_S)) for s in (first, second)]
            assert read[0] == read[1]
            assert (read[0][0].counts, read[0][0].errors) == ((6, 4, 0, 2), 2)
        finally:
            await first.close()
            await second.close()

    asyncio.run(body())


@with_store
async def test_probe_minutes_of_one_day_are_one_day_oldest_first(store):
    now = time.time()
    today = day_of(now)
    await store.add_probe_results([ProbeResult(now, True), ProbeResult(now - DAY_S, True)])
    await store.add_probe_results([ProbeResult(now - 2 * MINUTE_S, True)])
    days = await store.probe_days(today - timedelta(days=1))
    assert [day.day for day in days] == [today - timedelta(days=1), today]
    expected_today = len({int(t % DAY_S) // MINUTE_S for t in (now, now - 2 * MINUTE_S) if day_of(t) == today})
    assert days[-1].up_minutes == expected_today
    assert await store.probe_days(today + timedelta(days=1)) == []
