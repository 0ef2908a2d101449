"""gateway/request_metrics.py: every answered request is counted by operation and HTTP status
and timed by operation, an unknown route as ``other``; every error answer is counted by its
code (docs/operating.md). The gateway in process."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from gateway.request_metrics import OTHER, operation_of
from tests.api.in_process_stack import AppStack

POSITIONS = "/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=sun"


@pytest.fixture(scope="module")
def stack(session_stacks) -> AppStack:
    return session_stacks.in_process("app")


@pytest.fixture(scope="module")
def key(stack: AppStack) -> str:
    return stack.new_key()[1]


def requests(operation: str, status: str) -> float:
    labels = {"operation": operation, "status": status}
    return REGISTRY.get_sample_value("celestial_http_requests_total", labels) or 0.0


def durations(operation: str) -> float:
    return REGISTRY.get_sample_value("celestial_http_request_duration_seconds_count", {"operation": operation}) or 0.0


def refused(reason: str) -> float:
    return REGISTRY.get_sample_value("celestial_requests_refused_total", {"reason": reason}) or 0.0


def test_a_request_is_counted_by_its_operation_and_status_and_timed(stack, key):
    before = requests("positions", "200"), durations("positions")
    with stack.client(key) as client:
        assert client.get(POSITIONS).status_code == 200
    assert (requests("positions", "200") - before[0], durations("positions") - before[1]) == (1, 1)


def test_a_path_template_is_the_operation_not_the_path_it_matched(stack, key):
    before = requests("charts_chart_id", "404")
    with stack.client(key) as client:
        assert client.get("/v1/charts/chart_0123456789abcdef").status_code == 404
    assert requests("charts_chart_id", "404") - before == 1


def test_an_unknown_route_is_the_operation_other(stack, key):
    before = requests(OTHER, "404")
    with stack.client(key) as client:
        assert client.get("/v1/no-such-operation").status_code == 404
    assert requests(OTHER, "404") - before == 1


def test_an_error_answer_is_counted_refused_by_its_code(stack, key):
    before = refused("body_not_found"), requests("positions", "400")
    with stack.client(key) as client:
        assert client.get("/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=vulcan").status_code == 400
    assert (refused("body_not_found") - before[0], requests("positions", "400") - before[1]) == (1, 1)


def test_a_request_not_routed_has_the_operation_other():
    assert operation_of({"path": "/v1/positions"}) == OTHER
