"""POST /v1/batch (interface.md, POST /v1/batch; decisions.md, Batch)."""

from __future__ import annotations

import pytest

from tests.api.test_conventions_api import assert_error, balance

BATCH = "/v1/batch"
MOMENT = {"datetime": "2024-03-20T12:00:00Z"}
ASPECTS = {"endpoint": "/v1/aspects", "params": MOMENT}


@pytest.fixture()
def funded(stack):
    """A fresh account with 100 credits: (name, client)."""
    name, key = stack.new_key(credits=100)
    with stack.client(key) as client:
        yield name, client


def test_five_aspects_subrequests_cost_five_credits(stack, funded):
    name, client = funded
    response = client.post(BATCH, json={"requests": [ASPECTS] * 5})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["meta"]["credits_used"] == 5
    assert body["meta"]["credits_remaining"] == 95 == balance(stack, name)
    assert body["data"]["summary"] == {"total": 5, "succeeded": 5, "failed": 0}
    assert [result["index"] for result in body["data"]["results"]] == [0, 1, 2, 3, 4]


def test_a_subrequest_answers_what_the_endpoint_answers_directly(funded):
    _, client = funded
    direct = client.get("/v1/positions", params={**MOMENT, "bodies": "sun,moon"}).json()
    batch = client.post(
        BATCH, json={"requests": [{"endpoint": "/v1/positions", "params": {**MOMENT, "bodies": ["sun", "moon"]}}]}
    )
    (result,) = batch.json()["data"]["results"]
    assert result["status"] == 200
    assert result["data"] == direct["data"]


def test_each_subrequest_is_validated_charged_and_refunded_on_its_own(stack, funded):
    name, client = funded
    requests = [
        ASPECTS,
        {"endpoint": "/v1/positions", "params": {**MOMENT, "bodies": "vulcan"}},
        {"endpoint": "/v1/nowhere", "params": {}},
        {"endpoint": "/v1/positions", "params": {}},
    ]
    body = client.post(BATCH, json={"requests": requests}).json()
    statuses = [(r["status"], r.get("errors", [{}])[0].get("code")) for r in body["data"]["results"]]
    assert statuses == [
        (200, None),
        (400, "body_not_found"),
        (404, "not_found"),
        (400, "missing_parameter"),
    ]
    for result in body["data"]["results"][1:]:
        assert set(result) == {"index", "status", "errors"}
        assert result["errors"][0]["message"] and result["errors"][0]["suggestion"]
    assert body["data"]["summary"] == {"total": 4, "succeeded": 1, "failed": 3}
    assert body["meta"]["credits_used"] == 1
    assert balance(stack, name) == 99


def test_the_flag_rule_applies_to_each_subrequest(funded):
    _, client = funded
    houses = {"endpoint": "/v1/houses", "params": {**MOMENT, "lat": 51.5, "lon": 0, "equatorial": True}}
    (result,) = client.post(BATCH, json={"requests": [houses]}).json()["data"]["results"]
    assert result["status"] == 400
    assert result["errors"][0]["code"] == "invalid_parameter"
    assert result["errors"][0]["param"] == "equatorial"


def test_subrequests_beyond_the_balance_get_402_and_the_balance_ends_at_zero(stack):
    name, key = stack.new_key(credits=2)
    with stack.client(key) as client:
        body = client.post(BATCH, json={"requests": [ASPECTS] * 3}).json()
    statuses = sorted(result["status"] for result in body["data"]["results"])
    assert statuses == [200, 200, 402]
    assert body["meta"]["credits_used"] == 2
    assert balance(stack, name) == 0


def test_a_nested_batch_is_refused_whole_and_costs_nothing(stack, funded):
    name, client = funded
    nested = {"endpoint": BATCH, "params": {"requests": [ASPECTS]}}
    assert_error(
        client.post(BATCH, json={"requests": [ASPECTS, nested]}), 400, "invalid_parameter", "requests[1].endpoint"
    )
    assert balance(stack, name) == 100


@pytest.mark.parametrize("count", [0, 51])
def test_a_batch_carries_one_to_fifty_subrequests(funded, count):
    _, client = funded
    assert_error(client.post(BATCH, json={"requests": [ASPECTS] * count}), 400, "invalid_parameter", "requests")


def test_fifty_subrequests_are_accepted(funded):
    _, client = funded
    body = client.post(BATCH, json={"requests": [ASPECTS] * 50}).json()
    assert body["data"]["summary"]["succeeded"] == 50


@pytest.mark.parametrize(
    "payload, code",
    [
        ([ASPECTS], "invalid_body"),
        ({"requests": ASPECTS}, "invalid_parameter"),
        ({"requests": ["/v1/aspects"]}, "invalid_parameter"),
        ({"requests": [{"endpoint": "/v1/aspects", "params": "datetime=2024-03-20"}]}, "invalid_parameter"),
        ({"requests": [{"params": MOMENT}]}, "invalid_parameter"),
        ({"requests": [ASPECTS], "extra": 1}, "invalid_parameter"),
    ],
)
def test_a_malformed_batch_is_400_with_a_suggestion(funded, payload, code):
    _, client = funded
    assert_error(client.post(BATCH, json=payload), 400, code)


@pytest.mark.parametrize("entry", [{"endpoint": "/v1/delta-t"}, {"endpoint": "/v1/delta-t", "params": None}])
def test_an_entry_without_params_is_refused_for_the_whole_batch_and_costs_nothing(stack, funded, entry):
    name, client = funded
    before = balance(stack, name)
    error = assert_error(
        client.post(BATCH, json={"requests": [ASPECTS, entry]}), 400, "invalid_parameter", "requests[1].params"
    )
    assert "params" in error["message"]
    assert balance(stack, name) == before


def test_an_endpoint_without_required_parameters_takes_empty_params(funded):
    _, client = funded
    reply = client.post(BATCH, json={"requests": [{"endpoint": "/v1/ayanamsha", "params": {}}]})
    assert reply.status_code == 200
    assert reply.json()["data"]["results"][0]["status"] == 400  # its own missing_parameter, not the batch's


def test_an_empty_batch_body_is_missing_parameter(funded):
    _, client = funded
    assert_error(
        client.post(BATCH, content=b"", headers={"Content-Type": "application/json"}),
        400,
        "missing_parameter",
        "requests",
    )


def test_batch_is_post_only(funded):
    _, client = funded
    assert_error(client.get(BATCH), 405, "method_not_allowed")


def test_batch_needs_a_key(stack):
    with stack.client() as anonymous:
        assert_error(anonymous.post(BATCH, json={"requests": [ASPECTS]}), 401, "invalid_api_key")


def test_a_batch_counts_as_one_request_for_the_rate_limit(funded):
    _, client = funded
    for _ in range(3):  # a pair straddling a minute boundary proves nothing: ask again
        first = client.post(BATCH, json={"requests": [ASPECTS] * 3})
        second = client.post(BATCH, json={"requests": [ASPECTS] * 3})
        if first.headers["x-ratelimit-reset"] == second.headers["x-ratelimit-reset"]:
            used = int(first.headers["x-ratelimit-remaining"]) - int(second.headers["x-ratelimit-remaining"])
            assert used == 1
            return
    pytest.fail("three pairs of batches in a row straddled a rate-limit window")
