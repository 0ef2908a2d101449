"""Every account resource is served one way (issue 47, gateway/account_resources.py), rule by
rule over every route the app builds from operations, so a new resource is held to them too.

Paths name ids no resource has (``chart_…``, ``wh_…`` of the right shape, or none at all): each
rule here holds before the operation's own work would look anything up.
"""

from __future__ import annotations

import pytest

from gateway.account_resources import ResourceRoute
from gateway.app import create_app
from gateway.version import answer_version
from tests.api.test_conventions_api import assert_error, balance
from tests.api.test_test_keys_api import test_key


def _operations(settings) -> list[tuple[str, str, bool]]:
    """Return (method, path with its ids filled in, takes a body) of every account resource's
    operation the app serves."""
    app = create_app(settings)
    found = []
    for route in app.routes:
        if isinstance(route, ResourceRoute):
            path = route.path.replace("{chart_id}", "chart_0123456789abc01234567").replace("{webhook_id}", "wh_nothing")
            found += [(method, path, operation.body) for method, operation in route.operations.items()]
    return found


@pytest.fixture(scope="module")
def operations(stack) -> list[tuple[str, str, bool]]:
    found = _operations(stack.settings)
    assert {path for _, path, _ in found} >= {"/v1/charts", "/v1/webhooks", "/v1/usage", "/v1/account"}
    return found


def test_every_account_resource_refuses_head_before_reading_the_key(stack, operations):
    with stack.client() as client:
        for path in sorted({path for method, path, _ in operations if method == "GET"}):
            response = client.head(path)
            assert response.status_code == 405, path
            assert response.headers["allow"] == "GET"


def test_every_account_operation_without_a_key_is_401(stack, operations):
    with stack.client() as client:
        for method, path, _ in operations:
            assert_error(client.request(method, path), 401, "invalid_api_key")


def test_every_account_operation_counts_under_the_limits_and_429_comes_before_its_400(stack, operations):
    _, key = stack.new_key(rate_per_minute=1)
    with stack.client(key) as client:
        assert client.get("/v1/account").status_code == 200
        for method, path, _ in operations:
            # A parameter no operation takes: over the limit, the 429 is heard first.
            response = client.request(method, path, params={"no_such_parameter": "1"})
            assert_error(response, 429, "rate_limit_exceeded")
            assert response.headers["x-ratelimit-limit"] == "1"


def test_every_account_operation_refuses_a_query_parameter_it_does_not_take_and_costs_nothing(stack, operations):
    account, key = stack.new_key(credits=7)
    with stack.client(key) as client:
        for method, path, takes_body in operations:
            response = client.request(method, path, params={"no_such_parameter": "1"})
            error = assert_error(response, 400, "invalid_parameter", "no_such_parameter")
            if takes_body:
                assert "JSON body" in error["message"], (method, path)
    assert balance(stack, account) == 7


@pytest.mark.parametrize("path", ["/v1/charts", "/v1/webhooks", "/v1/usage", "/v1/account"])
def test_an_account_resources_meta_is_a_free_requests(stack, path):
    account, key = stack.new_key(credits=7)
    with stack.client(key) as client:
        meta = client.get(path).json()["meta"]
    assert (meta["credits_used"], meta["credits_remaining"], meta["version"]) == (0, 7, answer_version())
    assert meta["request_id"] and "mode" not in meta
    assert balance(stack, account) == 7


@pytest.mark.parametrize("path", ["/v1/charts", "/v1/webhooks", "/v1/usage", "/v1/account"])
def test_a_test_keys_answer_from_an_account_resource_says_mode_test(stack, path):
    account, _ = stack.new_key(credits=7)
    with stack.client(test_key(stack, account)) as client:
        meta = client.get(path).json()["meta"]
    assert (meta["credits_used"], meta["mode"]) == (0, "test")
