"""/v1/vedic/chart and /v1/vedic/dasha (issue 41, docs/vedic.md), rule by rule through the API."""

from __future__ import annotations

import base64
import hashlib
import struct
from zoneinfo import ZoneInfo

import pytest

from kernel.vargas import VARGA_CODES
from tests.api.test_conventions_api import assert_error, balance

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
AT = {**BIRTH, "at": "2024-01-01T00:00:00Z"}
GRAHAS = ["sun", "moon", "mars", "mercury", "jupiter", "venus", "saturn", "rahu", "ketu"]


def data(api, path, **params) -> dict:
    """Return an answer's data with its meta's conventions beside it, as the tests read them."""
    response = api.get(path, params=params)
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["credits_used"] == 2
    return {**response.json()["data"], "conventions": response.json()["meta"]["conventions"]}


def test_a_chart_costs_2_and_echoes_its_default_conventions(api):
    found = data(api, "/v1/vedic/chart", **BIRTH)
    conventions = found["conventions"]
    assert {k: conventions[k] for k in ("ayanamsha", "ayanamsha_id", "node", "houses")} == {
        "ayanamsha": "lahiri",
        "ayanamsha_id": 1,
        "node": "mean",
        "houses": "whole_sign",
    }
    assert "house_system" not in conventions and "year_length" not in conventions
    assert 23.6 < conventions["ayanamsha_deg"] < 23.8 and "apparent geocentric" in conventions["positions"]
    assert found["moment"]["datetime"] == "1990-06-15T14:30:00.000Z" and "vargas" not in found


def test_a_chart_gives_each_graha_then_the_lagna_with_sign_nakshatra_house_retrograde_and_combust(api):
    points = data(api, "/v1/vedic/chart", **BIRTH)["points"]
    assert [p["body"] for p in points] == [*GRAHAS, "lagna"]
    moon = points[1]
    assert {"longitude", "sign", "sign_degree", "nakshatra", "house", "retrograde", "combust", "speed"} <= set(moon)
    assert set(moon["nakshatra"]) == {"index", "name", "pada", "lord"}
    assert (moon["sign"], moon["nakshatra"]["name"], moon["nakshatra"]["pada"], moon["nakshatra"]["lord"]) == (
        "aquarius",
        "purva_bhadrapada",
        1,
        "jupiter",
    )
    lagna = points[-1]
    assert lagna["house"] == 1 and not {"retrograde", "combust", "speed"} & set(lagna)
    assert "combust" not in points[0] and "combust" not in points[7]  # the Sun and Rahu have no orb


def test_node_true_makes_rahu_the_true_node(api):
    mean = data(api, "/v1/vedic/chart", **BIRTH)
    true = data(api, "/v1/vedic/chart", **BIRTH, node="true")
    assert true["conventions"]["node"] == "true"
    assert 0 < abs(true["points"][7]["longitude"] - mean["points"][7]["longitude"]) < 2.5


def test_another_ayanamsha_shifts_every_longitude_by_the_difference(api):
    lahiri = data(api, "/v1/vedic/chart", **BIRTH)
    raman = data(api, "/v1/vedic/chart", **BIRTH, ayanamsha="raman")
    shift = lahiri["conventions"]["ayanamsha_deg"] - raman["conventions"]["ayanamsha_deg"]
    assert raman["conventions"]["ayanamsha_id"] == 3
    assert (raman["points"][0]["longitude"] - lahiri["points"][0]["longitude"]) % 360 == pytest.approx(shift % 360)


def test_bhava_houses_echo_their_system(api):
    found = data(api, "/v1/vedic/chart", **BIRTH, houses="bhava")
    assert (found["conventions"]["houses"], found["conventions"]["house_system"]) == ("bhava", "sripati")
    assert (
        data(api, "/v1/vedic/chart", **BIRTH, houses="bhava", house_system="placidus")["conventions"]["house_system"]
        == "placidus"
    )


def test_outer_adds_uranus_to_pluto_before_the_lagna(api):
    names = [p["body"] for p in data(api, "/v1/vedic/chart", **BIRTH, outer="true")["points"]]
    assert names == [*GRAHAS, "uranus", "neptune", "pluto", "lagna"]


