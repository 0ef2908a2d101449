"""/v1/explain-difference (issue 52): a birth as entered and another program's numbers in a JSON
body; the answer's shape, its price and its refusals, rule by rule. Whether the right cause comes
first is the kernel's corpus (tests/unit/kernel/test_explain_difference.py)."""

from __future__ import annotations

import pytest

from tests.api.test_conventions_api import assert_error, balance

EXPLAIN = "/v1/explain-difference"
# Paris, 14 July 1985 at 15:30 on the clock (CEST, UTC+2).
BIRTH = {"datetime": "1985-07-14T15:30:00", "tz": "Europe/Paris", "lat": 48.8566, "lon": 2.3522}
PRICE = 5


@pytest.fixture()
def funded(stack):
    """A fresh account with 100 credits: (name, client)."""
    name, key = stack.new_key(credits=100)
    with stack.client(key) as client:
        yield name, client


def _their_numbers(client, **params) -> dict:
    """The numbers /v1/natal-chart gives for ``params``, as another program would print them
    (to the arcminute)."""
    sent = {k: v for k, v in {**BIRTH, "bodies": "planets", **params}.items() if v is not None}
    chart = client.get("/v1/natal-chart", params=sent).json()["data"]
    minute = lambda deg: round(deg * 60) / 60 % 360  # noqa: E731
    return {
        "positions": {p["body"]: minute(p["longitude"]) for p in chart["positions"]},
        "cusps": [minute(c) for c in chart["houses"]["cusps"][1:]],
        "asc": minute(chart["houses"]["ascendant"]),
        "mc": minute(chart["houses"]["midheaven"]),
    }


def test_numbers_cast_without_daylight_saving_are_explained_by_dst_not_applied(funded):
    _, client = funded
    # The same clock time read as standard time, UTC+1: 14:30 UTC.
    theirs = _their_numbers(client, datetime="1985-07-14T14:30:00Z", tz=None)
    response = client.post(EXPLAIN, json={**BIRTH, "theirs": theirs})
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert data["explained"] is True and data["tolerance_arcsec"] == 60
    top = data["explanations"][0]
    assert top["causes"] == [{"kind": "dst", "value": "not_applied"}]
    assert top["request"]["datetime"] == "1985-07-14T14:30:00.000Z"
    assert top["residual_arcsec"] <= 30  # printed to the arcminute: at most half a minute off
    assert [r["point"] for r in top["residuals"]][-2:] == ["asc", "mc"]


def test_numbers_of_the_request_as_sent_are_explained_by_no_cause(funded):
    _, client = funded
    theirs = _their_numbers(client)
    data = client.post(EXPLAIN, json={**BIRTH, "theirs": theirs}).json()["data"]
    assert data["explained"] is True
    assert [e["causes"] for e in data["explanations"]] == [[]]


def test_a_sidereal_program_is_explained_by_its_zodiac(funded):
    _, client = funded
    theirs = _their_numbers(client, sidereal="lahiri")
    data = client.post(EXPLAIN, json={**BIRTH, "theirs": {"positions": theirs["positions"]}}).json()["data"]
    assert data["explanations"][0]["causes"] == [{"kind": "zodiac", "value": "lahiri"}]
    assert data["explanations"][0]["request"]["sidereal"] == "lahiri"


def test_numbers_nothing_explains_answer_explained_false_with_the_closest(funded):
    _, client = funded
    theirs = _their_numbers(client, datetime="1931-02-02T03:00:00Z", tz=None)
    data = client.post(EXPLAIN, json={**BIRTH, "theirs": theirs}).json()["data"]
    assert data["explained"] is False
    assert len(data["explanations"]) == 3
    assert all(e["residual_arcsec"] > 60 for e in data["explanations"])


def test_the_price_is_a_chart_with_its_search(stack, funded):
    name, client = funded
    response = client.post(EXPLAIN, json={**BIRTH, "theirs": {"asc": 200.0}})
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["credits_used"] == PRICE
    assert balance(stack, name) == 100 - PRICE


@pytest.mark.parametrize(
    ("theirs", "code", "param"),
    [
        ({}, "missing_parameter", "theirs"),
        ({"positions": {}}, "missing_parameter", "theirs"),
        ({"cusps": [10.0 * i for i in range(11)]}, "invalid_parameter", "theirs.cusps"),
        ({"cusps": [10.0 * i for i in range(13)]}, "invalid_parameter", "cusps"),
        ({"positions": {"vulcan": 10.0}}, "invalid_parameter", None),
        ({"asc": 360.0}, "invalid_parameter", None),
    ],
    ids=["empty", "no positions", "11 cusps", "13 cusps", "unknown body", "asc out of range"],
)
def test_a_theirs_without_numbers_or_with_cusps_other_than_twelve_is_refused_free(stack, funded, theirs, code, param):
    name, client = funded
    error = assert_error(client.post(EXPLAIN, json={**BIRTH, "theirs": theirs}), 400, code)
    if param is not None:
        assert error["param"] == param
    assert balance(stack, name) == 100


def test_theirs_is_required_and_a_body_that_is_no_object_is_refused_free(stack, funded):
    name, client = funded
    assert_error(client.post(EXPLAIN, json=BIRTH), 400, "missing_parameter")
    assert_error(
        client.post(EXPLAIN, content=b"[1, 2]", headers={"content-type": "application/json"}), 400, "invalid_body"
    )
    assert balance(stack, name) == 100


def test_explain_difference_is_post_only(funded):
    _, client = funded
    assert_error(client.get(EXPLAIN, params=BIRTH), 405, "method_not_allowed")


