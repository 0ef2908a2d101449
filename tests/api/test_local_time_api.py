"""Issue 27, part 1: a local time and its zone on every endpoint that takes a moment. One test
per rule; each refusal is a 400 from the gateway that costs nothing."""

from __future__ import annotations

import pytest

from tests.api.test_conventions_api import assert_error, balance

PARIS = "Europe/Paris"
PLACE = {"lat": 48.85, "lon": 2.35}


def positions(api, **params):
    return api.get("/v1/positions", params={"bodies": "sun,moon", **params})


def test_a_datetime_without_offset_is_the_civil_time_of_tz(api):
    local = positions(api, datetime="1990-07-04T12:00:00", tz=PARIS)
    utc = positions(api, datetime="1990-07-04T10:00:00Z")  # CEST, UTC+2, by hand
    assert local.status_code == 200, local.text
    assert local.json()["data"] == utc.json()["data"]


def test_the_answer_says_how_the_local_time_was_read(api):
    meta = positions(api, datetime="1990-07-04T12:00:00", tz=PARIS).json()["meta"]
    assert meta["moment"] == {
        "datetime": {
            "local": "1990-07-04T12:00:00",
            "tz": PARIS,
            "abbreviation": "CEST",
            "utc_offset_seconds": 7200,
            "utc": "1990-07-04T10:00:00.000Z",
        }
    }


def test_without_tz_nothing_changes_and_meta_has_no_moment(api):
    assert "moment" not in positions(api, datetime="1990-07-04T12:00:00").json()["meta"]


def test_a_datetime_with_an_offset_keeps_its_offset(api):
    offset = positions(api, datetime="1990-07-04T12:00:00+05:30", tz=PARIS)
    utc = positions(api, datetime="1990-07-04T06:30:00Z")
    assert offset.json()["data"] == utc.json()["data"]
    assert "moment" not in offset.json()["meta"]


def test_local_mean_time_before_standard_time(api):
    # tz database, europe: Paris Mean Time (+0:09:21) until 1911-03-11, then WET.
    meta = positions(api, datetime="1900-06-01T12:00:00", tz=PARIS).json()["meta"]["moment"]["datetime"]
    assert (meta["abbreviation"], meta["utc_offset_seconds"], meta["utc"]) == ("PMT", 561, "1900-06-01T11:50:39.000Z")


def test_a_zone_keeps_its_own_clocks_before_1970_not_those_of_the_zone_it_later_joined(api):
    # Amsterdam kept Amsterdam Mean Time (UTC+0:19:32) until 1937 (tz database, backzone); the
    # default build merges Europe/Amsterdam into Europe/Brussels and read WET, UTC+0.
    chart = api.get("/v1/natal-chart", params={"datetime": "1900-01-01T12:00:00", "place": 2759794})
    by_hand = api.get("/v1/natal-chart", params={"datetime": "1900-01-01T11:40:28Z", "lat": 52.37403, "lon": 4.88969})
    assert chart.status_code == 200, chart.text
    moment = chart.json()["meta"]["moment"]["datetime"]
    assert (moment["tz"], moment["utc_offset_seconds"], moment["utc"]) == (
        "Europe/Amsterdam",
        1172,
        "1900-01-01T11:40:28.000Z",
    )
    assert chart.json()["data"]["houses"] == by_hand.json()["data"]["houses"]


def test_where_the_tz_database_doubts_a_zones_history_before_1970_the_moment_says_so(api):
    doubted = positions(api, datetime="1920-06-01T12:00:00", tz="Africa/Kampala").json()["meta"]["moment"]["datetime"]
    assert "backzone" in doubted["note"] and "Africa/Kampala" in doubted["note"]
    assert (
        "note"
        not in positions(api, datetime="1920-06-01T12:00:00", tz="Africa/Nairobi").json()["meta"]["moment"]["datetime"]
    )
    assert (
        "note"
        not in positions(api, datetime="1990-06-01T12:00:00", tz="Africa/Kampala").json()["meta"]["moment"]["datetime"]
    )


