"""/v1/profections, /v1/zodiacal-releasing and /v1/firdaria (interface.md, their sections and
Time-lord period records), rule by rule through the API."""

from __future__ import annotations

import pytest

from celestial.v1 import timelords_service_pb2 as pb
from kernel.lots import LOTS
from services.timelords.natal_points import natal_points
from shared.runtime.transcoder import request_from_query
from shared.runtime.validation import validate
from tests.api.test_conventions_api import assert_error, balance

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}  # a day birth, Libra rising
AT = {**BIRTH, "at": "2024-03-20T12:00:00Z"}
RANGE = {**BIRTH, "start": "2020-01-01T00:00:00Z", "end": "2023-01-01T00:00:00Z"}
PERIOD_FIELDS = {"level", "start", "end", "clamped_start", "clamped_end"}


def data(api, path, credits, **params) -> dict:
    response = api.get(path, params=params)
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["credits_used"] == credits
    return response.json()["data"]


def test_profections_at_an_instant_give_the_year_and_month_in_force(api):
    found = data(api, "/v1/profections", 1, **AT)
    assert {k: found[k] for k in ("from", "from_sign", "boundaries", "year_days", "months")} == {
        "from": "ascendant",
        "from_sign": "libra",
        "boundaries": "mean",
        "year_days": 365.2422,
        "months": True,
    }
    assert "at" in found and "start" not in found
    year, month = found["periods"]
    assert PERIOD_FIELDS <= set(year) and "month" not in year and month["month"] == 10
    assert (year["age"], year["house"], year["sign"], year["lord"]) == (33, 10, "cancer", "moon")  # 33 signs past Libra
    assert month["sign"] == "aries" and month["lord"] == "mars"  # nine signs further


def test_solar_profections_cost_two_credits_and_turn_within_a_day_of_the_mean_years(api):
    solar = data(api, "/v1/profections", 2, **AT, solar="true")
    mean = data(api, "/v1/profections", 1, **AT)
    assert solar["boundaries"] == "solar" and "year_days" not in solar
    assert abs(solar["periods"][0]["start"]["jd"] - mean["periods"][0]["start"]["jd"]) < 1.0
    assert [(p["house"], p["sign"], p["lord"]) for p in solar["periods"]] == [
        (p["house"], p["sign"], p["lord"]) for p in mean["periods"]
    ]


def test_profections_start_from_the_midheaven_a_body_or_a_lot(api):
    for start, sign_of in (("midheaven", None), ("moon", None), ("part_of_fortune", None)):
        found = data(api, "/v1/profections", 1, **AT, **{"from": start})
        assert found["from"] == start and found["periods"][0]["house"] == 10
        assert found["periods"][0]["sign"] != "" and sign_of is None


def test_a_range_is_every_overlapping_period_clamped_where_it_is_cut(api):
    found = data(api, "/v1/profections", 1, **RANGE, months="false")
    periods = found["periods"]
    assert [p["age"] for p in periods] == [29, 30, 31, 32]
    assert periods[0]["clamped_start"] and periods[0]["start"]["datetime"] == "2020-01-01T00:00:00.000Z"
    assert periods[-1]["clamped_end"] and not any(p["clamped_start"] for p in periods[1:])
    assert found["start"]["datetime"] == "2020-01-01T00:00:00.000Z" and "at" not in found


def test_periods_are_ordered_by_start_then_level(api):
    periods = data(api, "/v1/zodiacal-releasing", 2, **RANGE, max_level=3)["periods"]
    keys = [(p["start"]["jd"], p["level"]) for p in periods]
    assert keys == sorted(keys) and {p["level"] for p in periods} == {1, 2, 3}