def test_a_birth_outside_the_years_2_to_9998_is_refused_before_any_charge(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        for birth, param in (({"jd": 625001.0}, "jd"), ({"jd": 5373484.5}, "jd")):
            answer = client.post(EXPLAIN, json={**birth, "lat": 0.0, "lon": 0.0, "theirs": {"asc": 0.0}})
            assert_error(answer, 400, "invalid_parameter", param=param)
    assert balance(stack, name) == 10


def test_chiron_outside_its_ephemeris_is_refused_out_of_range_before_any_charge(stack):
    name, key = stack.new_key(credits=10)
    theirs = {"positions": {"chiron": 338.19, "jupiter": 109.3}, "asc": 1.9}
    with stack.client(key) as client:
        answer = client.post(EXPLAIN, json={"jd": 1835305.32, "lat": 48.85, "lon": 2.35, "theirs": theirs})
    assert_error(answer, 400, "out_of_range")
    assert balance(stack, name) == 10


def _their_vedic_numbers(client, **params) -> dict:
    """The nakshatras /v1/vedic/chart and the mahadasha starts /v1/vedic/dasha give for
    ``params`` (the Moon's, Rahu's and the lagna's; one cycle of starts from birth, as
    another program would print them: to the second)."""
    sent = {k: v for k, v in {**BIRTH, **params}.items() if v is not None}
    chart_params = {k: v for k, v in sent.items() if k != "year_length"}
    chart = client.get("/v1/vedic/chart", params=chart_params).json()["data"]
    points = {p["body"]: p["nakshatra"]["name"] for p in chart["points"]}
    dasha = client.get(
        "/v1/vedic/dasha", params={**sent, "start": "1985-07-15T00:00:00Z", "end": "2100-01-01T00:00:00Z", "levels": 1}
    ).json()["data"]
    starts = [{"lord": p["lord"], "start": p["start"]["datetime"][:19] + "Z"} for p in dasha["periods"][1:]]
    return {"nakshatras": {"moon": points["moon"], "rahu": points["rahu"], "asc": points["lagna"]}, "dashas": starts}


def test_dasha_starts_of_a_julian_year_are_explained_by_year_length_in_seconds(funded):
    _, client = funded
    theirs = _their_vedic_numbers(client, year_length="julian")
    response = client.post(EXPLAIN, json={**BIRTH, "theirs": theirs})
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert data["explained"] is True and data["tolerance_seconds"] == 6 * 3600
    top = data["explanations"][0]
    assert top["causes"] == [{"kind": "year_length", "value": "julian"}]
    assert top["request"]["year_length"] == "julian"
    assert "residual_arcsec" not in top and top["residual_seconds"] <= 1  # printed to the second
    assert top["points_matched"] == 3
    kinds = {r["point"]: set(r) - {"point"} for r in top["residuals"]}
    assert kinds["moon_nakshatra"] == {"matched"} and kinds[f"{theirs['dashas'][0]['lord']}_mahadasha"] == {"seconds"}


def test_a_vedic_program_in_another_ayanamsha_is_explained_by_its_zodiac(funded):
    _, client = funded
    theirs = _their_vedic_numbers(client, ayanamsha="krishnamurti")
    data = client.post(EXPLAIN, json={**BIRTH, "theirs": theirs}).json()["data"]
    assert data["explanations"][0]["causes"] == [{"kind": "zodiac", "value": "krishnamurti"}]


def test_a_dasha_start_as_a_date_alone_is_its_day_on_the_birth_clock(funded):
    _, client = funded
    theirs = _their_vedic_numbers(client)
    # The date of each start on the Paris clock of the birth (UTC+2): the day holds the start.
    dates = [{"lord": d["lord"], "start": d["start"][:10]} for d in theirs["dashas"] if d["start"][11:13] < "22"]
    data = client.post(EXPLAIN, json={**BIRTH, "theirs": {"dashas": dates}}).json()["data"]
    top = data["explanations"][0]
    assert top["causes"] == [] and top["residual_seconds"] == 0


def test_the_house_a_body_is_in_is_matched_or_not(funded):
    _, client = funded
    chart = client.get("/v1/natal-chart", params={**BIRTH, "bodies": "planets"}).json()["data"]
    houses = {p["body"]: p["house"] for p in chart["positions"] if p["body"] in ("sun", "moon", "jupiter")}
    data = client.post(EXPLAIN, json={**BIRTH, "theirs": {"houses": houses}}).json()["data"]
    assert [e["causes"] for e in data["explanations"]] == [[]]
    assert {r["point"]: r["matched"] for r in data["explanations"][0]["residuals"]} == {
        f"{body}_house": True for body in houses
    }


@pytest.mark.parametrize(
    ("theirs", "code", "param"),
    [
        ({"dashas": [{"lord": "pluto", "start": "2000-01-01"}]}, "invalid_parameter", None),
        ({"dashas": [{"lord": "venus", "start": "2000-13-01"}]}, "invalid_datetime", "theirs.dashas[0].start"),
        ({"dashas": [{"lord": "venus"}]}, "invalid_parameter", None),
        ({"nakshatras": {"moon": "abhijit"}}, "invalid_parameter", None),
        ({"nakshatras": {"uranus": "rohini"}}, "invalid_parameter", None),
        ({"houses": {"sun": 13}}, "invalid_parameter", None),
        ({"houses": {"sun": 0}}, "invalid_parameter", None),
    ],
    ids=["unknown lord", "no such date", "no start", "unknown nakshatra", "no such point", "house 13", "house 0"],
)
def test_vedic_numbers_and_houses_out_of_their_vocabulary_are_refused_free(stack, funded, theirs, code, param):
    name, client = funded
    error = assert_error(client.post(EXPLAIN, json={**BIRTH, "theirs": theirs}), 400, code)
    if param is not None:
        assert error["param"] == param
    assert balance(stack, name) == 100
