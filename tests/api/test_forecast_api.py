"""/v1/forecast (issue 40, part 2): one birth's events over a range in one time-ordered list,
rule by rule through the API."""

from __future__ import annotations

import icalendar

from services.search import forecast
from tests.api.test_conventions_api import assert_error, balance
from tests.api.test_search_api import INSTANT_KEYS, data

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
YEAR = {**BIRTH, "start": "2026-01-01T00:00:00Z", "end": "2027-01-01T00:00:00Z"}
MONTH = {**BIRTH, "start": "2026-03-01T00:00:00Z", "end": "2026-04-01T00:00:00Z"}
KINDS = {
    "transit",
    "station",
    "ingress",
    "lunation",
    "eclipse",
    "void_of_course",
    "return",
    "profection",
    "releasing",
    "firdaria",
}
EVENT_KEYS = {"id", "kind", "phase", "instant", "end", "bodies", "point", "natal_house", "summary"}


def test_a_forecast_costs_10_credits_and_holds_every_kind_in_time_order(api):
    events = data(api, "/v1/forecast", 10, **YEAR)["events"]
    assert {e["kind"] for e in events} == KINDS
    jds = [e["instant"]["jd"] for e in events]
    assert jds == sorted(jds) and all(2461041.5 <= jd < 2461406.5 for jd in jds)
    for event in events:
        assert EVENT_KEYS <= set(event) and set(event["instant"]) == INSTANT_KEYS
        # Each event carries the record of its own kind (the return's under body_return).
        assert ("body_return" if event["kind"] == "return" else event["kind"]) in event


def test_lunations_and_eclipses_name_the_natal_house_they_fall_in_and_no_other_kind_does(api):
    events = data(api, "/v1/forecast", 10, **YEAR, kinds="lunation,eclipse,station")["events"]
    for event in events:
        if event["kind"] == "station":
            assert event["natal_house"] is None
        else:
            assert 1 <= event["natal_house"] <= 12


def test_an_event_inside_two_overlapping_ranges_has_the_same_id_in_both(api):
    first = data(api, "/v1/forecast", 10, **{**BIRTH, "start": "2026-01-01T00:00:00Z", "end": "2026-05-01T00:00:00Z"})[
        "events"
    ]
    second = data(api, "/v1/forecast", 10, **{**BIRTH, "start": "2026-03-01T07:00:00Z", "end": "2026-08-01T00:00:00Z"})[
        "events"
    ]
    overlap = (2461100.5 + 7 / 24, 2461161.5)  # 2026-03-01T07:00 to 2026-05-01

    def inside(events):
        return {e["id"]: e for e in events if overlap[0] <= e["instant"]["jd"] < overlap[1]}

    shared, other = inside(first), inside(second)
    assert shared and set(shared) == set(other)
    assert all(shared[i]["kind"] == other[i]["kind"] and shared[i]["bodies"] == other[i]["bodies"] for i in shared)


def test_kinds_keep_only_the_kinds_asked_for(api):
    events = data(api, "/v1/forecast", 10, **YEAR, kinds="return,profection")["events"]
    assert {e["kind"] for e in events} == {"return", "profection"}
    # The Sun comes back once a year, the Moon about thirteen times.
    assert sum(e["phase"] == "solar" for e in events) == 1 and 13 <= sum(e["phase"] == "lunar" for e in events) <= 14


def test_bodies_keep_the_events_that_concern_one_of_them(api):
    events = data(api, "/v1/forecast", 10, **YEAR, bodies="saturn", kinds="transit,station,ingress,profection")[
        "events"
    ]
    assert events
    assert all("saturn" in e["bodies"] or e["point"] == "saturn" for e in events)
    assert {e["kind"] for e in events} >= {"transit", "station"}


def test_an_unknown_kind_is_invalid_parameter_suggesting_the_kinds(api):
    error = assert_error(
        api.get("/v1/forecast", params={**MONTH, "kinds": "transit,eclipses"}), 400, "invalid_parameter", "kinds"
    )
    assert "eclipse" in error["suggestion"]


def test_an_unknown_body_is_refused_naming_bodies(api):
    assert_error(api.get("/v1/forecast", params={**MONTH, "bodies": "vulcan"}), 400, "body_not_found", "bodies")


def test_the_range_is_at_most_ten_calendar_years(api):
    data(
        api,
        "/v1/forecast",
        10,
        **BIRTH,
        start="2026-01-01T00:00:00Z",
        end="2036-01-01T00:00:00Z",
        kinds="profection,firdaria",
    )
    error = assert_error(
        api.get("/v1/forecast", params={**BIRTH, "start": "2026-01-01T00:00:00Z", "end": "2036-01-01T00:00:01Z"}),
        400,
        "range_too_long",
        "end",
    )
    assert "10 years" in error["suggestion"]


