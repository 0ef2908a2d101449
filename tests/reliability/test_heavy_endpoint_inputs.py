"""Regression (issue 23, the heavy endpoints' inputs): a search past the ephemeris, a tiny
year, a very long unknown name, a map target with no line, an empty list of targets and a
wrong type deep inside a target each answer 400 with code, message and suggestion, cost
nothing, and never reach a 5xx."""

from __future__ import annotations

import json

import pytest

from tests.api.in_process_stack import AppStack
from tests.api.test_conventions_api import assert_error, balance

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.1}
MAP = {"datetime": "2024-03-20T12:00:00Z"}


@pytest.fixture(scope="module")
def app_stack(module_stacks) -> AppStack:
    return module_stacks.in_process("heavy-inputs")


# Known only once the search has run (decisions.md: saying how many results lay inside), so
# admitted and charged first, then refunded in full.
SEARCHED_PAST_THE_SUPPORTED_DATES = [
    pytest.param(
        "/v1/eclipses/solar",
        {"datetime": "2999-01-01", "count": 10},
        "out_of_range",
        "Only 2 of the 10",
        id="solar-eclipses-past-the-last-supported-date",
    ),
    pytest.param(
        "/v1/eclipses/solar",
        {"datetime": "-3000-06-01", "count": 10, "backward": True},
        "out_of_range",
        "Only 3 of the 10",
        id="solar-eclipses-before-the-first-supported-date",
    ),
    pytest.param(
        "/v1/eclipses/lunar",
        {"datetime": "2999-01-01", "count": 10},
        "out_of_range",
        "Only 2 of the 10",
        id="lunar-eclipses-past-the-last-supported-date",
    ),
    pytest.param(
        "/v1/eclipses/lunar",
        {"datetime": "-3000-06-01", "count": 10, "backward": True},
        "out_of_range",
        "Only 4 of the 10",
        id="lunar-eclipses-before-the-first-supported-date",
    ),
]

REFUSED = [
    pytest.param(
        "/v1/profections",
        {**BIRTH, "at": "2000-01-01", "year_days": 0.5},
        "invalid_parameter",
        "[300, 400]",
        id="profections-with-a-tiny-year",
    ),
    pytest.param(
        "/v1/firdaria",
        {**BIRTH, "at": "2000-01-01", "year_days": 1000},
        "invalid_parameter",
        "[300, 400]",
        id="firdaria-with-a-huge-year",
    ),
    pytest.param(
        "/v1/stars",
        {"datetime": "2024-01-01", "star": "x" * 8000},
        "body_not_found",
        "No star",
        id="an-8000-character-star-name",
    ),
    pytest.param(
        "/v1/profections",
        {**BIRTH, "at": "2000-01-01", "from": "y" * 4000},
        "invalid_parameter",
        "Cannot start from",
        id="a-4000-character-profections-from",
    ),
    pytest.param(
        "/v1/zodiacal-releasing",
        {**BIRTH, "at": "2000-01-01", "from": "y" * 4000},
        "invalid_parameter",
        "Cannot start from",
        id="a-4000-character-releasing-from",
    ),
    pytest.param(
        "/v1/astrocartography",
        {**MAP, "targets": [{"body": "sun"}]},
        "invalid_parameter",
        "neither angles nor cusps",
        id="a-target-with-no-line",
    ),
    pytest.param(
        "/v1/astrocartography",
        {**MAP, "targets": []},
        "invalid_parameter",
        "empty array",
        id="an-empty-list-of-targets",
    ),
    pytest.param(
        "/v1/astrocartography",
        {**MAP, "targets": [{"body": "sun", "cusps": ["x"]}]},
        "invalid_parameter",
        "targets[0].cusps",
        id="a-wrong-type-inside-a-target",
    ),
    pytest.param(
        "/v1/zodiacal-releasing",
        {**BIRTH, "max_level": 4, "start": "2024-01-01", "end": "2025-01-02"},
        "range_too_long",
        "lasts 1 year and 1 day",
        id="releasing-a-day-past-one-year-at-level-4",
    ),
]


@pytest.mark.parametrize("path, body, code, text", REFUSED)
def test_a_heavy_request_past_its_limits_is_400_and_free(app_stack, path, body, code, text):
    name, key = app_stack.new_key(credits=0)
    with app_stack.client(key) as client:
        error = assert_error(client.post(path, json=body), 400, code)
    assert text in error["message"] + " " + (error.get("param") or "")
    assert error["suggestion"]
    assert balance(app_stack, name) == 0


def test_a_wrong_type_inside_a_target_names_its_path(app_stack):
    # A number is the wrong type for body as a boolean is for a cusp (issue 36): each named.
    _, key = app_stack.new_key(credits=10)
    with app_stack.client(key) as client:
        for target, param in (
            ({"body": 5, "angles": ["mc"]}, "targets[0].body"),
            ({"body": "sun", "angles": ["mc"], "cusps": [True]}, "targets[0].cusps"),
        ):
            error = assert_error(
                client.get("/v1/astrocartography", params={**MAP, "targets": json.dumps([target])}),
                400,
                "invalid_parameter",
            )
            assert error["param"] == param


@pytest.mark.parametrize("path, body, code, text", SEARCHED_PAST_THE_SUPPORTED_DATES)
def test_an_eclipse_search_past_the_supported_dates_is_out_of_range_and_refunded(app_stack, path, body, code, text):
    name, key = app_stack.new_key(credits=100)
    with app_stack.client(key) as client:
        error = assert_error(client.post(path, json=body), 400, code)
    assert text in error["message"] and error["suggestion"]
    assert balance(app_stack, name) == 100
