"""The rules /v1/vedic/ashtakavarga and /v1/vedic/shadbala share (issue 53, docs/vedic.md): both
take the birth, ayanamsha and node of /v1/vedic/chart, a JSON body or a stored chart, and
refuse what it refuses; each rule run on both."""

from __future__ import annotations

import pytest

from tests.api.test_conventions_api import assert_error, balance

PATHS = ("/v1/vedic/ashtakavarga", "/v1/vedic/shadbala")
BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}


def answer(api, path: str, **params) -> dict:
    """Return an answer's data with its meta's conventions beside it."""
    response = api.get(path, params={**BIRTH, **params})
    assert response.status_code == 200, response.text
    return {**response.json()["data"], "conventions": response.json()["meta"]["conventions"]}


@pytest.mark.parametrize("path", PATHS)
def test_the_node_changes_nothing_but_its_echo_rahu_and_ketu_give_no_bindu_and_no_strength(api, path):
    mean, true = answer(api, path), answer(api, path, node="true")
    assert true["conventions"]["node"] == "true"
    assert {k: v for k, v in true.items() if k != "conventions"} == {
        k: v for k, v in mean.items() if k != "conventions"
    }


@pytest.mark.parametrize("path", PATHS)
def test_a_json_body_asks_what_the_query_string_asks(api, path):
    posted = api.post(path, json={**BIRTH, "ayanamsha": "raman"})
    assert posted.status_code == 200, posted.text
    assert posted.json()["data"] == api.get(path, params={**BIRTH, "ayanamsha": "raman"}).json()["data"]


@pytest.mark.parametrize("path", PATHS)
def test_a_stored_chart_answers_as_its_birth_does(stack, path):
    _, key = stack.new_key()
    with stack.client(key) as client:
        chart = client.post("/v1/charts", json={"name": "a", **BIRTH}).json()["data"]["id"]
        stored, plain = client.get(path, params={"chart": chart}), client.get(path, params=BIRTH)
    assert stored.status_code == 200, stored.text
    assert stored.json()["data"] == plain.json()["data"]
    assert stored.json()["meta"]["conventions"] == plain.json()["meta"]["conventions"]


REFUSALS = [
    ({**BIRTH, "ayanamsha": "sayana"}, "invalid_parameter", "ayanamsha"),
    ({**BIRTH, "ayanamsha": "1"}, "invalid_parameter", "ayanamsha"),
    ({**BIRTH, "node": "osculating"}, "invalid_parameter", "node"),
    ({**BIRTH, "houses": "bhava"}, "invalid_parameter", "houses"),
    ({"datetime": "1990-06-15T14:30:00Z"}, "missing_parameter", "lat"),
    ({**BIRTH, "lat": 91}, "invalid_parameter", "lat"),
    ({"lat": 51.5, "lon": -0.13}, "missing_parameter", None),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(("params", "code", "param"), REFUSALS, ids=[f"{c}-{p}" for _, c, p in REFUSALS])
def test_each_refusal_is_a_400_naming_its_parameter_with_a_suggestion_and_costs_nothing(
    stack, path, params, code, param
):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(client.get(path, params=params), 400, code, param)
    assert balance(stack, name) == 10
