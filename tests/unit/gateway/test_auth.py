"""Key authentication: where the key is read from, which keys are refused, the origin table, the cache."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest

from gateway.auth import (
    BAD_KEY_SUGGESTION,
    INVALID_KEY_MESSAGE,
    MISSING_KEY_SUGGESTION,
    KeyAuthenticator,
    extract_key,
)
from shared.errors import CelestialError, InvalidApiKey, OriginNotAllowed, OriginRequired
from store import SqliteStore, hash_key
from store.records import utc_now

APP = "https://app.example.com"


class CountingStore:
    """A real store that counts key lookups, to see when the cache answers instead."""

    def __init__(self, store: SqliteStore):
        self.store = store
        self.key_lookups = 0

    async def find_key_by_hash(self, key_hash: str):
        self.key_lookups += 1
        return await self.store.find_key_by_hash(key_hash)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


class FakeClock:
    def __init__(self) -> None:
        self.now_s = 1000.0

    def __call__(self) -> float:
        return self.now_s


def run_with_store(tmp_path, scenario) -> None:
    """Run ``scenario(store)`` in one event loop with a fresh store holding account 'acme'."""

    async def body() -> None:
        store = CountingStore(SqliteStore(tmp_path / "celestial.sqlite3"))
        try:
            await store.create_account("acme", 100)
            await scenario(store)
        finally:
            await store.close()

    asyncio.run(body())


def bearer(key: str) -> dict[str, str]:
    return {"authorization": f"Bearer {key}"}


# --- where the key comes from ----------------------------------------------------------------


def test_the_key_is_read_from_a_bearer_authorization_header():
    assert extract_key({"Authorization": "Bearer svc_live_abc"}) == "svc_live_abc"
    assert extract_key({"authorization": "bearer  svc_live_abc "}) == "svc_live_abc"  # scheme is case-insensitive


def test_the_key_is_read_from_x_api_key_when_there_is_no_authorization_header():
    assert extract_key({"X-API-Key": "svc_live_abc"}) == "svc_live_abc"
    assert extract_key([(b"x-api-key", b"svc_live_abc")]) == "svc_live_abc"  # raw ASGI headers


def test_authorization_wins_over_x_api_key_when_both_are_sent():
    assert extract_key({"Authorization": "Bearer svc_live_first", "X-API-Key": "svc_live_second"}) == "svc_live_first"
    # A non-Bearer Authorization still wins: it is refused instead of silently switching to
    # the other header.
    with pytest.raises(InvalidApiKey):
        extract_key({"Authorization": "Basic dXNlcjpwYXNz", "X-API-Key": "svc_live_second"})


def test_a_bare_key_in_authorization_without_the_bearer_scheme_is_refused():
    with pytest.raises(InvalidApiKey, match="Bearer"):
        extract_key({"Authorization": "svc_live_" + "A" * 32})


def test_no_key_header_means_no_key():
    assert extract_key({}) is None
    assert extract_key({"Authorization": "  ", "X-API-Key": ""}) is None


def test_a_valid_bearer_key_wins_over_a_bad_x_api_key_and_a_bad_bearer_loses_to_nothing(tmp_path):
    async def scenario(store) -> None:
        plain, record = await store.create_key("acme")
        auth = KeyAuthenticator(store, store)
        account, key = await auth.authenticate({"Authorization": f"Bearer {plain}", "X-API-Key": "junk"}, None)
        assert (account.name, key.key_id) == ("acme", record.key_id)
        with pytest.raises(InvalidApiKey):
            await auth.authenticate({"Authorization": "Bearer junk", "X-API-Key": plain}, None)
        account, _ = await auth.authenticate({"X-Api-Key": plain}, None)
        assert account.name == "acme"

    run_with_store(tmp_path, scenario)


# --- which keys are refused ------------------------------------------------------------------


def test_a_test_key_authenticates_as_its_account_with_its_mode(tmp_path):
    async def scenario(store) -> None:
        plain, record = await store.create_key("acme", mode="test")
        account, found = await KeyAuthenticator(store, store).authenticate(bearer(plain), None)
        assert (account.name, found.key_id, found.mode) == ("acme", record.key_id, "test")

    run_with_store(tmp_path, scenario)


def test_a_missing_key_is_invalid_api_key_with_a_how_to_send_suggestion(tmp_path):
    async def scenario(store) -> None:
        with pytest.raises(InvalidApiKey) as caught:
            await KeyAuthenticator(store, store).authenticate({}, None)
        assert caught.value.http_status == 401 and caught.value.code == "invalid_api_key"
        assert (caught.value.message, caught.value.suggestion) == (INVALID_KEY_MESSAGE, MISSING_KEY_SUGGESTION)

    run_with_store(tmp_path, scenario)


@pytest.mark.parametrize(
    "candidate",
    [
        "svc_demo_" + "a" * 32,  # another prefix (svc_live_ and svc_test_ are the only two)
        "svc_test_" + "a" * 31,  # a test key too short
        "svc_live_" + "a" * 31,  # too short
        "svc_live_" + "a" * 33,  # too long
        "svc_live_" + "a" * 31 + "+",  # outside the URL-safe alphabet
        "a" * 41,
        "Basic dXNlcjpwYXNz",
    ],
)
def test_a_malformed_key_is_refused_without_asking_the_store(tmp_path, candidate):
    async def scenario(store) -> None:
        with pytest.raises(InvalidApiKey) as caught:
            await KeyAuthenticator(store, store).authenticate(bearer(candidate), None)
        assert (caught.value.message, caught.value.suggestion) == (INVALID_KEY_MESSAGE, BAD_KEY_SUGGESTION)
        assert store.key_lookups == 0

    run_with_store(tmp_path, scenario)


def test_unknown_expired_and_revoked_keys_all_get_the_same_invalid_api_key_answer(tmp_path):
    async def scenario(store) -> None:
        auth = KeyAuthenticator(store, store)
        expiring_plain, expiring = await store.create_key("acme", expires_at=utc_now() + timedelta(hours=1))
        revoked_plain, revoked = await store.create_key("acme")
        await store.revoke_key(revoked.key_id)
        unknown_plain = "svc_live_" + "A" * 32
        answers = []
        for plain, now in (
            (unknown_plain, None),
            (expiring_plain, expiring.expires_at),  # the expiry instant is already past
            (expiring_plain, expiring.expires_at + timedelta(days=1)),
            (revoked_plain, None),
        ):
            with pytest.raises(InvalidApiKey) as caught:
                await auth.authenticate(bearer(plain), None, now=now)
            answers.append(caught.value.as_dict())
            assert plain not in str(caught.value.as_dict())  # the key is never echoed
        assert all(answer == answers[0] for answer in answers)
        assert answers[0]["message"] == INVALID_KEY_MESSAGE
        # The same expiring key is fine before its expiry.
        await auth.authenticate(bearer(expiring_plain), None, now=expiring.expires_at - timedelta(seconds=1))

    run_with_store(tmp_path, scenario)


# --- the origin table (spec, Authentication 5 and 6) -----------------------------------------

ORIGIN_TABLE = [
    # (row, allowed origins, browser_only, Origin header, expected error or None for accepted)
    ("no origins configured, any origin: accepted", (), False, "https://anywhere.example", None),
    ("no origins configured, no Origin header: accepted", (), False, None, None),
    ("origins configured, Origin matches: accepted", (APP,), False, APP, None),
    ("origins configured, second listed Origin matches: accepted", ("https://x.example", APP), False, APP, None),
    (
        "origins configured, Origin does not match: origin_not_allowed",
        (APP,),
        False,
        "https://evil.example",
        OriginNotAllowed,
    ),
    ("origins configured, no Origin header: accepted", (APP,), False, None, None),
    ("browser-only, no Origin header: origin_required", (), True, None, OriginRequired),
    ("browser-only with origins, no Origin header: origin_required", (APP,), True, None, OriginRequired),
    ("browser-only with origins, Origin matches: accepted", (APP,), True, APP, None),
    (
        "browser-only with origins, Origin does not match: origin_not_allowed",
        (APP,),
        True,
        "https://evil.example",
        OriginNotAllowed,
    ),
    ("browser-only without origins, any Origin: accepted", (), True, "https://anywhere.example", None),
    (
        "matching is whole-string: a subdomain does not match",
        (APP,),
        False,
        "https://sub.app.example.com",
        OriginNotAllowed,
    ),
    (
        "matching is whole-string: another scheme does not match",
        (APP,),
        False,
        "http://app.example.com",
        OriginNotAllowed,
    ),
    (
        "matching is whole-string: an explicit port does not match",
        (APP,),
        False,
        "https://app.example.com:443",
        OriginNotAllowed,
    ),
    ("matching is whole-string: a trailing slash does not match", (APP,), False, APP + "/", OriginNotAllowed),
    ("matching is whole-string: case matters", (APP,), False, "https://APP.example.com", OriginNotAllowed),
]


@pytest.mark.parametrize(
    "allowed, browser_only, origin, expected", [row[1:] for row in ORIGIN_TABLE], ids=[row[0] for row in ORIGIN_TABLE]
)
def test_origin_rules_follow_the_spec_table(tmp_path, allowed, browser_only, origin, expected):
    async def scenario(store) -> None:
        plain, record = await store.create_key("acme", allowed_origins=allowed, browser_only=browser_only)
        auth = KeyAuthenticator(store, store)
        if expected is None:
            account, key = await auth.authenticate(bearer(plain), origin)
            assert key.key_id == record.key_id
        else:
            with pytest.raises(expected) as caught:
                await auth.authenticate(bearer(plain), origin)
            assert caught.value.http_status == 403

    run_with_store(tmp_path, scenario)


def test_a_bad_key_is_refused_before_its_origin_is_looked_at(tmp_path):
    async def scenario(store) -> None:
        with pytest.raises(InvalidApiKey):
            await KeyAuthenticator(store, store).authenticate({}, "https://evil.example")

    run_with_store(tmp_path, scenario)


# --- the cache -------------------------------------------------------------------------------


def test_a_cached_key_is_not_read_again_within_the_cache_lifetime(tmp_path):
    async def scenario(store) -> None:
        plain, _ = await store.create_key("acme")
        clock = FakeClock()
        auth = KeyAuthenticator(store, store, cache_seconds=60, clock=clock)
        for _ in range(5):
            await auth.authenticate(bearer(plain), None)
        assert store.key_lookups == 1
        clock.now_s += 60  # the entry lives at most cache_seconds
        await auth.authenticate(bearer(plain), None)
        assert store.key_lookups == 2

    run_with_store(tmp_path, scenario)


def test_a_revocation_reaches_a_cached_key_when_its_entry_expires(tmp_path):
    async def scenario(store) -> None:
        plain, record = await store.create_key("acme")
        clock = FakeClock()
        auth = KeyAuthenticator(store, store, cache_seconds=60, clock=clock)
        await auth.authenticate(bearer(plain), None)
        await store.revoke_key(record.key_id)
        clock.now_s += 59.9
        await auth.authenticate(bearer(plain), None)  # within the spec's 60 s propagation bound
        clock.now_s += 0.1
        with pytest.raises(InvalidApiKey):
            await auth.authenticate(bearer(plain), None)

    run_with_store(tmp_path, scenario)


def test_invalidate_makes_a_revocation_effective_at_once(tmp_path):
    async def scenario(store) -> None:
        plain, record = await store.create_key("acme")
        auth = KeyAuthenticator(store, store, cache_seconds=60, clock=FakeClock())
        await auth.authenticate(bearer(plain), None)
        await store.revoke_key(record.key_id)
        auth.invalidate(hash_key(plain))
        with pytest.raises(InvalidApiKey):
            await auth.authenticate(bearer(plain), None)
        auth.invalidate("0" * 64)  # forgetting an unknown hash is harmless

    run_with_store(tmp_path, scenario)


def test_expiry_is_checked_on_every_request_even_from_the_cache(tmp_path):
    async def scenario(store) -> None:
        plain, record = await store.create_key("acme", expires_at=utc_now() + timedelta(minutes=5))
        auth = KeyAuthenticator(store, store, cache_seconds=3600, clock=FakeClock())
        await auth.authenticate(bearer(plain), None)
        with pytest.raises(InvalidApiKey):
            await auth.authenticate(bearer(plain), None, now=record.expires_at + timedelta(seconds=1))
        assert store.key_lookups == 1

    run_with_store(tmp_path, scenario)


def test_origin_changes_reach_a_cached_key_when_its_entry_expires(tmp_path):
    async def scenario(store) -> None:
        plain, record = await store.create_key("acme", allowed_origins=[APP])
        clock = FakeClock()
        auth = KeyAuthenticator(store, store, cache_seconds=60, clock=clock)
        await auth.authenticate(bearer(plain), APP)
        await store.update_origins(record.key_id, ["https://new.example"])
        await auth.authenticate(bearer(plain), APP)  # still cached
        clock.now_s += 60
        with pytest.raises(OriginNotAllowed):
            await auth.authenticate(bearer(plain), APP)

    run_with_store(tmp_path, scenario)


def test_the_cache_holds_at_most_max_entries(tmp_path):
    async def scenario(store) -> None:
        auth = KeyAuthenticator(store, store, max_entries=3, clock=FakeClock())
        for i in range(10):
            with pytest.raises(InvalidApiKey):
                await auth.authenticate(bearer("svc_live_" + f"{i:032d}"), None)
        assert len(auth._cache) == 3

    run_with_store(tmp_path, scenario)


def test_every_auth_error_is_a_celestial_error_with_the_spec_status_and_code():
    for error, status, code in (
        (InvalidApiKey, 401, "invalid_api_key"),
        (OriginNotAllowed, 403, "origin_not_allowed"),
        (OriginRequired, 403, "origin_required"),
    ):
        assert issubclass(error, CelestialError) and (error.http_status, error.code) == (status, code)
