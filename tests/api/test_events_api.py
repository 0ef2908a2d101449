"""One event schema (TimelineEvent) (issue 49, part E): /v1/forecast's events, /v1/calendar's and a webhook
delivery's are the same component of the OpenAPI document, and a sky event that both answers
hold is the same event in both but for what concerns the birth."""

from __future__ import annotations

from tests.api.test_search_api import data

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
# Mercury's station of 1 April 2024, the total solar eclipse of 8 April, a lunar one of 25 March.
SPAN = {"start": "2024-03-15T00:00:00Z", "end": "2024-04-15T00:00:00Z"}
SKY_KINDS = ("station", "ingress", "lunation", "eclipse", "void_of_course")
# What a forecast's event holds of its birth; the id is each answer's own (a forecast's digest
# includes the birth, so two births' subscribed forecasts never share a UID; a calendar's names
# the sky event and stays as it was).
NATAL_MEMBERS = ("point", "natal_house")
REF = "#/components/schemas/"


def _resolve(document: dict, schema: dict) -> dict:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].removeprefix(REF)]
    return schema


def _events_item(document: dict, path: str) -> dict:
    """Return the schema of one event of ``path``'s JSON answer (its data's events; the iCalendar
    form is served as text/calendar, outside the JSON schema)."""
    envelope = document["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    data = _resolve(document, _resolve(document, envelope)["properties"]["data"])
    return data["properties"]["events"]["items"]


def test_the_forecasts_the_calendars_and_a_webhook_deliverys_events_are_one_component(api):
    document = api.get("/v1/openapi.json").json()
    payload = document["webhooks"]["event"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    delivered = _resolve(document, payload)["properties"]["event"]
    forecast, calendar = _events_item(document, "/v1/forecast"), _events_item(document, "/v1/calendar")
    assert forecast == calendar == delivered == {"$ref": REF + "TimelineEvent"}
    event = document["components"]["schemas"]["TimelineEvent"]
    assert {"id", "kind", "phase", "instant", "end", "bodies", "point", "natal_house", "summary"} <= set(
        event["required"]
    )
    # No look-alike left: one eclipse record, no family's own event.
    schemas = document["components"]["schemas"]
    assert not {"ForecastEvent", "CalendarEvent", "ForecastEclipse", "CalendarEclipse"} & set(schemas)


def test_a_calendar_event_is_the_forecasts_event_of_the_same_sky_event_but_for_the_birth(api):
    calendar = data(api, "/v1/calendar", 5, **SPAN)["events"]
    forecast = data(api, "/v1/forecast", 10, **BIRTH, **SPAN, kinds=",".join(SKY_KINDS))["events"]

    def key(event: dict) -> tuple:
        return event["kind"], event["phase"], tuple(event["bodies"]), event["instant"]["jd"]

    ours = {key(event): event for event in calendar}
    shared = [(ours[key(event)], event) for event in forecast if key(event) in ours]
    # Every kind both answers hold, Mercury's station among them.
    assert {event["kind"] for event, _ in shared} == set(SKY_KINDS)
    assert any(event["kind"] == "station" and event["bodies"] == ["mercury"] for event, _ in shared)
    for in_calendar, in_forecast in shared:
        assert all(in_calendar[member] is None for member in NATAL_MEMBERS)
        house = in_forecast["natal_house"]
        # The summary is the calendar's, then the natal house where the forecast names one.
        assert in_forecast["summary"] == in_calendar["summary"] + (f" in natal house {house}" if house else "")
        left_out = {"id", "summary", *NATAL_MEMBERS}
        assert {k: v for k, v in in_calendar.items() if k not in left_out} == {
            k: v for k, v in in_forecast.items() if k not in left_out
        }


def test_a_station_is_equal_member_for_member_in_both_but_point_natal_house_and_id(api):
    calendar = data(api, "/v1/calendar", 5, **SPAN, events="stations", bodies="mercury")["events"]
    forecast = data(api, "/v1/forecast", 10, **BIRTH, **SPAN, kinds="station", bodies="mercury")["events"]
    (in_calendar,) = calendar
    (in_forecast,) = forecast
    assert set(in_calendar) == set(in_forecast)
    assert in_calendar["id"] == "station-mercury-retrograde-20240401T2214" and in_forecast["id"].startswith("fc_")
    differing = {member for member in in_calendar if in_calendar[member] != in_forecast[member]}
    assert differing == {"id"}  # point and natal_house are null in both for a station