def test_the_birth_needs_its_place(api):
    params = {key: value for key, value in MONTH.items() if key not in ("lat", "lon")}
    assert_error(api.get("/v1/forecast", params=params), 400, "missing_parameter", "lat")


# A birth in Lyon on 13 July 1985 at 14:05, summer time (CEST, UTC+2), is 12:05Z; in March
# Lyon keeps CET, UTC+1 (the example of /v1/transits).
LYON = "2996944"
LYON_BIRTH = {"datetime": "1985-07-13T14:05:00", "place": LYON}
LOCAL_MONTH = {"start": "2026-03-01T00:00:00", "end": "2026-03-29T00:00:00"}


def test_a_birth_by_place_reads_its_local_time_and_the_range_in_its_zone_as_transits_do(api):
    response = api.get("/v1/forecast", params={**LYON_BIRTH, **LOCAL_MONTH, "kinds": "return,transit"})
    assert response.status_code == 200, response.text
    moment = response.json()["meta"]["moment"]
    assert moment["datetime"]["utc"] == "1985-07-13T12:05:00.000Z"
    assert (moment["start"]["utc"], moment["end"]["utc"]) == ("2026-02-28T23:00:00.000Z", "2026-03-28T23:00:00.000Z")
    places = api.get("/v1/places", params={"q": "Lyon", "country": "FR"}).json()["data"]["places"]
    (town,) = [place for place in places if place["id"] == LYON]
    by_hand = data(
        api,
        "/v1/forecast",
        10,
        datetime="1985-07-13T12:05:00Z",
        lat=town["lat"],
        lon=town["lon"],
        kinds="return,transit",
        start="2026-02-28T23:00:00Z",
        end="2026-03-28T23:00:00Z",
    )
    assert response.json()["data"] == by_hand


def test_range_tz_reads_the_range_in_its_own_zone_and_leaves_the_birth_alone(api):
    response = api.get(
        "/v1/forecast", params={**LYON_BIRTH, **LOCAL_MONTH, "kinds": "return", "range_tz": "America/New_York"}
    )
    moment = response.json()["meta"]["moment"]
    assert moment["start"]["utc"] == "2026-03-01T05:00:00.000Z"
    assert moment["datetime"]["utc"] == "1985-07-13T12:05:00.000Z"


