"""Issue 27, parts 1 and 2: tz=auto, places by name (/v1/places), the zone of a place
(/v1/timezone) and place= on the birth endpoints. One test per rule; each refusal is a 400
from the gateway that costs nothing."""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta

import pytest

from tests.api.test_conventions_api import assert_error, balance

PARIS_ID = "2988507"  # GeoNames: Paris, FR (48.85341, 2.3488)
NEW_YORK_ID = "5128581"  # GeoNames: New York City, US (40.71427, -74.00597)


def places(api, **params):
    return api.get("/v1/places", params=params)


def natal(api, **params):
    return api.get("/v1/natal-chart", params=params)


# --- /v1/places ---------------------------------------------------------------------------


def test_places_finds_a_town_by_name_ranked_by_population(api):
    found = places(api, q="paris").json()["data"]["places"]
    assert found[0]["id"] == PARIS_ID
    assert (found[0]["name"], found[0]["country"], found[0]["tz"]) == ("Paris", "FR", "Europe/Paris")
    exact = [town for town in found if town["name"] == "Paris"]
    assert [town["population"] for town in exact] == sorted((town["population"] for town in exact), reverse=True)


def test_places_answers_every_member_of_a_town(api):
    town = places(api, q="Zurich", limit=1).json()["data"]["places"][0]
    assert set(town) == {"name", "ascii_name", "country", "admin1", "lat", "lon", "tz", "population", "id"}
    assert (town["name"], town["ascii_name"], town["admin1"]) == ("Zürich", "Zurich", "ZH")


@pytest.mark.parametrize("spelling", ["sao paulo", "São Paulo", "SAO-PAULO"])
def test_places_matches_any_case_with_accents_optional(api, spelling):
    assert places(api, q=spelling, limit=1).json()["data"]["places"][0]["name"] == "São Paulo"


def test_places_finds_a_town_by_its_other_names(api):
    assert places(api, q="München", limit=1).json()["data"]["places"][0]["name"] == "Munich"


def test_places_puts_whole_names_before_longer_names_that_begin_with_it(api):
    # Bathinda (India, 285,000) is larger than Bath (England, 100,000) but is not named "bath".
    assert places(api, q="bath", limit=1).json()["data"]["places"][0]["country"] == "GB"


def test_places_country_keeps_that_countrys_towns_only(api):
    found = places(api, q="paris", country="us").json()["data"]["places"]
    assert found and {town["country"] for town in found} == {"US"}


def test_places_limit_defaults_to_5_and_is_1_to_20(api):
    assert len(places(api, q="san").json()["data"]["places"]) == 5
    assert len(places(api, q="san", limit=20).json()["data"]["places"]) == 20
    assert_error(places(api, q="san", limit=21), 400, "invalid_parameter", "limit")
    assert_error(places(api, q="san", limit=0), 400, "invalid_parameter", "limit")


def test_places_without_q_is_missing_parameter(api):
    assert_error(places(api), 400, "missing_parameter", "q")


def test_places_q_without_a_letter_is_invalid_parameter(api):
    assert_error(places(api, q=" -' "), 400, "invalid_parameter", "q")


def test_places_an_unknown_country_is_invalid_parameter(api):
    error = assert_error(places(api, q="paris", country="FRA"), 400, "invalid_parameter", "country")
    assert "alpha-2" in error["suggestion"]


def test_places_no_match_is_an_empty_list(api):
    assert places(api, q="xqzvkw").json()["data"]["places"] == []


def test_places_and_timezone_cost_nothing(stack):
    name, key = stack.new_key(credits=1)
    with stack.client(key) as client:
        town = places(client, q="paris")
        zone = client.get("/v1/timezone", params={"lat": 48.85, "lon": 2.35, "datetime": "2024-07-01T12:00:00Z"})
    assert (town.status_code, zone.status_code) == (200, 200)
    assert town.json()["meta"]["credits_used"] == zone.json()["meta"]["credits_used"] == 0
    assert balance(stack, name) == 1


def test_places_and_timezone_count_against_the_rate_limit(stack):
    name, key = stack.new_key(credits=0, rate_per_minute=1)
    with stack.client(key) as client:
        assert places(client, q="paris").status_code == 200
        assert_error(places(client, q="paris"), 429, "rate_limit_exceeded")


# --- /v1/timezone ---------------------------------------------------------------------------


def timezone(api, **params):
    return api.get("/v1/timezone", params=params)


