"""GET /v1/usage and GET /v1/account (issue 39, part 4), rule by rule, on the gateway in process.

The figures are checked against charges made here with known prices: /v1/positions costs 1
credit, /v1/natal-chart 2 (their protos' ``credits``). Each test uses a fresh account, so its
first usage read is never answered from the cache (kept per account and query).
"""

from __future__ import annotations

import hashlib
import time
from datetime import UTC, date, datetime, timedelta

import pytest

from tests.api.in_process_stack import AppStack
from tests.api.test_conventions_api import assert_error, balance

POSITIONS = "/v1/positions"
NATAL = "/v1/natal-chart"
POSITIONS_QUERY = {"datetime": "2024-03-20T12:00:00Z", "bodies": "sun"}
NATAL_QUERY = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
POSITIONS_CREDITS, NATAL_CREDITS = 1, 2


@pytest.fixture(scope="module")
def quick_stack(module_stacks) -> AppStack:
    """A gateway whose usage figures are cached for 1 s, to watch one go stale and refresh."""
    return module_stacks.in_process("usage-quick", {"CELESTIAL_USAGE_CACHE_S": "1"})


def today() -> date:
    return datetime.now(UTC).date()


def second_key(stack: AppStack, account: str, *args: str) -> str:
    return stack.admin("key", "create", "--account", account, *args).stdout.strip()


def key_id_of(stack: AppStack, key: str) -> str:
    with stack.client(key) as client:
        return client.get("/v1/account").json()["data"]["key"]["key_id"]


def charge(stack: AppStack, key: str, path: str, times: int) -> None:
    query = POSITIONS_QUERY if path == POSITIONS else NATAL_QUERY
    with stack.client(key) as client:
        for _ in range(times):
            response = client.get(path, params=query)
            assert response.status_code == 200, response.text


def usage(stack: AppStack, api_key: str, **params) -> dict:
    with stack.client(api_key) as client:
        response = client.get("/v1/usage", params=params)
    assert response.status_code == 200, response.text
    return response.json()


# --- the figures --------------------------------------------------------------------------------


def test_usage_equals_the_charges_made_per_day_per_key_and_per_endpoint(stack):
    account, first = stack.new_key()
    second = second_key(stack, account)
    first_id, second_id = key_id_of(stack, first), key_id_of(stack, second)
    day = today()
    charge(stack, first, POSITIONS, 3)
    charge(stack, first, NATAL, 2)
    charge(stack, second, POSITIONS, 1)
    charge(stack, second, NATAL, 2)
    body = usage(stack, first)
    if today() != day:
        pytest.skip("the charges straddled UTC midnight")
    first_credits = 3 * POSITIONS_CREDITS + 2 * NATAL_CREDITS
    second_credits = 1 * POSITIONS_CREDITS + 2 * NATAL_CREDITS
    expected = {
        "credits": first_credits + second_credits,
        "requests": 8,
        "by_key": {
            first_id: {"credits": first_credits, "requests": 5},
            second_id: {"credits": second_credits, "requests": 3},
        },
        "by_endpoint": {
            POSITIONS: {"credits": 4 * POSITIONS_CREDITS, "requests": 4},
            NATAL: {"credits": 4 * NATAL_CREDITS, "requests": 4},
        },
    }
    assert body["data"]["total"] == expected
    days = {entry["date"]: entry for entry in body["data"]["days"]}
    assert days.pop(day.isoformat()) == {"date": day.isoformat(), **expected}
    assert all(entry["requests"] == 0 and entry["credits"] == 0 and entry["by_key"] == {} for entry in days.values())


def test_usage_of_one_key_counts_only_that_keys_requests(stack):
    account, first = stack.new_key()
    second = second_key(stack, account)
    charge(stack, first, POSITIONS, 2)
    charge(stack, second, NATAL, 1)
    second_id = key_id_of(stack, second)
    total = usage(stack, first, key=second_id)["data"]["total"]
    assert total == {
        "credits": NATAL_CREDITS,
        "requests": 1,
        "by_key": {second_id: {"credits": NATAL_CREDITS, "requests": 1}},
        "by_endpoint": {NATAL: {"credits": NATAL_CREDITS, "requests": 1}},
    }


