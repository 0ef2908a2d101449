"""The searches for sky events over a range (issue 29): /v1/stations, /v1/lunations,
/v1/void-of-course/periods and /v1/calendar, rule by rule through the API."""

from __future__ import annotations

from datetime import datetime

import icalendar
import pytest

from tests.api.test_conventions_api import assert_error, balance
from tests.api.test_search_api import INSTANT_KEYS, data

YEAR = {"start": "2024-01-01T00:00:00Z", "end": "2025-01-01T00:00:00Z"}


# --- /v1/stations ------------------------------------------------------------------------------


def test_stations_cost_2_credits_and_default_to_mercury_through_pluto(api):
    # Venus turns in 2025 only (March and April).
    found = data(api, "/v1/stations", 2, start="2024-01-01T00:00:00Z", end="2026-01-01T00:00:00Z")
    assert {s["body"] for s in found["stations"]} == {
        "mercury",
        "venus",
        "mars",
        "jupiter",
        "saturn",
        "uranus",
        "neptune",
        "pluto",
    }
    station = found["stations"][0]
    assert set(station) == {"body", "event", "instant", "longitude", "sign", "sign_degree"}
    assert set(station["instant"]) == INSTANT_KEYS
    jds = [s["instant"]["jd"] for s in found["stations"]]
    assert jds == sorted(jds) and all(2460310.5 <= jd < 2461041.5 for jd in jds)


def test_mercury_stations_of_2024_alternate_and_pair_into_retrograde_periods_with_shadows(api):
    found = data(api, "/v1/stations", 2, **YEAR, bodies="mercury")
    events = [s["event"] for s in found["stations"]]
    # Mercury turned in April, August and November-December 2024 (published almanacs), and began the
    # year retrograde (direct again on 2 January).
    assert [s["instant"]["datetime"][:10] for s in found["stations"]] == [
        "2024-01-02",
        "2024-04-01",
        "2024-04-25",
        "2024-08-05",
        "2024-08-28",
        "2024-11-26",
        "2024-12-15",
    ]
    assert events == ["station_direct"] + ["station_retrograde", "station_direct"] * 3
    periods = found["retrograde_periods"]
    assert len(periods) == 4
    for period in periods:
        times = [
            period[k]["jd"] for k in ("pre_shadow_start", "station_retrograde", "station_direct", "post_shadow_end")
        ]
        assert times == sorted(times)
        assert (
            period["longitude_start"] > period["longitude_end"] or period["longitude_start"] < 30
        )  # the loop runs backward
    first, *middle, last = periods
    # The period of December 2023 began before the range (cut by it), the last ends after it.
    assert first["clamped_start"] and not first["clamped_end"]
    assert not any(p["clamped_start"] or p["clamped_end"] for p in middle)
    assert last["clamped_end"] and not last["clamped_start"]


def test_stations_of_the_asteroids_and_chiron_are_accepted(api):
    found = data(api, "/v1/stations", 2, **YEAR, bodies="asteroids")
    assert {s["body"] for s in found["stations"]} == {"chiron", "pholus", "ceres", "pallas", "juno", "vesta"}


@pytest.mark.parametrize("body", ["sun", "moon", "mean_node", "true_node", "mean_apogee", "aldebaran", "433"])
def test_the_sun_moon_nodes_and_points_have_no_stations_body_not_eligible(api, body):
    error = assert_error(
        api.get("/v1/stations", params={**YEAR, "bodies": f"mercury,{body}"}), 400, "body_not_eligible", "bodies"
    )
    assert "mercury" in error["suggestion"] and "sun," not in error["suggestion"]


def test_a_group_bringing_an_ineligible_body_is_body_not_eligible(api):
    assert_error(api.get("/v1/stations", params={**YEAR, "bodies": "all"}), 400, "body_not_eligible", "bodies")


