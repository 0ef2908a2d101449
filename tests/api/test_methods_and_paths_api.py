"""Methods, paths and the Authorization header at the edges of the interface (issue 10).

A HEAD is not served on /v1 (it would be charged for an answer nobody reads); a path with a
trailing slash is an unknown path, never a redirect; Authorization must use Bearer.
"""

from __future__ import annotations

import pytest

from tests.api.test_conventions_api import assert_error, balance

J2000 = 2451545.0


def test_head_on_an_endpoint_is_405_allowing_get_and_post_and_costs_nothing(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        response = client.head("/v1/positions", params={"jd": J2000})
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, POST"
    assert balance(stack, name) == 10


@pytest.mark.parametrize(("path", "allow"), [("/v1/positions", "GET, POST"), ("/v1/batch", "POST")])
def test_a_405_never_advertises_head_on_v1(api, path, allow):
    response = api.put(path, json={})
    assert_error(response, 405, "method_not_allowed")
    assert response.headers["allow"] == allow


def test_head_on_health_is_served(stack):
    with stack.client() as client:
        assert client.head("/healthz").status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/v1/positions/",
        "/docs/",
        "/admin/v1",
        "/admin/v1/",
        "/v1/openapi.json/",
        "/admin/v1/accounts/",
        "/admin/v1/keys/key_1/",
    ],
)
def test_a_trailing_slash_is_404_with_the_error_body_never_a_redirect(api, path):
    response = api.get(path, params={"jd": J2000}, headers={"Host": "evil.example"})
    assert_error(response, 404, "not_found")
    assert "location" not in response.headers


def test_a_bare_key_in_authorization_without_bearer_is_401_with_a_suggestion(stack, key):
    with stack.client() as client:
        response = client.get("/v1/positions", params={"jd": J2000}, headers={"Authorization": key})
    error = assert_error(response, 401, "invalid_api_key")
    assert "Bearer" in error["suggestion"]


@pytest.mark.parametrize("method", ["GET", "PUT"])
def test_an_unknown_path_holding_a_key_is_answered_without_echoing_it(api, key, method):
    response = api.request(method, f"/v1/keys/{key}/")
    assert response.status_code in (404, 405)
    assert key not in response.text and key[len("svc_live_") :] not in response.text


def test_a_query_string_on_a_post_only_route_is_refused_without_suggesting_get(api):
    error = assert_error(api.post("/v1/batch", params={"x": "1"}, json={"requests": []}), 400, "invalid_parameter", "x")
    assert "GET" not in error["suggestion"]


def test_a_query_string_on_a_post_to_an_endpoint_suggests_get(api):
    error = assert_error(api.post("/v1/positions", params={"jd": "2451545"}, json={}), 400, "invalid_parameter", "jd")
    assert "GET" in error["suggestion"]
