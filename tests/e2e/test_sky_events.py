"""The searches for sky events over a range (issue 29) on real processes, over HTTP: each answers
on the real stack what it answers in process, and the calendar comes as iCalendar too; so does
a birth's forecast (issue 40, part 2)."""

from __future__ import annotations

import icalendar
import pytest

FORECAST = {
    "datetime": "1990-06-15T14:30:00Z",
    "lat": 51.5,
    "lon": -0.13,
    "start": "2024-03-01T00:00:00Z",
    "end": "2024-05-01T00:00:00Z",
}
REQUESTS = [
    ("/v1/stations", {"start": "2024-01-01T00:00:00Z", "end": "2025-01-01T00:00:00Z", "bodies": "mercury,mars"}, 2),
    ("/v1/lunations", {"start": "2024-01-01T00:00:00Z", "end": "2025-01-01T00:00:00Z"}, 1),
    ("/v1/void-of-course/periods", {"start": "2024-03-01T00:00:00Z", "end": "2024-04-01T00:00:00Z"}, 2),
    ("/v1/calendar", {"start": "2024-03-01T00:00:00Z", "end": "2024-04-01T00:00:00Z"}, 5),
    ("/v1/forecast", {**FORECAST}, 10),
]


@pytest.mark.parametrize(("path", "params", "credits"), REQUESTS, ids=[path for path, _, _ in REQUESTS])
def test_each_sky_event_search_answers_over_http_as_in_process(stack, app_stack, path, params, credits):
    _, key = stack.new_key(credits=100)
    with stack.client(key) as client:
        answer = client.get(path, params=params)
        posted = client.post(path, json=params)
    assert answer.status_code == 200, answer.text
    assert answer.json()["meta"]["credits_used"] == credits
    assert posted.json()["data"] == answer.json()["data"]
    _, in_process_key = app_stack.new_key(credits=100)
    with app_stack.client(in_process_key) as client:
        assert client.get(path, params=params).json()["data"] == answer.json()["data"]


def test_an_ics_calendar_comes_over_http_as_text_calendar_parsed_by_icalendar(stack):
    _, key = stack.new_key(credits=100)
    with stack.client(key) as client:
        response = client.get(
            "/v1/calendar", params={"start": "2024-03-01T00:00:00Z", "end": "2024-04-01T00:00:00Z", "format": "ics"}
        )
        events = client.get(
            "/v1/calendar", params={"start": "2024-03-01T00:00:00Z", "end": "2024-04-01T00:00:00Z"}
        ).json()["data"]["events"]
    assert response.status_code == 200 and response.headers["content-type"] == "text/calendar; charset=utf-8"
    assert [str(e["UID"]) for e in icalendar.Calendar.from_ical(response.text).walk("VEVENT")] == [
        e["id"] + "@celestial" for e in events
    ]


def test_an_ics_forecast_comes_over_http_with_the_ids_of_its_json_events(stack):
    _, key = stack.new_key(credits=100)
    with stack.client(key) as client:
        response = client.get("/v1/forecast", params={**FORECAST, "format": "ics"})
        events = client.get("/v1/forecast", params=FORECAST).json()["data"]["events"]
    assert response.status_code == 200 and response.headers["content-type"] == "text/calendar; charset=utf-8"
    assert [str(e["UID"]) for e in icalendar.Calendar.from_ical(response.text).walk("VEVENT")] == [
        e["id"] + "@celestial" for e in events
    ]
    assert {e["kind"] for e in events} >= {
        "transit",
        "station",
        "ingress",
        "lunation",
        "eclipse",
        "void_of_course",
        "return",
        "profection",
    }
