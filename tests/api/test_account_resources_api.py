"""Every account resource is served one way (issue 47, gateway/account_resources.py), rule by
rule over every route the app builds from operations, so a new resource is held to them too.

Paths name ids no resource has (``chart_…``, ``wh_…`` of the right shape, or none at all): each
rule here holds before the operation's own work would look anything up.
"""

from __future__ import annotations

import pytest

from deploy.webhook_receiver import Receiver
from gateway.account_resources import ResourceRoute, request_fields, takes_body
from gateway.app import create_app
from gateway.endpoints import account_operations
from gateway.version import answer_version
from tests.api.test_answer_schemas_api import undeclared_or_missing
from tests.api.test_conventions_api import assert_error, balance
from tests.api.test_test_keys_api import test_key

LYON = {"datetime": "1985-07-13T14:05:00", "place": "2996944"}


@pytest.fixture(scope="module")
def resource_routes(stack) -> list[ResourceRoute]:
    """Every account resource's route the app serves (built as the stack's app is)."""
    return [route for route in create_app(stack.settings).routes if isinstance(route, ResourceRoute)]


@pytest.fixture(scope="module")
def operations(resource_routes) -> list[tuple[str, str, bool]]:
    """(method, path with its ids filled in, takes a body) of every account resource's operation."""
    found = []
    for route in resource_routes:
        path = route.path.replace("{chart_id}", "chart_0123456789abc01234567").replace("{webhook_id}", "wh_nothing")
        found += [(method, path, operation.body) for method, operation in route.operations.items()]
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


def test_every_account_route_the_app_serves_is_an_rpc_of_account_service_and_every_rpc_is_served(resource_routes):
    served = {
        (route.path, method, operation.rpc)
        for route in resource_routes
        for method, operation in route.operations.items()
    }
    declared = {(e.path, e.http.gateway.method, e.method.name) for e in account_operations()}
    assert served == declared


def test_an_account_operation_takes_the_query_parameters_or_the_body_its_request_declares(resource_routes):
    declared = {e.method.name: e for e in account_operations()}
    for route in resource_routes:
        for method, operation in route.operations.items():
            fields = request_fields(declared[operation.rpc])
            if method in ("POST", "PATCH"):
                assert (operation.body, operation.query) == (takes_body(declared[operation.rpc]), ()), operation.rpc
            else:
                assert (operation.body, operation.query) == (False, fields), operation.rpc


def test_every_account_operation_is_in_the_openapi_document_with_its_methods(stack, resource_routes):
    with stack.client() as client:
        document = client.get("/v1/openapi.json").json()
    for route in resource_routes:
        assert set(document["paths"].get(route.path, {})) >= {method.lower() for method in route.operations}, route.path


def test_every_account_operations_answer_is_what_its_openapi_schema_declares(stack, resource_routes):
    """Each operation once, through a chart's and a subscription's whole life; the walk must
    reach every operation the app serves, so a new one is held to its schema too."""
    document, answered = every_account_operation_answered(stack)
    assert set(answered) == {(method, route.path) for route in resource_routes for method in route.operations}
    for (method, template), answer in answered.items():
        assert undeclared_or_missing(document, template, method.lower(), answer) == [], (method, template)


def every_account_operation_answered(stack) -> tuple[dict, dict[tuple[str, str], object]]:
    """Return the served OpenAPI document and each account operation's answer by (method, path
    template): each operation called once, through a chart's and a subscription's whole life."""
    _, key = stack.new_key()
    answered: dict[tuple[str, str], object] = {}
    with stack.client(key) as client, Receiver() as receiver:
        document = client.get("/v1/openapi.json").json()

        def call(method: str, template: str, ids: dict[str, str] | None = None, **sent):
            answer = client.request(method, template.format(**(ids or {})), **sent)
            assert answer.status_code == 200, (method, template, answer.text)
            answered[(method, template)] = answer
            return answer.json()["data"]

        chart = {"chart_id": call("POST", "/v1/charts", json={"name": "Ada", **LYON})["id"]}
        call("GET", "/v1/charts")
        call("GET", "/v1/charts/{chart_id}", chart)
        call("PATCH", "/v1/charts/{chart_id}", chart, json={"name": "Ada L."})
        made = call(
            "POST", "/v1/webhooks", json={"url": receiver.url, "events": ["lunation"], "chart": chart["chart_id"]}
        )
        webhook = {"webhook_id": made["id"]}
        call("GET", "/v1/webhooks")
        call("GET", "/v1/webhooks/{webhook_id}", webhook)
        call("PATCH", "/v1/webhooks/{webhook_id}", webhook, json={"state": "paused"})
        call("POST", "/v1/webhooks/{webhook_id}/rotate-secret", webhook)
        call("POST", "/v1/webhooks/{webhook_id}/test", webhook)
        call("GET", "/v1/webhooks/{webhook_id}/deliveries", webhook)
        call("DELETE", "/v1/webhooks/{webhook_id}", webhook)
        call("DELETE", "/v1/charts/{chart_id}", chart)
        call("GET", "/v1/usage")
        call("GET", "/v1/account")
    return document, answered