STATION_REFUSALS = [
    pytest.param(
        {"start": "2024-01-01", "end": "2034-01-01T00:00:01Z"},
        "range_too_long",
        "end",
        "lasts 10 years and 1 second; at most 10 years",
        id="eleven-seconds-past-ten-years",
    ),
    pytest.param(
        {"start_jd": 2460310.5, "end_jd": 2460310.5 + 3654},
        "range_too_long",
        "end_jd",
        "at most 10 years",
        id="cap-names-end-jd",
    ),
    pytest.param(
        {"start": "2024-01-01", "end": "2023-01-01"},
        "invalid_parameter",
        "end",
        "end must come after start",
        id="end-before-start",
    ),
    pytest.param({"start": "2024-01-01"}, "missing_parameter", "end", "", id="no-end"),
    pytest.param(
        {"start": "1150-01-01", "end": "1151-01-01", "bodies": "mars,ceres"},
        "out_of_range",
        "bodies",
        "No ephemeris of ceres",
        id="asteroid-outside-its-ephemeris",
    ),
    pytest.param({**YEAR, "bodies": "vulcan"}, "body_not_found", "bodies", "vulcan", id="unknown-body"),
]


def test_ten_calendar_years_fit_the_stations_cap_leap_days_or_not(api):
    found = data(api, "/v1/stations", 2, start="2024-02-29T00:00:00Z", end="2034-02-28T00:00:00Z", bodies="saturn")
    assert len(found["stations"]) == 19  # Saturn turns about every six and a half months


# --- /v1/lunations -----------------------------------------------------------------------------


def test_lunations_cost_1_credit_and_default_to_the_four_quarters_in_time_order(api):
    found = data(api, "/v1/lunations", 1, **YEAR)
    assert {r["phase"] for r in found} == {"new_moon", "first_quarter", "full_moon", "last_quarter"}
    assert set(found[0]) == {"phase", "instant", "elongation", "moon_longitude", "sign", "sign_degree", "eclipse"}
    jds = [r["instant"]["jd"] for r in found]
    assert jds == sorted(jds) and 48 <= len(found) <= 51
    # The last quarter of 4 January 2024 at 03:30 UTC (published almanacs).
    assert found[0]["phase"] == "last_quarter" and found[0]["instant"]["datetime"].startswith("2024-01-04T03:30")


def test_the_eight_phases_lie_45_degrees_apart_in_their_cycle(api):
    phases = "new_moon,crescent,first_quarter,gibbous,full_moon,disseminating,last_quarter,balsamic"
    found = data(api, "/v1/lunations", 1, start="2024-01-11T12:00:00Z", end="2024-02-09T23:00:00Z", phases=phases)
    assert [r["phase"] for r in found] == phases.split(",")[1:] + ["new_moon"]
    assert [r["elongation"] for r in found] == [45, 90, 135, 180, 225, 270, 315, 0]


def test_a_phases_subset_gives_only_those_phases(api):
    found = data(api, "/v1/lunations", 1, **YEAR, phases="full_moon")
    assert {r["phase"] for r in found} == {"full_moon"} and len(found) in (12, 13)


def test_a_lunation_within_a_day_of_an_eclipse_names_it_and_the_others_carry_null(api):
    found = data(api, "/v1/lunations", 1, **YEAR)
    eclipsed = {r["instant"]["datetime"][:10]: r["eclipse"] for r in found if r["eclipse"] is not None}
    # 2024: the penumbral lunar eclipse of 25 March, the total solar one of 8 April, the
    # partial lunar one of 18 September and the annular solar one of 2 October.
    assert eclipsed == {
        "2024-03-25": {"kind": "lunar", "eclipse_type": "penumbral"},
        "2024-04-08": {"kind": "solar", "eclipse_type": "total"},
        "2024-09-18": {"kind": "lunar", "eclipse_type": "partial"},
        "2024-10-02": {"kind": "solar", "eclipse_type": "annular"},
    }


LUNATION_REFUSALS = [
    pytest.param(
        {"start": "2024-01-01", "end": "2034-01-02"},
        "range_too_long",
        "end",
        "lasts 10 years and 1 day; at most 10 years",
        id="ten-years-and-a-day",
    ),
    pytest.param({**YEAR, "phases": "half_moon"}, "invalid_parameter", "phases", "half_moon", id="unknown-phase"),
    pytest.param({"end": "2024-02-01"}, "missing_parameter", "start", "", id="no-start"),
]


# --- /v1/void-of-course/periods -----------------------------------------------------------------

MONTH = {"start": "2024-03-01T00:00:00Z", "end": "2024-04-01T00:00:00Z"}


