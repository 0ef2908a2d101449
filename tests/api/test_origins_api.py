"""Origin restrictions, row by row of interface.md's table (Authentication 5 and 6), and CORS.

Origins are compared exactly, as whole strings: no wildcard subdomains, no normalisation.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.api.test_conventions_api import assert_error, balance

POSITIONS = "/v1/positions"
MOMENT = {"datetime": "2024-03-20T12:00:00Z", "bodies": "sun"}
APP = "https://app.example.com"


def key_with(stack, *options: str) -> str:
    name, _ = stack.new_key(credits=1000)
    return stack.admin("key", "create", "--account", name, *options).stdout.strip()


def get(stack, key: str, origin: str | None = None):
    headers = {"Authorization": f"Bearer {key}"}
    if origin is not None:
        headers["Origin"] = origin
    with stack.client() as client:
        return client.get(POSITIONS, params=MOMENT, headers=headers)


def test_no_origins_configured_accepts_any_origin(stack):
    key = key_with(stack)
    assert get(stack, key, "https://anything.example").status_code == 200
    assert get(stack, key).status_code == 200


def test_a_matching_origin_is_accepted(stack):
    assert get(stack, key_with(stack, "--origin", APP), APP).status_code == 200


@pytest.mark.parametrize(
    "origin",
    [
        "https://evil.example.com",
        "https://sub.app.example.com",  # no wildcard subdomains
        "http://app.example.com",  # the scheme is part of the origin
        "https://app.example.com:8443",  # so is the port
        "https://APP.example.com",  # exact comparison, no case folding
        "https://app.example.com/",  # nor trailing-slash trimming
    ],
)
def test_an_origin_that_does_not_match_exactly_is_403_origin_not_allowed(stack, origin):
    assert_error(get(stack, key_with(stack, "--origin", APP), origin), 403, "origin_not_allowed")


def test_no_origin_header_with_origins_configured_is_accepted_as_server_to_server(stack):
    assert get(stack, key_with(stack, "--origin", APP)).status_code == 200


def test_a_browser_only_key_without_origin_is_403_origin_required(stack):
    key = key_with(stack, "--origin", APP, "--browser-only")
    assert_error(get(stack, key), 403, "origin_required")
    assert get(stack, key, APP).status_code == 200


def test_a_browser_only_key_without_origins_accepts_any_origin_but_requires_one(stack):
    key = key_with(stack, "--browser-only")
    assert_error(get(stack, key), 403, "origin_required")
    assert get(stack, key, "https://anywhere.example").status_code == 200


def test_a_refused_origin_costs_nothing(stack):
    name, _ = stack.new_key(credits=10)
    key = stack.admin("key", "create", "--account", name, "--origin", APP).stdout.strip()
    assert_error(get(stack, key, "https://evil.example"), 403, "origin_not_allowed")
    assert balance(stack, name) == 10


def test_origins_update_without_revoking_the_key(stack):
    name, _ = stack.new_key(credits=100)
    key = stack.admin("key", "create", "--account", name, "--origin", APP).stdout.strip()
    key_id = json.loads(stack.admin("key", "list", "--account", name, "--json").stdout)[-1]["key_id"]
    stack.admin("key", "origins", key_id, "--origin", "https://new.example.com")
    # The gateway follows key changes; give the feed a moment.
    deadline = time.monotonic() + 3
    while get(stack, key, "https://new.example.com").status_code != 200 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert get(stack, key, "https://new.example.com").status_code == 200
    assert_error(get(stack, key, APP), 403, "origin_not_allowed")


def test_cors_lets_a_browser_read_every_answer_including_refusals(stack):
    key = key_with(stack, "--origin", APP)
    allowed = get(stack, key, APP)
    refused = get(stack, key, "https://evil.example")
    for response in (allowed, refused):
        assert response.headers["access-control-allow-origin"] in ("*", response.request.headers["origin"])
        exposed = response.headers["access-control-expose-headers"].lower()
        assert "x-ratelimit-remaining" in exposed and "x-request-id" in exposed


def test_cors_preflight_allows_the_key_headers_for_any_origin(stack):
    with stack.client() as client:
        response = client.options(
            POSITIONS,
            headers={
                "Origin": "https://anything.example",
                "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "authorization, x-api-key",
            },
        )
    assert response.status_code == 200
    allowed = response.headers["access-control-allow-headers"].lower()
    assert "authorization" in allowed and "x-api-key" in allowed