def test_timezone_of_a_place_at_a_utc_instant(api):
    data = timezone(api, lat=48.85, lon=2.35, datetime="2024-07-01T12:00:00Z").json()["data"]
    assert data == {
        "tz": "Europe/Paris",
        "abbreviation": "CEST",
        "utc_offset_seconds": 7200,
        "dst": True,
        "utc": "2024-07-01T12:00:00.000Z",
        "local": "2024-07-01T14:00:00.000",
        "note": None,
    }


def test_timezone_reads_a_local_time_with_tz_auto(api):
    response = timezone(api, lat=40.71, lon=-74.0, datetime="2024-01-15T09:00:00", tz="auto")
    data = response.json()["data"]
    assert (data["tz"], data["abbreviation"], data["dst"], data["utc"]) == (
        "America/New_York",
        "EST",
        False,
        "2024-01-15T14:00:00.000Z",
    )
    assert response.json()["meta"]["moment"]["datetime"]["tz_found"] == {"source": "auto", "lat": 40.71, "lon": -74.0}


def test_timezone_gives_back_the_time_a_customer_sent_exactly_as_sent(api):
    # Issue 36: Lord Howe at noon came back 2020-01-15T00:59:59.999Z, 11:59:59.999 (an
    # instant cut to the millisecond through a floating-point Julian Day).
    data = timezone(api, lat=-31.55, lon=159.08, datetime="2020-01-15T12:00:00", tz="auto").json()["data"]
    assert (data["tz"], data["utc"], data["local"]) == (
        "Australia/Lord_Howe",
        "2020-01-15T01:00:00.000Z",
        "2020-01-15T12:00:00.000",
    )
    chance = random.Random(36)
    for _ in range(40):
        local = datetime(2020, 1, 1, 12) + timedelta(
            seconds=chance.randrange(0, 365 * 86400), milliseconds=chance.randrange(0, 1000)
        )
        sent = local.isoformat(timespec="milliseconds")
        as_local = timezone(api, lat=-31.55, lon=159.08, datetime=sent, tz="auto").json()["data"]
        assert as_local["local"] == sent
        as_utc = timezone(api, lat=-31.55, lon=159.08, datetime=sent + "Z").json()["data"]
        assert as_utc["utc"] == sent + "Z"


def test_timezone_at_sea_answers_the_nautical_zone_and_says_so(api):
    data = timezone(api, lat=0.0, lon=-140.0, datetime="2024-07-01T12:00:00Z").json()["data"]
    assert (data["tz"], data["utc_offset_seconds"]) == ("Etc/GMT+9", -9 * 3600)
    assert "At sea" in data["note"]


def test_timezone_needs_lat_and_lon(api):
    assert_error(timezone(api, datetime="2024-07-01T12:00:00Z"), 400, "missing_parameter", "lat")


# --- tz=auto ----------------------------------------------------------------------------------


def test_tz_auto_takes_the_zone_of_the_requests_lat_and_lon(api):
    auto = natal(api, datetime="1943-01-15T09:20:00", lat=40.71, lon=-74.0, tz="auto")
    named = natal(api, datetime="1943-01-15T09:20:00", lat=40.71, lon=-74.0, tz="America/New_York")
    assert auto.status_code == 200, auto.text
    assert auto.json()["data"] == named.json()["data"]
    reading = auto.json()["meta"]["moment"]["datetime"]
    assert (reading["tz"], reading["abbreviation"]) == ("America/New_York", "EWT")
    assert reading["tz_found"] == {"source": "auto", "lat": 40.71, "lon": -74.0}


def test_tz_auto_without_a_place_is_missing_parameter(api):
    assert_error(
        api.get("/v1/positions", params={"datetime": "2024-01-01T12:00:00", "tz": "auto"}),
        400,
        "missing_parameter",
        "tz",
    )


def test_tz_auto_at_sea_answers_the_lookups_zone_and_says_so_in_meta(api):
    response = api.get(
        "/v1/houses", params={"datetime": "2024-01-01T12:00:00", "lat": 0.0, "lon": -140.0, "tz": "auto"}
    )
    assert response.status_code == 200, response.text
    reading = response.json()["meta"]["moment"]["datetime"]
    assert (reading["tz"], reading["utc"]) == ("Etc/GMT+9", "2024-01-01T21:00:00.000Z")
    assert "At sea" in reading["tz_found"]["note"]


