"""The NATS store's status records (store/nats_status.py): its three buckets with the
time-to-live of what each keeps, and additions from many stores at once none lost."""

from __future__ import annotations

import asyncio
import time

from store.status_records import DAY_S, HOUR_S, KEPT_S, MINUTE_S, LatencyHistogram, period_start
from tests.nats.store.nats_store_factory import NatsFactory, with_plain_client


def test_each_period_has_a_bucket_kept_as_long_as_the_page_reads_it(nats_factory: NatsFactory):
    async def body(store, js, prefix):
        for period_s, name in ((MINUTE_S, "MINUTES"), (HOUR_S, "HOURS"), (DAY_S, "DAYS")):
            status = await (await js.key_value(f"{prefix}_STATUS_{name}")).status()
            assert status.ttl == KEPT_S[period_s]

    with_plain_client(nats_factory, body)


def test_concurrent_additions_from_many_stores_lose_no_count(nats_factory: NatsFactory):
    async def body():
        stores = [await nats_factory.open() for _ in range(4)]
        try:
            minute = period_start(time.time(), MINUTE_S)
            histogram = LatencyHistogram(MINUTE_S, minute, "quick", (1, 0), 0)
            await asyncio.gather(*(s.add_latencies([histogram]) for s in stores for _ in range(5)))
            (kept,) = await stores[0].latencies(MINUTE_S, minute)
            assert kept.counts == (20, 0)
        finally:
            for store in stores:
                await store.close()

    asyncio.run(body())
