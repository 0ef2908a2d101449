"""The admin HTTP API (/admin/v1), and the key life cycle it drives, seen by /v1.

The stack runs with CELESTIAL_KEY_CACHE_S=0 so a revocation or an origin change is seen by
the very next request; propagation within the cache time is tested where the cache is.
"""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from store.key_format import hash_key
from tests.api.in_process_stack import AppStack
from tests.api.test_conventions_api import assert_error

ADMIN_TOKEN = "adm-" + os.urandom(24).hex()
POSITIONS = "/v1/positions"
MOMENT = {"datetime": "2024-03-20T12:00:00Z", "bodies": "sun"}
APP_ORIGIN = "https://app.example"

#: Every plain key this module saw, to check at the end that none reached the logs.
SEEN_KEYS: list[str] = []


@pytest.fixture(scope="module")
def admin_stack(module_stacks) -> AppStack:
    return module_stacks.in_process("admin-stack", {"CELESTIAL_ADMIN_TOKEN": ADMIN_TOKEN, "CELESTIAL_KEY_CACHE_S": "0"})


@pytest.fixture(scope="module")
def admin(admin_stack: AppStack) -> httpx.Client:
    """A client that sends the admin token."""
    with admin_stack.client(ADMIN_TOKEN) as client:
        yield client


@pytest.fixture(scope="module")
def anonymous(admin_stack: AppStack) -> httpx.Client:
    with admin_stack.client() as client:
        yield client