def test_void_periods_cost_2_credits_and_run_from_a_last_aspect_to_the_next_ingress(api):
    found = data(api, "/v1/void-of-course/periods", 2, **MONTH)
    assert 12 <= len(found) <= 15
    assert set(found[0]) == {"start", "end", "last_aspect", "sign", "next_sign", "clamped_start", "clamped_end"}
    for before, after in zip(found, found[1:]):
        assert before["end"]["jd"] < after["start"]["jd"] or after["last_aspect"] is None
        assert after["sign"] == before["next_sign"]
    for period in found:
        assert period["start"]["jd"] < period["end"]["jd"]
        aspect = period["last_aspect"]
        assert aspect["body_a"] == "moon" and aspect["orb"] == 0 and aspect["applying"] is True


def test_the_snapshot_is_void_inside_each_period_and_not_between_them(api):
    # The same rule read two ways: at the middle of each period the snapshot of /v1/void-of-course
    # (the bodies held where they are) is void, and halfway from the Moon's ingress to the
    # period's start (when it perfected an aspect in the sign) it is not.
    found = data(api, "/v1/void-of-course/periods", 2, **MONTH)
    for before, period in zip(found, found[1:]):
        middle = (period["start"]["jd"] + period["end"]["jd"]) / 2
        assert data(api, "/v1/void-of-course", 1, jd=middle)["is_void"], period
        if period["last_aspect"] is not None:
            between = (before["end"]["jd"] + period["start"]["jd"]) / 2
            assert not data(api, "/v1/void-of-course", 1, jd=between)["is_void"], period


def test_void_periods_take_the_snapshots_bodies_aspects_and_orb(api):
    found = data(
        api, "/v1/void-of-course/periods", 2, **MONTH, bodies="moon,sun", aspects="conjunction,opposition", orb=3
    )
    aspects = [p["last_aspect"] for p in found if p["last_aspect"]]
    assert {(a["body_b"], a["aspect"], a["max_orb"]) for a in aspects} == {
        ("sun", "conjunction", 3),
        ("sun", "opposition", 3),
    }
    assert sum(p["last_aspect"] is None for p in found) >= 10


def test_periods_the_range_cuts_are_given_whole_and_flagged(api):
    found = data(api, "/v1/void-of-course/periods", 2, start="2024-01-03T00:00:00Z", end="2024-01-05T12:00:00Z")
    # The Moon was void from 23:36 on 2 January to its ingress into Libra at 00:47 on the 3rd,
    # and from 11:41 on the 5th to its ingress into Scorpio at 12:39.
    first, last = found[0], found[-1]
    assert (
        first["start"]["datetime"].startswith("2024-01-02T23:36")
        and first["clamped_start"]
        and not first["clamped_end"]
    )
    assert last["end"]["datetime"].startswith("2024-01-05T12:39") and last["clamped_end"] and not last["clamped_start"]


# --- /v1/calendar ------------------------------------------------------------------------------

KINDS = {"ingress", "station", "lunation", "eclipse", "void_of_course"}
EVENT_MEMBERS = {"id", "kind", "phase", "instant", "end", "bodies", "point", "natal_house", "summary"}
DETAIL = {
    "ingress": "ingress",
    "station": "station",
    "lunation": "lunation",
    "eclipse": "eclipse",
    "void_of_course": "void_of_course",
}


def test_a_calendar_costs_5_credits_and_lists_every_kind_in_time_order_by_default(api):
    events = data(api, "/v1/calendar", 5, **YEAR)["events"]
    assert {e["kind"] for e in events} == KINDS
    instants = [e["instant"]["jd"] for e in events]
    assert instants == sorted(instants)
    for event in events:
        # Each event is an Event, as a forecast's: the record of its own kind, and no other;
        # nothing of a birth (point, natal_house null).
        assert set(event) == {*EVENT_MEMBERS, DETAIL[event["kind"]]}
        assert (event["end"] is None) == (event["kind"] != "void_of_course")
        assert event["point"] is None and event["natal_house"] is None


