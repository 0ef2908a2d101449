"""/v1/returns, /v1/ingresses, /v1/eclipses/solar, /v1/eclipses/lunar and /v1/heliacal
(interface.md, their sections and records), rule by rule through the API."""

from __future__ import annotations

import re

import pytest

from kernel.timescale import JD_UT1_MAX, JD_UT1_MIN
from tests.api.test_conventions_api import assert_error, balance

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
START = {"datetime": "2024-01-01T00:00:00Z"}
INSTANT_KEYS = {"jd", "datetime"}


def data(api, path, credits, **params):
    response = api.get(path, params=params)
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["credits_used"] == credits
    return response.json()["data"]


def test_a_return_casts_a_full_chart_where_the_body_is_back_on_its_natal_longitude(api):
    found = data(
        api,
        "/v1/returns",
        2,
        **BIRTH,
        body="sun",
        search_start="2024-01-01T00:00:00Z",
        count=2,
        patterns="true",
        dignities="true",
    )
    assert found["return_body"] == "sun" and len(found["charts"]) == 2
    for chart in found["charts"]:
        assert chart["chart_type"] == "return"
        assert chart["metadata"]["source"] == {
            "type": "return",
            "body": "sun",
            "natal_longitude": found["natal_longitude"],
        }
        sun = next(p for p in chart["positions"] if p["body"] == "sun")
        assert sun["longitude"] == pytest.approx(found["natal_longitude"], abs=1e-5)
        assert "dignities" in chart and chart["houses"]
    first, second = (c["metadata"]["datetime"] for c in found["charts"])
    assert 364 < second - first < 367 and first > 2460310.5


def test_a_retrograde_body_returns_at_every_crossing_in_time_order(api):
    found = data(api, "/v1/returns", 2, **BIRTH, body="mercury", search_start="2024-01-01T00:00:00Z", count=5)
    times = [c["metadata"]["datetime"] for c in found["charts"]]
    assert times == sorted(times) and len(times) == 5


def test_return_counts_are_capped_at_13_for_the_moon_and_5_for_the_rest(api):
    assert (
        len(data(api, "/v1/returns", 2, **BIRTH, body="moon", search_start="2024-01-01T00:00:00Z", count=13)["charts"])
        == 13
    )
    assert_error(
        api.get("/v1/returns", params={**BIRTH, "body": "mars", "search_start": "2024-01-01T00:00:00Z", "count": 6}),
        400,
        "invalid_parameter",
        "count",
    )
    assert_error(
        api.get("/v1/returns", params={**BIRTH, "body": "moon", "search_start": "2024-01-01T00:00:00Z", "count": 14}),
        400,
        "invalid_parameter",
        "count",
    )


def test_ingresses_by_sign_or_longitude_forward_and_backward(api):
    by_sign = data(api, "/v1/ingresses", 2, **START, body="sun", sign="aries", count=2)
    assert [r["datetime"][:10] for r in by_sign] == ["2024-03-20", "2025-03-20"]
    assert set(by_sign[0]) == {"body", "target_longitude", "sign", "sign_degree", "jd", "datetime", "direction"}
    assert (by_sign[0]["target_longitude"], by_sign[0]["sign"], by_sign[0]["sign_degree"]) == (0, "aries", 0)
    by_longitude = data(api, "/v1/ingresses", 2, **START, body="moon", longitude=123.5, backward="true", count=3)
    assert [r["jd"] for r in by_longitude] == sorted((r["jd"] for r in by_longitude), reverse=True)
    assert by_longitude[0]["sign"] == "leo" and by_longitude[0]["sign_degree"] == pytest.approx(3.5)


@pytest.mark.parametrize("body", ["mean_node", "true_node", "mean_apogee", "chiron", "ceres"])
def test_ingresses_of_nodes_apogees_and_asteroids_are_body_not_eligible(api, body):
    assert_error(
        api.get("/v1/ingresses", params={**START, "body": body, "sign": "aries"}), 400, "body_not_eligible", "body"
    )


def test_global_solar_eclipses_have_their_contacts_and_no_local_measures(api):
    (eclipse,) = data(api, "/v1/eclipses/solar", 3, **START)
    assert eclipse["eclipse_type"] == "total" and eclipse["maximum"]["datetime"].startswith("2024-04-08T18:17")
    assert set(eclipse) == {
        "eclipse_type",
        "maximum",
        "first_contact",
        "second_contact",
        "third_contact",
        "fourth_contact",
    }
    partial = data(api, "/v1/eclipses/solar", 3, **START, type="partial")[0]
    assert partial["second_contact"] is None and partial["third_contact"] is None