def test_the_default_range_is_the_30_utc_days_ending_today(stack):
    _, key = stack.new_key()
    day = today()
    data = usage(stack, key)["data"]
    if today() != day:
        pytest.skip("read across UTC midnight")
    assert (data["start"], data["end"], data["key"]) == ((day - timedelta(days=29)).isoformat(), day.isoformat(), None)
    assert [entry["date"] for entry in data["days"]] == [(day - timedelta(days=29 - n)).isoformat() for n in range(30)]


def test_a_range_of_90_days_is_answered_day_by_day(stack):
    _, key = stack.new_key()
    data = usage(stack, key, start="2026-01-01", end="2026-03-31")["data"]
    assert (len(data["days"]), data["days"][0]["date"], data["days"][-1]["date"]) == (90, "2026-01-01", "2026-03-31")


def test_a_range_of_more_than_90_days_is_refused_range_too_long(stack):
    _, key = stack.new_key()
    with stack.client(key) as client:
        response = client.get("/v1/usage", params={"start": "2026-01-01", "end": "2026-04-01"})
    assert "90" in assert_error(response, 400, "range_too_long", "start")["suggestion"]


# --- free, and counted ---------------------------------------------------------------------------


def test_usage_and_account_cost_nothing(stack):
    account, key = stack.new_key(credits=500)
    charge(stack, key, POSITIONS, 1)
    before = balance(stack, account)
    with stack.client(key) as client:
        answers = [
            client.get("/v1/usage"),
            client.get("/v1/account"),
            client.get("/v1/usage", params={"start": "2026-01-01"}),
        ]
    assert [answer.json()["meta"]["credits_used"] for answer in answers[:2]] == [0, 0]
    assert balance(stack, account) == before == 500 - POSITIONS_CREDITS


def test_usage_reads_count_in_the_rate_limit_like_any_authenticated_request(stack):
    _, key = stack.new_key(rate_per_minute=2)
    with stack.client(key) as client:
        statuses = [client.get("/v1/usage").status_code for _ in range(3)]
        limited = client.get("/v1/account")
    assert statuses[:2] == [200, 200]
    assert 429 in (statuses[2], limited.status_code)
    assert limited.headers["x-ratelimit-limit"] == "2"


# --- who sees what -------------------------------------------------------------------------------


def test_a_key_of_another_account_sees_nothing_of_this_one(stack):
    _, mine = stack.new_key()
    charge(stack, mine, NATAL, 2)
    _, theirs = stack.new_key()
    assert usage(stack, theirs)["data"]["total"] == {"credits": 0, "requests": 0, "by_key": {}, "by_endpoint": {}}
    with stack.client(theirs) as client:
        response = client.get("/v1/usage", params={"key": key_id_of(stack, mine)})
    assert_error(response, 400, "invalid_parameter", "key")


def test_usage_and_account_without_a_key_are_401(stack):
    with stack.client() as client:
        for path in ("/v1/usage", "/v1/account"):
            assert_error(client.get(path), 401, "invalid_api_key")


def test_a_browser_only_key_follows_its_origin_rules_here_too(stack):
    account, _ = stack.new_key()
    browser_key = second_key(stack, account, "--origin", "https://app.example", "--browser-only")
    with stack.client(browser_key) as client:
        assert_error(client.get("/v1/usage"), 403, "origin_required")
        assert_error(client.get("/v1/account", headers={"Origin": "https://evil.example"}), 403, "origin_not_allowed")
        assert client.get("/v1/usage", headers={"Origin": "https://app.example"}).status_code == 200


def test_the_key_may_come_in_x_api_key(stack):
    _, key = stack.new_key()
    with stack.client(headers={"X-API-Key": key}) as client:
        assert client.get("/v1/account").status_code == 200