def test_the_calendars_kinds_are_the_separate_endpoints_records(api):
    # Mid-March to mid-April 2024: Mercury's station of 1 April, both eclipses of the season.
    span = {"start": "2024-03-15T00:00:00Z", "end": "2024-04-15T00:00:00Z"}
    events = data(api, "/v1/calendar", 5, **span)["events"]
    by_kind = {kind: [e[DETAIL[kind]] for e in events if e["kind"] == kind] for kind in KINDS}
    assert by_kind["lunation"] == data(api, "/v1/lunations", 1, **span)
    assert by_kind["void_of_course"] == data(api, "/v1/void-of-course/periods", 2, **span)
    stations = data(api, "/v1/stations", 2, **span, bodies="mercury,venus,mars,jupiter,saturn,uranus,neptune,pluto")[
        "stations"
    ]
    assert by_kind["station"] == stations and stations
    lunar = data(api, "/v1/eclipses/lunar", 2, datetime=span["start"])[0]
    solar = data(api, "/v1/eclipses/solar", 3, datetime=span["start"])[0]
    assert [
        {member: eclipse[member] for member in ("kind", "eclipse_type", "maximum")} for eclipse in by_kind["eclipse"]
    ] == [
        {"kind": "lunar", "eclipse_type": lunar["eclipse_type"], "maximum": lunar["maximum"]},
        {"kind": "solar", "eclipse_type": solar["eclipse_type"], "maximum": solar["maximum"]},
    ]


def test_the_calendars_ingresses_equal_those_of_v1_ingresses(api):
    events = data(api, "/v1/calendar", 5, **MONTH, events="ingresses")["events"]
    ingresses = [e["ingress"] for e in events]
    assert {e["kind"] for e in events} == {"ingress"} and len(ingresses) > 12
    for body in {r["body"] for r in ingresses}:
        for sign in {r["sign"] for r in ingresses if r["body"] == body}:
            ours = [r for r in ingresses if (r["body"], r["sign"]) == (body, sign)]
            # The next entries into the sign from the range's start, one more than the calendar
            # holds: the same instants to the bit, and the one after lies past the range's end.
            found = data(
                api, "/v1/ingresses", 2, datetime=MONTH["start"], body=body, sign=sign.lower(), count=len(ours) + 1
            )
            assert found[:-1] == ours
            assert found[-1]["datetime"] >= MONTH["end"]


def test_a_calendar_of_chosen_kinds_and_bodies(api):
    events = data(api, "/v1/calendar", 5, **YEAR, events="stations,eclipses", bodies="mercury,chiron")["events"]
    assert {e["kind"] for e in events} == {"station", "eclipse"}
    assert {e["station"]["body"] for e in events if e["kind"] == "station"} == {"mercury", "chiron"}
    assert len([e for e in events if e["kind"] == "eclipse"]) == 4


@pytest.mark.parametrize("body", ["mean_node", "true_node", "mean_apogee", "sirius"])
def test_a_calendar_body_without_ingresses_or_stations_is_body_not_eligible(api, body):
    assert_error(api.get("/v1/calendar", params={**MONTH, "bodies": f"sun,{body}"}), 400, "body_not_eligible", "bodies")


def _to_the_second(written: datetime, instant: str) -> bool:
    """Return whether the whole-second ``written`` is the ISO instant ``instant`` (milliseconds)
    rounded to the nearest second."""
    exact = datetime.fromisoformat(instant.replace("Z", "+00:00"))
    return written.microsecond == 0 and abs((written - exact).total_seconds()) <= 0.5005


