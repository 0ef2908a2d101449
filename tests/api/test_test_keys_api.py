"""Test keys (issue 39, "Test keys"; docs/accounts-and-keys.md, "Test keys"; docs/limits.md):
a ``svc_test_`` key gets the answers a live key gets, costs nothing even at a zero balance, runs
under a small limit of its own that leaves the live limit alone, says ``meta.mode: "test"``, and
is refused, revoked, expired or limited to origins like a live key."""

from __future__ import annotations

import json
import os
import time
from datetime import UTC, datetime, timedelta

import pytest

from gateway.key_modes import TEST_MAX_CONCURRENT, TEST_RATE_PER_MINUTE
from tests.api.test_conventions_api import assert_error, balance
from tests.api.test_dashboard_api import new_owner
from tests.api.test_limits_api import hold_slots, release_slots, wait_for_fresh_window

POSITIONS = "/v1/positions"
MOMENT = {"datetime": "2024-03-20T12:00:00Z", "bodies": "sun,moon"}
APP = "https://app.example.com"


def account(stack, credits: int = 1000, *, rate: int = 300, concurrent: int = 50) -> str:
    """Return the name of a fresh account with ``credits`` and these live limits."""
    name = f"testkeys-{os.urandom(5).hex()}"
    stack.admin(
        "account",
        "create",
        name,
        "--credits",
        str(credits),
        "--rate-per-minute",
        str(rate),
        "--max-concurrent",
        str(concurrent),
    )
    return name


def test_key(stack, name: str, *options: str) -> str:
    """Return a new test key of the account ``name`` (``celestial-admin key create --test``)."""
    return stack.admin("key", "create", "--account", name, "--test", *options).stdout.strip()


test_key.__test__ = False  # a helper, not a test


def live_key(stack, name: str) -> str:
    return stack.admin("key", "create", "--account", name).stdout.strip()


def test_a_test_key_gets_the_answer_a_live_key_gets(stack):
    name = account(stack)
    with stack.client(live_key(stack, name)) as live, stack.client(test_key(stack, name)) as test:
        from_live, from_test = live.get(POSITIONS, params=MOMENT), test.get(POSITIONS, params=MOMENT)
    assert from_live.status_code == from_test.status_code == 200, from_test.text
    assert from_test.json()["data"] == from_live.json()["data"]


def test_a_test_keys_answer_says_mode_test_and_a_live_keys_has_no_mode(stack):
    name = account(stack)
    with stack.client(live_key(stack, name)) as live, stack.client(test_key(stack, name)) as test:
        live_meta, test_meta = (
            live.get(POSITIONS, params=MOMENT).json()["meta"],
            test.get(POSITIONS, params=MOMENT).json()["meta"],
        )
    assert test_meta["mode"] == "test"
    assert "mode" not in live_meta
    assert set(test_meta) - set(live_meta) == {"mode"}


def test_a_test_key_costs_nothing_and_the_balance_never_changes(stack):
    name = account(stack, credits=100)
    with stack.client(test_key(stack, name)) as client:
        metas = [client.get(POSITIONS, params=MOMENT).json()["meta"] for _ in range(3)]
    assert [(meta["credits_used"], meta["credits_remaining"]) for meta in metas] == [(0, 100)] * 3
    assert balance(stack, name) == 100


def test_a_test_key_is_answered_at_a_zero_balance(stack):
    name = account(stack, credits=0)
    with stack.client(live_key(stack, name)) as live, stack.client(test_key(stack, name)) as test:
        assert_error(live.get(POSITIONS, params=MOMENT), 402, "insufficient_credits")
        response = test.get(POSITIONS, params=MOMENT)
    assert response.status_code == 200, response.text
    assert (response.json()["meta"]["credits_used"], response.json()["meta"]["credits_remaining"]) == (0, 0)


def test_test_key_requests_are_not_in_the_usage(stack):
    name = account(stack)
    with stack.client(test_key(stack, name)) as test:
        assert test.get(POSITIONS, params=MOMENT).status_code == 200
        usage = test.get("/v1/usage")
    assert usage.status_code == 200, usage.text
    assert usage.json()["meta"]["mode"] == "test"
    assert usage.json()["data"]["total"] == {"credits": 0, "requests": 0, "by_key": {}, "by_endpoint": {}}
    assert json.loads(stack.admin("usage", name, "--json").stdout)["requests"] == 0