def test_local_solar_eclipses_add_magnitude_and_obscuration(api):
    (eclipse,) = data(api, "/v1/eclipses/solar", 3, **START, lat=51.5, lon=-0.13)
    assert eclipse["eclipse_type"] == "partial" and 0 < eclipse["obscuration"] < 1 and 0 < eclipse["magnitude"] < 1
    assert eclipse["maximum"]["datetime"].startswith("2025-03-29")  # London's next: the partial eclipse of March 2025


def test_lunar_eclipses_filter_by_type_search_backward_and_say_if_seen(api):
    totals = data(api, "/v1/eclipses/lunar", 2, **START, type="total", backward="true", count=2)
    assert [e["eclipse_type"] for e in totals] == ["total", "total"]
    assert totals[0]["maximum"]["datetime"].startswith("2022-11-08") and "visible" not in totals[0]
    assert totals[0]["total_begin"] and totals[0]["partial_begin"] and totals[0]["penumbral_begin"]
    seen = data(api, "/v1/eclipses/lunar", 2, **START, lat=51.5, lon=-0.13)[0]
    assert seen["eclipse_type"] == "penumbral" and seen["visible"] is True and seen["total_begin"] is None


def test_a_heliacal_event_gives_its_time_arc_and_altitudes(api):
    found = data(api, "/v1/heliacal", 3, **START, body="venus", event="morning_first", lat=30.0, lon=31.2)
    assert set(found) == {
        "body",
        "event",
        "event_jd",
        "event_datetime",
        "visibility_arc_deg",
        "sun_altitude",
        "object_altitude",
    }
    assert found["sun_altitude"] < 0 < found["object_altitude"]
    older = data(
        api,
        "/v1/heliacal",
        3,
        **START,
        body="venus",
        event="morning_first",
        lat=30.0,
        lon=31.2,
        age_years=80,
        snellen_ratio=0.5,
    )
    assert older["event_jd"] >= found["event_jd"]  # weaker eyes see it no earlier
    telescope = api.get(
        "/v1/heliacal",
        params={
            **START,
            "body": "venus",
            "event": "morning_first",
            "lat": 30.0,
            "lon": 31.2,
            "telescope_aperture_cm": 10,
            "telescope_magnification": 20,
        },
    )
    assert telescope.status_code == 200 or assert_error(
        telescope, 400, "invalid_parameter", "event"
    )  # a telescope may never lose Venus


# --- issue 22: one body table, returns in their frame, entries, the supported dates ----------


@pytest.mark.parametrize(
    ("params", "body"),
    [
        ({"topocentric": "true"}, "moon"),
        ({"j2000": "true"}, "moon"),
        ({"no_nutation": "true"}, "moon"),
        ({"sidereal": "lahiri"}, "moon"),
        ({"sidereal": "lahiri", "topocentric": "true"}, "moon"),
        ({"heliocentric": "true"}, "mars"),
        ({"j2000": "true", "equatorial": "true"}, "sun"),
    ],
)
def test_a_return_is_found_in_the_frame_it_is_cast_in(api, params, body):
    found = data(api, "/v1/returns", 2, **BIRTH, body=body, search_start="2024-01-01T00:00:00Z", count=2, **params)
    # The natal longitude is the body's under the request's flags at the natal place...
    natal = data(
        api,
        "/v1/positions",
        1,
        datetime=BIRTH["datetime"],
        lat=BIRTH["lat"],
        lon=BIRTH["lon"],
        bodies=body,
        **{k: v for k, v in params.items() if k != "equatorial"},
    )
    assert found["natal_longitude"] == pytest.approx(natal[0]["longitude"], abs=1e-9)
    # ...and each return chart's body lies on it (decisions.md: within 1e-4 degrees).
    for chart in found["charts"]:
        position = next(p for p in chart["positions"] if p["body"] == body)
        assert abs((position["longitude"] - found["natal_longitude"] + 180.0) % 360.0 - 180.0) < 1e-4


def test_a_topocentric_lunar_return_differs_from_the_geocentric_one(api):
    # The flag matters: the Moon's parallax moves it by up to 1 degree, two hours of its motion.
    topocentric = data(
        api, "/v1/returns", 2, **BIRTH, body="moon", search_start="2024-01-01T00:00:00Z", topocentric="true"
    )
    geocentric = data(api, "/v1/returns", 2, **BIRTH, body="moon", search_start="2024-01-01T00:00:00Z")
    assert abs(topocentric["natal_longitude"] - geocentric["natal_longitude"]) > 0.1
    assert (
        abs(topocentric["charts"][0]["metadata"]["datetime"] - geocentric["charts"][0]["metadata"]["datetime"]) > 0.005
    )


