"""Rules across a request's fields (``(message).reader``, shared/runtime/request_readers.py) are
the gateway's too: each refuses before any charge, so an account without a credit hears the
400 its request deserves, never 402, and a paying one keeps its balance."""

from __future__ import annotations

import json

import pytest

from tests.api.test_conventions_api import assert_error, balance

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.1}
PAIR = {
    "datetime_a": "1990-06-15T14:30:00Z",
    "lat_a": 51.5,
    "lon_a": -0.1,
    "datetime_b": "1992-03-01T08:00:00Z",
    "lat_b": 40.7,
    "lon_b": -74.0,
}
EIGHTY_ONE_LINES = json.dumps(
    [
        {"body": body, "angles": ["asc", "dsc", "mc", "ic"], "cusps": [2, 3, 5, 6, 8, 9, 11, 12]}
        for body in ("sun", "moon", "mercury", "venus", "mars", "jupiter")
    ]  # 6 x 12 lines
    + [{"body": "saturn", "angles": ["asc", "dsc", "mc", "ic"], "cusps": [2, 3, 5, 6, 8]}]  # and 9
)

REFUSED = [
    pytest.param(
        "/v1/astrocartography",
        {"datetime": "2024-03-20T12:00:00Z", "targets": EIGHTY_ONE_LINES},
        "invalid_parameter",
        "targets",
        "at most 80",
        id="astrocartography-more-than-80-lines",
    ),
    pytest.param(
        "/v1/astrocartography",
        {"datetime": "2024-03-20T12:00:00Z", "targets": json.dumps([{"body": "sun", "cusps": [13]}])},
        "invalid_parameter",
        "cusps",
        "[1, 13)",
        id="astrocartography-cusp-13",
    ),
    pytest.param(
        "/v1/astrocartography",
        {
            "datetime": "2024-03-20T12:00:00Z",
            "bodies": "sun",
            "targets": json.dumps([{"body": "sun", "angles": ["mc"]}]),
        },
        "conflicting_parameters",
        "targets",
        "targets replaces bodies",
        id="astrocartography-forms-mixed",
    ),
    pytest.param(
        "/v1/transits",
        {"start": "2024-01-01", "end": "2024-02-01", "targets": "mutual", "jd": 2451545.0},
        "invalid_parameter",
        "jd",
        "targets=mutual",
        id="transits-mutual-with-a-natal-moment",
    ),
    pytest.param(
        "/v1/transits",
        {"start": "2024-01-01", "end": "2024-02-01"},
        "missing_parameter",
        "datetime",
        "targets=natal",
        id="transits-natal-without-a-moment",
    ),
    pytest.param(
        "/v1/transits",
        {**BIRTH, "start": "2024-01-01", "end": "2025-01-02T00:00:00Z"},
        "range_too_long",
        "end",
        "lasts 367 days; a scan covers at most 366 days",
        id="transits-367-days",
    ),
    pytest.param(
        "/v1/transits",
        {**BIRTH, "start_jd": 2460310.5, "end_jd": 2460310.5 + 366.5},
        "range_too_long",
        "end_jd",
        "lasts 366 days and 12 hours",
        id="transits-cap-names-end-jd",
    ),
    pytest.param(
        "/v1/transits",
        {**BIRTH, "start": "2024-01-01", "end": "2024-01-02", "moving": "pholus"},
        "body_not_eligible",
        "moving",
        "pholus",
        id="transits-a-body-no-scan-moves",
    ),
    pytest.param(
        "/v1/firdaria",
        {**BIRTH, "start": "1990-06-15T14:30:00Z", "end": "2110-06-16T14:30:00Z"},
        "range_too_long",
        "end",
        "lasts 120 years and 1 day from its start (cut to birth); at most 120 years.",
        id="firdaria-120-years-and-a-day",
    ),
    pytest.param(
        "/v1/profections",
        {**BIRTH, "at": "2000-01-01", "start": "2000-01-01", "end": "2001-01-01"},
        "invalid_parameter",
        "at",
        "one instant",
        id="profections-at-and-a-range",
    ),
    pytest.param(
        "/v1/profections", {**BIRTH}, "missing_parameter", "at", "Say when", id="profections-neither-at-nor-a-range"
    ),
    pytest.param(
        "/v1/zodiacal-releasing",
        {**BIRTH, "max_level": 4, "start": "2024-01-01", "end": "2025-01-01T00:00:01Z"},
        "range_too_long",
        "end",
        "lasts 1 year and 1 second",
        id="releasing-level-4-past-one-year",
    ),
    pytest.param(
        "/v1/profections",
        {**BIRTH, "at": "2024-01-01", "from": "mars", "bodies": "sun,moon"},
        "invalid_parameter",
        "from",
        "not the ascendant, the midheaven, a Hermetic lot or a body among bodies",
        id="profections-start-from-a-point-the-chart-holds",
    ),
    pytest.param(
        "/v1/zodiacal-releasing",
        {**BIRTH, "at": "2024-01-01", "bodies": "sun,mars"},
        "invalid_parameter",
        "from",
        "part_of_spirit needs the Sun and the Moon",
        id="releasing-from-a-lot-whose-bodies-are-among-bodies",
    ),
    pytest.param(
        "/v1/profections",
        {**BIRTH, "at": "2024-01-01", "solar": "true", "bodies": "moon,mars"},
        "invalid_parameter",
        "bodies",
        "the Sun must be among bodies",
        id="solar-profections-need-the-sun-among-bodies",
    ),
    pytest.param(
        "/v1/profections",
        {**BIRTH, "datetime": "1100-01-01", "at": "1150-01-01", "bodies": "sun,ceres"},
        "out_of_range",
        "datetime",
        "No ephemeris of ceres at 1100-01-01",
        id="time-lord-bodies-have-an-ephemeris-at-the-birth",
    ),
    pytest.param(
        "/v1/transits",
        {"jd": 2159358.4, "lat": 51.5, "lon": -0.1, "start": "2024-01-01", "end": "2024-02-01", "bodies": "sun,ceres"},
        "out_of_range",
        "jd",
        "No ephemeris of ceres",
        id="transit-natal-bodies-have-an-ephemeris-at-the-natal-moment",
    ),
    pytest.param(
        "/v1/transits",
        {**BIRTH, "start": "2999-12-01", "end": "2999-12-31T23:30:00Z", "moving": "sun,vesta"},
        "out_of_range",
        "moving",
        "No ephemeris of vesta at 2999-12-31T23:30",
        id="transit-moving-bodies-have-an-ephemeris-over-the-range",
    ),
    pytest.param(
        "/v1/firdaria",
        {**BIRTH, "at": "2024-01-01", "bodies": "moon,mars"},
        "invalid_parameter",
        "bodies",
        "reads the sect from the Sun",
        id="firdaria-auto-sect-needs-the-sun-among-bodies",
    ),
    pytest.param(
        "/v1/ingresses",
        {"datetime": "2024-03-20T12:00:00Z", "body": "mean_node", "sign": "leo"},
        "body_not_eligible",
        "body",
        "not eligible for an ingress search",
        id="ingresses-a-body-the-table-makes-eligible",
    ),
    pytest.param(
        "/v1/ingresses",
        {"datetime": "2024-03-20T12:00:00Z", "body": "planets", "sign": "leo"},
        "invalid_parameter",
        "body",
        "is a group",
        id="a-search-body-names-one-body-not-a-group",
    ),
    pytest.param(
        "/v1/heliacal",
        {"datetime": "2024-03-20T12:00:00Z", "lat": 30, "lon": 31, "body": "moon", "event": "morning_first"},
        "body_not_eligible",
        "body",
        "not eligible for a heliacal search",
        id="heliacal-a-body-the-table-makes-eligible",
    ),
    pytest.param(
        "/v1/heliacal",
        {"datetime": "2024-03-20T12:00:00Z", "lat": 30, "lon": 31, "body": "mars", "event": "evening_first"},
        "body_not_eligible",
        "body",
        "only for Mercury and Venus",
        id="heliacal-evening-first-only-for-mercury-and-venus",
    ),
    pytest.param(
        "/v1/heliacal",
        {"datetime": "2024-03-20T12:00:00Z", "lat": 30, "lon": 31, "body": "jupiter", "event": "acronychal_setting"},
        "invalid_heliacal_event",
        "event",
        "acronychal events are refused",
        id="heliacal-acronychal-events-refused",
    ),
    pytest.param(
        "/v1/positions",
        {"jd": 625000.4},
        "invalid_parameter",
        "jd",
        "outside the supported span",
        id="a-julian-day-lies-inside-the-supported-dates",
    ),
    pytest.param(
        "/v1/progressed",
        {**BIRTH, "target_jd": 2816787.6},
        "invalid_parameter",
        "target_jd",
        "outside the supported span",
        id="a-julian-day-lies-inside-the-supported-dates-under-any-name",
    ),
    pytest.param(
        "/v1/eclipses/solar",
        {"datetime": "2024-01-01", "lat": 10},
        "missing_parameter",
        "lon",
        "lat needs lon",
        id="a-latitude-is-sent-with-its-longitude",
    ),
    pytest.param(
        "/v1/synastry",
        {"datetime_a": "1990-06-15", "lat_a": 1, "lon_a": 1, "datetime_b": "1991-01-01", "lon_b": 2},
        "missing_parameter",
        "lat_b",
        "lon_b needs lat_b",
        id="a-longitude-is-sent-with-its-latitude-under-any-name",
    ),
    pytest.param(
        "/v1/natal-chart",
        {**BIRTH, "topocentric": "true", "heliocentric": "true"},
        "invalid_parameter",
        "topocentric",
        "cannot be sent together",
        id="topocentric-excludes-heliocentric",
    ),
    pytest.param(
        "/v1/returns",
        {**BIRTH, "body": "mars", "search_start": "2024-01-01", "count": 6},
        "invalid_parameter",
        "count",
        "At most 5 returns of mars",
        id="returns-count-capped-per-body",
    ),
    pytest.param(
        "/v1/returns",
        {**BIRTH, "datetime": "1100-01-01", "body": "ceres", "search_start": "2024-01-01"},
        "out_of_range",
        "datetime",
        "No ephemeris of ceres at 1100-01-01",
        id="returns-body-has-an-ephemeris-at-the-birth",
    ),
    pytest.param(
        "/v1/returns",
        {**BIRTH, "body": "ceres", "search_start": "1100-01-01"},
        "out_of_range",
        "search_start",
        "No ephemeris of ceres at 1100-01-01",
        id="returns-body-has-an-ephemeris-where-the-search-starts",
    ),
    pytest.param(
        "/v1/void-of-course",
        {"datetime": "2024-01-01", "bodies": "sun,mars"},
        "invalid_parameter",
        "bodies",
        "needs the Moon",
        id="void-of-course-needs-the-moon-among-bodies",
    ),
    pytest.param(
        "/v1/natal-chart",
        {**BIRTH, "house_position_mode": "mundane", "j2000": "true"},
        "invalid_parameter",
        "house_position_mode",
        "Mundane house positions",
        id="chart-mundane-house-positions-refuse-j2000",
    ),
    pytest.param(
        "/v1/progressed",
        {**BIRTH, "target_datetime": "2024-01-01", "house_position_mode": "mundane", "heliocentric": "true"},
        "invalid_parameter",
        "house_position_mode",
        "Mundane house positions",
        id="chart-mundane-house-positions-refuse-heliocentric",
    ),
    pytest.param(
        "/v1/synastry",
        {**PAIR, "system": "gauquelin", "heliocentric": "true"},
        "invalid_parameter",
        "system",
        "Gauquelin sectors",
        id="chart-gauquelin-sectors-refuse-heliocentric",
    ),
    pytest.param(
        "/v1/returns",
        {**BIRTH, "body": "mars", "search_start": "2024-01-01", "system": "gauquelin", "j2000": "true"},
        "invalid_parameter",
        "system",
        "Gauquelin sectors",
        id="returns-gauquelin-sectors-refuse-j2000",
    ),
    pytest.param(
        "/v1/davison",
        {**PAIR, "heliocentric": "true", "derived_points": "true", "lots": "fortune"},
        "invalid_parameter",
        "lots",
        "Lots are built from geocentric longitudes",
        id="chart-lots-refuse-heliocentric",
    ),
    pytest.param(
        "/v1/composite",
        {**PAIR, "house_position_mode": "mundane"},
        "invalid_parameter",
        "house_position_mode",
        "never seen from a place",
        id="composite-has-no-mundane-house-positions",
    ),
    pytest.param(
        "/v1/draconic",
        {**BIRTH, "bodies": "sun,mean_node", "dignities": "true"},
        "invalid_parameter",
        "dignities",
        "does not take dignities=true",
        id="draconic-refuses-dignities",
    ),
    pytest.param(
        "/v1/draconic",
        {**BIRTH, "bodies": "mercury", "heliocentric": "true"},
        "invalid_parameter",
        "heliocentric",
        "no heliocentric position",
        id="draconic-refuses-heliocentric",
    ),
    pytest.param(
        "/v1/draconic",
        {**BIRTH, "bodies": "sun,moon"},
        "no_north_node",
        "bodies",
        "neither mean_node nor true_node",
        id="draconic-needs-a-node-among-bodies",
    ),
    pytest.param(
        "/v1/progressed",
        {**BIRTH, "target_datetime": "1980-01-01"},
        "invalid_progression",
        "target_datetime",
        "before the natal moment",
        id="progressed-target-not-before-birth",
    ),
    pytest.param(
        "/v1/midpoints",
        {"datetime": "2024-01-01", "lots": "fortune"},
        "missing_parameter",
        "lat",
        "Lots need the Ascendant",
        id="midpoints-lots-need-a-place",
    ),
    pytest.param(
        "/v1/patterns",
        {"datetime": "2024-01-01", "stellium_scope": "house"},
        "missing_parameter",
        "lat",
        "stellium_scope=house needs the houses",
        id="patterns-stellium-by-house-needs-a-place",
    ),
    pytest.param(
        "/v1/ayanamsha",
        {"datetime": "2024-01-01", "system": "47"},
        "invalid_parameter",
        "system",
        "Unknown ayanamsha '47' for system",
        id="ayanamsha-id-lies-in-2-to-46",
    ),
    pytest.param(
        "/v1/ayanamsha",
        {"datetime": "2024-01-01", "system": "nonsense"},
        "invalid_parameter",
        "system",
        "nonsense",
        id="ayanamsha-system-is-a-name-an-id-or-all",
    ),
    pytest.param(
        "/v1/stars",
        {"datetime": "2024-01-01", "star": "no-such-star"},
        "body_not_found",
        "star",
        "No star named 'no-such-star'",
        id="stars-star-is-one-of-the-star-file",
    ),
    pytest.param(
        "/v1/astrocartography",
        {
            "datetime": "2024-03-20T12:00:00Z",
            "system": "whole_sign",
            "targets": json.dumps([{"body": "sun", "cusps": [2]}]),
        },
        "invalid_parameter",
        "system",
        "Cusp lines cannot be drawn in whole_sign",
        id="astrocartography-cusps-need-a-system-with-cusp-lines",
    ),
]


