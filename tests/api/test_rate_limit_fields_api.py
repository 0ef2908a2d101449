"""The HTTP standards' limit fields (issue 48, part 5; docs/limits.md): every authenticated
answer carries ``RateLimit-Policy`` and ``RateLimit`` exactly as the IETF draft
draft-ietf-httpapi-ratelimit-headers-11 writes them (proven by parsing them with ``http_sfv``,
a Structured Field parser of RFC 9651) beside the ``X-RateLimit-*`` the docs promise; a limit's
refusal carries the draft's ``quota-exceeded`` problem details (RFC 9457) beside the error
body; and a generic client library that reads ``RateLimit`` (``retryheader``, PyPI) paces
itself by them and is never refused."""

from __future__ import annotations

import math
import time
import types

import http_sfv
import pytest
import retryheader

from gateway.key_modes import TEST_RATE_PER_MINUTE
from shared.errors import QUOTA_EXCEEDED_TYPE
from tests.api.test_answer_schemas_api import undeclared_or_missing
from tests.api.test_conventions_api import assert_error
from tests.api.test_limits_api import MOMENT, POSITIONS, hold_slots, limited_key, release_slots, wait_for_fresh_window


def _items(value: str) -> list[tuple[str, dict]]:
    """Return a Structured Field List's items as (value, parameters); raises on a bad syntax."""
    parsed = http_sfv.List()
    parsed.parse(value.encode("ascii"))
    return [(item.value, dict(item.params)) for item in parsed]


def test_every_authenticated_answer_carries_ratelimit_policy_and_ratelimit_as_draft_11_writes_them(stack):
    _, key = limited_key(stack, rate=100)
    with stack.client(key) as client:
        ok = client.get(POSITIONS, params=MOMENT)
        bad = client.get(POSITIONS, params={**MOMENT, "bodies": "vulcan"})
    assert (ok.status_code, bad.status_code) == (200, 400)
    for response in (ok, bad):
        assert _items(response.headers["ratelimit-policy"]) == [("minute", {"q": 100, "w": 60})]
        ((policy, limit),) = _items(response.headers["ratelimit"])
        assert policy == "minute" and set(limit) == {"r", "t"}
        assert limit["r"] == int(response.headers["x-ratelimit-remaining"])
        to_reset = int(response.headers["x-ratelimit-reset"]) - time.time()
        assert 0 <= limit["t"] <= 60 and abs(limit["t"] - math.ceil(to_reset)) <= 1


def test_a_test_keys_answer_carries_the_test_limits_figures(stack):
    name, _ = limited_key(stack, rate=300)
    test_key = stack.admin("key", "create", "--account", name, "--test").stdout.strip()
    with stack.client(test_key) as client:
        response = client.get(POSITIONS, params=MOMENT)
    assert response.status_code == 200 and response.json()["meta"]["mode"] == "test"
    assert _items(response.headers["ratelimit-policy"]) == [("minute", {"q": TEST_RATE_PER_MINUTE, "w": 60})]
    assert _items(response.headers["ratelimit"])[0][1]["r"] == int(response.headers["x-ratelimit-remaining"])


def test_an_unauthenticated_answer_carries_no_ratelimit_fields(stack):
    with stack.client() as anonymous:
        response = anonymous.get(POSITIONS, params=MOMENT)
    assert response.status_code == 401
    assert "ratelimit" not in response.headers and "ratelimit-policy" not in response.headers


def test_a_429_over_the_minute_names_quota_exceeded_and_its_policy_beside_the_error_body(stack):
    _, key = limited_key(stack, rate=1)
    wait_for_fresh_window()
    with stack.client(key) as client:
        assert client.get(POSITIONS, params=MOMENT).status_code == 200
        refused = client.get(POSITIONS, params=MOMENT)
    error = assert_error(refused, 429, "rate_limit_exceeded")
    body = refused.json()
    assert body["type"] == QUOTA_EXCEEDED_TYPE and body["status"] == 429
    assert body["title"] and body["detail"] == error["message"]
    assert body["violated-policies"] == ["minute"]
    ((_, limit),) = _items(refused.headers["ratelimit"])
    # draft-11 section 6: Retry-After never points earlier than the end of the effective window.
    assert limit["r"] == 0 and limit["t"] <= int(refused.headers["retry-after"])