def test_a_heliocentric_return_of_earth_is_accepted(api):
    found = data(api, "/v1/returns", 2, **BIRTH, body="earth", heliocentric="true", search_start="2024-01-01T00:00:00Z")
    earth = next(p for p in found["charts"][0]["positions"] if p["body"] == "earth")
    assert abs(earth["longitude"] - found["natal_longitude"]) < 1e-4


def test_the_solar_return_of_returns_and_of_solar_profections_is_the_same_instant(api):
    for zodiac in ({}, {"sidereal": "lahiri"}):
        returns = data(
            api, "/v1/returns", 2, **BIRTH, body="sun", search_start="2024-01-01T00:00:00Z", count=2, **zodiac
        )
        profections = data(
            api,
            "/v1/profections",
            2,
            **BIRTH,
            start="2024-01-01T00:00:00Z",
            end="2026-01-01T00:00:00Z",
            solar="true",
            months="false",
            **zodiac,
        )
        years = [p["start"]["jd"] for p in profections["periods"] if p["level"] == 1][1:]
        for chart, year in zip(returns["charts"], years, strict=True):
            assert abs(chart["metadata"]["datetime"] - year) * 86_400_000 < 1.0  # the same instant, to the ms


def test_an_ingress_is_an_entry_into_the_sign_and_says_its_direction(api):
    # Mars entered Leo on 2024-11-04, went back into Cancer on 2025-01-06 (retrograde over
    # 0 Leo) and re-entered Leo on 2025-04-18 (published ephemerides). The retrograde exit from
    # Leo is not an ingress into it; it is an ingress into Cancer, over Cancer's end.
    leo = data(api, "/v1/ingresses", 2, datetime="2024-10-01T00:00:00Z", body="mars", sign="leo", count=2)
    assert [(r["datetime"][:10], r["direction"], r["target_longitude"], r["sign_degree"]) for r in leo] == [
        ("2024-11-04", "direct", 120, 0),
        ("2025-04-18", "direct", 120, 0),
    ]
    (cancer,) = data(api, "/v1/ingresses", 2, datetime="2024-10-01T00:00:00Z", body="mars", sign="cancer")
    assert (
        cancer["datetime"][:10],
        cancer["direction"],
        cancer["target_longitude"],
        cancer["sign"],
        cancer["sign_degree"],
    ) == (
        "2025-01-06",
        "retrograde",
        120,
        "cancer",
        30,
    )


def test_with_a_longitude_every_crossing_is_an_ingress_with_its_direction(api):
    # Mercury stationed retrograde at 27°13' Aries on 2024-04-01 and direct at 15°58' Aries on
    # 2024-04-25: it crossed 27° Aries direct, retrograde, then direct again.
    found = data(api, "/v1/ingresses", 2, datetime="2024-03-01T00:00:00Z", body="mercury", longitude=27, count=3)
    assert [r["direction"] for r in found] == ["direct", "retrograde", "direct"]
    assert found[0]["datetime"] < "2024-04-01" < found[1]["datetime"] < "2024-04-25" < found[2]["datetime"]


BEYOND_THE_SUPPORTED_DATES = [
    ("/v1/ingresses", {"datetime": "2998-01-01T00:00:00Z", "body": "sun", "sign": "aries", "count": 3}),
    ("/v1/returns", {**BIRTH, "body": "sun", "search_start": "2998-01-01T00:00:00Z", "count": 3}),
    ("/v1/returns", {**BIRTH, "body": "ceres", "search_start": "2995-01-01T00:00:00Z", "count": 5}),
    ("/v1/eclipses/solar", {"datetime": "2999-06-01T00:00:00Z", "count": 3}),
    ("/v1/eclipses/lunar", {"datetime": "2999-06-01T00:00:00Z", "count": 3}),
    ("/v1/eclipses/lunar", {"datetime": "-2999-06-01T00:00:00Z", "count": 10, "backward": "true"}),
    (
        "/v1/eclipses/solar",
        {"datetime": "-2999-06-01T00:00:00Z", "count": 10, "backward": "true", "lat": 10, "lon": 10},
    ),
]