def test_a_batch_through_a_test_key_is_free(stack):
    name = account(stack, credits=0)
    subrequest = {"endpoint": "/v1/aspects", "params": {"datetime": "2024-03-20T12:00:00Z"}}
    with stack.client(test_key(stack, name)) as client:
        response = client.post("/v1/batch", json={"requests": [subrequest] * 3})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["data"]["summary"] == {"total": 3, "succeeded": 3, "failed": 0}
    assert (body["meta"]["credits_used"], body["meta"]["credits_remaining"], body["meta"]["mode"]) == (0, 0, "test")
    assert balance(stack, name) == 0


def test_test_keys_meet_their_own_rate_limit_with_429_and_leave_the_live_limit_untouched(stack):
    wait_for_fresh_window(margin_s=20)
    name = account(stack, rate=TEST_RATE_PER_MINUTE + 40)
    with stack.client(test_key(stack, name)) as test, stack.client(live_key(stack, name)) as live:
        answered = [test.get(POSITIONS, params=MOMENT) for _ in range(TEST_RATE_PER_MINUTE)]
        assert {response.status_code for response in answered} == {200}
        assert answered[0].headers["x-ratelimit-limit"] == str(TEST_RATE_PER_MINUTE)
        refused = test.get(POSITIONS, params=MOMENT)
        from_live = live.get(POSITIONS, params=MOMENT)
    assert_error(refused, 429, "rate_limit_exceeded")
    assert int(refused.headers["retry-after"]) >= 1
    assert from_live.status_code == 200, from_live.text
    # The live window counted only the live request: the test traffic used none of it.
    assert from_live.headers["x-ratelimit-limit"] == str(TEST_RATE_PER_MINUTE + 40)
    assert from_live.headers["x-ratelimit-remaining"] == str(TEST_RATE_PER_MINUTE + 40 - 1)