def test_vargas_give_every_points_sign_under_its_code(api):
    found = data(api, "/v1/vedic/chart", **BIRTH, vargas="d9,D60")
    assert set(found["vargas"]) == {"D9", "D60"}
    assert set(found["vargas"]["D9"]) == {*GRAHAS, "lagna"}
    assert found["vargas"]["D9"]["sun"] == "libra"
    every = data(api, "/v1/vedic/chart", **BIRTH, vargas=",".join(VARGA_CODES))
    assert set(every["vargas"]) == set(VARGA_CODES)
    assert every["vargas"]["D1"] == {p["body"]: p["sign"] for p in every["points"]}


def test_a_dasha_costs_2_and_echoes_its_default_conventions_and_the_balance(api):
    found = data(api, "/v1/vedic/dasha", **AT)
    assert {k: found["conventions"][k] for k in ("ayanamsha", "ayanamsha_id", "year_length", "year_days")} == {
        "ayanamsha": "lahiri",
        "ayanamsha_id": 1,
        "year_length": "sidereal",
        "year_days": 365.256363,
    }
    assert "node" not in found["conventions"] and found["levels"] == 2
    assert found["moon_nakshatra"]["lord"] == found["balance"]["lord"] == "jupiter"
    assert 0 < found["balance"]["years"] < 16


def test_at_gives_the_period_of_each_level_running_then(api):
    found = data(api, "/v1/vedic/dasha", **AT, levels=3)
    assert "at" in found and "start" not in found
    assert [p["level"] for p in found["periods"]] == [1, 2, 3]
    assert all(p["start"]["jd"] <= found["at"]["jd"] < p["end"]["jd"] for p in found["periods"])
    assert found["periods"][2]["parents"] == [found["periods"][0]["lord"], found["periods"][1]["lord"]]


def test_a_range_gives_every_overlapping_period_clamped_at_its_ends(api):
    found = data(api, "/v1/vedic/dasha", **BIRTH, start="2000-01-01T00:00:00Z", end="2030-01-01T00:00:00Z", levels=1)
    periods = found["periods"]
    assert [p["lord"] for p in periods] == ["jupiter", "saturn", "mercury"]
    assert periods[0]["clamped_start"] and periods[-1]["clamped_end"]
    assert periods[1]["start"] == found["balance"]["end"]


@pytest.mark.parametrize(("year_length", "days"), [("julian", 365.25), ("savana", 360.0), ("gregorian", 365.2425)])
def test_year_length_sets_the_dasha_year(api, year_length, days):
    found = data(api, "/v1/vedic/dasha", **AT, year_length=year_length, levels=1)
    assert found["conventions"]["year_days"] == days
    period = found["periods"][0]
    assert period["end"]["jd"] - period["start"]["jd"] == pytest.approx(17 * days)  # Mercury's 17 years


REFUSALS = [
    ("/v1/vedic/chart", {**BIRTH, "ayanamsha": "sayana"}, "invalid_parameter", "ayanamsha"),
    ("/v1/vedic/chart", {**BIRTH, "ayanamsha": "1"}, "invalid_parameter", "ayanamsha"),
    ("/v1/vedic/chart", {**BIRTH, "node": "osculating"}, "invalid_parameter", "node"),
    ("/v1/vedic/chart", {**BIRTH, "houses": "equal"}, "invalid_parameter", "houses"),
    ("/v1/vedic/chart", {**BIRTH, "houses": "bhava", "house_system": "nowhere"}, "invalid_parameter", "house_system"),
    ("/v1/vedic/chart", {**BIRTH, "vargas": "D9,D5"}, "invalid_parameter", "vargas"),
    ("/v1/vedic/chart", {**BIRTH, "outer": "maybe"}, "invalid_parameter", "outer"),
    ("/v1/vedic/chart", {"datetime": "1990-06-15T14:30:00Z"}, "missing_parameter", "lat"),
    ("/v1/vedic/dasha", {**AT, "ayanamsha": "sayana"}, "invalid_parameter", "ayanamsha"),
    ("/v1/vedic/dasha", {**AT, "year_length": "lunar"}, "invalid_parameter", "year_length"),
    ("/v1/vedic/dasha", {**AT, "levels": 4}, "invalid_parameter", "levels"),
    ("/v1/vedic/dasha", {**AT, "levels": 0}, "invalid_parameter", "levels"),
    ("/v1/vedic/dasha", BIRTH, "missing_parameter", "at"),
    ("/v1/vedic/dasha", {**BIRTH, "at": "1980-01-01T00:00:00Z"}, "before_birth", "at"),
    (
        "/v1/vedic/dasha",
        {**AT, "start": "2000-01-01T00:00:00Z", "end": "2001-01-01T00:00:00Z"},
        "invalid_parameter",
        "at",
    ),
    (
        "/v1/vedic/dasha",
        {**BIRTH, "start": "1990-06-15T14:30:00Z", "end": "2111-01-01T00:00:00Z"},
        "range_too_long",
        "end",
    ),
]


