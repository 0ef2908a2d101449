"""gateway/paid_batches.py: a batch's deadline is its slowest class's; a sub-request names its
endpoint with or without a trailing slash; a batch that succeeds is charged the sum of its
successful sub-requests, and one whose sub-requests all fail costs nothing (the pipeline on
the app in process; tests/api/test_batch_api.py holds the batch's rules one by one)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from gateway.batch import SubRequest
from gateway.endpoints import discover_endpoints
from gateway.paid_batches import _endpoint_of, batch_deadline_s
from shared.runtime.config import load_settings
from tests.api.in_process_stack import AppStack

POSITIONS_CREDITS = 1  # protos/celestial/v1/ephemeris_service.proto, (http).credits of /v1/positions


@pytest.fixture(scope="module")
def stack(module_stacks) -> AppStack:
    return module_stacks.in_process("paid-batches")


def test_a_batch_may_run_as_long_as_its_slowest_deadline_class():
    settings = replace(load_settings(), fast_deadline_s=2.0, scan_deadline_s=30.0, engine_search_deadline_s=7.0)
    assert batch_deadline_s(settings) == 30.0
    assert batch_deadline_s(replace(settings, engine_search_deadline_s=45.0)) == 45.0


def test_a_subrequest_names_its_endpoint_with_or_without_a_trailing_slash():
    endpoints = {endpoint.path: endpoint for endpoint in discover_endpoints()}
    gateway = SimpleNamespace(endpoints=endpoints)
    for path in ("/v1/positions", "/v1/positions/"):
        assert _endpoint_of(gateway, SubRequest(0, path, {})).path == "/v1/positions"
    assert _endpoint_of(gateway, SubRequest(0, "/v1/nowhere", {})) is None


def test_a_batch_costs_its_successful_subrequests_and_nothing_for_the_failed(stack):
    name, key = stack.new_key(credits=10)
    good = {"endpoint": "/v1/positions", "params": {"jd": 2451545.0, "bodies": "sun"}}
    bad = {"endpoint": "/v1/positions", "params": {"jd": "yesterday"}}
    with stack.client(key) as client:
        body = client.post("/v1/batch", json={"requests": [good, bad, good]}).json()
        assert [result["status"] for result in body["data"]["results"]] == [200, 400, 200]
        assert body["meta"]["credits_used"] == 2 * POSITIONS_CREDITS
        assert body["meta"]["credits_remaining"] == 10 - 2 * POSITIONS_CREDITS
        failed = client.post("/v1/batch", json={"requests": [bad]}).json()
        assert failed["meta"]["credits_used"] == 0 and failed["meta"]["credits_remaining"] == 10 - 2 * POSITIONS_CREDITS