def test_format_ics_is_an_rfc_5545_calendar_served_as_text_calendar(api):
    response = api.get("/v1/calendar", params={**MONTH, "format": "ics"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/calendar; charset=utf-8"
    assert response.headers["x-request-id"]
    parsed = icalendar.Calendar.from_ical(response.text)
    vevents = parsed.walk("VEVENT")
    events = data(api, "/v1/calendar", 5, **MONTH)["events"]
    assert len(vevents) == len(events)
    for vevent, event in zip(vevents, events):
        assert str(vevent["UID"]) == event["id"] + "@celestial"
        assert str(vevent["SUMMARY"]) == event["summary"]
        # DATE-TIME has no fraction: the instant rounded to the nearest second, as every
        # instant is rounded (issue 36), not cut.
        assert _to_the_second(vevent.decoded("DTSTART"), event["instant"]["datetime"])
        # An instant is an event without duration; a period has its end.
        if event["end"] is None:
            assert "DTEND" not in vevent
        else:
            assert _to_the_second(vevent.decoded("DTEND"), event["end"]["datetime"])
    # RFC 5545: CRLF line ends, no line longer than 75 octets.
    assert all(len(line.encode()) <= 75 for line in response.text.split("\r\n"))


def test_an_ics_calendar_costs_5_credits(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert client.get("/v1/calendar", params={**MONTH, "format": "ics"}).status_code == 200
    assert balance(stack, name) == 5


def test_calendar_ids_are_stable_from_one_request_to_the_next(api):
    # Two overlapping ranges, starting at different moments: every event they share has the
    # same id (its iCalendar UID) in both, so a subscribed calendar updates in place.
    first = data(api, "/v1/calendar", 5, start="2024-03-01T00:00:00Z", end="2024-03-20T00:00:00Z")["events"]
    second = data(api, "/v1/calendar", 5, start="2024-03-05T07:13:00Z", end="2024-04-01T00:00:00Z")["events"]
    shared = [e for e in first if "2024-03-06" <= e["instant"]["datetime"] < "2024-03-19"]
    uids = {e["id"] for e in second}
    assert shared and all(e["id"] in uids for e in shared)
    assert len(uids) == len(second)


def test_a_batch_carries_an_ics_calendar_as_its_data_string(api):
    response = api.post(
        "/v1/batch",
        json={
            "requests": [
                {"endpoint": "/v1/calendar", "params": {**MONTH, "format": "ics", "events": "eclipses,lunations"}}
            ]
        },
    )
    (result,) = response.json()["data"]["results"]
    assert result["status"] == 200 and result["data"].startswith("BEGIN:VCALENDAR\r\n")


# --- refusals ----------------------------------------------------------------------------------

VOID_REFUSALS = [
    pytest.param(
        {"start": "2024-01-01", "end": "2025-01-02T00:00:00Z"},
        "range_too_long",
        "end",
        "lasts 367 days; at most 366 days",
        id="367-days",
    ),
    pytest.param(
        {**MONTH, "bodies": "sun,mars"}, "invalid_parameter", "bodies", "needs the Moon", id="without-the-moon"
    ),
    pytest.param({**MONTH, "aspects": "parallel"}, "invalid_parameter", "aspects", "", id="a-declination-aspect"),
    pytest.param(
        {"start": "2999-12-01", "end": "2999-12-31", "bodies": "moon,ceres"},
        "out_of_range",
        "bodies",
        "No ephemeris of ceres",
        id="asteroid-outside-its-ephemeris",
    ),
]
CALENDAR_REFUSALS = [
    pytest.param(
        {"start": "2024-01-01", "end": "2025-01-01T00:00:01Z"},
        "range_too_long",
        "end",
        "lasts 366 days and 1 second; at most 366 days",
        id="366-days-and-a-second",
    ),
    pytest.param({**MONTH, "events": "transits"}, "invalid_parameter", "events", "transits", id="unknown-kind"),
    pytest.param({**MONTH, "format": "pdf"}, "invalid_parameter", "format", "pdf", id="unknown-format"),
    pytest.param(
        {"start": "-0100-01-01", "end": "-0100-02-01", "format": "ics"},
        "invalid_parameter",
        "format",
        "four digits",
        id="ics-before-year-1",
    ),
]
REFUSALS = (
    [("/v1/stations", *p.values, p.id) for p in STATION_REFUSALS]
    + [("/v1/lunations", *p.values, p.id) for p in LUNATION_REFUSALS]
    + [("/v1/void-of-course/periods", *p.values, p.id) for p in VOID_REFUSALS]
    + [("/v1/calendar", *p.values, p.id) for p in CALENDAR_REFUSALS]
)


@pytest.mark.parametrize(
    ("path", "params", "code", "param", "text"), [r[:5] for r in REFUSALS], ids=[f"{r[0]}-{r[5]}" for r in REFUSALS]
)
def test_each_refusal_is_a_400_stated_exactly_and_costs_nothing(stack, path, params, code, param, text):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        error = assert_error(client.get(path, params=params), 400, code, param)
    assert text in error["message"]
    assert balance(stack, name) == 10
