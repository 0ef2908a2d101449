"""The API key: its format, the hash a store keeps instead of it, and the redaction that keeps
it out of every message.

A key is ``svc_live_`` plus 32 URL-safe random characters (spec, Authentication 2). Stores keep
only its SHA-256 digest and the first characters of its random part (a hint for listings). Any
message built from a value a client or an admin sent repeats it through :func:`quoted`, which
cuts anything shaped like a key to its prefix.
"""

from __future__ import annotations

import hashlib
import re
import secrets

#: The fixed prefix of every key (spec, Authentication 2), there for secret scanners.
KEY_PREFIX = "svc_live_"
#: Length of the random part: ``secrets.token_urlsafe(24)`` gives 32 characters (192 bits).
KEY_RANDOM_CHARS = 32
_KEY_RANDOM_BYTES = 24
#: Characters of the random part shown in listings; 4 of 32 leave 168 secret bits.
PREFIX_HINT_CHARS = 4
_KEY_RE = re.compile(r"svc_live_[A-Za-z0-9_-]{32}")
#: Anything that starts like a key, whole, cut short or run on: what no message may repeat.
_KEY_LIKE_RE = re.compile(r"svc_live_[A-Za-z0-9_-]+")


def generate_key() -> str:
    """Return a new plain key: ``svc_live_`` plus 32 URL-safe random characters."""
    return KEY_PREFIX + secrets.token_urlsafe(_KEY_RANDOM_BYTES)


def new_key_id() -> str:
    """Return a fresh key id: ``key_`` plus 16 random hex digits (not secret: it names the key)."""
    return "key_" + secrets.token_hex(8)


def is_well_formed_key(candidate: str) -> bool:
    """Return whether ``candidate`` has the key format (prefix, length, alphabet)."""
    return _KEY_RE.fullmatch(candidate) is not None


def hash_key(plain_key: str) -> str:
    """Return the SHA-256 hex digest under which a key is stored and looked up.

    No salt is needed: the key carries 192 random bits, so the digest cannot be reversed by
    search, and an unsalted digest lets every gateway find a key with one indexed lookup.
    """
    return hashlib.sha256(plain_key.encode("utf-8")).hexdigest()


def prefix_hint(plain_key: str) -> str:
    """Return the first characters of the key's random part, safe to show in listings."""
    return plain_key[len(KEY_PREFIX) : len(KEY_PREFIX) + PREFIX_HINT_CHARS]


def redact_keys(text: str) -> str:
    """Return ``text`` with anything shaped like a plain key cut to its prefix (``svc_live_...``).

    Every message built from a value a client or an admin supplied goes through it (an error
    body, a CLI error line), so no answer repeats a key even when one was sent in its place.
    """
    return _KEY_LIKE_RE.sub(KEY_PREFIX + "...", text)


#: Characters of a supplied value a message repeats; a longer value is cut, so a message stays
#: a line whatever was sent.
QUOTED_CHARS = 80


def exception_message(exc: BaseException) -> str:
    """Return the message an exception was raised with (its class name when it has none)."""
    return str(exc.args[0]) if exc.args else type(exc).__name__


def quoted(value: object) -> str:
    """Return ``repr(value)`` for a message, any key in it redacted (:func:`redact_keys`), cut
    to QUOTED_CHARS."""
    text = redact_keys(repr(value))
    return text if len(text) <= QUOTED_CHARS else text[:QUOTED_CHARS] + "..."