@pytest.mark.parametrize(("path", "params", "code", "param"), REFUSALS, ids=[f"{p}-{c}-{q}" for p, _, c, q in REFUSALS])
def test_each_refusal_is_a_400_naming_its_parameter_and_costs_nothing(stack, path, params, code, param):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(client.get(path, params=params), 400, code, param)
    assert balance(stack, name) == 10


CHENNAI = {"datetime": "2024-03-20T12:00:00", "tz": "Asia/Kolkata", "lat": 13.08, "lon": 80.27}


def test_a_panchang_costs_1_and_reads_the_days_limbs_at_its_sunrise_by_default(api):
    response = api.get("/v1/vedic/panchang", params=CHENNAI)
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["credits_used"] == 1
    found = {**response.json()["data"], "conventions": response.json()["meta"]["conventions"]}
    assert {k: found["conventions"][k] for k in ("ayanamsha", "ayanamsha_id", "sunrise")} == {
        "ayanamsha": "lahiri",
        "ayanamsha_id": 1,
        "sunrise": "upper_limb_refracted",
    }
    assert found["limbs_at"] == "sunrise" and found["moment"] == found["sunrise"]
    assert (
        found["sunrise"]["datetime"].startswith("2024-03-20T00:4")
        and found["sunrise"]["jd"] < found["sunset"]["jd"] < found["next_sunrise"]["jd"]
    )
    assert found["vara"] == {"index": 4, "name": "budhavara", "lord": "mercury"}  # a Wednesday
    assert (found["tithi"]["index"], found["tithi"]["name"], found["tithi"]["paksha"]) == (11, "ekadashi", "shukla")
    assert (found["nakshatra"]["name"], found["nakshatra"]["lord"]) == ("pushya", "saturn") and "pada" in found[
        "nakshatra"
    ]
    for limb in ("tithi", "nakshatra", "yoga", "karana"):
        assert found[limb]["start"]["jd"] <= found["moment"]["jd"] < found[limb]["end"]["jd"]


def test_limbs_at_moment_reads_them_at_the_instant_in_the_day_holding_it(api):
    found = data_1(api, **CHENNAI, limbs_at="moment")
    assert found["moment"]["datetime"] == "2024-03-20T06:30:00.000Z"
    assert found["sunrise"]["jd"] <= found["moment"]["jd"] < found["next_sunrise"]["jd"]
    assert found["karana"]["start"]["jd"] <= found["moment"]["jd"] < found["karana"]["end"]["jd"]


def test_the_hindu_sunrise_is_the_discs_centre_without_refraction_some_minutes_later(api):
    almanac = data_1(api, **CHENNAI)
    hindu = data_1(api, **CHENNAI, sunrise="hindu")
    assert hindu["conventions"]["sunrise"] == "hindu"
    assert 2 / 1440 < hindu["sunrise"]["jd"] - almanac["sunrise"]["jd"] < 6 / 1440


