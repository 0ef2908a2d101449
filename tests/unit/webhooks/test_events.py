"""webhooks/events.py: a subscription's events are /v1/forecast's for the UTC day of
their instant; the sky's carry ids of their own and nothing of the reference birth."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from store import SqliteStore
from store.chart_records import StoredChart, new_chart_id
from webhooks.events import day_events, days_between, forecast_body, sky_event_id

DAY = datetime(2026, 11, 27, tzinfo=UTC)
BIRTH = {"datetime": "1985-07-13T14:05:00", "tz": "Europe/Paris", "lat": "45.75", "lon": "4.85"}


def test_the_days_of_a_range_are_the_utc_days_holding_its_instants():
    start = datetime(2026, 11, 27, 23, 0, tzinfo=UTC).timestamp()
    assert days_between(start, start + 3600) == [DAY, datetime(2026, 11, 28, tzinfo=UTC)]
    assert days_between(start, start) == [DAY]


def test_a_days_forecast_runs_from_its_midnight_to_the_next():
    body = forecast_body(DAY, ("lunation", "ingress"), "chart_x")
    assert body == {"chart": "chart_x", "start": "2026-11-27T00:00:00Z", "end": "2026-11-28T00:00:00Z", "kinds": "lunation,ingress"}


def test_a_sky_event_id_depends_on_the_minute_not_the_second():
    minute = 2461371.5
    assert sky_event_id("ingress", "direct", ["moon"], minute + 1e-6) == sky_event_id("ingress", "direct", ["moon"], minute + 30 / 86400)
    assert sky_event_id("ingress", "direct", ["moon"], minute) != sky_event_id("ingress", "direct", ["moon"], minute + 61 / 86400)
    assert sky_event_id("ingress", "direct", ["moon"], minute).startswith("sky_")


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