@pytest.mark.parametrize(
    ("path", "params"),
    BEYOND_THE_SUPPORTED_DATES,
    ids=[f"{p}-{q.get('body', '')}-{q['count']}" for p, q in BEYOND_THE_SUPPORTED_DATES],
)
def test_a_search_past_the_supported_dates_is_out_of_range_saying_how_many_lay_inside(stack, path, params):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        error = assert_error(client.get(path, params=params), 400, "out_of_range", "count")
        inside = int(re.search(r"Only (\d+) of the (\d+)", error["message"]).group(1))
        assert inside < params["count"]
        assert balance(stack, name) == 10
        if inside:
            # As many as it said lay inside are found, every one within the supported dates.
            response = client.get(path, params={**params, "count": inside})
            assert response.status_code == 200, response.text
            assert all(JD_UT1_MIN <= jd <= JD_UT1_MAX for jd in _instants(response.json()["data"]))


def _instants(found) -> list[float]:
    records = found["charts"] if isinstance(found, dict) else found
    return [
        r["metadata"]["datetime"] if "metadata" in r else r["jd"] if "jd" in r else r["maximum"]["jd"] for r in records
    ]


def test_mercurys_morning_first_near_the_pole_that_the_engine_does_not_find_is_a_free_400(stack):
    """Issue 48's hostile probe at a date where the engine gives up by itself (0.4 s): a 4xx
    naming why, free. Where it does not give up within the deadline, the stop is the same 400
    (tests/reliability/test_one_free_request_must_not_close_a_pool.py, on real processes)."""
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        reply = client.get(
            "/v1/heliacal",
            params={
                "datetime": "2026-01-01T00:00:00Z",
                "body": "mercury",
                "event": "morning_first",
                "lat": 80,
                "lon": 10,
            },
        )
    assert reply.status_code == 400, reply.text
    error = reply.json()["errors"][0]
    assert error["code"] == "invalid_parameter" and "morning_first of mercury" in error["message"]
    assert error["suggestion"]
    assert balance(stack, name) == 10


def test_a_heliacal_event_after_the_supported_dates_is_out_of_range(api):
    # Venus's next morning first visibility after 2999-12-25 lies past 3000-01-01: its last
    # inferior conjunction of the millennium is months away (synodic period 584 days).
    error = assert_error(
        api.get(
            "/v1/heliacal",
            params={
                "datetime": "2999-12-25T00:00:00Z",
                "body": "venus",
                "event": "morning_first",
                "lat": 30,
                "lon": 31,
            },
        ),
        400,
        "out_of_range",
        "datetime",
    )
    assert "swisseph" not in error["message"]


@pytest.mark.parametrize(
    ("params", "param"),
    [
        (
            {**BIRTH, "datetime": "1150-06-15T14:30:00Z", "body": "chiron", "search_start": "1990-01-01T00:00:00Z"},
            "datetime",
        ),
        (
            {**BIRTH, "datetime": "0600-06-15T14:30:00Z", "body": "chiron", "search_start": "1990-01-01T00:00:00Z"},
            "datetime",
        ),
        ({**BIRTH, "body": "ceres", "search_start": "1100-01-01T00:00:00Z"}, "search_start"),
    ],
)
def test_an_asteroid_return_outside_its_ephemeris_is_out_of_range_without_the_engines_text(api, params, param):
    error = assert_error(api.get("/v1/returns", params=params), 400, "out_of_range", param)
    assert (
        "1200-01-09" in error["message"] and "swisseph" not in error["message"] and "restricted" not in error["message"]
    )