def test_releasing_from_spirit_marks_angles_from_fortune_and_the_loosing_of_the_bond(api):
    found = data(
        api, "/v1/zodiacal-releasing", 2, **BIRTH, start="1990-06-15T14:30:00Z", end="2055-01-01T00:00:00Z", max_level=2
    )
    assert (found["from"], found["from_sign"], found["fortune_sign"], found["max_level"]) == (
        "part_of_spirit",
        "capricorn",
        "cancer",
        2,
    )
    chapters = [p for p in found["periods"] if p["level"] == 1]
    assert [c["sign"] for c in chapters] == ["capricorn", "aquarius", "pisces"]
    assert chapters[0]["angle_from_fortune"] == 7 and "angle_from_fortune" not in chapters[1]
    loosing = [p for p in found["periods"] if p["loosing_of_bond"]]
    assert [p["sign"] for p in loosing] == ["cancer", "leo"]  # opposite Capricorn (27 years) and Aquarius (30)


def test_releasing_without_the_moon_has_no_fortune_and_says_so(api):
    response = api.get("/v1/zodiacal-releasing", params={**AT, "from": "ascendant", "bodies": "sun,mercury"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert "fortune_sign" not in body["data"] and any("Fortune" in w for w in body["warnings"])
    assert all("angle_from_fortune" not in p for p in body["data"]["periods"])


def test_firdaria_give_the_major_and_sub_period_in_force_with_the_sect(api):
    found = data(api, "/v1/firdaria", 1, **AT)
    assert (found["is_day_chart"], found["night_order"], found["year_days"]) == (True, "nodes_last", 365.2422)
    major, sub = found["periods"]
    assert (major["lord"], "major_lord" not in major) == (
        "moon",
        True,
    )  # Sun 10 + Venus 8 + Mercury 13 = 31: the Moon at 33
    assert (sub["lord"], sub["major_lord"]) == ("jupiter", "moon")  # the third of the Moon's seven
    night = data(api, "/v1/firdaria", 1, **AT, day_chart="false", night_order="nodes_after_mars")
    assert (
        night["is_day_chart"] is False and night["periods"][0]["lord"] == "mars"
    )  # Moon 9, Saturn 11, Jupiter 12: Mars from 32 to 39
    sidereal = data(api, "/v1/firdaria", 1, **AT, sidereal="lahiri")
    assert sidereal["periods"] == found["periods"]


REFUSALS = [
    ("/v1/firdaria", {**BIRTH, "at": "1980-01-01T00:00:00Z"}, "before_birth", "at"),
    ("/v1/profections", {**BIRTH, "at": "1980-01-01T00:00:00Z"}, "before_birth", "at"),
    ("/v1/zodiacal-releasing", {**BIRTH, "at": "1980-01-01T00:00:00Z"}, "before_birth", "at"),
    ("/v1/firdaria", BIRTH, "missing_parameter", "at"),
    ("/v1/firdaria", {**BIRTH, "start": "2000-01-01T00:00:00Z"}, "missing_parameter", "end"),
    (
        "/v1/firdaria",
        {**BIRTH, "start": "2000-01-01T00:00:00Z", "end": "1999-01-01T00:00:00Z"},
        "invalid_parameter",
        "end",
    ),
    (
        "/v1/firdaria",
        {**BIRTH, "start": "1990-06-15T14:30:00Z", "end": "2111-01-01T00:00:00Z"},
        "range_too_long",
        "end",
    ),
    (
        "/v1/profections",
        {**BIRTH, "start": "1990-06-15T14:30:00Z", "end": "2111-01-01T00:00:00Z"},
        "range_too_long",
        "end",
    ),
    (
        "/v1/zodiacal-releasing",
        {**BIRTH, "start": "2000-01-01T00:00:00Z", "end": "2011-01-01T00:00:00Z", "max_level": 3},
        "range_too_long",
        "end",
    ),
    (
        "/v1/zodiacal-releasing",
        {**BIRTH, "start": "2000-01-01T00:00:00Z", "end": "2001-02-01T00:00:00Z", "max_level": 4},
        "range_too_long",
        "end",
    ),
    ("/v1/zodiacal-releasing", {**AT, "max_level": 5}, "invalid_parameter", "max_level"),
    ("/v1/zodiacal-releasing", {**AT, "from": "part_of_basis"}, "invalid_parameter", "from"),
    ("/v1/zodiacal-releasing", {**AT, "bodies": "mars"}, "invalid_parameter", "from"),
    ("/v1/profections", {**AT, "from": "pluto", "bodies": "sun,moon"}, "invalid_parameter", "from"),
    ("/v1/firdaria", {**AT, "day_chart": "maybe"}, "invalid_parameter", "day_chart"),
    ("/v1/firdaria", {**AT, "bodies": "moon,mars"}, "invalid_parameter", "bodies"),
    ("/v1/firdaria", {**AT, "night_order": "nodes_first"}, "invalid_parameter", "night_order"),
    ("/v1/profections", {**AT, "year_days": 0}, "invalid_parameter", "year_days"),
    (
        "/v1/profections",
        {**AT, "start": "2000-01-01T00:00:00Z", "end": "2001-01-01T00:00:00Z"},
        "invalid_parameter",
        "at",
    ),
    ("/v1/firdaria", {**AT, "heliocentric": "true"}, "invalid_parameter", "heliocentric"),
]


@pytest.mark.parametrize(("path", "params", "code", "param"), REFUSALS, ids=[f"{p}-{c}-{q}" for p, _, c, q in REFUSALS])
def test_each_refusal_is_a_400_naming_its_parameter_and_costs_nothing(stack, path, params, code, param):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(client.get(path, params=params), 400, code, param)
    assert balance(stack, name) == 10


def test_a_range_beginning_before_birth_is_cut_to_birth_unflagged(api):
    found = data(api, "/v1/firdaria", 1, **BIRTH, start="1980-01-01T00:00:00Z", end="1995-01-01T00:00:00Z")
    assert found["start"]["jd"] == pytest.approx(found["periods"][0]["start"]["jd"])
    assert not found["periods"][0]["clamped_start"]


# --- the natal points are the natal chart's ------------------------------------------------

TIME_LORD_REQUESTS = {
    "/v1/profections": pb.ComputeProfectionsRequest,
    "/v1/zodiacal-releasing": pb.ComputeZodiacalReleasingRequest,
    "/v1/firdaria": pb.ComputeFirdariaRequest,
}
LOT_IDS = {lot.name: lot.id for lot in LOTS}
# Inside the polar circle: Placidus falls back to Porphyrius, and Campanus would give the IC as Midheaven.
POLAR_BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 75.0, "lon": 120.0}
#: The bodies a lot needs, by the lot (spec /v1/lots formulas, Fortune and Spirit under the rest).
LOT_BODIES = {
    "part_of_fortune": {"sun", "moon"},
    "part_of_spirit": {"sun", "moon"},
    "part_of_eros": {"sun", "moon", "venus"},
    "part_of_necessity": {"sun", "moon", "mercury"},
    "part_of_courage": {"sun", "moon", "mars"},
    "part_of_victory": {"sun", "moon", "jupiter"},
    "part_of_nemesis": {"sun", "moon", "saturn"},
}


#: What makes a request valid whatever its bodies (a releasing from Spirit, a sect read from the
#: Sun need the lights among them); the natal points do not depend on it.
ANY_BODIES = {"/v1/zodiacal-releasing": {"from": "ascendant"}, "/v1/firdaria": {"day_chart": "true"}}


def time_lord_points(path: str, **params) -> dict[str, float]:
    """The natal points the endpoint at ``path`` reads from these parameters (as the gateway
    builds and validates its request); the replies show only their signs."""
    sent = {**ANY_BODIES.get(path, {}), **params, "at": AT["at"]}
    request = validate(request_from_query(TIME_LORD_REQUESTS[path], [(k, str(v)) for k, v in sent.items()], path))
    return natal_points(request).longitudes


def natal_chart_points(api, **params) -> dict[str, float]:
    """The natal chart's bodies, Ascendant, Midheaven and seven lots by name, through /v1/natal-chart."""
    response = api.get("/v1/natal-chart", params={**params, "derived_points": "true", "lots": "default"})
    assert response.status_code == 200, response.text
    chart = response.json()["data"]
    points = {p["body"]: p["longitude"] for p in chart["positions"]}
    points |= {"ascendant": chart["houses"]["ascendant"], "midheaven": chart["houses"]["midheaven"]}
    return points | {LOT_IDS[p["name"]]: p["longitude"] for p in chart["derived_points"] if p["kind"] == "lot"}


CHART_OPTIONS = [
    pytest.param(BIRTH, id="default-bodies"),
    pytest.param({**BIRTH, "bodies": "sun,moon,venus,chiron"}, id="some-bodies"),
    pytest.param({**BIRTH, "bodies": "mars,saturn"}, id="no-lights"),
    pytest.param(POLAR_BIRTH, id="polar"),
]


@pytest.mark.parametrize("path", TIME_LORD_REQUESTS)
@pytest.mark.parametrize("params", CHART_OPTIONS)
def test_each_time_lord_endpoints_natal_points_are_the_natal_charts_positions_angles_and_lots(api, path, params):
    # Exact: both are the one chart caster's values for the same birth and options. The lots
    # are those whose bodies are all among bodies (by hand from the spec's formulas); the
    # natal chart computes the others from operands it adds.
    points = time_lord_points(path, **params)
    chart = natal_chart_points(api, **params)
    bodies = [name for name in chart if name not in LOT_IDS.values() and name not in ("ascendant", "midheaven")]
    lots = [lot for lot, needed in LOT_BODIES.items() if needed <= set(bodies)]
    assert list(points) == [*bodies, "ascendant", "midheaven", *lots]
    assert points == {name: chart[name] for name in points}


@pytest.mark.parametrize("path", TIME_LORD_REQUESTS)
@pytest.mark.parametrize("params", CHART_OPTIONS)
def test_sidereal_time_lord_natal_points_are_the_sidereal_natal_charts(api, path, params):
    points = time_lord_points(path, **params, sidereal="lahiri")
    chart = natal_chart_points(api, **params, sidereal="lahiri")
    assert points == {name: chart[name] for name in points} and "ascendant" in points
    tropical = time_lord_points(path, **params)
    assert all(points[name] != tropical[name] for name in points)  # the option was honoured, not dropped


def test_each_time_lord_reply_starts_from_the_sign_of_the_natal_charts_point(api):
    # Through the replies themselves: the sign each starts from, or reads the sect from, is the
    # natal chart's (by hand: 30-degree signs from 0 Aries), at a polar birth too.
    signs = [
        "aries",
        "taurus",
        "gemini",
        "cancer",
        "leo",
        "virgo",
        "libra",
        "scorpio",
        "sagittarius",
        "capricorn",
        "aquarius",
        "pisces",
    ]
    for birth in (BIRTH, POLAR_BIRTH):
        chart = natal_chart_points(api, **birth)
        at = {**birth, "at": AT["at"]}
        for point in ("ascendant", "midheaven", "moon", "part_of_fortune", "part_of_nemesis"):
            assert (
                data(api, "/v1/profections", 1, **at, **{"from": point})["from_sign"] == signs[int(chart[point] // 30)]
            )
        releasing = data(api, "/v1/zodiacal-releasing", 2, **at)
        assert (releasing["from_sign"], releasing["fortune_sign"]) == (
            signs[int(chart["part_of_spirit"] // 30)],
            signs[int(chart["part_of_fortune"] // 30)],
        )
        day = (chart["ascendant"] - chart["sun"]) % 360.0 <= 180.0  # the Sun on or above the horizon
        assert data(api, "/v1/firdaria", 1, **at)["is_day_chart"] is day