def test_a_panchang_where_the_sun_does_not_rise_is_polar_day_or_night_and_costs_nothing(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(
            client.get("/v1/vedic/panchang", params={"datetime": "2024-06-21T12:00:00Z", "lat": 80.0, "lon": 0.0}),
            400,
            "polar_day_or_night",
            "lat",
        )
        for params, param in (
            ({**CHENNAI, "sunrise": "upper_limb"}, "sunrise"),
            ({**CHENNAI, "limbs_at": "noon"}, "limbs_at"),
            ({**CHENNAI, "ayanamsha": "sayana"}, "ayanamsha"),
        ):
            assert_error(client.get("/v1/vedic/panchang", params=params), 400, "invalid_parameter", param)
    assert balance(stack, name) == 10


#: Towns whose zones lie far from local mean time or across the date line: Delhi (+05:30,
#: LMT +05:09), New York (-05:00/-04:00, DST), Madrid (+01:00/+02:00 on a longitude near 0:
#: LMT -00:15) and Apia (+13:00 since 2011, LMT -11:27: a date ahead of its mean time).
CIVIL_DATE_TOWNS = [
    ("Asia/Kolkata", 28.61, 77.21),
    ("America/New_York", 40.71, -74.01),
    ("Europe/Madrid", 40.42, -3.70),
    ("Pacific/Apia", -13.83, -171.76),
]
#: Sanskrit weekday names by Python's weekday (Monday 0); the vara's own table is the kernel's.
VARA_OF_WEEKDAY = ["somavara", "mangalavara", "budhavara", "guruvara", "shukravara", "shanivara", "ravivara"]


@pytest.fixture(scope="module")
def busy_api(stack):
    """A client whose account may send a year of daily requests within the minute."""
    with stack.client(stack.new_key(rate_per_minute=10_000)[1]) as client:
        yield client


@pytest.mark.parametrize(("zone", "lat", "lon"), CIVIL_DATE_TOWNS)
def test_a_date_only_panchang_names_that_civil_dates_vara_in_the_requests_zone(busy_api, zone, lat, lon):
    import datetime as dt

    first = dt.date(2024, 1, 1)
    wrong = []
    for day in (first + dt.timedelta(days=n) for n in range(366)):
        found = data_1(busy_api, datetime=day.isoformat(), tz=zone, lat=lat, lon=lon)
        sunrise_local = dt.datetime.fromisoformat(found["sunrise"]["datetime"].replace("Z", "+00:00")).astimezone(
            ZoneInfo(zone)
        )
        if found["vara"]["name"] != VARA_OF_WEEKDAY[day.weekday()] or sunrise_local.date() != day:
            wrong.append((day.isoformat(), found["vara"]["name"], sunrise_local.isoformat()))
    assert wrong == []


def test_a_local_midnight_panchang_is_that_days_not_the_day_before(api):
    # The audit's case: midnight at Delhi is 18:30 UTC the day before, and 23:39 local mean time.
    found = data_1(api, datetime="2024-03-20T00:00:00", tz="Asia/Kolkata", lat=28.61, lon=77.21)
    assert found["vara"]["name"] == "budhavara" and found["sunrise"]["datetime"].startswith("2024-03-20T00:")


def test_a_datetime_with_an_offset_names_the_civil_date_on_that_offsets_clock(api):
    # 00:30 at +05:30 is 19:00 UTC on the 19th: the date written, the 20th, names the day.
    found = data_1(api, datetime="2024-03-20T00:30:00+05:30", lat=28.61, lon=77.21)
    assert found["vara"]["name"] == "budhavara"
    # Written in UTC, the UTC date names it: 23:00Z on the 19th is Tuesday's panchang.
    assert data_1(api, datetime="2024-03-19T23:00:00Z", lat=28.61, lon=77.21)["vara"]["name"] == "mangalavara"


def test_a_jd_names_the_civil_date_in_local_mean_time_at_the_place(api):
    # JD 2460389.5 is 2024-03-20T00:00Z: 05:09 local mean time at Delhi, the 20th.
    assert data_1(api, jd=2460389.5, lat=28.61, lon=77.21)["vara"]["name"] == "budhavara"
    # JD 2460389.2 is 2024-03-19T16:48Z: 21:57 local mean time at Delhi, the 19th.
    assert data_1(api, jd=2460389.2, lat=28.61, lon=77.21)["vara"]["name"] == "mangalavara"


def data_1(api, **params) -> dict:
    response = api.get("/v1/vedic/panchang", params=params)
    assert response.status_code == 200, response.text
    return {**response.json()["data"], "conventions": response.json()["meta"]["conventions"]}


@pytest.mark.parametrize(
    ("path", "params"), [("/v1/vedic/chart", {}), ("/v1/vedic/dasha", {"at": "2024-01-01T00:00:00Z"})]
)
def test_the_conventions_are_in_meta_beside_how_the_answer_was_made_not_in_data(api, path, params):
    body = api.get(path, params={**BIRTH, **params}).json()
    assert "conventions" not in body["data"]
    assert body["meta"]["conventions"]["ayanamsha"] == "lahiri" and body["meta"]["credits_used"] == 2


MATCH = {
    "datetime_a": "1990-06-15T14:30:00Z",
    "lat_a": 51.5,
    "lon_a": -0.13,
    "datetime_b": "1992-03-02T06:10:00Z",
    "lat_b": 28.61,
    "lon_b": 77.21,
}
KOOTAS = ["varna", "vashya", "tara", "yoni", "graha_maitri", "gana", "bhakoot", "nadi"]


def match(api, **params) -> dict:
    response = api.get("/v1/vedic/match", params={**MATCH, **params})
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["credits_used"] == 3
    return {**response.json()["data"], "conventions": response.json()["meta"]["conventions"]}


def test_a_match_costs_3_and_echoes_its_default_conventions(api):
    found = match(api)
    conventions = found["conventions"]
    assert {k: conventions[k] for k in ("ayanamsha", "ayanamsha_id", "groom")} == {
        "ayanamsha": "lahiri",
        "ayanamsha_id": 1,
        "groom": "a",
    }
    assert "node" not in conventions and 23.6 < conventions["ayanamsha_deg"] < 23.8
    assert (found["a"]["role"], found["b"]["role"]) == ("groom", "bride")
    assert found["a"]["moment"]["datetime"] == "1990-06-15T14:30:00.000Z"


def test_a_match_gives_the_eight_kootas_each_with_score_max_and_reason_summing_to_the_total_of_36(api):
    found = match(api)
    assert [k["name"] for k in found["kootas"]] == KOOTAS
    assert [k["max"] for k in found["kootas"]] == [1, 2, 3, 4, 5, 6, 7, 8] and found["max"] == 36
    assert all(0 <= k["score"] <= k["max"] and k["reason"] and k["groom"] and k["bride"] for k in found["kootas"])
    assert found["total"] == sum(k["score"] for k in found["kootas"])


def test_a_match_reads_each_birth_moon_as_the_vedic_chart_does(api):
    found = match(api)
    chart = api.get(
        "/v1/vedic/chart", params={"datetime": MATCH["datetime_b"], "lat": MATCH["lat_b"], "lon": MATCH["lon_b"]}
    ).json()["data"]
    moon = chart["points"][1]
    assert found["b"]["moon_longitude"] == pytest.approx(moon["longitude"])
    assert (found["b"]["moon_sign"], found["b"]["moon_nakshatra"]) == (moon["sign"], moon["nakshatra"])


def test_each_birth_has_its_manglik_status_from_mars_house(api):
    found = match(api)
    chart = api.get(
        "/v1/vedic/chart", params={"datetime": MATCH["datetime_a"], "lat": MATCH["lat_a"], "lon": MATCH["lon_a"]}
    ).json()["data"]
    mars_house = chart["points"][2]["house"]
    status = found["a"]["manglik"]
    assert status["house_from_lagna"] == mars_house
    assert status["manglik"] == (mars_house in {1, 2, 4, 7, 8, 12})
    assert {"house_from_moon", "house_from_venus"} <= set(status)


def test_groom_b_swaps_the_roles_and_the_sided_kootas(api):
    a = match(api)
    b = match(api, groom="b")
    assert b["conventions"]["groom"] == "b" and (b["a"]["role"], b["b"]["role"]) == ("bride", "groom")
    by_name = {k["name"]: k for k in b["kootas"]}
    for koota in a["kootas"]:
        assert (by_name[koota["name"]]["groom"], by_name[koota["name"]]["bride"]) == (koota["bride"], koota["groom"])
    assert {k["name"]: k["score"] for k in b["kootas"]}["nadi"] == {k["name"]: k["score"] for k in a["kootas"]}["nadi"]


def test_another_ayanamsha_is_echoed(api):
    assert match(api, ayanamsha="raman")["conventions"]["ayanamsha_id"] == 3


def test_a_match_takes_towns_and_clock_times_like_synastry(api):
    found = match(api, datetime_a="1990-06-15T16:30", tz_a="Europe/Paris", lat_a=48.85, lon_a=2.35)
    assert found["a"]["moment"]["datetime"] == "1990-06-15T14:30:00.000Z"


MATCH_REFUSALS = [
    ({**MATCH, "ayanamsha": "sayana"}, "invalid_parameter", "ayanamsha"),
    ({**MATCH, "groom": "c"}, "invalid_parameter", "groom"),
    ({k: v for k, v in MATCH.items() if k != "datetime_b"}, "missing_parameter", "datetime_b"),
    ({k: v for k, v in MATCH.items() if k != "lat_a"}, "missing_parameter", "lat_a"),
    ({**MATCH, "lat_b": 95}, "invalid_parameter", "lat_b"),
]


@pytest.mark.parametrize(("params", "code", "param"), MATCH_REFUSALS, ids=[f"{c}-{p}" for _, c, p in MATCH_REFUSALS])
def test_each_match_refusal_is_a_400_naming_its_parameter_and_costs_nothing(stack, params, code, param):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(client.get("/v1/vedic/match", params=params), 400, code, param)
    assert balance(stack, name) == 10


def test_a_match_takes_two_stored_charts_and_answers_as_their_births_do(stack):
    _, key = stack.new_key()
    with stack.client(key) as client:
        ids = [
            client.post(
                "/v1/charts",
                json={
                    "name": side,
                    "datetime": MATCH[f"datetime_{side}"],
                    "lat": MATCH[f"lat_{side}"],
                    "lon": MATCH[f"lon_{side}"],
                },
            ).json()["data"]["id"]
            for side in "ab"
        ]
        stored = client.get("/v1/vedic/match", params={"chart_a": ids[0], "chart_b": ids[1]})
        plain = client.get("/v1/vedic/match", params=MATCH)
    assert stored.status_code == 200, stored.text
    assert (
        stored.json()["data"] == plain.json()["data"]
        and stored.json()["meta"]["conventions"] == plain.json()["meta"]["conventions"]
    )


# --- Pictures (issue 51): the chart drawn as North or South Indian charts -------------------


def test_format_svg_is_the_indian_charts_document_with_its_digest(api):
    response = api.get("/v1/vedic/chart", params={**BIRTH, "format": "svg", "style": "south_indian"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert 'data-style="south_indian"' in response.text and 'data-varga="D9"' in response.text
    digest = base64.b64encode(hashlib.sha256(response.content).digest()).decode()
    assert response.headers["content-digest"] == f"sha-256=:{digest}:"


def test_format_png_is_two_charts_of_size_pixels_side_by_side(api):
    response = api.get("/v1/vedic/chart", params={**BIRTH, "format": "png", "size": 300, "theme": "dark"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "image/png"
    assert struct.unpack(">II", response.content[16:24]) == (600, 300)


def test_a_picture_costs_the_charts_2_credits_plus_1_and_json_stays_2(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert client.get("/v1/vedic/chart", params={**BIRTH, "format": "svg"}).status_code == 200
        assert balance(stack, name) == 7
        assert client.get("/v1/vedic/chart", params={**BIRTH, "format": "png", "size": 200}).status_code == 200
        assert balance(stack, name) == 4
        assert client.get("/v1/vedic/chart", params={**BIRTH, "format": "json"}).json()["meta"]["credits_used"] == 2


def test_the_json_answer_is_unchanged_by_pictures(api):
    body = api.get("/v1/vedic/chart", params=BIRTH).json()["data"]
    assert set(body) == {"moment", "points"}


@pytest.mark.parametrize(
    ("param", "value"), [("style", "south_indian"), ("theme", "dark"), ("size", "400"), ("lang", "de")]
)
def test_a_pictures_parameter_with_format_json_is_refused_and_costs_nothing(stack, param, value):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        error = assert_error(
            client.get("/v1/vedic/chart", params={**BIRTH, param: value}), 400, "invalid_parameter", param
        )
    assert "format=svg" in error["suggestion"]
    assert balance(stack, name) == 10


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"format": "svg", "style": "east_indian"}, "style"),
        ({"format": "svg", "size": "100"}, "size"),
        ({"format": "png", "size": "2829"}, "size"),
    ],
    ids=["unknown style", "size below 200", "a PNG above 16 million pixels"],
)
def test_a_picture_outside_its_bounds_is_refused(api, params, param):
    assert_error(api.get("/v1/vedic/chart", params={**BIRTH, **params}), 400, "invalid_parameter", param)


def test_the_largest_png_passes_through_the_gateway(api):
    """Two charts of 2828 px, the dark theme: within the 16 million pixels a PNG may have, and
    within gRPC's 4 MB message limit between the service and the gateway."""
    response = api.get("/v1/vedic/chart", params={**BIRTH, "format": "png", "size": 2828, "theme": "dark"})
    assert response.status_code == 200, response.text
    assert struct.unpack(">II", response.content[16:24]) == (5656, 2828)
    assert (
        "size=2828"
        in assert_error(
            api.get("/v1/vedic/chart", params={**BIRTH, "format": "png", "size": 2829}),
            400,
            "invalid_parameter",
            "size",
        )["suggestion"]
    )


# --- The chart with its picture beside it (svg=true), as /v1/chart-wheel's format=json ---------

DRAWN = {"style": "south_indian", "theme": "dark", "size": 400, "lang": "ru"}


def test_svg_true_puts_the_format_svg_document_byte_for_byte_and_its_sha256_beside_the_chart(api):
    params = {**BIRTH, **DRAWN, "vargas": "D9,D10"}
    beside = api.get("/v1/vedic/chart", params={**params, "svg": "true"})
    assert beside.status_code == 200, beside.text
    drawn = api.get("/v1/vedic/chart", params={**params, "format": "svg"})
    assert drawn.status_code == 200, drawn.text
    found = beside.json()["data"]
    assert found["svg"].encode() == drawn.content
    assert found["sha256"] == hashlib.sha256(drawn.content).hexdigest()
    plain = api.get("/v1/vedic/chart", params={**BIRTH, "vargas": "D9,D10"}).json()["data"]
    assert {k: v for k, v in found.items() if k not in ("svg", "sha256")} == plain


def test_svg_true_without_vargas_draws_the_navamsa_and_adds_only_the_svg_and_its_digest(api):
    found = api.get("/v1/vedic/chart", params={**BIRTH, "svg": "true"}).json()["data"]
    assert set(found) == {"moment", "points", "svg", "sha256"}
    assert 'data-varga="D9"' in found["svg"] and 'data-style="north_indian"' in found["svg"]


def test_svg_true_costs_a_pictures_3_credits_and_svg_false_the_charts_2(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        beside = client.get("/v1/vedic/chart", params={**BIRTH, "svg": "true"})
        assert beside.json()["meta"]["credits_used"] == 3
        assert balance(stack, name) == 7
        assert client.get("/v1/vedic/chart", params={**BIRTH, "svg": "false"}).json()["meta"]["credits_used"] == 2
        body = client.post("/v1/vedic/chart", json={**BIRTH, "svg": True, "theme": "dark"})
        assert body.json()["meta"]["credits_used"] == 3
        assert (
            "etag" not in beside.headers
        )  # an envelope, with its request id and balance: not cached, as the wheel's json


@pytest.mark.parametrize("picture_format", ["svg", "png"])
def test_svg_true_with_a_picture_format_is_refused_naming_svg_and_costs_nothing(stack, picture_format):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        error = assert_error(
            client.get("/v1/vedic/chart", params={**BIRTH, "format": picture_format, "svg": "true"}),
            400,
            "invalid_parameter",
            "svg",
        )
    assert "format=json" in error["suggestion"]
    assert balance(stack, name) == 10


def test_a_pictures_parameter_with_svg_false_is_refused_suggesting_svg_true(api):
    error = assert_error(
        api.get("/v1/vedic/chart", params={**BIRTH, "svg": "false", "theme": "dark"}), 400, "invalid_parameter", "theme"
    )
    assert "svg=true" in error["suggestion"] and "format=svg" in error["suggestion"]