def test_a_jd_with_tz_is_conflicting_parameters(api):
    assert_error(positions(api, jd=2451545.0, tz=PARIS), 400, "conflicting_parameters", "tz")


def test_a_time_the_clocks_skipped_is_nonexistent_local_time_and_costs_nothing(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        error = assert_error(
            positions(client, datetime="2024-03-31T02:30:00", tz=PARIS), 400, "nonexistent_local_time", "datetime"
        )
    assert "2024-03-31 02:00:00 (UTC+01:00) straight to 2024-03-31 03:00:00 (UTC+02:00)" in error["message"]
    assert balance(stack, name) == 10


def test_a_day_skipped_by_a_date_line_move_is_named_with_both_dates_and_offsets(api):
    error = assert_error(
        positions(api, datetime="1994-12-31T12:00:00", tz="Pacific/Kiritimati"),
        400,
        "nonexistent_local_time",
        "datetime",
    )
    assert "from 1994-12-31 00:00:00 (UTC-10:00) straight to 1995-01-01 00:00:00 (UTC+14:00)" in error["message"]
    assert "date line" in error["message"] and "datetime=1994-12-31T12:00:00-10:00" in error["suggestion"]
    assert "hour" not in error["suggestion"]


def test_a_time_the_clocks_showed_twice_is_ambiguous_naming_both_instants(api):
    error = assert_error(
        positions(api, datetime="2024-10-27T02:30:00", tz=PARIS), 400, "ambiguous_local_time", "datetime"
    )
    assert "2024-10-27T00:30:00Z" in error["message"] and "2024-10-27T01:30:00Z" in error["message"]
    assert "fold" in error["suggestion"]


@pytest.mark.parametrize("fold, utc", [(0, "2024-10-27T00:30:00.000Z"), (1, "2024-10-27T01:30:00.000Z")])
def test_fold_chooses_the_first_or_the_second_of_a_doubled_time(api, fold, utc):
    meta = positions(api, datetime="2024-10-27T02:30:00", tz=PARIS, fold=fold).json()["meta"]
    assert meta["moment"]["datetime"]["utc"] == utc


def test_fold_without_tz_is_missing_parameter(api):
    assert_error(positions(api, datetime="2024-10-27T02:30:00", fold=1), 400, "missing_parameter", "tz")


def test_an_unknown_zone_is_invalid_parameter_with_the_closest_names(api):
    error = assert_error(
        positions(api, datetime="1990-07-04T12:00:00", tz="Europe/Pariss"), 400, "invalid_parameter", "tz"
    )
    assert "Europe/Paris" in error["suggestion"]


def test_every_moment_of_a_request_takes_its_tz(api):
    response = api.get(
        "/v1/transits",
        params={
            "datetime": "1990-07-04T12:00:00",
            **PLACE,
            "start": "2024-01-01T00:00:00",
            "end": "2024-01-10T00:00:00",
            "tz": PARIS,
        },
    )
    assert response.status_code == 200, response.text
    moment = response.json()["meta"]["moment"]
    assert {name: reading["utc"] for name, reading in moment.items()} == {
        "datetime": "1990-07-04T10:00:00.000Z",
        "start": "2023-12-31T23:00:00.000Z",
        "end": "2024-01-09T23:00:00.000Z",
    }


def test_the_time_lords_at_takes_the_requests_tz(api):
    params = {"datetime": "1990-07-04T12:00:00", **PLACE, "at": "2030-01-01T00:30:00", "tz": PARIS}
    local = api.get("/v1/profections", params=params)
    assert local.status_code == 200, local.text
    assert local.json()["meta"]["moment"]["at"]["utc"] == "2029-12-31T23:30:00.000Z"
    utc = api.get("/v1/profections", params={"datetime": "1990-07-04T10:00:00Z", **PLACE, "at": "2029-12-31T23:30:00Z"})
    assert local.json()["data"] == utc.json()["data"]


def test_two_births_take_tz_a_and_tz_b(api):
    local = api.get(
        "/v1/synastry",
        params={
            "datetime_a": "1990-07-04T12:00:00",
            "lat_a": 48.85,
            "lon_a": 2.35,
            "tz_a": PARIS,
            "datetime_b": "1985-01-15T08:00:00",
            "lat_b": 40.71,
            "lon_b": -74.0,
            "tz_b": "America/New_York",
        },
    )
    utc = api.get(
        "/v1/synastry",
        params={
            "datetime_a": "1990-07-04T10:00:00Z",
            "lat_a": 48.85,
            "lon_a": 2.35,
            "datetime_b": "1985-01-15T13:00:00Z",
            "lat_b": 40.71,
            "lon_b": -74.0,
        },
    )
    assert local.status_code == 200, local.text
    assert local.json()["data"] == utc.json()["data"]
    assert set(local.json()["meta"]["moment"]) == {"datetime_a", "datetime_b"}


def test_a_natal_chart_from_a_certificates_local_time_equals_the_hand_converted_one(api):
    # A birth in New York during the war time of 1942-1945 (EWT, UTC-4 all year; tz database,
    # northamerica: "US 1942 only Feb 9 2:00 1:00 W # War").
    local = api.get(
        "/v1/natal-chart",
        params={"datetime": "1943-01-15T09:20:00", "lat": 40.71, "lon": -74.0, "tz": "America/New_York"},
    )
    utc = api.get("/v1/natal-chart", params={"datetime": "1943-01-15T13:20:00Z", "lat": 40.71, "lon": -74.0})
    assert local.status_code == 200, local.text
    assert local.json()["data"] == utc.json()["data"]
    assert local.json()["meta"]["moment"]["datetime"]["abbreviation"] == "EWT"


def test_the_reference_lists_tz_and_fold_for_every_moment(api):
    paths = api.get("/v1/openapi.json").json()["paths"]
    names = {p["name"] for p in paths["/v1/positions"]["get"]["parameters"]}
    assert {"tz", "fold"} <= names
    pair = {p["name"] for p in paths["/v1/synastry"]["get"]["parameters"]}
    assert {"tz_a", "tz_b", "fold_a", "fold_b"} <= pair and "tz" not in pair
    transits = {p["name"] for p in paths["/v1/transits"]["get"]["parameters"]}
    assert "tz" in transits and not {"start_tz", "end_tz"} & transits


def test_a_local_time_before_the_year_1000_is_read_like_any_other(api):
    local = positions(api, datetime="0500-06-01T12:00:00", tz=PARIS)
    assert local.status_code == 200, local.text
    offset = local.json()["meta"]["moment"]["datetime"]["utc_offset_seconds"]  # Paris mean time, +00:09:21
    assert local.json()["meta"]["moment"]["datetime"]["utc"].startswith("0500-06-01T11:50:")
    assert offset == 561


def test_a_local_time_whose_utc_instant_falls_before_the_year_1_is_400_out_of_range(api):
    assert_error(positions(api, datetime="0001-01-01T00:00:00", tz="Asia/Tokyo"), 400, "out_of_range", "datetime")


def test_a_utc_instant_whose_wall_clock_falls_before_the_year_1_is_400_out_of_range(api):
    response = api.get("/v1/timezone", params={"datetime": "0001-01-01T00:00:00Z", "lat": 35, "lon": -75})
    assert_error(response, 400, "out_of_range", "datetime")


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_tz_auto_with_a_coordinate_out_of_range_is_that_coordinates_400_not_a_500(api, method):
    # Found by schemathesis: the zone was looked up at lon=181 before lon's range was checked.
    params = {"datetime": "1944-06-06T08:00:00", "tz": "auto", "lat": 51.5074, "lon": 181.0}
    answer = api.get("/v1/timezone", params=params) if method == "GET" else api.post("/v1/timezone", json=params)
    assert_error(answer, 400, "invalid_parameter")
    assert answer.json()["errors"][0]["param"] == "lon"
