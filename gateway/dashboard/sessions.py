"""Dashboard sessions: the cookie, and the checks that make a session valid on every gateway.

A session lives in the store, so signing out (the session is deleted) and a password change
(the owner's session epoch moves on) end it on every gateway at once. The cookie holds
``<session id>.<secret>`` and nothing else: never an API key, never the admin token.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from starlette.requests import Request
from starlette.responses import Response

from gateway.dashboard.tokens import join_token, new_secret, split_token
from store.interfaces import DashboardStore
from store.owner_records import OwnerRecord, SessionRecord, digest_secret, same_digest
from store.records import utc_now

#: The session cookie. The ``__Host-`` prefix (which requires Secure) is used over HTTPS.
SESSION_COOKIE = "celestial_session"
#: How often a session's last use is written back: its idle expiry is exact to this much,
#: and a page view costs a store write at most this often.
TOUCH_EVERY = timedelta(seconds=60)


@dataclass(frozen=True)
class SessionPolicy:
    """How long a session lasts: ``idle_s`` seconds unused, ``absolute_s`` after sign-in."""

    idle_s: float
    absolute_s: float


@dataclass(frozen=True)
class SignedIn:
    """The owner a request comes from, through which session, with the cookie's secret (the
    key of the session's CSRF tokens)."""

    owner: OwnerRecord
    session: SessionRecord
    secret: str


def cookie_name(request: Request) -> str:
    """Return the session cookie's name: ``__Host-`` prefixed over HTTPS (the browser then
    refuses it unless Secure, host-only and path ``/``)."""
    return f"__Host-{SESSION_COOKIE}" if request.url.scheme == "https" else SESSION_COOKIE


def set_session_cookie(request: Request, response: Response, token: str, policy: SessionPolicy) -> None:
    """Put the session cookie on ``response``: HttpOnly (no script reads it), SameSite=Lax (no
    cross-site post carries it), Secure over HTTPS, lasting at most the session's absolute life."""
    response.set_cookie(
        cookie_name(request),
        token,
        max_age=int(policy.absolute_s),
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def clear_session_cookie(request: Request, response: Response) -> None:
    """Tell the browser to forget the session cookie."""
    response.delete_cookie(
        cookie_name(request), path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )


async def start_session(store: DashboardStore, owner: OwnerRecord) -> str:
    """Return the cookie value of a new session of ``owner``."""
    secret = new_secret()
    session = await store.create_session(owner.owner_id, digest_secret(secret), utc_now())
    return join_token(session.session_id, secret)


def expired(session: SessionRecord, policy: SessionPolicy, now: datetime) -> bool:
    """Return whether ``session`` is over at ``now``: unused for ``idle_s`` or older than ``absolute_s``."""
    return (now - session.last_seen_at).total_seconds() >= policy.idle_s or (
        now - session.created_at
    ).total_seconds() >= policy.absolute_s


async def signed_in(store: DashboardStore, request: Request, policy: SessionPolicy) -> SignedIn | None:
    """Return who the request is signed in as, or None: no cookie, an unknown, ended or
    expired session, a wrong secret, or a session from before its owner's last password change."""
    token = request.cookies.get(cookie_name(request))
    parts = split_token(token)
    if parts is None or not parts[0].startswith("ses_"):
        return None
    session = await store.get_session(parts[0])
    if session is None or not same_digest(session.secret_digest, parts[1]):
        return None
    now = utc_now()
    if expired(session, policy, now):
        await store.end_session(session.session_id)
        return None
    owner = await store.get_owner(session.owner_id)
    if owner is None or owner.session_epoch != session.session_epoch:
        return None
    if now - session.last_seen_at >= TOUCH_EVERY:
        await store.touch_session(session.session_id, now)
    return SignedIn(owner, session, token.split(".", 1)[1])
