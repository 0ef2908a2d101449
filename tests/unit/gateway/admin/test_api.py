"""gateway/admin/api.py: the admin API under /admin/v1 (its module docstring's table): every
route needs ``Authorization: Bearer <CELESTIAL_ADMIN_TOKEN>`` (RFC 6750 §2.1), compared in
constant time, never an API key, off when no token is set; answers are the service's envelope,
``no-store`` (RFC 9111 §5.2.2.5) since one may show a key once; a query parameter a route does
not take is refused. The fuller per-route rules are in tests/api/test_admin_api.py."""

from __future__ import annotations

import os

import pytest

from gateway.admin.api import check_admin_token
from shared.errors import InvalidAdminToken
from tests.api.in_process_stack import AppStack

TOKEN = "adm-" + "0123456789abcdef" * 2


@pytest.fixture(scope="module")
def stack(module_stacks) -> AppStack:
    return module_stacks.in_process("admin-api", {"CELESTIAL_ADMIN_TOKEN": TOKEN})


@pytest.mark.parametrize(
    "authorization", [None, "", "Bearer", f"Basic {TOKEN}", f"Bearer {TOKEN}x", f"Bearer {TOKEN[:-1]}"]
)
def test_anything_but_bearer_and_the_token_is_refused(authorization):
    with pytest.raises(InvalidAdminToken):
        check_admin_token(authorization, TOKEN)


def test_the_token_is_accepted_with_any_case_of_bearer_and_surrounding_space():
    check_admin_token(f"Bearer {TOKEN}", TOKEN)
    check_admin_token(f"  bearer   {TOKEN} ", TOKEN)


def test_an_api_key_is_never_an_admin_token_even_if_the_token_is_set_to_one():
    key = "svc_live_" + "a" * 32
    with pytest.raises(InvalidAdminToken, match="API key"):
        check_admin_token(f"Bearer {key}", key)


def test_without_a_configured_token_the_api_is_off():
    for expected in (None, ""):
        with pytest.raises(InvalidAdminToken, match="disabled"):
            check_admin_token("Bearer anything", expected)


def test_a_created_account_is_201_in_the_envelope_with_the_request_id_and_no_store(stack):
    name = f"admin-{os.urandom(4).hex()}"
    with stack.client(TOKEN) as admin:
        response = admin.post("/admin/v1/accounts", json={"name": name, "credits": 7})
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["data"]["name"] == name and body["data"]["balance"] == 7
    assert body["meta"] == {"request_id": response.headers["x-request-id"]}
    assert response.headers["cache-control"] == "no-store"


def test_a_refusal_is_401_with_its_challenge_and_no_store_too(stack):
    with stack.client() as anonymous:
        response = anonymous.get("/admin/v1/accounts/anyone")
    assert response.status_code == 401 and response.json()["errors"][0]["code"] == "invalid_admin_token"
    assert response.headers["www-authenticate"].startswith("Bearer") and response.headers["cache-control"] == "no-store"


def test_a_query_parameter_the_route_does_not_take_is_refused_naming_it(stack):
    with stack.client(TOKEN) as admin:
        admin.post("/admin/v1/accounts", json={"name": "admin-query", "credits": 1})
        unknown = admin.get("/admin/v1/accounts/admin-query?verbose=1")
        twice = admin.get("/admin/v1/accounts/admin-query/usage?since=2026-01-01&since=2026-02-01")
    assert (unknown.status_code, unknown.json()["errors"][0]["param"]) == (400, "verbose")
    assert (twice.status_code, twice.json()["errors"][0]["param"]) == (400, "since")


def test_a_key_is_shown_once_when_created_and_never_again(stack):
    with stack.client(TOKEN) as admin:
        admin.post("/admin/v1/accounts", json={"name": "admin-keys", "credits": 1})
        created = admin.post("/admin/v1/accounts/admin-keys/keys", json={"name": "ci"})
        plain = created.json()["data"]["key"]
        listed = admin.get("/admin/v1/accounts/admin-keys/keys")
        shown = admin.get(f"/admin/v1/keys/{created.json()['data']['key_id']}")
    assert created.status_code == 201 and plain.startswith("svc_live_")
    assert plain not in listed.text and plain not in shown.text and "key" not in shown.json()["data"]
