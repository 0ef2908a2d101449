"""webhooks/forecast_requests.py: a subscription asks /v1/forecast for its kinds over a window
(a delivered event over the UTC day of its instant); the sky's events carry ids of their own."""

from __future__ import annotations

from datetime import UTC, datetime

from webhooks.forecast_requests import (
    SKY_BIRTH,
    days_between,
    forecast_body,
    instant_s,
    sky_event,
    sky_event_id,
    window_body,
)

DAY = datetime(2026, 11, 27, tzinfo=UTC)


def test_the_days_of_a_range_are_the_utc_days_holding_its_instants():
    start = datetime(2026, 11, 27, 23, 0, tzinfo=UTC).timestamp()
    assert days_between(start, start + 3600) == [DAY, datetime(2026, 11, 28, tzinfo=UTC)]
    assert days_between(start, start) == [DAY]


def test_a_days_forecast_runs_from_its_midnight_to_the_next():
    body = forecast_body(DAY, ("lunation", "ingress"), "chart_x")
    assert body == {
        "chart": "chart_x",
        "start": "2026-11-27T00:00:00Z",
        "end": "2026-11-28T00:00:00Z",
        "kinds": "lunation,ingress",
    }


def test_a_window_of_the_sky_is_asked_with_the_reference_birth_to_the_second():
    start, end = datetime(2026, 11, 27, 9, 30, 15, tzinfo=UTC), datetime(2026, 12, 5, tzinfo=UTC)
    assert window_body(start, end, ("eclipse",), None) == {
        **SKY_BIRTH,
        "start": "2026-11-27T09:30:15Z",
        "end": "2026-12-05T00:00:00Z",
        "kinds": "eclipse",
    }


def test_a_sky_event_id_depends_on_the_minute_not_the_second():
    minute = 2461371.5
    assert sky_event_id("ingress", "direct", ["moon"], minute + 1e-6) == sky_event_id(
        "ingress", "direct", ["moon"], minute + 30 / 86400
    )
    assert sky_event_id("ingress", "direct", ["moon"], minute) != sky_event_id(
        "ingress", "direct", ["moon"], minute + 61 / 86400
    )
    assert sky_event_id("ingress", "direct", ["moon"], minute).startswith("sky_")


def test_a_sky_event_keeps_the_forecasts_members_with_nothing_of_the_birth_and_takes_a_sky_id():
    event = {
        "id": "fc_1",
        "kind": "lunation",
        "phase": "full_moon",
        "bodies": ["sun", "moon"],
        "point": None,
        "natal_house": 4,
        "summary": "Full Moon at 4°10′ Gemini in natal house 4",
        "instant": {"jd": 2461371.5, "datetime": "2026-11-27T00:00:00Z"},
    }
    sky = sky_event(event)
    # The same members (one Event schema), the birth's null and out of the summary.
    assert set(sky) == set(event) and sky["natal_house"] is None and sky["point"] is None
    assert sky["summary"] == "Full Moon at 4°10′ Gemini"
    assert sky["id"] == sky_event_id("lunation", "full_moon", ["sun", "moon"], 2461371.5)
    assert instant_s(sky) == DAY.timestamp()
