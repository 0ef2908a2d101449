"""gateway/dashboard/sessions.py: a session is valid on any gateway while the store holds it,
its secret matches, it is neither idle for ``idle_s`` nor older than ``absolute_s``, and its
owner has not changed password since; its cookie is HttpOnly, SameSite=Lax, and over HTTPS
Secure with the ``__Host-`` prefix (RFC 6265bis, "Cookie Name Prefixes")."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

from starlette.responses import Response

from gateway.dashboard.sessions import (
    SESSION_COOKIE,
    TOUCH_EVERY,
    SessionPolicy,
    cookie_name,
    expired,
    set_session_cookie,
    signed_in,
    start_session,
)
from gateway.dashboard.tokens import join_token, new_secret
from store.owner_records import SessionRecord
from store.records import utc_now
from tests.unit.dashboard.requests_for_tests import request_with

POLICY = SessionPolicy(idle_s=3600, absolute_s=86400)
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def _owner(store):
    account = await store.create_account(f"sess-{os.urandom(4).hex()}", 1)
    return await store.invite_owner(account.id, f"{account.name}@example.com", "d" * 64, utc_now())


def _session(created: datetime, last_seen: datetime) -> SessionRecord:
    return SessionRecord("ses_0123456789abcdef", "own_0123456789abcdef", "d" * 64, 0, created, last_seen)


def test_a_session_expires_after_its_idle_time_unused():
    assert not expired(_session(T0, T0), POLICY, T0 + timedelta(seconds=3599))
    assert expired(_session(T0, T0), POLICY, T0 + timedelta(seconds=3600))


def test_a_session_expires_at_its_absolute_life_even_in_use():
    in_use = _session(T0, T0 + timedelta(hours=23, minutes=59))
    assert not expired(in_use, POLICY, T0 + timedelta(hours=23, minutes=59, seconds=59))
    assert expired(in_use, POLICY, T0 + timedelta(hours=24))


def test_the_cookie_is_httponly_lax_and_lasts_the_absolute_life():
    response = Response()
    set_session_cookie(request_with(), response, "ses_x.y", POLICY)
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=ses_x.y;")
    assert all(part in cookie for part in ("HttpOnly", "SameSite=lax", "Max-Age=86400", "Path=/"))
    assert "Secure" not in cookie


def test_over_https_the_cookie_is_host_prefixed_secure_and_host_only():
    assert cookie_name(request_with(scheme="https")) == "__Host-celestial_session"
    response = Response()
    set_session_cookie(request_with(scheme="https"), response, "ses_x.y", POLICY)
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("__Host-celestial_session=") and "Secure" in cookie and "Domain" not in cookie


def test_a_started_session_signs_its_cookie_in(with_store):
    async def scenario(store):
        owner = await _owner(store)
        token = await start_session(store, owner)
        return owner, token, await signed_in(store, request_with({SESSION_COOKIE: token}), POLICY)

    owner, token, who = with_store(scenario)
    assert who.owner.owner_id == owner.owner_id and who.secret == token.split(".", 1)[1]


def test_no_cookie_a_wrong_secret_an_unknown_session_or_a_key_shaped_token_sign_nobody_in(with_store):
    async def scenario(store):
        owner = await _owner(store)
        session_id = (await start_session(store, owner)).split(".", 1)[0]
        cookies = [
            {},
            {SESSION_COOKIE: join_token(session_id, new_secret())},
            {SESSION_COOKIE: join_token("ses_ffffffffffffffff", new_secret())},
            {SESSION_COOKIE: join_token(owner.owner_id, new_secret())},  # an invite token is no session
        ]
        return [await signed_in(store, request_with(c), POLICY) for c in cookies]

    assert with_store(scenario) == [None, None, None, None]


def test_a_password_change_ends_the_sessions_started_before_it(with_store):
    async def scenario(store):
        owner = await _owner(store)
        token = await start_session(store, owner)
        await store.set_password(owner.owner_id, "$argon2id$not-checked-here")
        return await signed_in(store, request_with({SESSION_COOKIE: token}), POLICY)

    assert with_store(scenario) is None


def test_an_expired_session_is_ended_in_the_store(with_store):
    async def scenario(store):
        owner = await _owner(store)
        token = await start_session(store, owner)
        who = await signed_in(store, request_with({SESSION_COOKIE: token}), SessionPolicy(idle_s=0, absolute_s=86400))
        return who, await store.get_session(token.split(".", 1)[0])

    assert with_store(scenario) == (None, None)


def test_a_session_seen_again_after_a_minute_has_its_last_use_written_back(with_store):
    async def scenario(store):
        owner = await _owner(store)
        token = await start_session(store, owner)
        session_id = token.split(".", 1)[0]
        stale = utc_now() - TOUCH_EVERY - timedelta(seconds=5)
        await store.touch_session(session_id, stale)
        await signed_in(store, request_with({SESSION_COOKIE: token}), POLICY)
        return stale, (await store.get_session(session_id)).last_seen_at

    stale, last_seen = with_store(scenario)
    assert last_seen > stale + TOUCH_EVERY