@pytest.mark.parametrize("path, params, code, param, text", REFUSED)
def test_a_rule_across_fields_refuses_before_any_charge(stack, path, params, code, param, text):
    _, broke = stack.new_key(credits=0)
    with stack.client(broke) as client:
        error = assert_error(client.get(path, params=params), 400, code, param)
    assert text in error["message"] + error["suggestion"]
    name, paying = stack.new_key(credits=100)
    with stack.client(paying) as client:
        assert_error(client.get(path, params=params), 400, code, param)
    assert balance(stack, name) == 100


def test_a_calendar_year_with_29_february_fits_a_one_year_cap(api):
    reply = api.get(
        "/v1/zodiacal-releasing", params={**BIRTH, "max_level": 4, "start": "2024-01-01", "end": "2025-01-01"}
    )
    assert reply.status_code == 200, reply.text


def test_a_range_of_exactly_its_cap_in_calendar_years_is_computed(api):
    reply = api.get("/v1/firdaria", params={**BIRTH, "start": "1990-06-15T14:30:00Z", "end": "2110-06-15T14:30:00Z"})
    assert reply.status_code == 200, reply.text


def test_a_value_just_over_a_bound_is_shown_as_sent_not_rounded_to_the_bound(api):
    error = assert_error(
        api.get("/v1/midpoints", params={"datetime": "2024-01-01", "modulus": "360.0001"}),
        400,
        "invalid_parameter",
        "modulus",
    )
    assert "got 360.0001" in error["message"] and "(0, 360]" in error["message"]


@pytest.mark.parametrize("cusp, accepted", [(1, True), (12.99, True), (0.99, False), (13, False), (-1, False)])
def test_cusp_values_lie_in_one_up_to_but_not_including_thirteen(api, cusp, accepted):
    reply = api.get(
        "/v1/astrocartography",
        params={"datetime": "2024-03-20T12:00:00Z", "targets": json.dumps([{"body": "sun", "cusps": [cusp]}])},
    )
    if accepted:
        assert reply.status_code == 200, reply.text
    else:
        error = assert_error(reply, 400, "invalid_parameter", "cusps")
        assert "[1, 13)" in error["message"]