def test_a_client_that_accepts_problem_json_gets_the_same_body_labelled_so(stack):
    _, key = limited_key(stack, rate=1)
    wait_for_fresh_window()
    with stack.client(key) as client:
        client.get(POSITIONS, params=MOMENT)
        plain = client.get(POSITIONS, params=MOMENT)
        labelled = client.get(POSITIONS, params=MOMENT, headers={"Accept": "application/problem+json"})
    assert plain.headers["content-type"] == "application/json"
    assert labelled.headers["content-type"] == "application/problem+json"
    assert labelled.json()["violated-policies"] == ["minute"] and labelled.json()["errors"]
    assert "Accept" in plain.headers["vary"] and "Accept" in labelled.headers["vary"]


def test_the_429s_problem_details_are_what_the_openapi_document_declares(stack):
    _, key = limited_key(stack, rate=1)
    wait_for_fresh_window()
    with stack.client(key) as client:
        document = client.get("/v1/openapi.json").json()
        client.get(POSITIONS, params=MOMENT)
        refused = client.get(POSITIONS, params=MOMENT)
    assert refused.status_code == 429
    assert undeclared_or_missing(document, POSITIONS, "get", refused) == []


def test_a_429_for_concurrency_names_the_concurrency_policy_and_leaves_the_window_out(stack):
    name, key = limited_key(stack, rate=50, concurrent=1)
    slots = hold_slots(stack, name, 1)
    try:
        with stack.client(key) as client:
            refused = client.get(POSITIONS, params=MOMENT)
    finally:
        release_slots(stack, name, slots)
    assert_error(refused, 429, "rate_limit_exceeded")
    assert refused.json()["violated-policies"] == ["concurrency"]
    ((_, limit),) = _items(refused.headers["ratelimit"])
    assert set(limit) == {"r"} and int(refused.headers["retry-after"]) >= 1


def test_a_spend_cap_402_names_quota_exceeded_and_the_cap_that_refused(stack):
    name, key = limited_key(stack)
    stack.admin("account", "cap", name, "--daily", "0")
    with stack.client(key) as client:
        refused = client.get(POSITIONS, params=MOMENT)
    assert_error(refused, 402, "spend_cap_reached")
    body = refused.json()
    assert (body["type"], body["status"], body["violated-policies"]) == (
        QUOTA_EXCEEDED_TYPE,
        402,
        ["account-daily-spend"],
    )


def test_an_empty_balance_402_is_no_quota_and_names_no_problem_type(stack):
    _, key = limited_key(stack, credits=0)
    with stack.client(key) as client:
        refused = client.get(POSITIONS, params=MOMENT)
    assert_error(refused, 402, "insufficient_credits")
    assert set(refused.json()) == {"errors", "meta"}


class _Clock:
    """The gateway's and the store's clock in a test: Unix seconds that move only when told."""

    def __init__(self, now_s: float):
        self.now_s = now_s

    def time(self) -> float:
        return self.now_s


@pytest.fixture
def clock(monkeypatch) -> _Clock:
    """A clock 2.5 s before the end of a minute window to come, read by the admissions (the
    gateway's and the SQLite limiter's) and the rate-limit fields."""
    fake = _Clock((time.time() // 60 + 2) * 60 + 57.5)
    for module in ("gateway.accounting", "store.sqlite_limiter"):
        monkeypatch.setattr(f"{module}.time", types.SimpleNamespace(time=fake.time))
    return fake


def test_a_generic_client_library_reading_ratelimit_backs_off_until_the_window_ends_and_is_never_refused(stack, clock):
    """retryheader (PyPI) reads draft-11 RateLimit and Retry-After: delay_from_headers is the
    wait a client owes before its next request. A client that waits it sends six requests under
    a limit of three a minute without one 429, and waits exactly to the window's end."""
    _, key = limited_key(stack, rate=3)
    statuses, waits = [], []
    with stack.client(key) as client:
        for _ in range(6):
            response = client.get(POSITIONS, params=MOMENT)
            statuses.append(response.status_code)
            delay = retryheader.delay_from_headers(response.headers.items())
            if delay:
                waits.append(delay)
                clock.now_s += delay
    assert statuses == [200] * 6
    # The third used the window's last request 2.5 s before its end: wait 3 s (rounded up);
    # the sixth the next window's last, 0.5 s into it: 59.5 s before its end, 60 rounded up.
    assert waits == [3.0, 60.0]


def test_on_a_429_the_generic_client_waits_retry_after_which_covers_the_window(stack, clock):
    _, key = limited_key(stack, rate=1)
    with stack.client(key) as client:
        assert client.get(POSITIONS, params=MOMENT).status_code == 200
        refused = client.get(POSITIONS, params=MOMENT)
        assert refused.status_code == 429
        delay = retryheader.delay_from_headers(refused.headers.items())
        assert delay == float(refused.headers["retry-after"]) >= 3
        clock.now_s += delay
        assert client.get(POSITIONS, params=MOMENT).status_code == 200
