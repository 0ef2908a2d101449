"""The Delta T warning (issue 49, part 6; docs/conventions.md, "Delta T"): an answer whose
request moment or result instants lie outside the Swiss Ephemeris table of Delta T (before
1620, after 2028-01-01: kernel/delta_t_table.py) says in ``warnings`` that their clock time is
a prediction (or, before it, a model's estimate), and a chart cast there carries the
``low_precision`` condition; one within it, a chart for the current year, says nothing of it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from kernel.delta_t_table import MODELLED_TEXT, PREDICTED_TEXT

LONDON = {"lat": 51.5, "lon": -0.13}


def _get(api, path: str, **params) -> dict:
    response = api.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def _delta_t_warnings(body: dict) -> list[str]:
    return [text for text in body.get("warnings", []) if "Delta T" in text]


@pytest.mark.parametrize(
    "moment",
    [
        {"datetime": "2026-06-01T12:00:00Z"},
        {"datetime": "1620-06-01T12:00:00Z"},
        {"datetime": "2027-12-31T23:59:00Z"},
        {"jd": 2461771.5},  # the table's last day, 2028-01-01T00:00Z
    ],
)
def test_a_moment_within_the_table_carries_no_delta_t_warning(api, moment):
    assert _delta_t_warnings(_get(api, "/v1/positions", **moment)) == []


def test_a_chart_for_the_current_year_carries_no_delta_t_warning(api):
    # Fails once the engine's Delta T table ends before this year: update Swiss Ephemeris.
    year = datetime.now(UTC).year
    for when in (f"{year}-01-01T00:00:00Z", f"{year}-12-31T23:59:59Z"):
        body = _get(api, "/v1/natal-chart", datetime=when, **LONDON)
        assert _delta_t_warnings(body) == [] and not body["data"].get("warnings"), when


@pytest.mark.parametrize(
    ("moment", "text"),
    [
        ({"datetime": "2028-01-01T00:00:01Z"}, PREDICTED_TEXT),
        ({"datetime": "2150-03-20T00:00:00Z"}, PREDICTED_TEXT),
        ({"datetime": "1619-12-28T00:00:00Z"}, MODELLED_TEXT),
        ({"jd": 2000000.5}, MODELLED_TEXT),  # 763 CE
    ],
)
def test_a_request_moment_outside_the_table_says_its_clock_time_is_a_prediction_or_an_estimate(api, moment, text):
    assert _delta_t_warnings(_get(api, "/v1/positions", **moment)) == [text]


def test_a_chart_cast_outside_the_table_carries_the_low_precision_condition_and_its_prose(api):
    body = _get(api, "/v1/natal-chart", datetime="2030-05-01T12:00:00Z", **LONDON)
    assert _delta_t_warnings(body) == [PREDICTED_TEXT]
    assert {"kind": "low_precision", "message": PREDICTED_TEXT} in [
        {"kind": warning["kind"], "message": warning.get("details", warning.get("message"))}
        for warning in body["data"]["warnings"]
    ]


def test_result_instants_outside_the_table_warn_though_the_request_moment_lies_within(api):
    within = _get(api, "/v1/ingresses", datetime="2026-01-01T00:00:00Z", body="sun", sign="aries", count=1)
    assert _delta_t_warnings(within) == []
    beyond = _get(api, "/v1/ingresses", datetime="2027-12-01T00:00:00Z", body="sun", sign="aries", count=1)
    assert _delta_t_warnings(beyond) == [PREDICTED_TEXT]


def test_both_sides_of_the_table_give_both_warnings_once_each(api):
    body = _get(
        api,
        "/v1/synastry",
        datetime_a="1500-01-01T12:00:00Z",
        lat_a=51.5,
        lon_a=-0.13,
        datetime_b="2100-01-01T12:00:00Z",
        lat_b=51.5,
        lon_b=-0.13,
    )
    assert _delta_t_warnings(body) == [MODELLED_TEXT, PREDICTED_TEXT]