def ok(response: httpx.Response, status: int = 200) -> dict | list:
    """Assert a success envelope with ``status`` and return its ``data``."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["meta"]["request_id"] == response.headers["x-request-id"]
    return body["data"]


def new_account(admin: httpx.Client, credits: int = 1000, **limits: int) -> str:
    name = f"adm-{os.urandom(5).hex()}"
    ok(admin.post("/admin/v1/accounts", json={"name": name, "credits": credits, **limits}), 201)
    return name


def new_key(admin: httpx.Client, account: str, **settings) -> dict:
    """Return the creation answer's data (``key`` and the key's view)."""
    data = ok(admin.post(f"/admin/v1/accounts/{account}/keys", json=settings), 201)
    SEEN_KEYS.append(data["key"])
    return data


def positions(client: httpx.Client, key: str, origin: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {key}"}
    if origin is not None:
        headers["Origin"] = origin
    return client.get(POSITIONS, params=MOMENT, headers=headers)


def no_secret_in(text: str, *plain_keys: str) -> None:
    assert ADMIN_TOKEN not in text
    for plain in plain_keys:
        assert plain not in text and plain[len("svc_live_") :] not in text and hash_key(plain) not in text


# --- the admin token -------------------------------------------------------------------------

ROUTES = [
    ("POST", "/admin/v1/accounts"),
    ("GET", "/admin/v1/accounts/acme"),
    ("POST", "/admin/v1/accounts/acme/top-up"),
    ("PATCH", "/admin/v1/accounts/acme/limits"),
    ("GET", "/admin/v1/accounts/acme/usage"),
    ("POST", "/admin/v1/accounts/acme/keys"),
    ("GET", "/admin/v1/accounts/acme/keys"),
    ("GET", "/admin/v1/keys/key_0"),
    ("POST", "/admin/v1/keys/key_0/revoke"),
    ("POST", "/admin/v1/keys/key_0/rotate"),
    ("PUT", "/admin/v1/keys/key_0/origins"),
]


@pytest.mark.parametrize(("method", "path"), ROUTES, ids=[f"{m} {p}" for m, p in ROUTES])
def test_every_admin_route_refuses_a_request_without_the_admin_token(anonymous, method, path):
    response = anonymous.request(method, path, json={})
    assert_error(response, 401, "invalid_admin_token")
    assert response.headers["www-authenticate"].startswith("Bearer")


def test_an_admin_error_is_never_cached_either(admin, anonymous):
    assert anonymous.get("/admin/v1/accounts/acme").headers["cache-control"] == "no-store"
    assert admin.get("/admin/v1/keys/key_0").headers["cache-control"] == "no-store"


def test_a_wrong_admin_token_is_refused_with_401(anonymous):
    for authorization in (
        f"Bearer {ADMIN_TOKEN}x",
        f"Bearer {ADMIN_TOKEN[:-1]}",
        "Bearer",
        f"Basic {ADMIN_TOKEN}",
        ADMIN_TOKEN,
    ):
        response = anonymous.get("/admin/v1/accounts/acme", headers={"Authorization": authorization})
        error = assert_error(response, 401, "invalid_admin_token")
        no_secret_in(response.text)
        assert ADMIN_TOKEN not in str(error)


def test_an_api_key_is_never_accepted_as_the_admin_token(admin, anonymous):
    account = new_account(admin)
    plain = new_key(admin, account)["key"]
    for headers in ({"Authorization": f"Bearer {plain}"}, {"X-API-Key": plain}):
        assert_error(anonymous.get(f"/admin/v1/accounts/{account}", headers=headers), 401, "invalid_admin_token")
    # The admin token with an API key alongside still works: X-API-Key plays no part here.
    ok(admin.get(f"/admin/v1/accounts/{account}", headers={"X-API-Key": plain}))


def test_the_admin_api_is_refused_when_no_admin_token_is_configured(stack):
    if stack.env.get("CELESTIAL_ADMIN_TOKEN"):
        pytest.skip("the shared stack was started with an admin token")
    with stack.client() as client:
        for authorization in ("Bearer", "Bearer anything"):
            response = client.get("/admin/v1/accounts/acme", headers={"Authorization": authorization})
            error = assert_error(response, 401, "invalid_admin_token")
            assert "CELESTIAL_ADMIN_TOKEN" in error["suggestion"]


def test_admin_requests_need_no_api_key_and_cost_no_credits(admin):
    account = new_account(admin, credits=5)
    for _ in range(10):
        response = admin.get(f"/admin/v1/accounts/{account}")
        assert "x-ratelimit-limit" not in response.headers
    assert ok(admin.get(f"/admin/v1/accounts/{account}"))["balance"] == 5


# --- accounts --------------------------------------------------------------------------------


def test_create_account_answers_201_with_the_account(admin):
    name = f"adm-{os.urandom(5).hex()}"
    data = ok(admin.post("/admin/v1/accounts", json={"name": name, "credits": 250, "rate_per_minute": 60}), 201)
    assert data["id"].startswith("acct_") and data["name"] == name
    assert (data["balance"], data["rate_per_minute"], data["max_concurrent"]) == (250, 60, 50)
    assert data["created_at"].endswith("Z")


def test_creating_an_account_twice_is_409_account_exists(admin):
    name = new_account(admin)
    assert_error(admin.post("/admin/v1/accounts", json={"name": name, "credits": 1}), 409, "account_exists", "name")


@pytest.mark.parametrize(
    ("body", "code", "param"),
    [
        ({"credits": 10}, "missing_parameter", "name"),
        ({"name": "x-acct"}, "missing_parameter", "credits"),
        ({"name": "x-acct", "credits": -1}, "invalid_parameter", "credits"),
        ({"name": "x-acct", "credits": "lots"}, "invalid_parameter", "credits"),
        ({"name": "x-acct", "credits": True}, "invalid_parameter", "credits"),
        ({"name": "x-acct", "credits": 1, "rate_per_minute": 0}, "invalid_parameter", "rate_per_minute"),
        ({"name": "x-acct", "credits": 1, "colour": "red"}, "invalid_parameter", "colour"),
        ({"name": "acct_123", "credits": 1}, "invalid_parameter", "name"),
        ({"name": " padded", "credits": 1}, "invalid_parameter", "name"),
        ({"name": 7, "credits": 1}, "invalid_parameter", "name"),
    ],
    ids=lambda value: str(value) if not isinstance(value, dict) else "-".join(f"{k}={v}" for k, v in value.items()),
)
def test_bad_account_input_is_400_naming_the_member_with_a_suggestion(admin, body, code, param):
    assert_error(admin.post("/admin/v1/accounts", json=body), 400, code, param)


@pytest.mark.parametrize("content", [b"[1, 2]", b"{not json", b'"acme"'], ids=["array", "broken", "string"])
def test_a_body_that_is_not_a_json_object_is_400_invalid_body(admin, content):
    response = admin.post("/admin/v1/accounts", content=content, headers={"Content-Type": "application/json"})
    error = assert_error(response, 400, "invalid_body")
    assert "name" in error["suggestion"]


def test_show_account_reports_balance_limits_and_key_counts(admin):
    account = new_account(admin, credits=42, max_concurrent=7)
    new_key(admin, account)
    revoked = new_key(admin, account)
    ok(admin.post(f"/admin/v1/keys/{revoked['key_id']}/revoke"))
    data = ok(admin.get(f"/admin/v1/accounts/{account}"))
    assert (data["name"], data["balance"], data["rate_per_minute"], data["max_concurrent"]) == (account, 42, 300, 7)
    assert (data["keys"], data["active_keys"]) == (2, 1)
    assert ok(admin.get(f"/admin/v1/accounts/{data['id']}"))["name"] == account  # by id too


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/admin/v1/accounts/nobody", None),
        ("POST", "/admin/v1/accounts/nobody/top-up", {"credits": 5}),
        ("PATCH", "/admin/v1/accounts/nobody/limits", {"rate_per_minute": 5}),
        ("GET", "/admin/v1/accounts/nobody/usage", None),
        ("POST", "/admin/v1/accounts/nobody/keys", {}),
        ("GET", "/admin/v1/accounts/nobody/keys", None),
        ("GET", "/admin/v1/keys/key_missing", None),
        ("POST", "/admin/v1/keys/key_missing/revoke", None),
        ("POST", "/admin/v1/keys/key_missing/rotate", {}),
        ("PUT", "/admin/v1/keys/key_missing/origins", {"allowed_origins": []}),
    ],
    ids=lambda value: value if isinstance(value, str) else "-",
)
def test_an_unknown_account_or_key_is_404_not_found(admin, method, path, body):
    assert_error(admin.request(method, path, json=body), 404, "not_found")


def test_top_up_adds_credits(admin):
    account = new_account(admin, credits=10)
    data = ok(admin.post(f"/admin/v1/accounts/{account}/top-up", json={"credits": 15}))
    assert (data["name"], data["balance"]) == (account, 25)
    assert ok(admin.get(f"/admin/v1/accounts/{account}"))["balance"] == 25


def test_a_top_up_retried_with_its_request_id_is_applied_once(admin):
    account = new_account(admin, credits=10)
    request_id = f"invoice-{os.urandom(4).hex()}"
    for _ in range(3):
        data = ok(admin.post(f"/admin/v1/accounts/{account}/top-up", json={"credits": 5, "request_id": request_id}))
        assert data["balance"] == 15


def test_a_request_id_reused_for_another_top_up_is_409(admin):
    account = new_account(admin)
    request_id = f"invoice-{os.urandom(4).hex()}"
    ok(admin.post(f"/admin/v1/accounts/{account}/top-up", json={"credits": 5, "request_id": request_id}))
    response = admin.post(f"/admin/v1/accounts/{account}/top-up", json={"credits": 6, "request_id": request_id})
    assert_error(response, 409, "request_id_conflict", "request_id")


@pytest.mark.parametrize(
    ("body", "code", "param"),
    [
        ({}, "missing_parameter", "credits"),
        ({"credits": 0}, "invalid_parameter", "credits"),
        ({"credits": 5, "request_id": "has spaces"}, "invalid_parameter", "request_id"),
    ],
    ids=["no-credits", "zero", "bad-request-id"],
)
def test_bad_top_up_input_is_400(admin, body, code, param):
    account = new_account(admin)
    assert_error(admin.post(f"/admin/v1/accounts/{account}/top-up", json=body), 400, code, param)


def test_limits_patch_changes_the_limits_given_and_keeps_the_others(admin):
    account = new_account(admin)
    data = ok(admin.patch(f"/admin/v1/accounts/{account}/limits", json={"rate_per_minute": 60, "max_concurrent": 4}))
    assert (data["rate_per_minute"], data["max_concurrent"]) == (60, 4)
    data = ok(admin.patch(f"/admin/v1/accounts/{account}/limits", json={"max_concurrent": 9}))
    assert (data["rate_per_minute"], data["max_concurrent"]) == (60, 9)
    shown = ok(admin.get(f"/admin/v1/accounts/{account}"))
    assert (shown["rate_per_minute"], shown["max_concurrent"]) == (60, 9)


def test_limits_patch_without_a_limit_or_with_a_non_positive_one_is_400(admin):
    account = new_account(admin)
    assert_error(admin.patch(f"/admin/v1/accounts/{account}/limits", json={}), 400, "missing_parameter")
    response = admin.patch(f"/admin/v1/accounts/{account}/limits", json={"rate_per_minute": 0})
    assert_error(response, 400, "invalid_parameter", "rate_per_minute")


def test_usage_reports_the_ledger_totals_of_requests_served(admin):
    account = new_account(admin, credits=100)
    plain = new_key(admin, account)["key"]
    for _ in range(3):
        assert positions(admin, plain).status_code == 200
    data = ok(admin.get(f"/admin/v1/accounts/{account}/usage"))
    assert (data["account"], data["requests"], data["credits_used"], data["balance"]) == (account, 3, 3, 97)
    assert data["credits_topped_up"] == 100
    later = ok(admin.get(f"/admin/v1/accounts/{account}/usage", params={"since": "2999-01-01T00:00:00Z"}))
    assert (later["since"], later["credits_used"]) == ("2999-01-01T00:00:00.000Z", 0)


def test_usage_with_an_unreadable_since_or_an_unknown_parameter_is_400(admin):
    account = new_account(admin)
    assert_error(
        admin.get(f"/admin/v1/accounts/{account}/usage", params={"since": "soon"}), 400, "invalid_datetime", "since"
    )
    assert_error(
        admin.get(f"/admin/v1/accounts/{account}/usage", params={"until": "2030"}), 400, "invalid_parameter", "until"
    )


# --- keys ------------------------------------------------------------------------------------


def test_create_key_answers_201_with_the_key_shown_once(admin):
    account = new_account(admin)
    created = admin.post(
        f"/admin/v1/accounts/{account}/keys",
        json={"allowed_origins": [APP_ORIGIN], "browser_only": True, "expires_at": "2099-01-31T12:00:00"},
    )
    data = ok(created, 201)
    SEEN_KEYS.append(data["key"])
    assert created.headers["cache-control"] == "no-store"
    assert data["key"].startswith("svc_live_") and len(data["key"]) == 41
    assert data["key_id"].startswith("key_") and data["prefix"] == f"svc_live_{data['key'][9:13]}..."
    assert (data["state"], data["allowed_origins"], data["browser_only"]) == ("active", [APP_ORIGIN], True)
    assert data["expires_at"] == "2099-01-31T12:00:00.000Z"  # no offset means UTC
    assert "key_hash" not in data and hash_key(data["key"]) not in created.text
    # Shown once: neither the listing nor the key's own view carries it again.
    no_secret_in(admin.get(f"/admin/v1/accounts/{account}/keys").text, data["key"])
    no_secret_in(admin.get(f"/admin/v1/keys/{data['key_id']}").text, data["key"])


def test_list_keys_shows_every_key_of_the_account_oldest_first(admin):
    account = new_account(admin)
    first, second = new_key(admin, account), new_key(admin, account, allowed_origins=APP_ORIGIN)
    listed = ok(admin.get(f"/admin/v1/accounts/{account}/keys"))
    assert [entry["key_id"] for entry in listed] == [first["key_id"], second["key_id"]]
    assert listed[1]["allowed_origins"] == [APP_ORIGIN]  # a comma-separated string is accepted
    for entry in listed:
        assert "key" not in entry and "key_hash" not in entry


def test_show_key_reports_its_state_and_settings_but_never_the_key(admin):
    account = new_account(admin)
    created = new_key(admin, account, allowed_origins=[APP_ORIGIN])
    response = admin.get(f"/admin/v1/keys/{created['key_id']}")
    data = ok(response)
    no_secret_in(response.text, created["key"])
    assert {key: value for key, value in created.items() if key != "key"} == data
    assert data["state"] == "active" and data["revoked_at"] is None


@pytest.mark.parametrize(
    ("body", "code", "param"),
    [
        ({"expires_at": "2000-01-01T00:00:00Z"}, "invalid_parameter", "expires_at"),
        ({"expires_at": "next week"}, "invalid_datetime", "expires_at"),
        ({"allowed_origins": ["https://*.example.com"]}, "invalid_parameter", "allowed_origins"),
        ({"allowed_origins": ["https://app.example/"]}, "invalid_parameter", "allowed_origins"),
        ({"allowed_origins": {"a": 1}}, "invalid_parameter", "allowed_origins"),
        ({"browser_only": "maybe"}, "invalid_parameter", "browser_only"),
        ({"owner": "me"}, "invalid_parameter", "owner"),
    ],
    ids=["past-expiry", "unreadable-expiry", "wildcard", "trailing-slash", "not-a-list", "not-a-boolean", "unknown"],
)
def test_bad_key_settings_are_400_and_create_no_key(admin, body, code, param):
    account = new_account(admin)
    response = admin.post(f"/admin/v1/accounts/{account}/keys", json=body)
    assert_error(response, 400, code, param)
    assert "svc_live_" not in response.text
    assert ok(admin.get(f"/admin/v1/accounts/{account}/keys")) == []


def test_revoke_answers_the_revoked_key_and_revoking_again_keeps_the_first_time(admin):
    account = new_account(admin)
    key_id = new_key(admin, account)["key_id"]
    first = ok(admin.post(f"/admin/v1/keys/{key_id}/revoke"))
    assert first["state"] == "revoked" and first["revoked_at"]
    again = ok(admin.post(f"/admin/v1/keys/{key_id}/revoke"))
    assert again["revoked_at"] == first["revoked_at"]


def test_origins_put_replaces_the_origins_without_revoking(admin):
    account = new_account(admin)
    key_id = new_key(admin, account, allowed_origins=["https://old.example"])["key_id"]
    data = ok(
        admin.put(f"/admin/v1/keys/{key_id}/origins", json={"allowed_origins": [APP_ORIGIN, "https://b.example"]})
    )
    assert (data["allowed_origins"], data["browser_only"], data["state"]) == (
        [APP_ORIGIN, "https://b.example"],
        False,
        "active",
    )
    data = ok(admin.put(f"/admin/v1/keys/{key_id}/origins", json={"allowed_origins": [], "browser_only": True}))
    assert (data["allowed_origins"], data["browser_only"]) == ([], True)


def test_origins_put_without_allowed_origins_is_400_missing_parameter(admin):
    account = new_account(admin)
    key_id = new_key(admin, account)["key_id"]
    response = admin.put(f"/admin/v1/keys/{key_id}/origins", json={"browser_only": True})
    assert_error(response, 400, "missing_parameter", "allowed_origins")


def test_origins_of_a_revoked_key_cannot_change_409_key_not_active(admin):
    account = new_account(admin)
    key_id = new_key(admin, account)["key_id"]
    ok(admin.post(f"/admin/v1/keys/{key_id}/revoke"))
    response = admin.put(f"/admin/v1/keys/{key_id}/origins", json={"allowed_origins": [APP_ORIGIN]})
    assert_error(response, 409, "key_not_active")


def test_rotating_a_revoked_key_is_409_key_not_active_and_creates_no_key(admin):
    account = new_account(admin)
    key_id = new_key(admin, account)["key_id"]
    ok(admin.post(f"/admin/v1/keys/{key_id}/revoke"))
    response = admin.post(f"/admin/v1/keys/{key_id}/rotate", json={})
    assert_error(response, 409, "key_not_active")
    assert len(ok(admin.get(f"/admin/v1/accounts/{account}/keys"))) == 1


def test_rotate_copies_the_account_origins_browser_only_flag_and_expiry(admin):
    account = new_account(admin)
    old = new_key(admin, account, allowed_origins=[APP_ORIGIN], browser_only=True, expires_at="2099-06-30T00:00:00Z")
    response = admin.post(f"/admin/v1/keys/{old['key_id']}/rotate")
    new = ok(response, 201)
    SEEN_KEYS.append(new["key"])
    assert response.headers["cache-control"] == "no-store"
    assert new["key"] != old["key"] and new["key_id"] != old["key_id"]
    for setting in ("account_id", "allowed_origins", "browser_only", "expires_at"):
        assert new[setting] == old[setting], setting
    assert new["previous"]["key_id"] == old["key_id"] and new["previous"]["state"] == "active"
    no_secret_in(str(new["previous"]), old["key"], new["key"])


# --- the life cycle, seen by /v1 -------------------------------------------------------------


def test_a_key_created_over_http_computes_positions(admin, anonymous):
    account = new_account(admin)
    plain = new_key(admin, account)["key"]
    response = positions(anonymous, plain)
    assert response.status_code == 200, response.text
    assert response.json()["data"][0]["body"] == "sun"


def test_a_revoked_key_is_refused_with_401_invalid_api_key(admin, anonymous):
    account = new_account(admin)
    created = new_key(admin, account)
    assert positions(anonymous, created["key"]).status_code == 200
    ok(admin.post(f"/admin/v1/keys/{created['key_id']}/revoke"))
    assert_error(positions(anonymous, created["key"]), 401, "invalid_api_key")


def test_an_expired_key_is_refused_with_401_invalid_api_key(admin, anonymous):
    account = new_account(admin)
    expires_at = datetime.now(UTC) + timedelta(seconds=3)
    created = new_key(admin, account, expires_at=expires_at.isoformat())
    assert positions(anonymous, created["key"]).status_code == 200
    time.sleep(max(0.0, (expires_at - datetime.now(UTC)).total_seconds()) + 0.3)
    assert_error(positions(anonymous, created["key"]), 401, "invalid_api_key")
    assert ok(admin.get(f"/admin/v1/keys/{created['key_id']}"))["state"] == "expired"


def test_updated_origins_refuse_another_origin_and_accept_the_listed_one(admin, anonymous):
    account = new_account(admin)
    created = new_key(admin, account)
    assert positions(anonymous, created["key"], origin="https://evil.example").status_code == 200  # no origins yet
    ok(admin.put(f"/admin/v1/keys/{created['key_id']}/origins", json={"allowed_origins": [APP_ORIGIN]}))
    assert_error(positions(anonymous, created["key"], origin="https://evil.example"), 403, "origin_not_allowed")
    assert positions(anonymous, created["key"], origin=APP_ORIGIN).status_code == 200
    assert positions(anonymous, created["key"]).status_code == 200  # server-to-server: no Origin header


def test_a_browser_only_key_without_an_origin_is_403_origin_required(admin, anonymous):
    account = new_account(admin)
    created = new_key(admin, account, allowed_origins=[APP_ORIGIN], browser_only=True)
    assert_error(positions(anonymous, created["key"]), 403, "origin_required")
    assert positions(anonymous, created["key"], origin=APP_ORIGIN).status_code == 200


def test_after_rotation_both_keys_work_until_the_old_one_is_revoked(admin, anonymous):
    account = new_account(admin)
    old = new_key(admin, account)
    new = ok(admin.post(f"/admin/v1/keys/{old['key_id']}/rotate", json={}), 201)
    SEEN_KEYS.append(new["key"])
    assert positions(anonymous, old["key"]).status_code == 200
    assert positions(anonymous, new["key"]).status_code == 200
    ok(admin.post(f"/admin/v1/keys/{old['key_id']}/revoke"))
    assert_error(positions(anonymous, old["key"]), 401, "invalid_api_key")
    assert positions(anonymous, new["key"]).status_code == 200


def test_rotation_with_revoke_old_revokes_the_old_key_at_once(admin, anonymous):
    account = new_account(admin)
    old = new_key(admin, account)
    new = ok(admin.post(f"/admin/v1/keys/{old['key_id']}/rotate", json={"revoke_old": True}), 201)
    SEEN_KEYS.append(new["key"])
    assert new["previous"]["state"] == "revoked"
    assert_error(positions(anonymous, old["key"]), 401, "invalid_api_key")
    assert positions(anonymous, new["key"]).status_code == 200


def test_keys_of_one_account_share_its_credit_balance(admin, anonymous):
    account = new_account(admin, credits=2)
    first, second = new_key(admin, account)["key"], new_key(admin, account)["key"]
    assert positions(anonymous, first).status_code == 200
    assert positions(anonymous, second).status_code == 200
    assert_error(positions(anonymous, first), 402, "insufficient_credits")
    ok(admin.post(f"/admin/v1/accounts/{account}/top-up", json={"credits": 1}))
    assert positions(anonymous, second).status_code == 200


# --- last: what the module did must not have left a secret in the logs -----------------------


def test_no_key_key_hash_or_admin_token_reaches_the_log(admin_stack):
    assert SEEN_KEYS, "the module created keys"
    logs = admin_stack.log_path.read_text(errors="replace")
    assert "admin_key_created" in logs  # the admin lines were captured: the check is not vacuous
    no_secret_in(logs, *SEEN_KEYS)