def test_format_ics_is_an_rfc_5545_calendar_with_the_events_ids_as_uids(api):
    response = api.get("/v1/forecast", params={**MONTH, "format": "ics"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "text/calendar; charset=utf-8"
    vevents = icalendar.Calendar.from_ical(response.text).walk("VEVENT")
    events = data(api, "/v1/forecast", 10, **MONTH)["events"]
    assert [str(v["UID"]) for v in vevents] == [e["id"] + "@celestial" for e in events]
    assert [str(v["SUMMARY"]) for v in vevents] == [e["summary"] for e in events]
    assert all(("DTEND" in v) == (e["end"] is not None) for v, e in zip(vevents, events))


def test_an_ics_forecast_costs_10_credits_and_a_refused_one_none(stack):
    name, key = stack.new_key(credits=30)
    with stack.client(key) as client:
        assert client.get("/v1/forecast", params={**MONTH, "format": "ics"}).status_code == 200
        assert client.get("/v1/forecast", params={**MONTH, "kinds": "nothing"}).status_code == 400
    assert balance(stack, name) == 20


def test_void_of_course_events_are_the_void_of_course_periods_begun_in_the_range_to_the_same_instants(api):
    events = data(api, "/v1/forecast", 10, **YEAR, kinds="void_of_course")["events"]
    periods = data(api, "/v1/void-of-course/periods", 2, start=YEAR["start"], end=YEAR["end"])
    beginning = [p for p in periods if 2461041.5 <= p["start"]["jd"] < 2461406.5]
    assert len(events) == len(beginning) > 150
    for event, period in zip(events, beginning):
        assert (
            event["instant"] == period["start"] and event["end"] == period["end"] and event["phase"] == period["sign"]
        )
        assert event["void_of_course"] == period


# --- moving, rank and pages (issue 49, parts 5 and 6) ------------------------------------------

SLOW = "jupiter,saturn,uranus,neptune,pluto"


def test_moving_keeps_the_events_a_named_body_moves_in_and_not_those_at_its_natal_point(api):
    events = data(api, "/v1/forecast", 10, **YEAR, moving="saturn")["events"]
    assert events and {e["kind"] for e in events} <= {"transit", "station", "ingress"}
    assert all(e["bodies"] == ["saturn"] for e in events)
    at_natal_saturn = data(api, "/v1/forecast", 10, **YEAR, bodies="saturn", kinds="transit")["events"]
    assert any(e["bodies"] != ["saturn"] for e in at_natal_saturn)


def test_moving_the_moon_keeps_lunations_eclipses_void_of_course_and_lunar_returns_and_no_time_lord_period(api):
    events = data(api, "/v1/forecast", 10, **YEAR, moving="moon")["events"]
    assert {e["kind"] for e in events} == {"lunation", "eclipse", "void_of_course", "return"}
    assert {e["phase"] for e in events if e["kind"] == "return"} == {"lunar"}


def test_moving_with_a_body_that_moves_in_no_forecast_event_is_body_not_eligible_naming_moving(api):
    error = assert_error(
        api.get("/v1/forecast", params={**MONTH, "moving": "saturn,chiron"}), 400, "body_not_eligible", "moving"
    )
    assert "pluto" in error["suggestion"]


def test_rank_significance_puts_the_slow_movers_exact_contacts_first_and_keeps_the_same_events(api):
    by_time = data(api, "/v1/forecast", 10, **YEAR)["events"]
    ranked = data(api, "/v1/forecast", 10, **YEAR, rank="significance")["events"]
    assert sorted(e["id"] for e in ranked) == sorted(e["id"] for e in by_time) and ranked != by_time
    slow = SLOW.split(",")
    leading = [e for e in ranked if e["kind"] == "transit" and e["phase"] == "exact" and e["bodies"][0] in slow]
    assert ranked[: len(leading)] == leading
    assert ranked[-1]["kind"] == "void_of_course"


def test_pages_of_any_size_put_together_are_the_whole_list_and_the_last_says_so(api):
    params = {**MONTH, "rank": "significance"}
    whole = data(api, "/v1/forecast", 10, **params)
    assert whole["next_page_token"] is None
    pages, token = [], None
    while True:
        page = data(api, "/v1/forecast", 10, **params, page_size=37, **({"page_token": token} if token else {}))
        pages.append(page["events"])
        token = page["next_page_token"]
        if token is None:
            break
    assert all(len(p) == 37 for p in pages[:-1]) and 0 < len(pages[-1]) <= 37 and len(pages) > 2
    assert [e for p in pages for e in p] == whole["events"]


def test_a_page_token_of_another_request_is_invalid_parameter_with_a_suggestion_and_costs_nothing(stack):
    name, key = stack.new_key(credits=30)
    with stack.client(key) as client:
        first = client.get("/v1/forecast", params={**MONTH, "page_size": 5}).json()["data"]
        response = client.get(
            "/v1/forecast", params={**MONTH, "moving": "mars", "page_token": first["next_page_token"]}
        )
        error = assert_error(response, 400, "invalid_parameter", "page_token")
        assert "next_page_token" in error["suggestion"]
        assert_error(
            client.get("/v1/forecast", params={**MONTH, "page_token": "not a token"}),
            400,
            "invalid_parameter",
            "page_token",
        )
    assert balance(stack, name) == 20


def test_each_page_costs_what_the_forecast_costs(stack):
    name, key = stack.new_key(credits=30)
    with stack.client(key) as client:
        first = client.get("/v1/forecast", params={**MONTH, "page_size": 5}).json()["data"]
        second = client.get("/v1/forecast", params={**MONTH, "page_size": 5, "page_token": first["next_page_token"]})
        assert second.status_code == 200 and second.json()["meta"]["credits_used"] == 10
    assert balance(stack, name) == 10


def test_page_size_is_1_to_5000(api):
    for size in (0, 5001):
        assert_error(
            api.get("/v1/forecast", params={**MONTH, "page_size": size}), 400, "invalid_parameter", "page_size"
        )
    assert len(data(api, "/v1/forecast", 10, **MONTH, page_size=1)["events"]) == 1


def test_an_ics_forecast_is_whole_and_paging_it_is_conflicting_parameters(api):
    for paging in ({"page_size": 10}, {"page_token": "A" * 22}):
        assert_error(
            api.get("/v1/forecast", params={**MONTH, "format": "ics", **paging}),
            400,
            "conflicting_parameters",
            next(iter(paging)),
        )


def test_an_ics_forecast_past_its_cap_is_result_too_large_suggesting_the_json_pages_and_costs_nothing(
    stack, monkeypatch
):
    monkeypatch.setattr(forecast, "ICS_MAX_BYTES", 2_000)
    name, key = stack.new_key(credits=30)
    with stack.client(key) as client:
        error = assert_error(client.get("/v1/forecast", params={**MONTH, "format": "ics"}), 400, "result_too_large")
        assert "page_size" in error["suggestion"] and "2,000" in error["message"]
    assert balance(stack, name) == 30
