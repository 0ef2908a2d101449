"""Per-account rate and concurrency limits (decisions.md, Limits and credits).

The concurrency tests hold slots through the stack's own store (the same file or NATS server
the gateway uses), which is exactly what another gateway's requests in flight look like, so
they do not depend on timing.
"""

from __future__ import annotations

import asyncio
import os
import time

from shared.runtime.config import load_settings
from store.choice import open_configured_store
from tests.api.test_conventions_api import assert_error, balance

POSITIONS = "/v1/positions"
MOMENT = {"datetime": "2024-03-20T12:00:00Z", "bodies": "sun"}


def limited_key(stack, rate: int = 300, concurrent: int = 50, credits: int = 1000) -> tuple[str, str]:
    """Return (account name, key) of a fresh account with these limits."""
    name = f"limited-{os.urandom(5).hex()}"
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
    return name, stack.admin("key", "create", "--account", name).stdout.strip()


def wait_for_fresh_window(margin_s: float = 8.0) -> None:
    """Sleep into the next minute window when fewer than ``margin_s`` seconds are left of this one."""
    left = 60 - time.time() % 60
    if left < margin_s:
        time.sleep(left + 0.2)


def hold_slots(stack, account_name: str, count: int) -> list[str]:
    """Take ``count`` concurrency slots of the account in the stack's store; return their ids."""

    async def take() -> list[str]:
        store = await open_configured_store(load_settings(stack.env))
        try:
            account = await store.get_account(account_name)
            slots = [f"held-{os.urandom(4).hex()}" for _ in range(count)]
            for slot in slots:
                assert (await store.admit(account, slot)).allowed
            return slots
        finally:
            await store.close()

    return asyncio.run(take())


def release_slots(stack, account_name: str, slots: list[str]) -> None:
    async def free() -> None:
        store = await open_configured_store(load_settings(stack.env))
        try:
            account = await store.get_account(account_name)
            for slot in slots:
                await store.release(account.id, slot)
        finally:
            await store.close()

    asyncio.run(free())


def test_every_authenticated_response_carries_the_rate_limit_headers(stack):
    _, key = limited_key(stack, rate=100)
    with stack.client(key) as client:
        ok = client.get(POSITIONS, params=MOMENT)
        bad = client.get(POSITIONS, params={**MOMENT, "bodies": "vulcan"})
    for response in (ok, bad):
        assert response.headers["x-ratelimit-limit"] == "100"
        assert 0 <= int(response.headers["x-ratelimit-remaining"]) < 100
        reset = int(response.headers["x-ratelimit-reset"])
        assert reset % 60 == 0 and 0 < reset - time.time() <= 60


def test_an_unauthenticated_response_carries_no_rate_limit_headers(stack):
    with stack.client() as anonymous:
        response = anonymous.get(POSITIONS, params=MOMENT)
    assert response.status_code == 401
    assert "x-ratelimit-limit" not in response.headers


def test_remaining_counts_down_one_per_request(stack):
    _, key = limited_key(stack, rate=50)
    wait_for_fresh_window()
    with stack.client(key) as client:
        remaining = [int(client.get(POSITIONS, params=MOMENT).headers["x-ratelimit-remaining"]) for _ in range(3)]
    assert remaining[0] - remaining[1] == 1 and remaining[1] - remaining[2] == 1


def test_over_the_rate_limit_is_429_with_retry_after_and_costs_nothing(stack):
    name, key = limited_key(stack, rate=3, credits=10)
    wait_for_fresh_window()
    with stack.client(key) as client:
        statuses = [client.get(POSITIONS, params=MOMENT).status_code for _ in range(3)]
        refused = client.get(POSITIONS, params=MOMENT)
    assert statuses == [200, 200, 200]
    assert_error(refused, 429, "rate_limit_exceeded")
    retry_after = int(refused.headers["retry-after"])
    assert 1 <= retry_after <= 60
    assert refused.headers["x-ratelimit-remaining"] == "0"
    assert balance(stack, name) == 7


def test_the_limit_is_shared_by_every_key_of_the_account(stack):
    name, first = limited_key(stack, rate=2)
    second = stack.admin("key", "create", "--account", name).stdout.strip()
    wait_for_fresh_window()
    with stack.client(first) as one, stack.client(second) as two:
        assert one.get(POSITIONS, params=MOMENT).status_code == 200
        assert two.get(POSITIONS, params=MOMENT).status_code == 200
        assert_error(one.get(POSITIONS, params=MOMENT), 429, "rate_limit_exceeded")
        assert_error(two.get(POSITIONS, params=MOMENT), 429, "rate_limit_exceeded")


def test_at_the_concurrency_limit_a_request_is_429_until_a_slot_frees(stack):
    name, key = limited_key(stack, concurrent=2)
    slots = hold_slots(stack, name, 2)
    with stack.client(key) as client:
        refused = client.get(POSITIONS, params=MOMENT)
        assert_error(refused, 429, "rate_limit_exceeded")
        assert int(refused.headers["retry-after"]) >= 1
        release_slots(stack, name, slots[:1])
        assert client.get(POSITIONS, params=MOMENT).status_code == 200


def test_a_429_for_concurrency_reports_what_the_minute_window_really_has_left(stack):
    name, key = limited_key(stack, rate=50, concurrent=2)
    wait_for_fresh_window()
    slots = hold_slots(stack, name, 2)  # two admitted requests: 48 of 50 left this minute
    try:
        with stack.client(key) as client:
            refused = client.get(POSITIONS, params=MOMENT)
        assert_error(refused, 429, "rate_limit_exceeded")
        assert "concurrent" in refused.json()["errors"][0]["message"]
        assert refused.headers["x-ratelimit-remaining"] == "48"
    finally:
        release_slots(stack, name, slots)


def test_a_finished_request_gives_its_concurrency_slot_back(stack):
    _, key = limited_key(stack, concurrent=1)
    with stack.client(key) as client:
        for _ in range(5):
            assert client.get(POSITIONS, params=MOMENT).status_code == 200
            time.sleep(0.05)  # the slot is released just after the response is sent


def test_limits_changed_by_the_admin_apply(stack):
    name, key = limited_key(stack, rate=300)
    stack.admin("account", "limits", name, "--rate-per-minute", "7")
    with stack.client(key) as client:
        # The gateway reads the account with the key record; a fresh key skips any cache.
        fresh = stack.admin("key", "create", "--account", name).stdout.strip()
        response = client.get(POSITIONS, params=MOMENT, headers={"Authorization": f"Bearer {fresh}"})
    assert response.headers["x-ratelimit-limit"] == "7"


def test_a_refused_parameter_counts_against_the_rate_limit(stack):
    name, key = limited_key(stack, rate=2, credits=10)
    wait_for_fresh_window()
    with stack.client(key) as client:
        bad = client.get(POSITIONS, params={**MOMENT, "bodies": "vulcan"})
        ok = client.get(POSITIONS, params=MOMENT)
    assert_error(bad, 400, "body_not_found")
    assert (bad.headers["x-ratelimit-remaining"], ok.headers["x-ratelimit-remaining"]) == ("1", "0")
    assert balance(stack, name) == 9


def test_over_the_rate_limit_a_bad_request_is_told_429_first(stack):
    _, key = limited_key(stack, rate=1)
    wait_for_fresh_window()
    with stack.client(key) as client:
        assert client.get(POSITIONS, params=MOMENT).status_code == 200
        assert_error(client.get(POSITIONS, params={**MOMENT, "bodies": "vulcan"}), 429, "rate_limit_exceeded")