# --- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"since": "2026-01-01"}, "since"),
        ({"start": "2026-1-01"}, "start"),
        ({"end": "yesterday"}, "end"),
        ({"start": "2026-03-02", "end": "2026-03-01"}, "end"),
        ({"key": ""}, "key"),
        ({"key": "key_nothing_like_it"}, "key"),
    ],
)
def test_bad_usage_parameters_are_400_invalid_parameter_and_cost_nothing(stack, params, param):
    account, key = stack.new_key(credits=100)
    with stack.client(key) as client:
        assert_error(client.get("/v1/usage", params=params), 400, "invalid_parameter", param)
    assert balance(stack, account) == 100


def test_account_takes_no_parameter(stack):
    _, key = stack.new_key()
    with stack.client(key) as client:
        assert_error(client.get("/v1/account", params={"verbose": "true"}), 400, "invalid_parameter", "verbose")


def test_usage_and_account_are_get_only(stack):
    _, key = stack.new_key()
    with stack.client(key) as client:
        for path in ("/v1/usage", "/v1/account"):
            assert client.post(path, json={}).status_code == 405


# --- staleness -----------------------------------------------------------------------------------


def test_figures_are_answered_with_the_moment_they_were_read_within_60_s(stack):
    _, key = stack.new_key()
    as_of = datetime.fromisoformat(usage(stack, key)["meta"]["as_of"].replace("Z", "+00:00"))
    assert timedelta(0) <= datetime.now(UTC) - as_of <= timedelta(seconds=60)


def test_a_figure_read_again_within_the_cache_age_is_the_same_and_fresh_after_it(quick_stack):
    _, key = quick_stack.new_key()
    first = usage(quick_stack, key)
    charge(quick_stack, key, POSITIONS, 1)
    again = usage(quick_stack, key)
    time.sleep(1.1)
    fresh = usage(quick_stack, key)
    assert again["meta"]["as_of"] == first["meta"]["as_of"]
    assert again["data"]["total"]["requests"] == 0
    assert fresh["data"]["total"]["requests"] == 1


# --- /v1/account ---------------------------------------------------------------------------------


def test_account_shows_the_balance_the_limits_and_the_calling_keys_own_settings(stack):
    account, _ = stack.new_key(credits=700, rate_per_minute=120, max_concurrent=7)
    key = second_key(
        stack, account, "--name", "web front end", "--origin", "https://app.example", "--expires", "2099-12-31"
    )
    with stack.client(key) as client:
        body = client.get("/v1/account").json()
    assert body["data"]["account"]["name"] == account
    assert body["data"]["account"]["balance"] == 700 == body["meta"]["credits_remaining"]
    assert body["data"]["account"]["limits"] == {"rate_per_minute": 120, "max_concurrent": 7}
    shown = body["data"]["key"]
    assert (shown["name"], shown["allowed_origins"], shown["browser_only"], shown["state"]) == (
        "web front end",
        ["https://app.example"],
        False,
        "active",
    )
    assert shown["expires_at"].startswith("2099-12-31")
    assert shown["prefix"] == key[: len(shown["prefix"]) - 3] + "..."


def test_account_never_shows_the_key_nor_its_hash(stack):
    _, key = stack.new_key()
    with stack.client(key) as client:
        text = client.get("/v1/account").text
    assert key not in text
    assert hashlib.sha256(key.encode()).hexdigest() not in text
    assert "hash" not in text


def test_both_answers_fit_the_schemas_the_served_openapi_document_gives_them(stack):
    from jsonschema import Draft202012Validator

    account, key = stack.new_key()
    charge(stack, key, POSITIONS, 1)
    with stack.client(key) as client:
        document = client.get("/v1/openapi.json").json()
        for path in ("/v1/usage", "/v1/account"):
            schema = document["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
            # Its references resolved among the document's components.
            schema = {**schema, "components": document["components"]}
            assert list(Draft202012Validator(schema).iter_errors(client.get(path).json())) == [], path
