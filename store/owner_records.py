"""The dashboard's records in the store: account owners (with their invite and password hash),
their sign-in sessions, sign-in throttles, and the email and id grammars they rest on.

No record holds a secret: an invite token and a session token are kept as SHA-256 digests
(like API keys), a password as its argon2 hash; the digests are kept out of ``repr``.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime

from store.errors import StoreError
from store.key_format import quoted

#: An owner's email as the dashboard accepts it: one '@', no spaces, a dot in the domain,
#: at most 254 characters (RFC 5321's path limit less the brackets). Deliverability is proved
#: by the invite or confirmation link, not by a grammar.
EMAIL_RE = re.compile(r"[^@\s]{1,64}@[^@\s]+\.[^@\s.]+")
EMAIL_MAX_CHARS = 254
OWNER_ID_PREFIX = "own_"
SESSION_ID_PREFIX = "ses_"


def normalize_email(email: object) -> str:
    """Return ``email`` trimmed and lowercased (how it is stored and looked up); raise ValueError
    for text that is no email address."""
    if not isinstance(email, str):
        raise ValueError("an email address must be text")
    folded = email.strip().lower()
    if len(folded) > EMAIL_MAX_CHARS or EMAIL_RE.fullmatch(folded) is None:
        raise ValueError(f"not an email address: {quoted(email)}")
    return folded


def new_owner_id() -> str:
    """Return a fresh owner id: ``own_`` plus 16 random hex digits (not secret)."""
    return OWNER_ID_PREFIX + secrets.token_hex(8)


def new_session_id() -> str:
    """Return a fresh session id: ``ses_`` plus 16 random hex digits (not secret: the session's
    secret is the other half of its cookie)."""
    return SESSION_ID_PREFIX + secrets.token_hex(8)


def digest_secret(secret: str) -> str:
    """Return the SHA-256 hex digest under which an invite or session secret is stored.

    No salt and no slow hash: the secrets carry 256 random bits (``secrets.token_urlsafe(32)``),
    so a digest cannot be reversed by search.
    """
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def same_digest(stored: str | None, offered: str) -> bool:
    """Return whether ``offered`` equals the ``stored`` digest, in constant time."""
    return stored is not None and hmac.compare_digest(stored, offered)


@dataclass(frozen=True)
class OwnerRecord:
    """A person who may sign in to one account's dashboard.

    ``session_epoch`` grows by one on every password change (and invite redeemed): a session
    is valid only while its own epoch equals its owner's, so one write ends every session of
    the owner on every gateway.
    """

    owner_id: str
    account_id: str
    email: str
    created_at: datetime
    password_hash: str | None = field(default=None, repr=False)
    invite_digest: str | None = field(default=None, repr=False)
    invite_expires_at: datetime | None = None
    session_epoch: int = 0

    @property
    def has_password(self) -> bool:
        """Return whether the owner has set a password (redeemed an invite)."""
        return self.password_hash is not None


@dataclass(frozen=True)
class SessionRecord:
    """A signed-in browser: whose, since when, last seen when, and its secret's digest."""

    session_id: str
    owner_id: str
    secret_digest: str = field(repr=False)
    session_epoch: int = 0
    created_at: datetime | None = None
    last_seen_at: datetime | None = None


@dataclass(frozen=True)
class SignInThrottle:
    """Failed sign-ins of one subject (``email:<address>`` or ``address:<ip>``) in the current
    window, and until when (Unix seconds) the subject is locked out, if it is."""

    subject: str
    failures: int = 0
    window_start_s: float = 0.0
    locked_until_s: float | None = None

    def locked(self, now_s: float) -> bool:
        """Return whether the subject is locked out at ``now_s`` (Unix seconds)."""
        return self.locked_until_s is not None and now_s < self.locked_until_s

    def after_failure(self, now_s: float, window_s: float, max_failures: int, lockout_s: float) -> SignInThrottle:
        """Return the throttle after one more failure at ``now_s``: counted in a window of
        ``window_s`` seconds (a new window starts when the last one is over), and locked for
        ``lockout_s`` seconds once the window holds ``max_failures``."""
        if now_s - self.window_start_s >= window_s and not self.locked(now_s):
            failures, start_s = 1, now_s
        else:
            failures, start_s = self.failures + 1, self.window_start_s
        locked_until_s = self.locked_until_s if self.locked(now_s) else None
        if failures >= max_failures and locked_until_s is None:
            locked_until_s = now_s + lockout_s
        return SignInThrottle(self.subject, failures, start_s, locked_until_s)


class OwnerElsewhere(StoreError, ValueError):
    """That email already owns another account (an email owns one account)."""


class OwnerNotFound(StoreError, LookupError):
    """No owner has that id."""


class InviteNotValid(StoreError, ValueError):
    """The invite link is unknown, already used, superseded or expired."""
