"""webhooks/events.py: a subscription's events are /v1/forecast's for the UTC day of
their instant; the sky's carry ids of their own and nothing of the reference birth."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from store import SqliteStore
from store.chart_records import StoredChart, new_chart_id
from webhooks.events import day_events

DAY = datetime(2026, 11, 27, tzinfo=UTC)
BIRTH = {"datetime": "1985-07-13T14:05:00", "tz": "Europe/Paris", "lat": "45.75", "lon": "4.85"}


def test_chart_events_are_the_forecasts_of_the_stored_birth_and_sky_events_have_no_natal_house(tmp_path):
    async def scenario():
        store = SqliteStore(str(tmp_path / "s.sqlite3"))
        try:
            account = await store.create_account("acme", 10)
            chart = await store.create_chart(StoredChart(new_chart_id(), account.id, "Ada", dict(BIRTH), {}, dict(BIRTH)), limit=5)
            kinds = ("transit", "lunation", "void_of_course", "ingress")
            charted = await day_events(store, account.id, chart.chart_id, kinds, DAY)
            # The Moon's last quarter falls on 2026-12-01 (UTC).
            sky = await day_events(store, account.id, None, ("ingress", "lunation"), datetime(2026, 12, 1, tzinfo=UTC))
            return charted, sky
        finally:
            await store.close()

    charted, sky = asyncio.run(scenario())
    assert charted and all(e["id"].startswith("fc_") for e in charted)
    assert all("2026-11-27T" in e["instant"]["datetime"] for e in charted)
    assert [(e["kind"], e["phase"]) for e in sky] == [("lunation", "last_quarter")]
    assert sky and all(e["id"].startswith("sky_") and "natal_house" not in e for e in sky)
