"""The dashboard's bearer tokens: invite links and session cookies, each ``<id>.<secret>``.

The id (an owner's, a session's) finds the record in one read; the secret, 256 random bits,
is kept by the store only as a SHA-256 digest (``owner_records.digest_secret``) and compared
in constant time.
"""

from __future__ import annotations

import re
import secrets

from store.owner_records import digest_secret

_TOKEN = re.compile(r"((?:own|ses)_[0-9a-f]{16})\.([A-Za-z0-9_-]{43})")


def new_secret() -> str:
    """Return 256 random bits as 43 URL-safe characters."""
    return secrets.token_urlsafe(32)


def join_token(record_id: str, secret: str) -> str:
    """Return the token naming ``record_id`` with its ``secret``."""
    return f"{record_id}.{secret}"


def split_token(token: str | None) -> tuple[str, str] | None:
    """Return ``(record id, digest of the secret)`` of a well-formed token, else None."""
    if not token:
        return None
    matched = _TOKEN.fullmatch(token)
    return None if matched is None else (matched.group(1), digest_secret(matched.group(2)))
