"""The API key: its format, the hash a store keeps instead of it, and the redaction that keeps
it out of every message.

A key is ``svc_live_`` (a live key) or ``svc_test_`` (a test key: real answers, no credits;
docs/accounts-and-keys.md, "Test keys") plus 32 URL-safe random characters (spec,
Authentication 2). Stores keep only its SHA-256 digest, its mode and the first characters of its
random part (a hint for listings). Any message built from a value a client or an admin sent
repeats it through :func:`quoted`, which cuts anything shaped like a key, of either mode, to its
prefix.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Literal

#: A key's mode: ``live`` keys are charged credits, ``test`` keys are not (and have limits of
#: their own, gateway/key_modes.py).
KeyMode = Literal["live", "test"]
KEY_MODES: tuple[KeyMode, ...] = ("live", "test")
#: The fixed prefix of every live key (spec, Authentication 2), there for secret scanners.
KEY_PREFIX = "svc_live_"
#: The fixed prefix of every test key: a key's mode is readable at a glance, by people and scanners.
TEST_KEY_PREFIX = "svc_test_"
#: Each mode's prefix; both have the same length, so the random part starts at the same place.
KEY_PREFIXES: dict[KeyMode, str] = {"live": KEY_PREFIX, "test": TEST_KEY_PREFIX}
#: Length of the random part: ``secrets.token_urlsafe(24)`` gives 32 characters (192 bits).
KEY_RANDOM_CHARS = 32
_KEY_RANDOM_BYTES = 24
#: Characters of the random part shown in listings; 4 of 32 leave 168 secret bits.
PREFIX_HINT_CHARS = 4
_PREFIX_LENGTH = len(KEY_PREFIX)
_KEY_RE = re.compile(r"svc_(?:live|test)_[A-Za-z0-9_-]{32}")
#: Anything that starts like a key, whole, cut short or run on: what no message may repeat.
_KEY_LIKE_RE = re.compile(r"(svc_(?:live|test)_)[A-Za-z0-9_-]+")


def validate_key_mode(mode: object) -> KeyMode:
    """Return ``mode`` when it is a key mode (``live`` or ``test``); raise ValueError otherwise."""
    if mode not in KEY_MODES:
        raise ValueError(f"invalid key mode {quoted(mode)}: 'live' or 'test'")
    return mode  # type: ignore[return-value]


def generate_key(mode: KeyMode = "live") -> str:
    """Return a new plain key of ``mode``: its prefix (``svc_live_``, ``svc_test_``) plus 32
    URL-safe random characters."""
    return KEY_PREFIXES[validate_key_mode(mode)] + secrets.token_urlsafe(_KEY_RANDOM_BYTES)


def mode_of_key(plain_key: str) -> KeyMode:
    """Return the mode a well-formed key's prefix names (``test`` for ``svc_test_``, else ``live``)."""
    return "test" if plain_key.startswith(TEST_KEY_PREFIX) else "live"


def shown_prefix(mode: KeyMode, hint: str) -> str:
    """Return how listings show a key of ``mode`` whose prefix hint is ``hint``: ``svc_test_AbCd...``."""
    return f"{KEY_PREFIXES[mode]}{hint}..."


def contains_key_prefix(text: str) -> bool:
    """Return whether ``text`` holds either mode's key prefix (a pasted key, say)."""
    return any(prefix in text for prefix in KEY_PREFIXES.values())


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
    return plain_key[_PREFIX_LENGTH : _PREFIX_LENGTH + PREFIX_HINT_CHARS]


def redact_keys(text: str) -> str:
    """Return ``text`` with anything shaped like a plain key, live or test, cut to its prefix
    (``svc_live_...``, ``svc_test_...``).

    Every message built from a value a client or an admin supplied goes through it (an error
    body, a CLI error line), so no answer repeats a key even when one was sent in its place.
    """
    return _KEY_LIKE_RE.sub(r"\1...", text)


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
