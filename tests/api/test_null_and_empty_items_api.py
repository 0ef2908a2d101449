"""A JSON null, an empty list item and a number for a boolean are refused in a body (issue 49, part 3;
docs/conventions.md, "Null and empty items"): no request schema types null, nor an empty
item, so reading them as left out (or dropping the item) would serve a request the client did
not write. Each is 400 ``invalid_parameter`` naming the member's path, with a suggestion, in a
body and in a batch sub-request, costing nothing; a stored chart's PATCH keeps null as
"remove this member"."""

from __future__ import annotations

import pytest

from tests.api.test_conventions_api import assert_error, balance

MOMENT = {"datetime": "2024-03-20T12:00:00Z"}
LONDON = {"lat": 51.5, "lon": -0.13}


@pytest.fixture()
def funded(stack):
    """A fresh account with 100 credits: (name, client)."""
    name, key = stack.new_key(credits=100)
    with stack.client(key) as client:
        yield name, client


@pytest.mark.parametrize(
    ("path", "body", "param"),
    [
        ("/v1/positions", {**MOMENT, "bodies": None}, "bodies"),
        ("/v1/positions", {**MOMENT, "sidereal": None}, "sidereal"),
        ("/v1/houses", {**MOMENT, **LONDON, "system": None}, "system"),
        ("/v1/astrocartography", {**MOMENT, "targets": [{"body": None}]}, "targets[0].body"),
    ],
)
def test_a_null_body_member_is_400_naming_its_path_and_costs_nothing(stack, funded, path, body, param):
    name, client = funded
    error = assert_error(client.post(path, json=body), 400, "invalid_parameter", param)
    assert "null" in error["message"] and "Leave the member" in error["suggestion"]
    assert balance(stack, name) == 100


@pytest.mark.parametrize(
    ("items", "param"), [(["sun", ""], "bodies[1]"), (["", "moon"], "bodies[0]"), (["sun", " "], "bodies[1]")]
)
def test_an_empty_list_item_is_400_naming_its_index_and_costs_nothing(stack, funded, items, param):
    name, client = funded
    error = assert_error(
        client.post("/v1/positions", json={**MOMENT, "bodies": items}), 400, "invalid_parameter", param
    )
    assert "empty" in error["message"] and "Remove the empty item" in error["suggestion"]
    assert balance(stack, name) == 100


@pytest.mark.parametrize(
    ("params", "param"), [({**MOMENT, "bodies": None}, "bodies"), ({**MOMENT, "bodies": ["sun", ""]}, "bodies[1]")]
)
def test_a_null_member_or_empty_item_in_a_batch_sub_request_is_its_400_and_costs_nothing(stack, funded, params, param):
    name, client = funded
    batch = {"requests": [{"endpoint": "/v1/positions", "params": params}]}
    response = client.post("/v1/batch", json=batch)
    assert response.status_code == 200, response.text
    (result,) = response.json()["data"]["results"]
    assert result["status"] == 400
    assert result["errors"][0]["code"] == "invalid_parameter" and result["errors"][0]["param"] == param
    assert balance(stack, name) == 100


def test_the_same_request_without_the_null_member_or_empty_item_is_served(funded):
    _, client = funded
    assert client.post("/v1/positions", json={**MOMENT, "bodies": ["sun"]}).status_code == 200
    assert client.post("/v1/positions", json=MOMENT).status_code == 200


def test_a_null_in_a_stored_charts_patch_still_removes_the_member(funded):
    _, client = funded
    created = client.post("/v1/charts", json={"name": "n", **MOMENT, **LONDON, "system": "whole_sign"})
    assert created.status_code == 200, created.text
    chart_id = created.json()["data"]["id"]
    patched = client.patch(f"/v1/charts/{chart_id}", json={"system": None})
    assert patched.status_code == 200, patched.text
    assert "system" not in patched.json()["data"]["settings"]


@pytest.mark.parametrize("number", [0, 1])
def test_a_json_number_for_a_boolean_is_the_wrong_type_and_its_text_is_read(funded, number):
    _, client = funded
    error = assert_error(
        client.post("/v1/houses", json={**MOMENT, **LONDON, "no_nutation": number}),
        400,
        "invalid_parameter",
        "no_nutation",
    )
    assert "wrong JSON type" in error["message"] and "true or false" in error["suggestion"]
    assert client.post("/v1/houses", json={**MOMENT, **LONDON, "no_nutation": str(number)}).status_code == 200


def test_a_null_member_beside_a_stored_chart_is_refused_not_filled_by_the_chart(stack, funded):
    name, client = funded
    created = client.post("/v1/charts", json={"name": "n", **MOMENT, **LONDON})
    chart_id = created.json()["data"]["id"]
    for body, param in (({"chart": chart_id, "lat": None}, "lat"), ({"chart": None, **MOMENT, **LONDON}, "chart")):
        error = assert_error(client.post("/v1/natal-chart", json=body), 400, "invalid_parameter", param)
        assert "null" in error["message"]
    assert balance(stack, name) == 100
