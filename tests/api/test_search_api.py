"""/v1/returns, /v1/ingresses, /v1/eclipses/solar, /v1/eclipses/lunar and /v1/heliacal
(interface.md, their sections and records), rule by rule through the API."""

from __future__ import annotations

import pytest

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
    found = data(api, "/v1/returns", 2, **BIRTH, body="sun", search_start="2024-01-01T00:00:00Z", count=2, patterns="true", dignities="true")
    assert found["return_body"] == "sun" and len(found["charts"]) == 2
    for chart in found["charts"]:
        assert chart["chart_type"] == "return"
        assert chart["metadata"]["source"] == {"type": "return", "body": "sun", "natal_longitude": found["natal_longitude"]}
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
    assert len(data(api, "/v1/returns", 2, **BIRTH, body="moon", search_start="2024-01-01T00:00:00Z", count=13)["charts"]) == 13
    assert_error(api.get("/v1/returns", params={**BIRTH, "body": "mars", "search_start": "2024-01-01T00:00:00Z", "count": 6}), 400, "invalid_parameter", "count")
    assert_error(api.get("/v1/returns", params={**BIRTH, "body": "moon", "search_start": "2024-01-01T00:00:00Z", "count": 14}), 400, "invalid_parameter", "count")


def test_ingresses_by_sign_or_longitude_forward_and_backward(api):
    by_sign = data(api, "/v1/ingresses", 2, **START, body="sun", sign="aries", count=2)
    assert [r["datetime"][:10] for r in by_sign] == ["2024-03-20", "2025-03-20"]
    assert set(by_sign[0]) == {"body", "target_longitude", "sign", "sign_degree", "jd", "datetime", "direction"}
    assert (by_sign[0]["target_longitude"], by_sign[0]["sign"], by_sign[0]["sign_degree"]) == (0, "Aries", 0)
    by_longitude = data(api, "/v1/ingresses", 2, **START, body="moon", longitude=123.5, backward="true", count=3)
    assert [r["jd"] for r in by_longitude] == sorted((r["jd"] for r in by_longitude), reverse=True)
    assert by_longitude[0]["sign"] == "Leo" and by_longitude[0]["sign_degree"] == pytest.approx(3.5)


@pytest.mark.parametrize("body", ["mean_node", "true_node", "mean_apogee", "chiron", "ceres"])
def test_ingresses_of_nodes_apogees_and_asteroids_are_body_not_eligible(api, body):
    assert_error(api.get("/v1/ingresses", params={**START, "body": body, "sign": "aries"}), 400, "body_not_eligible", "body")


def test_global_solar_eclipses_have_their_contacts_and_no_local_measures(api):
    (eclipse,) = data(api, "/v1/eclipses/solar", 3, **START)
    assert eclipse["eclipse_type"] == "total" and eclipse["maximum"]["datetime"].startswith("2024-04-08T18:17")
    assert set(eclipse) == {"eclipse_type", "maximum", "first_contact", "second_contact", "third_contact", "fourth_contact"}
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
    assert set(found) == {"body", "event", "event_jd", "event_datetime", "visibility_arc_deg", "sun_altitude", "object_altitude"}
    assert found["sun_altitude"] < 0 < found["object_altitude"]
    older = data(api, "/v1/heliacal", 3, **START, body="venus", event="morning_first", lat=30.0, lon=31.2, age_years=80, snellen_ratio=0.5)
    assert older["event_jd"] >= found["event_jd"]  # weaker eyes see it no earlier
    telescope = api.get("/v1/heliacal", params={**START, "body": "venus", "event": "morning_first", "lat": 30.0, "lon": 31.2, "telescope_aperture_cm": 10, "telescope_magnification": 20})
    assert telescope.status_code == 200 or assert_error(telescope, 400, "invalid_parameter", "event")  # a telescope may never lose Venus


REFUSALS = [
    ("/v1/heliacal", {**START, "body": "mars", "event": "acronychal_rising", "lat": 30, "lon": 31}, "invalid_heliacal_event", "event"),
    ("/v1/heliacal", {**START, "body": "mars", "event": "acronychal_setting", "lat": 30, "lon": 31}, "invalid_heliacal_event", "event"),
    ("/v1/heliacal", {**START, "body": "jupiter", "event": "morning_last", "lat": 30, "lon": 31}, "body_not_eligible", "body"),
    ("/v1/heliacal", {**START, "body": "sun", "event": "morning_first", "lat": 30, "lon": 31}, "body_not_eligible", "body"),
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
