"""store/nats_charts.py: a chart is kept under ``acct.<account_id>.<chart_id>`` of bucket
``P_CHARTS``, and deleting it purges the key, so the bucket keeps nothing of the birth."""

from __future__ import annotations

import json

from store.chart_records import StoredChart, new_chart_id
from tests.nats.store.nats_store_factory import with_plain_client


def test_a_chart_is_kept_under_its_account_and_purged_when_deleted(nats_factory):
    async def body(store, js, prefix):
        charts = await js.key_value(f"{prefix}_CHARTS")
        account = await store.create_account("acme", 0)
        chart = await store.create_chart(
            StoredChart(new_chart_id(), account.id, "Ada", {"datetime": "1985-07-13T14:05:00"}, {}, {}), limit=5
        )
        key = f"acct.{account.id}.{chart.chart_id}"
        assert json.loads((await charts.get(key)).value)["birth"] == {"datetime": "1985-07-13T14:05:00"}
        await store.delete_chart(account.id, chart.chart_id)
        stream = f"KV_{prefix}_CHARTS"
        assert (await js.stream_info(stream)).state.messages == 1  # the purge marker, which holds nothing
        marker = await js.get_last_msg(stream, f"$KV.{prefix}_CHARTS.{key}")
        assert marker.data in (b"", None) and marker.headers["KV-Operation"] == "PURGE"

    with_plain_client(nats_factory, body)


def test_a_listing_is_whole_even_when_the_watchers_end_marker_comes_first(nats_factory):
    """nats-py's watch can put its end-of-entries marker before the entries (the listing of
    subscriptions came back empty about once in 100); here it always comes first."""

    async def body(store, js, prefix):
        account = await store.create_account("acme", 0)
        made = [
            (
                await store.create_chart(
                    StoredChart(new_chart_id(), account.id, f"C{n}", {"datetime": "1985-07-13T14:05:00"}, {}, {}),
                    limit=50,
                )
            ).chart_id
            for n in range(12)
        ]
        await store.delete_chart(account.id, made[0])
        real_watch = store._charts.watch

        async def marker_first(*args, **kwargs):
            watcher = await real_watch(*args, **kwargs)
            watcher._updates._queue.appendleft(None)
            watcher._init_done = True
            return watcher

        store._charts.watch = marker_first
        return made[1:], [chart.chart_id for chart in await store._account_charts(account.id)]

    made, listed = with_plain_client(nats_factory, body)
    assert listed == sorted(made)
