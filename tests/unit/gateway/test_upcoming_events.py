"""gateway/upcoming_events.py: a subscription's next event is the first of its kinds at or after
the instant searched from, over windows from that day to ten years on, as the worker delivers it
(computed over its own UTC day); a test's event is marked by its id alone."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from gateway.upcoming_events import WINDOW_ENDS_DAYS, as_test, next_event

DAY = datetime(2026, 12, 6, tzinfo=UTC)
FROM_S = (DAY + timedelta(hours=9)).timestamp()


def an_event(moment: datetime, event_id: str, **members) -> dict:
    return {
        "id": event_id,
        "kind": "lunation",
        "phase": "full_moon",
        "bodies": ["moon"],
        "instant": {
            "jd": 2440587.5 + moment.timestamp() / 86400,
            "datetime": moment.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
        },
        **members,
    }


class Forecasts:
    """A stand-in for /v1/forecast: answers each body with the events it holds in its range."""

    def __init__(self, *events: dict):
        self.events = events
        self.asked: list[dict] = []

    async def __call__(self, body: dict) -> list[dict]:
        self.asked.append(body)
        start, end = (datetime.fromisoformat(body[name].replace("Z", "+00:00")) for name in ("start", "end"))
        return [
            {**event, "range": body["start"]}
            for event in self.events
            if start <= datetime.fromisoformat(event["instant"]["datetime"].replace("Z", "+00:00")) < end
        ]


def test_the_first_event_at_or_after_the_instant_of_its_own_day_is_found_with_one_question():
    earlier, later = an_event(DAY + timedelta(hours=3), "fc_early"), an_event(DAY + timedelta(hours=20), "fc_late")
    forecasts = Forecasts(earlier, later)
    found = asyncio.run(next_event(forecasts, ("lunation",), "chart_x", FROM_S))
    assert found["id"] == "fc_late" and len(forecasts.asked) == 1
    assert (forecasts.asked[0]["start"], forecasts.asked[0]["end"], forecasts.asked[0]["chart"]) == (
        "2026-12-06T00:00:00Z",
        "2026-12-07T00:00:00Z",
        "chart_x",
    )


def test_an_event_found_in_a_longer_window_is_given_as_its_own_days_forecast_gives_it():
    forecasts = Forecasts(an_event(DAY + timedelta(days=40, hours=5), "fc_later"))
    found = asyncio.run(next_event(forecasts, ("lunation", "eclipse"), None, FROM_S))
    assert found["id"] == "fc_later" and found["range"] == "2027-01-15T00:00:00Z"
    assert forecasts.asked[-1]["end"] == "2027-01-16T00:00:00Z" and forecasts.asked[-1]["kinds"] == "lunation,eclipse"


def test_without_an_event_the_windows_follow_one_another_for_ten_years_and_nothing_is_found():
    forecasts = Forecasts()
    assert asyncio.run(next_event(forecasts, ("releasing",), "chart_x", FROM_S)) is None
    starts = [body["start"] for body in forecasts.asked]
    ends = [body["end"] for body in forecasts.asked]
    assert starts[0] == "2026-12-06T00:00:00Z" and starts[1:] == ends[:-1]
    assert ends[-1] == (DAY + timedelta(days=WINDOW_ENDS_DAYS[-1])).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert WINDOW_ENDS_DAYS[-1] <= 3650  # within /v1/forecast's ten calendar years


def test_a_tests_event_differs_from_the_real_one_by_its_id_alone_and_from_every_other_test():
    event = an_event(DAY, "fc_0123456789abcdef01234567")
    first, second = as_test(event), as_test(event)
    assert {key: value for key, value in first.items() if key != "id"} == {
        key: value for key, value in event.items() if key != "id"
    }
    assert first["id"].startswith("test_") and first["id"].endswith("_" + event["id"])
    assert len({first["id"], second["id"], event["id"]}) == 3