def test_tz_auto_at_a_pole_says_so_in_meta(api):
    response = api.get(
        "/v1/positions",
        params={"datetime": "2024-01-01T12:00:00", "lat": 90.0, "lon": 0.0, "topocentric": "true", "tz": "auto"},
    )
    assert response.status_code == 200, response.text
    assert "pole" in response.json()["meta"]["moment"]["datetime"]["tz_found"]["note"]


def test_tz_auto_for_two_births_takes_each_births_place(api):
    response = api.get(
        "/v1/synastry",
        params={
            "datetime_a": "1990-07-04T12:00:00",
            "lat_a": 48.85,
            "lon_a": 2.35,
            "tz_a": "auto",
            "datetime_b": "1985-01-15T08:00:00",
            "lat_b": 40.71,
            "lon_b": -74.0,
            "tz_b": "auto",
        },
    )
    moment = response.json()["meta"]["moment"]
    assert (moment["datetime_a"]["tz"], moment["datetime_b"]["tz"]) == ("Europe/Paris", "America/New_York")


# --- place= -----------------------------------------------------------------------------------


def test_place_fills_lat_lon_and_the_towns_zone(api):
    by_place = natal(api, datetime="1990-07-04T12:00:00", place=PARIS_ID)
    by_hand = natal(api, datetime="1990-07-04T10:00:00Z", lat=48.85341, lon=2.3488)
    assert by_place.status_code == 200, by_place.text
    assert by_place.json()["data"] == by_hand.json()["data"]
    reading = by_place.json()["meta"]["moment"]["datetime"]
    assert (reading["tz"], reading["tz_found"]["source"]) == ("Europe/Paris", "place")


def test_place_with_a_named_tz_keeps_the_named_zone(api):
    response = natal(api, datetime="1990-07-04T12:00:00", place=PARIS_ID, tz="UTC")
    assert response.json()["meta"]["moment"]["datetime"]["utc"] == "1990-07-04T12:00:00.000Z"


def test_place_with_lat_or_lon_is_conflicting_parameters(api):
    assert_error(
        natal(api, datetime="1990-07-04T12:00:00", place=PARIS_ID, lat=48.85, lon=2.35),
        400,
        "conflicting_parameters",
        "place",
    )


def test_place_for_two_births_is_place_a_and_place_b(api):
    by_place = api.get(
        "/v1/synastry",
        params={
            "datetime_a": "1990-07-04T12:00:00",
            "place_a": PARIS_ID,
            "datetime_b": "1985-01-15T08:00:00",
            "place_b": NEW_YORK_ID,
        },
    )
    by_hand = api.get(
        "/v1/synastry",
        params={
            "datetime_a": "1990-07-04T10:00:00Z",
            "lat_a": 48.85341,
            "lon_a": 2.3488,
            "datetime_b": "1985-01-15T13:00:00Z",
            "lat_b": 40.71427,
            "lon_b": -74.00597,
        },
    )
    assert by_place.status_code == 200, by_place.text
    assert by_place.json()["data"] == by_hand.json()["data"]


def test_place_on_the_time_lords_fills_the_natal_place(api):
    by_place = api.get(
        "/v1/profections", params={"datetime": "1990-07-04T12:00:00", "place": PARIS_ID, "at": "2030-01-01T00:30:00"}
    )
    by_hand = api.get(
        "/v1/profections",
        params={"datetime": "1990-07-04T10:00:00Z", "lat": 48.85341, "lon": 2.3488, "at": "2029-12-31T23:30:00Z"},
    )
    assert by_place.status_code == 200, by_place.text
    assert by_place.json()["data"] == by_hand.json()["data"]


