"""Spend caps (issue 39, part 3; docs/limits.md, "Spend caps"), one test per rule, on the app
in process with services that count their calls, an SMTP sink and the admin API on.

Caps are set through the admin CLI, the admin API and the dashboard as an operator or owner
would; the clock the periods are read on (``store.spend_caps.now_s``) is moved in process to
cross a UTC midnight.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from shared.errors import ServiceUnavailable
from store import spend_caps
from tests.api.in_process_pool import in_process_pools
from tests.api.in_process_stack import AppStack
from tests.api.test_conventions_api import assert_error, balance
from tests.dashboard_client import DashboardClient
from tests.smtp_sink import SmtpSink

ADMIN_TOKEN = "adm-" + os.urandom(24).hex()
POSITIONS = "/v1/positions"  # 1 credit
MOMENT = {"datetime": "2024-03-20T12:00:00Z", "bodies": "sun"}
BATCH = "/v1/batch"


class CountingPool:
    """A service pool that counts the calls it is sent, then makes them (or fails them with
    ``failure`` when one is set: a service that broke after the charge)."""

    def __init__(self, pool) -> None:
        self._pool = pool
        self.calls = 0
        self.failure: Exception | None = None

    async def call(self, *args, **kwargs):
        self.calls += 1
        if self.failure is not None:
            raise self.failure
        return await self._pool.call(*args, **kwargs)

    def __getattr__(self, name: str):
        return getattr(self._pool, name)


@pytest.fixture(scope="module")
def smtp():
    sink = SmtpSink().start()
    yield sink
    sink.stop()


@pytest.fixture(scope="module")
def pools() -> dict[str, CountingPool]:
    return {name: CountingPool(pool) for name, pool in in_process_pools().items()}


@pytest.fixture(scope="module")
def stack(module_stacks, smtp, pools) -> AppStack:
    env = {"CELESTIAL_ADMIN_TOKEN": ADMIN_TOKEN, "CELESTIAL_SMTP_URL": smtp.url, "CELESTIAL_KEY_CACHE_S": "0"}
    return module_stacks.in_process("spend-caps", env, pools)


@pytest.fixture(scope="module")
def admin(stack: AppStack) -> httpx.Client:
    with stack.client(ADMIN_TOKEN) as client:
        yield client


def calls(pools: dict[str, CountingPool]) -> int:
    return sum(pool.calls for pool in pools.values())


def account_cap(stack: AppStack, name: str, *options: str) -> dict:
    return json.loads(stack.admin("account", "cap", name, *options, "--json").stdout)


def key_id_of(stack: AppStack, name: str) -> str:
    return json.loads(stack.admin("key", "list", "--account", name, "--json").stdout)[0]["key_id"]


def test_a_request_that_would_pass_a_cap_is_402_spend_cap_reached_saying_the_cap_spent_and_reset(stack):
    name, key = stack.new_key(credits=100)
    account_cap(stack, name, "--daily", "2")
    with stack.client(key) as client:
        assert [client.get(POSITIONS, params=MOMENT).status_code for _ in range(2)] == [200, 200]
        refused = client.get(POSITIONS, params=MOMENT)
    error = assert_error(refused, 402, "spend_cap_reached")
    tomorrow = datetime.now(UTC).date() + timedelta(days=1)
    assert error["spend_cap"] == {
        "scope": "account",
        "period": "daily",
        "cap": 2,
        "spent": 2,
        "resets_at": f"{tomorrow.isoformat()}T00:00:00.000Z",
    }
    assert "2 credits" in error["message"] and tomorrow.isoformat() in error["message"]
    assert "retry-after" not in refused.headers  # the cap holds until resets_at, not for seconds


def test_a_refused_request_costs_nothing_and_never_reaches_the_service(stack, pools):
    name, key = stack.new_key(credits=100)
    account_cap(stack, name, "--monthly", "0")
    before = calls(pools)
    with stack.client(key) as client:
        assert_error(client.get(POSITIONS, params=MOMENT), 402, "spend_cap_reached")
    assert calls(pools) == before
    assert balance(stack, name) == 100


def test_a_keys_cap_refuses_that_key_and_leaves_the_accounts_other_keys_alone(stack):
    name, capped = stack.new_key(credits=100)
    other = stack.admin("key", "create", "--account", name).stdout.strip()
    stack.admin("key", "cap", key_id_of(stack, name), "--daily", "1")
    with stack.client(capped) as client:
        assert client.get(POSITIONS, params=MOMENT).status_code == 200
        error = assert_error(client.get(POSITIONS, params=MOMENT), 402, "spend_cap_reached")
    assert (error["spend_cap"]["scope"], error["spend_cap"]["key_id"]) == ("key", key_id_of(stack, name))
    with stack.client(other) as client:
        assert client.get(POSITIONS, params=MOMENT).status_code == 200


def test_a_cleared_cap_lets_requests_through_again(stack):
    name, key = stack.new_key(credits=100)
    account_cap(stack, name, "--daily", "0")
    with stack.client(key) as client:
        assert client.get(POSITIONS, params=MOMENT).status_code == 402
        view = account_cap(stack, name, "--clear")
        assert view["account"]["daily"]["cap"] is None
        assert client.get(POSITIONS, params=MOMENT).status_code == 200


def test_a_cap_resets_at_utc_midnight(stack, monkeypatch):
    name, key = stack.new_key(credits=100)
    account_cap(stack, name, "--daily", "1")
    with stack.client(key) as client:
        assert client.get(POSITIONS, params=MOMENT).status_code == 200
        assert client.get(POSITIONS, params=MOMENT).status_code == 402
        midnight = datetime.combine(datetime.now(UTC).date() + timedelta(days=1), datetime.min.time(), UTC)
        monkeypatch.setattr(spend_caps, "now_s", lambda: midnight.timestamp() + 1)
        assert client.get(POSITIONS, params=MOMENT).status_code == 200


def test_a_failed_request_is_refunded_and_frees_its_spend(stack, pools, monkeypatch):
    name, key = stack.new_key(credits=100)
    account_cap(stack, name, "--daily", "1")
    with stack.client(key) as client:
        monkeypatch.setattr(pools["ephemeris"], "failure", ServiceUnavailable("down for the test", retry_after_s=1))
        assert client.get(POSITIONS, params=MOMENT).status_code == 503
        monkeypatch.setattr(pools["ephemeris"], "failure", None)
        assert client.get(POSITIONS, params=MOMENT).status_code == 200
    assert balance(stack, name) == 99
    assert json.loads(stack.admin("usage", name, "--json").stdout)["refunds"] == 1  # it was charged, then refunded


def test_batch_sub_requests_past_the_cap_get_402_and_cost_nothing(stack):
    name, key = stack.new_key(credits=100)
    account_cap(stack, name, "--daily", "2")
    with stack.client(key) as client:
        body = client.post(BATCH, json={"requests": [{"endpoint": POSITIONS, "params": MOMENT}] * 3}).json()
    results = body["data"]["results"]
    assert sorted(result["status"] for result in results) == [200, 200, 402]
    assert [r["errors"][0]["code"] for r in results if r["status"] == 402] == ["spend_cap_reached"]
    assert body["meta"]["credits_used"] == 2 and balance(stack, name) == 98


def test_get_account_shows_the_caps_and_what_was_spent_this_day_and_month(stack):
    name, key = stack.new_key(credits=100)
    account_cap(stack, name, "--daily", "10", "--monthly", "100")
    stack.admin("key", "cap", key_id_of(stack, name), "--monthly", "50")
    with stack.client(key) as client:
        client.get(POSITIONS, params=MOMENT)
        data = client.get("/v1/account").json()["data"]
    account, own = data["account"]["spend_caps"], data["key"]["spend_caps"]
    assert (
        account["daily"]["cap"],
        account["daily"]["spent"],
        account["monthly"]["cap"],
        account["monthly"]["spent"],
    ) == (10, 1, 100, 1)
    assert (own["daily"]["cap"], own["monthly"]["cap"], own["monthly"]["spent"]) == (None, 50, 1)
    first_of_next_month = (datetime.now(UTC).replace(day=28) + timedelta(days=4)).replace(day=1).date()
    assert account["monthly"]["resets_at"] == f"{first_of_next_month.isoformat()}T00:00:00.000Z"


def test_the_owners_get_one_mail_when_80_percent_of_a_cap_is_spent_in_its_period(stack, smtp):
    name, key = stack.new_key(credits=100)
    email = f"owner-{os.urandom(4).hex()}@example.com"
    stack.admin("account", "invite", name, email)
    account_cap(stack, name, "--daily", "5")
    with stack.client(key) as client:
        for _ in range(3):
            assert client.get(POSITIONS, params=MOMENT).status_code == 200
        assert smtp.mail_to(email, wait_s=0.5) == []  # 60 %: no warning yet
        for _ in range(2):
            assert client.get(POSITIONS, params=MOMENT).status_code == 200  # 80 %, then 100 %
    (warning,) = smtp.mail_to(email)
    assert warning["Subject"] == f"Celestial: account {name} has spent 80% of its daily cap"
    assert "4 of its daily spend cap of 5 credits" in warning.get_content()
    assert len(smtp.mail_to(email, wait_s=0.5)) == 1  # once per period


# --- setting caps --------------------------------------------------------------------------------


def test_the_admin_api_sets_shows_and_clears_an_accounts_and_a_keys_caps(stack, admin):
    name, _ = stack.new_key(credits=100)
    key_id = key_id_of(stack, name)
    answer = admin.patch(f"/admin/v1/accounts/{name}/spend-caps", json={"daily": 10, "monthly": 200})
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"]["account"]["daily"]["cap"] == 10
    admin.patch(f"/admin/v1/keys/{key_id}/spend-caps", json={"monthly": 20})
    admin.patch(f"/admin/v1/accounts/{name}/spend-caps", json={"daily": None})  # clears one, keeps the other
    shown = admin.get(f"/admin/v1/accounts/{name}/spend-caps").json()["data"]
    assert (shown["account"]["daily"]["cap"], shown["account"]["monthly"]["cap"]) == (None, 200)
    assert [(k["key_id"], k["monthly"]["cap"]) for k in shown["keys"]] == [(key_id, 20)]


@pytest.mark.parametrize(
    "body, param", [({}, "daily"), ({"daily": -1}, "daily"), ({"monthly": 1.5}, "monthly"), ({"weekly": 3}, "weekly")]
)
def test_the_admin_api_refuses_a_cap_that_is_no_whole_number_of_credits(stack, admin, body, param):
    name, _ = stack.new_key(credits=1)
    code = "missing_parameter" if not body else "invalid_parameter"
    assert_error(admin.patch(f"/admin/v1/accounts/{name}/spend-caps", json=body), 400, code, param)


def test_the_admin_api_answers_404_for_an_unknown_account_or_key(admin):
    assert admin.patch("/admin/v1/accounts/no-such-account/spend-caps", json={"daily": 1}).status_code == 404
    assert admin.patch("/admin/v1/keys/key_missing/spend-caps", json={"daily": 1}).status_code == 404


def test_the_cli_needs_a_cap_or_clear_and_not_both(stack):
    name, _ = stack.new_key(credits=1)
    for options in ((), ("--daily", "1", "--clear")):
        with pytest.raises(Exception) as failed:
            stack.admin("account", "cap", name, *options)
        assert failed.value.returncode == 2


def test_an_owner_sets_the_accounts_and_a_keys_caps_in_the_dashboard(stack):
    name, key = stack.new_key(credits=100)
    key_id = key_id_of(stack, name)
    owner = DashboardClient(stack.client())
    link = stack.admin("account", "invite", name, f"{name}@example.com").stdout.strip().splitlines()[-1]
    assert owner.accept_invite(link).status_code == 303
    page = owner.page("/dashboard/spend-caps")
    assert "Spend caps" in page and key_id in page
    saved = owner.submit(
        "/dashboard/spend-caps", "/dashboard/spend-caps", {"scope": "account", "daily": "7", "monthly": ""}
    )
    assert (saved.status_code, saved.headers["location"]) == (303, "/dashboard/spend-caps?notice=caps")
    assert "spend caps are saved" in owner.page("/dashboard/spend-caps?notice=caps")
    owner.submit("/dashboard/spend-caps", "/dashboard/spend-caps", {"scope": key_id, "daily": "", "monthly": "30"})
    status = account_cap(stack, name, "--daily", "7")  # the CLI shows what the dashboard set
    assert (status["account"]["daily"]["cap"], status["account"]["monthly"]["cap"]) == (7, None)
    assert [(k["key_id"], k["monthly"]["cap"]) for k in status["keys"]] == [(key_id, 30)]
    refused = owner.submit(
        "/dashboard/spend-caps", "/dashboard/spend-caps", {"scope": "account", "daily": "lots", "monthly": ""}
    )
    assert refused.status_code == 400 and "whole number of credits" in refused.text
    other_name, _ = stack.new_key(credits=1)
    foreign = owner.submit(
        "/dashboard/spend-caps",
        "/dashboard/spend-caps",
        {"scope": key_id_of(stack, other_name), "daily": "1", "monthly": ""},
    )
    assert foreign.status_code == 404