def test_every_test_key_of_an_account_shares_one_test_limit(stack):
    wait_for_fresh_window(margin_s=20)
    name = account(stack)
    with stack.client(test_key(stack, name)) as first, stack.client(test_key(stack, name)) as second:
        for _ in range(TEST_RATE_PER_MINUTE // 2):
            assert first.get(POSITIONS, params=MOMENT).status_code == 200
            assert second.get(POSITIONS, params=MOMENT).status_code == 200
        assert_error(first.get(POSITIONS, params=MOMENT), 429, "rate_limit_exceeded")


def test_a_live_limit_used_up_leaves_test_keys_answered(stack):
    wait_for_fresh_window(margin_s=20)
    name = account(stack, rate=2)
    with stack.client(live_key(stack, name)) as live, stack.client(test_key(stack, name)) as test:
        assert [live.get(POSITIONS, params=MOMENT).status_code for _ in range(3)] == [200, 200, 429]
        response = test.get(POSITIONS, params=MOMENT)
    assert response.status_code == 200, response.text
    assert response.headers["x-ratelimit-limit"] == "2"  # never more than the account's live limit


def test_test_keys_have_their_own_concurrency_limit_apart_from_the_live_one(stack):
    name = account(stack, concurrent=TEST_MAX_CONCURRENT + 5)
    # Every live slot held (another gateway's requests in flight): the test key is still answered.
    slots = hold_slots(stack, name, TEST_MAX_CONCURRENT + 5)
    try:
        with stack.client(test_key(stack, name)) as test, stack.client(live_key(stack, name)) as live:
            assert_error(live.get(POSITIONS, params=MOMENT), 429, "rate_limit_exceeded")
            response = test.get(POSITIONS, params=MOMENT)
        assert response.status_code == 200, response.text
    finally:
        release_slots(stack, name, slots)


def test_a_revoked_test_key_is_401_like_a_live_one(stack):
    name = account(stack)
    key = test_key(stack, name)
    key_id = json.loads(stack.admin("key", "list", "--account", name, "--json").stdout)[0]["key_id"]
    stack.admin("key", "revoke", key_id)
    with stack.client(key) as client:
        assert_error(client.get(POSITIONS, params=MOMENT), 401, "invalid_api_key")


def test_an_expired_test_key_is_401_like_a_live_one(stack):
    name = account(stack)
    key = test_key(stack, name, "--expires", (datetime.now(UTC) + timedelta(seconds=2)).isoformat())
    time.sleep(2.5)
    with stack.client(key) as client:
        assert_error(client.get(POSITIONS, params=MOMENT), 401, "invalid_api_key")


def test_a_test_key_keeps_to_its_allowed_origins_like_a_live_one(stack):
    name = account(stack)
    key = test_key(stack, name, "--origin", APP)
    with stack.client(key) as client:
        assert client.get(POSITIONS, params=MOMENT, headers={"Origin": APP}).status_code == 200
        assert_error(
            client.get(POSITIONS, params=MOMENT, headers={"Origin": "https://evil.example"}), 403, "origin_not_allowed"
        )


def test_the_cli_creates_a_test_key_and_lists_its_mode(stack):
    name = account(stack)
    key = test_key(stack, name, "--name", "CI")
    assert key.startswith("svc_test_") and len(key) == 41
    (view,) = json.loads(stack.admin("key", "list", "--account", name, "--json").stdout)
    assert (view["mode"], view["prefix"], view["name"]) == ("test", f"svc_test_{key[9:13]}...", "CI")


def test_the_account_endpoint_shows_the_calling_key_is_a_test_key(stack):
    name = account(stack)
    with stack.client(test_key(stack, name)) as client:
        body = client.get("/v1/account").json()
    assert (body["data"]["key"]["mode"], body["meta"]["mode"]) == ("test", "test")


# --- the admin API -------------------------------------------------------------------------------

ADMIN_TOKEN = "adm-" + os.urandom(24).hex()


@pytest.fixture(scope="module")
def admin(module_stacks):
    """A client of a stack whose admin API is on, sending the admin token."""
    with module_stacks.in_process("test-keys-admin", {"CELESTIAL_ADMIN_TOKEN": ADMIN_TOKEN}).client(
        ADMIN_TOKEN
    ) as client:
        yield client


def admin_account(admin) -> str:
    name = f"testkeys-{os.urandom(5).hex()}"
    assert admin.post("/admin/v1/accounts", json={"name": name, "credits": 10}).status_code == 201
    return name


def test_the_admin_api_creates_a_test_key_with_mode_test(admin):
    name = admin_account(admin)
    created = admin.post(f"/admin/v1/accounts/{name}/keys", json={"mode": "test"})
    assert created.status_code == 201, created.text
    data = created.json()["data"]
    assert data["key"].startswith("svc_test_") and data["mode"] == "test"
    assert data["prefix"] == f"svc_test_{data['key'][9:13]}..."
    live = admin.post(f"/admin/v1/accounts/{name}/keys", json={}).json()["data"]
    assert live["key"].startswith("svc_live_") and live["mode"] == "live"


def test_the_admin_api_refuses_a_key_mode_that_is_neither_live_nor_test(admin):
    name = admin_account(admin)
    for mode in ("sandbox", True, None):
        assert_error(
            admin.post(f"/admin/v1/accounts/{name}/keys", json={"mode": mode}), 400, "invalid_parameter", "mode"
        )
    assert admin.get(f"/admin/v1/accounts/{name}/keys").json()["data"] == []


def test_rotating_a_test_key_gives_a_test_key(admin):
    name = admin_account(admin)
    old = admin.post(f"/admin/v1/accounts/{name}/keys", json={"mode": "test"}).json()["data"]
    rotated = admin.post(f"/admin/v1/keys/{old['key_id']}/rotate", json={"revoke_old": True})
    assert rotated.status_code == 201, rotated.text
    assert (rotated.json()["data"]["mode"], rotated.json()["data"]["key"][:9]) == ("test", "svc_test_")


# --- the dashboard -------------------------------------------------------------------------------


def test_a_test_key_created_in_the_dashboard_is_shown_once_badged_test_and_costs_nothing(stack):
    account_name, _, client = new_owner(stack, credits=5)
    form = client.page("/dashboard/keys")
    assert 'name="mode" type="radio" value="test"' in form
    assert f"{TEST_RATE_PER_MINUTE} computations a minute, {TEST_MAX_CONCURRENT} at once" in form
    key = client.create_key(mode="test", name="CI")
    assert key.startswith("svc_test_")
    listing = client.page("/dashboard/keys")
    assert key not in listing
    row = listing[listing.index(f"svc_test_{key[9:13]}...") :].split("</tr>", 1)[0]
    assert 'class="badge badge-test"' in row and ">test</span>" in row
    with stack.client(key) as api:
        response = api.get(POSITIONS, params=MOMENT)
    assert (response.status_code, response.json()["meta"]["mode"]) == (200, "test")
    assert balance(stack, account_name) == 5


def test_a_live_key_in_the_dashboard_has_no_test_badge(stack):
    _, _, client = new_owner(stack)
    key = client.create_key(name="backend")
    assert key.startswith("svc_live_")
    assert "badge-test" not in client.page("/dashboard/keys")


def test_the_dashboard_refuses_a_key_mode_that_is_neither_live_nor_test(stack):
    account_name, _, client = new_owner(stack)
    response = client.submit("/dashboard/keys", "/dashboard/keys", {"mode": "sandbox"})
    assert response.status_code == 400
    assert "Choose a live key or a test key." in response.text
    assert json.loads(stack.admin("key", "list", "--account", account_name, "--json").stdout) == []