def test_an_unknown_place_id_is_invalid_parameter_and_costs_nothing(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(
            natal(client, datetime="1990-07-04T12:00:00", place="999999999"), 400, "invalid_parameter", "place"
        )
    assert balance(stack, name) == 10


def test_a_town_name_as_place_is_refused_with_the_ids_to_choose_from(api):
    error = assert_error(natal(api, datetime="1990-07-04T12:00:00", place="Paris"), 400, "invalid_parameter", "place")
    assert f"place={PARIS_ID}" in error["suggestion"]


def test_without_lat_lon_or_place_the_suggestion_names_place(api):
    error = assert_error(natal(api, datetime="1990-07-04T12:00:00"), 400, "missing_parameter", "lat")
    assert "place=" in error["suggestion"]


def test_the_reference_shows_place_and_lat_lon_no_longer_required(api):
    schema = api.get("/v1/openapi.json").json()["paths"]["/v1/natal-chart"]["get"]["parameters"]
    by_name = {p["name"]: p for p in schema}
    assert "place" in by_name and not by_name["lat"]["required"]
    assert "/v1/places" in by_name["lat"]["schema"]["description"]


def test_no_parameter_with_a_default_is_described_as_required(api):
    # Issue 36: alt read "Required unless place gives it" but defaults to 0 (and no town gives it).
    paths = api.get("/v1/openapi.json").json()["paths"]
    described = 0
    for path, operations in paths.items():
        for parameter in operations.get("get", {}).get("parameters", ()):
            text = parameter["schema"].get("description", "")
            if "default" in parameter["schema"]:
                assert "Required unless" not in text, (path, parameter["name"])
            if parameter["name"] == "alt" and "place" in {p["name"] for p in operations["get"]["parameters"]}:
                described += 1
                assert "gives no alt" in text, path
    assert described >= 3  # natal-chart, progressed, draconic ...


def test_a_parameter_every_moment_shares_is_described_for_each_moment_it_reads(api):
    # Issue 36: tz on /v1/transits began "Range start." though it also sets the birth's zone.
    parameters = {
        p["name"]: p for p in api.get("/v1/openapi.json").json()["paths"]["/v1/transits"]["get"]["parameters"]
    }
    for name in ("tz", "fold"):
        text = parameters[name]["schema"]["description"]
        # A sentence another parameter already said reads "As `<it>`." (said once per operation).
        text = re.sub(r"As `(\w+)`\.", lambda said: parameters[said.group(1)]["schema"]["description"], text)
        assert not text.startswith("Range start") and "range start; range end; the natal moment" in text, name
    assert parameters["start"]["schema"]["description"].startswith("Range start.")


# --- local mean time ----------------------------------------------------------------------------


def test_local_mean_time_of_another_town_than_the_zones_city_is_noted_with_the_instant_it_would_be(api):
    # Ulm (9.99° E) in 1879: the tz database keeps Berlin's LMT (UTC+00:53:28) for all of
    # Europe/Berlin until 1893-04-01; Ulm's own mean time was 9.99 x 240 s = 2398 s = UTC+00:39:58
    # (by hand), so 11:30 by Ulm's clocks was 10:50:02 UTC.
    ulm = natal(api, datetime="1879-03-14T11:30:00", tz="Europe/Berlin", lat=48.40, lon=9.99).json()["meta"]["moment"][
        "datetime"
    ]
    assert (ulm["abbreviation"], ulm["utc_offset_seconds"]) == ("LMT", 3208)
    assert "UTC+00:39:58" in ulm["note"] and "datetime=1879-03-14T10:50:02Z" in ulm["note"]


def test_local_mean_time_at_the_zones_own_city_has_no_note(api):
    berlin = natal(api, datetime="1879-03-14T11:30:00", tz="Europe/Berlin", lat=52.52, lon=13.40).json()["meta"][
        "moment"
    ]["datetime"]
    assert berlin["abbreviation"] == "LMT" and "note" not in berlin


def test_a_batch_charges_nothing_for_its_free_sub_requests(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        response = client.post(
            "/v1/batch",
            json={
                "requests": [
                    {"endpoint": "/v1/places", "params": {"q": "paris"}},
                    {
                        "endpoint": "/v1/timezone",
                        "params": {"lat": 48.85, "lon": 2.35, "datetime": "2024-07-01T12:00:00Z"},
                    },
                    {"endpoint": "/v1/positions", "params": {"jd": 2451545.0}},
                ]
            },
        )
    assert response.status_code == 200, response.text
    assert [result["status"] for result in response.json()["data"]["results"]] == [200, 200, 200]
    assert response.json()["meta"]["credits_used"] == 1
    assert balance(stack, name) == 9


def test_places_matches_the_beginning_of_a_towns_own_name_only(api):
    # GeoNames lists "Ville de Paris" among Paris's names and "New Delhi" among Delhi's: a
    # beginning of an alternate name must not rank them first.
    assert places(api, q="new", limit=1).json()["data"]["places"][0]["name"] == "New York City"
    assert "Paris" not in [town["name"] for town in places(api, q="vil", limit=20).json()["data"]["places"]]


def test_timezone_outside_the_years_1_to_9999_is_out_of_range(api):
    # JD 1,000,000 is in 1975 BCE: inside the ephemeris's span, before any time zone.
    error = assert_error(timezone(api, lat=48.85, lon=2.35, jd=1_000_000.0), 400, "out_of_range", "jd")
    assert "1 to 9999" in error["message"]
