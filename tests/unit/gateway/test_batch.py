"""gateway/batch.py: a batch body is ``{requests: [{endpoint, params}]}`` (interface.md, POST
/v1/batch) of 1 to 50 sub-requests, none a batch (decisions.md, Batch: 400
``invalid_parameter``); a malformed batch is refused whole, while an unknown endpoint or a
failing sub-request fails only its own entry; results keep the order given, each with its
index and status, and only the successful ones are charged."""

from __future__ import annotations

import asyncio

import pytest

from gateway.batch import MAX_SUBREQUESTS, SubRequest, parse_batch, run_batch
from gateway.endpoints import discover_endpoints
from shared.errors import InvalidBody, InvalidParameter, MissingParameter

ENDPOINTS = {endpoint.path: endpoint for endpoint in discover_endpoints()}


def _entry(path: str = "/v1/positions", **params) -> dict:
    return {"endpoint": path, "params": params}


def test_a_batch_lists_its_sub_requests_in_order_with_their_index():
    parsed = parse_batch({"requests": [_entry(bodies="sun"), _entry("/v1/aspects")]})
    assert parsed == [SubRequest(0, "/v1/positions", {"bodies": "sun"}), SubRequest(1, "/v1/aspects", {})]


def test_a_batch_carries_one_to_fifty_sub_requests():
    assert MAX_SUBREQUESTS == 50
    assert len(parse_batch({"requests": [_entry()] * 50})) == 50
    for count in (0, 51):
        with pytest.raises(InvalidParameter) as raised:
            parse_batch({"requests": [_entry()] * count})
        assert raised.value.param == "requests" and str(count) in raised.value.message


def test_a_batch_may_not_nest_a_batch():
    for path in ("/v1/batch", "/v1/batch/"):
        with pytest.raises(InvalidParameter) as raised:
            parse_batch({"requests": [_entry(), _entry(path)]})
        assert raised.value.param == "requests[1].endpoint"


def test_an_empty_body_is_missing_requests_and_a_body_not_an_object_is_invalid_body():
    with pytest.raises(MissingParameter):
        parse_batch(None)
    for body in ([_entry()], "requests", 3):
        with pytest.raises(InvalidBody):
            parse_batch(body)


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"requests": [], "extra": 1}, "extra"),
        ({"requests": {"endpoint": "/v1/positions"}}, "requests"),
        ({"requests": ["/v1/positions"]}, "requests[0]"),
        ({"requests": [{"endpoint": "/v1/positions", "params": {}, "id": 1}]}, "requests[0].id"),
        ({"requests": [{"endpoint": "", "params": {}}]}, "requests[0].endpoint"),
        ({"requests": [{"endpoint": "/v1/positions"}]}, "requests[0].params"),
        ({"requests": [{"endpoint": "/v1/positions", "params": "bodies=sun"}]}, "requests[0].params"),
    ],
)
def test_a_malformed_entry_refuses_the_whole_batch_naming_where(body, param):
    with pytest.raises(InvalidParameter) as raised:
        parse_batch(body)
    assert raised.value.param == param


def _success(credits: int, warnings: list[str] | None = None) -> dict:
    return {
        "data": {"credits": credits},
        "meta": {"credits_used": credits},
        **({"warnings": warnings} if warnings else {}),
    }


def test_results_keep_the_order_given_and_only_successes_are_charged():
    async def execute(endpoint, params, index):
        if params.get("fail"):
            raise InvalidParameter("Bad.", param="fail")
        await asyncio.sleep(0.01 * (3 - index))  # the later ones finish first
        return _success(params["credits"], ["note"] if index == 2 else None)

    subs = parse_batch({"requests": [_entry(credits=1), _entry(fail=True), _entry(credits=5)]})
    results, charged = asyncio.run(run_batch(subs, ENDPOINTS, execute, "batch-1"))
    assert [r["index"] for r in results] == [0, 1, 2] and charged == 6
    assert results[0] == {"index": 0, "status": 200, "data": {"credits": 1}}
    assert results[1]["status"] == 400 and results[1]["errors"][0]["code"] == "invalid_parameter"
    assert results[2]["warnings"] == ["note"]


def test_an_unknown_endpoint_fails_only_its_own_sub_request_with_404():
    async def execute(endpoint, params, index):
        return _success(1)

    subs = parse_batch({"requests": [_entry("/v1/nowhere"), _entry("/v1/positions/")]})
    results, charged = asyncio.run(run_batch(subs, ENDPOINTS, execute, "batch-2"))
    assert (results[0]["status"], results[0]["errors"][0]["code"]) == (404, "not_found")
    assert results[0]["errors"][0]["param"] == "requests[0].endpoint"
    assert results[1]["status"] == 200 and charged == 1  # a trailing slash names the same endpoint


def test_sub_requests_run_concurrently():
    running, peak = 0, 0

    async def execute(endpoint, params, index):
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.01)
        running -= 1
        return _success(1)

    asyncio.run(run_batch(parse_batch({"requests": [_entry()] * 5}), ENDPOINTS, execute, "b"))
    assert peak == 5


def test_a_sub_requests_bug_is_500_naming_the_sub_requests_own_request_id():
    async def execute(endpoint, params, index):
        raise RuntimeError("boom")

    results, _ = asyncio.run(run_batch(parse_batch({"requests": [_entry(), _entry()]}), ENDPOINTS, execute, "batch-3"))
    assert results[1]["status"] == 500 and "batch-3.1" in results[1]["errors"][0]["message"]
