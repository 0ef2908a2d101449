"""gateway/app.py: the application's routes: each endpoint the descriptors declare at its path
with GET and POST (POST only where the (http) option says), HEAD never served on /v1 (a HEAD
would be charged for an answer nobody reads), /healthz, /readyz (200 when the store and every
service pool can take a call, else 503 naming the part that cannot: what a Kubernetes
readiness probe reads), and a trailing slash 404 like any unknown path, never a redirect."""

from __future__ import annotations

import pytest

from gateway.endpoints import discover_endpoints
from tests.api.in_process_pool import InProcessPool, in_process_pools
from tests.api.in_process_stack import AppStack


class _NeverReady:
    """A service pool that answers as ``pool`` does but is never ready."""

    def __init__(self, pool: InProcessPool):
        self._pool = pool

    def __getattr__(self, name: str):
        return getattr(self._pool, name)

    async def ready(self, timeout_s: float = 1.0) -> bool:
        return False


@pytest.fixture(scope="module")
def stack(module_stacks) -> AppStack:
    return module_stacks.in_process("gateway-app")


@pytest.fixture(scope="module")
def stack_with_a_service_down(module_stacks) -> AppStack:
    pools = in_process_pools()
    pools["search"] = _NeverReady(pools["search"])
    return module_stacks.in_process("gateway-app-down", pools=pools)


def test_healthz_answers_ok_without_a_key(stack):
    response = stack.client().get("/healthz")
    assert (response.status_code, response.json()) == (200, {"status": "ok"})


def test_readyz_is_200_when_the_store_and_every_service_are_ready(stack):
    response = stack.client().get("/readyz")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "ready" and body["store"] == "ready"
    assert set(body["services"]) == {e.service for e in discover_endpoints()} and set(body["services"].values()) == {
        "ready"
    }


def test_readyz_is_503_naming_the_service_that_cannot_take_a_call(stack_with_a_service_down):
    response = stack_with_a_service_down.client().get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable" and body["store"] == "ready" and body["services"]["search"] == "unavailable"


def test_every_declared_endpoint_is_routed_with_its_methods(stack):
    client = stack.client()
    for endpoint in discover_endpoints():
        response = client.put(endpoint.path)
        expected = {"POST"} if endpoint.http.post_only else {"GET", "POST"}
        assert response.status_code == 405, endpoint.path
        assert {m.strip() for m in response.headers["allow"].split(",")} == expected, endpoint.path


def test_head_is_not_served_on_an_endpoint(stack):
    response = stack.client().head("/v1/positions")
    assert response.status_code == 405 and "HEAD" not in response.headers["allow"]


def test_a_trailing_slash_is_404_not_a_redirect(stack):
    response = stack.client().get("/v1/positions/")
    assert response.status_code == 404 and "location" not in response.headers
    assert response.json()["errors"][0]["code"] == "not_found"


def test_an_unknown_path_is_the_json_error_body_with_a_request_id(stack):
    response = stack.client().get("/v1/no-such-thing")
    assert response.status_code == 404 and response.json()["meta"]["request_id"] == response.headers["x-request-id"]


def test_the_batch_takes_post_only(stack):
    response = stack.client().get("/v1/batch")
    assert (response.status_code, response.headers["allow"]) == (405, "POST")