REFUSALS = [
    (
        "/v1/returns",
        {**BIRTH, "body": "aldebaran", "search_start": "2024-01-01T00:00:00Z"},
        "body_not_eligible",
        "body",
    ),
    ("/v1/returns", {**BIRTH, "body": "433", "search_start": "2024-01-01T00:00:00Z"}, "body_not_eligible", "body"),
    (
        "/v1/returns",
        {**BIRTH, "body": "osc_apogee", "search_start": "2024-01-01T00:00:00Z"},
        "body_not_eligible",
        "body",
    ),
    (
        "/v1/returns",
        {**BIRTH, "body": "sun", "heliocentric": "true", "search_start": "2024-01-01T00:00:00Z"},
        "body_not_eligible",
        "body",
    ),
    ("/v1/returns", {**BIRTH, "body": "earth", "search_start": "2024-01-01T00:00:00Z"}, "body_not_eligible", "body"),
    (
        "/v1/returns",
        {
            **BIRTH,
            "body": "mars",
            "heliocentric": "true",
            "topocentric": "true",
            "search_start": "2024-01-01T00:00:00Z",
        },
        "invalid_parameter",
        "topocentric",
    ),
    ("/v1/ingresses", {**START, "body": "regulus", "sign": "aries"}, "body_not_eligible", "body"),
    ("/v1/ingresses", {**START, "body": "433", "sign": "aries"}, "body_not_eligible", "body"),
    (
        "/v1/heliacal",
        {**START, "body": "aldebaran", "event": "morning_first", "lat": 30, "lon": 31},
        "body_not_eligible",
        "body",
    ),
    (
        "/v1/heliacal",
        {**START, "body": "chiron", "event": "morning_first", "lat": 30, "lon": 31},
        "body_not_eligible",
        "body",
    ),
    (
        "/v1/heliacal",
        {**START, "body": "mars", "event": "acronychal_rising", "lat": 30, "lon": 31},
        "invalid_heliacal_event",
        "event",
    ),
    (
        "/v1/heliacal",
        {**START, "body": "mars", "event": "acronychal_setting", "lat": 30, "lon": 31},
        "invalid_heliacal_event",
        "event",
    ),
    (
        "/v1/heliacal",
        {**START, "body": "jupiter", "event": "morning_last", "lat": 30, "lon": 31},
        "body_not_eligible",
        "body",
    ),
    (
        "/v1/heliacal",
        {**START, "body": "sun", "event": "morning_first", "lat": 30, "lon": 31},
        "body_not_eligible",
        "body",
    ),
    ("/v1/heliacal", {**START, "body": "venus", "event": "midday", "lat": 30, "lon": 31}, "invalid_parameter", "event"),
    ("/v1/returns", {**BIRTH, "body": "lilith", "search_start": "2024-01-01T00:00:00Z"}, "body_not_eligible", "body"),
    ("/v1/returns", {**BIRTH, "body": "vulcan", "search_start": "2024-01-01T00:00:00Z"}, "body_not_found", "body"),
    ("/v1/returns", {**BIRTH, "body": "sun"}, "missing_parameter", "search_start"),
    ("/v1/ingresses", {**START, "body": "sun"}, "missing_parameter", "sign"),
    ("/v1/ingresses", {**START, "body": "sun", "sign": "aries", "longitude": 10}, "conflicting_parameters", None),
    ("/v1/ingresses", {**START, "body": "sun", "sign": "ophiuchus"}, "invalid_parameter", "sign"),
    ("/v1/ingresses", {**START, "body": "sun", "sign": "aries", "count": 11}, "invalid_parameter", "count"),
    ("/v1/eclipses/solar", {**START, "type": "hybrid"}, "invalid_parameter", "type"),
    ("/v1/eclipses/solar", {**START, "count": 0}, "invalid_parameter", "count"),
    ("/v1/eclipses/lunar", {**START, "type": "annular"}, "invalid_parameter", "type"),
    ("/v1/eclipses/lunar", {**START, "sidereal": "lahiri"}, "invalid_parameter", "sidereal"),
]


@pytest.mark.parametrize(("path", "params", "code", "param"), REFUSALS, ids=[f"{p}-{c}-{q}" for p, _, c, q in REFUSALS])
def test_each_refusal_is_a_400_and_costs_nothing(stack, path, params, code, param):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(client.get(path, params=params), 400, code, param)
    assert balance(stack, name) == 10


@pytest.mark.parametrize("ratio", [0.2, 0.001, 5e-324])
def test_a_heliacal_search_refuses_eyes_weaker_than_a_snellen_ratio_of_a_quarter_before_computing(stack, ratio):
    # Eyes that cannot see the body make the engine search five synodic periods past the
    # search's deadline (a 504): such a request is refused, costing nothing, before any search.
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        reply = client.post(
            "/v1/heliacal",
            json={
                "jd": 625000.5,
                "body": "venus",
                "event": "morning_first",
                "lat": 51.5,
                "lon": -0.13,
                "snellen_ratio": ratio,
            },
        )
        error = assert_error(reply, 400, "invalid_parameter", "snellen_ratio")
        assert "0.25" in error["message"]
        quarter = {
            "jd": 625000.5,
            "body": "venus",
            "event": "morning_first",
            "lat": 51.5,
            "lon": -0.13,
            "snellen_ratio": 0.25,
        }
        assert client.post("/v1/heliacal", json=quarter).status_code == 200
    assert balance(stack, name) == 10 - 3
