"""Cross-site request forgery: every dashboard form carries a synchronizer token, and a post
without the right one is refused before it does anything.

Signed in, the token is an HMAC of the session's secret (so it dies with the session and a
token of one session is worthless in another); before sign-in (the sign-in and set-password
forms) it is an HMAC of a random ``celestial_presession`` cookie. Neither is stored anywhere:
the server recomputes it from the cookie the browser sends. SameSite=Lax cookies are the
second wall: a cross-site post carries no session cookie at all.
"""

from __future__ import annotations

import hashlib
import hmac

from starlette.requests import Request
from starlette.responses import Response

from gateway.dashboard.sessions import SignedIn
from gateway.dashboard.tokens import new_secret

#: The form field every dashboard form carries.
CSRF_FIELD = "csrf_token"
PRESESSION_COOKIE = "celestial_presession"


def _token(secret: str) -> str:
    return hmac.new(secret.encode(), b"celestial dashboard csrf v1", hashlib.sha256).hexdigest()


def presession_secret(request: Request) -> str:
    """Return the request's pre-session secret, or a new one (which :func:`keep_presession` sets)."""
    secret = request.cookies.get(PRESESSION_COOKIE)
    return secret if secret and len(secret) == 43 else new_secret()


def keep_presession(request: Request, response: Response, secret: str) -> None:
    """Set the pre-session cookie on ``response`` when the request did not already carry ``secret``."""
    if request.cookies.get(PRESESSION_COOKIE) != secret:
        response.set_cookie(
            PRESESSION_COOKIE,
            secret,
            path="/dashboard",
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )


def csrf_token(who: SignedIn | None, presession: str | None) -> str:
    """Return the token the forms of this page carry: from the session when signed in, else
    from the pre-session secret."""
    return _token(who.secret if who is not None else presession or "")


def csrf_valid(request: Request, submitted: object, who: SignedIn | None) -> bool:
    """Return whether ``submitted`` (the form's field) is the token this browser's cookies give."""
    if not isinstance(submitted, str) or not submitted:
        return False
    secret = who.secret if who is not None else request.cookies.get(PRESESSION_COOKIE)
    return bool(secret) and hmac.compare_digest(_token(secret), submitted)
