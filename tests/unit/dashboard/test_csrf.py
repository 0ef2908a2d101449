"""gateway/dashboard/csrf.py: the synchronizer token of every dashboard form (OWASP CSRF
Prevention Cheat Sheet): bound to the session's secret once signed in, to a pre-session
cookie before, recomputed from the cookie on each post, refused when absent, altered or
another session's."""

from __future__ import annotations

import hashlib
import hmac

from starlette.responses import Response

from gateway.dashboard.csrf import (
    PRESESSION_COOKIE,
    csrf_token,
    csrf_valid,
    keep_presession,
    presession_secret,
)
from gateway.dashboard.sessions import SignedIn
from gateway.dashboard.tokens import new_secret
from tests.unit.dashboard.requests_for_tests import request_with


def _signed_in(secret: str) -> SignedIn:
    # Only the secret keys the token; the owner and session records play no part in it.
    return SignedIn(owner=None, session=None, secret=secret)


def test_a_signed_in_token_is_the_hmac_sha256_of_the_session_secret():
    secret = new_secret()
    expected = hmac.new(secret.encode(), b"celestial dashboard csrf v1", hashlib.sha256).hexdigest()
    assert csrf_token(_signed_in(secret), "ignored presession") == expected


def test_the_token_of_the_session_is_accepted():
    who = _signed_in(new_secret())
    assert csrf_valid(request_with(), csrf_token(who, None), who)


def test_an_altered_token_is_refused():
    who = _signed_in(new_secret())
    token = csrf_token(who, None)
    altered = token[:-1] + ("0" if token[-1] != "0" else "1")
    assert not csrf_valid(request_with(), altered, who)
    assert not csrf_valid(request_with(), token.upper(), who)


def test_another_sessions_token_is_refused():
    mine, theirs = _signed_in(new_secret()), _signed_in(new_secret())
    assert not csrf_valid(request_with(), csrf_token(theirs, None), mine)


def test_a_missing_empty_or_non_text_token_is_refused():
    who = _signed_in(new_secret())
    for submitted in (None, "", 42, ["x"]):
        assert not csrf_valid(request_with(), submitted, who)


def test_before_sign_in_the_token_is_bound_to_the_presession_cookie():
    secret = new_secret()
    token = csrf_token(None, secret)
    assert csrf_valid(request_with({PRESESSION_COOKIE: secret}), token, None)
    assert not csrf_valid(request_with({PRESESSION_COOKIE: new_secret()}), token, None)
    assert not csrf_valid(request_with(), token, None)  # no cookie: nothing to bind to


def test_a_presession_cookie_is_kept_and_a_malformed_one_replaced():
    secret = new_secret()
    assert presession_secret(request_with({PRESESSION_COOKIE: secret})) == secret
    fresh = presession_secret(request_with({PRESESSION_COOKIE: "short"}))
    assert fresh != "short" and len(fresh) == 43


def test_the_presession_cookie_is_set_only_when_missing_httponly_strict_and_secure_over_https():
    secret = new_secret()
    unchanged = Response()
    keep_presession(request_with({PRESESSION_COOKIE: secret}), unchanged, secret)
    assert "set-cookie" not in unchanged.headers
    over_https = Response()
    keep_presession(request_with(scheme="https"), over_https, secret)
    cookie = over_https.headers["set-cookie"]
    assert cookie.startswith(f"{PRESESSION_COOKIE}={secret};")
    assert all(part in cookie for part in ("HttpOnly", "SameSite=strict", "Secure", "Path=/dashboard"))
    over_http = Response()
    keep_presession(request_with(), over_http, secret)
    assert "Secure" not in over_http.headers["set-cookie"]
