"""Signing webhook deliveries as Standard Webhooks 1.0 says (issue 46, part 4).

The specification: https://www.standardwebhooks.com (``spec/standard-webhooks.md`` of
github.com/standard-webhooks/standard-webhooks). A delivery carries three headers:

- ``webhook-id``: the event's id, the same on every retry of it (the receiver's idempotency key);
- ``webhook-timestamp``: when this attempt was sent, in Unix seconds (a retry is signed anew);
- ``webhook-signature``: ``v1,<base64 of HMAC-SHA256>`` keyed with the secret's bytes, of
  ``<id>.<timestamp>.<body>`` (the body exactly as sent). The header is a space-separated list,
  so a receiver accepts any ``v1`` entry that matches.

A secret is ``whsec_`` followed by the base64 of its bytes; the HMAC is keyed with those bytes
(:func:`secret_key`), not with the text. A receiver refuses a timestamp more than
:data:`TOLERANCE_S` from its own clock, so a captured delivery cannot be replayed later. Any
Standard Webhooks library (the ``standardwebhooks`` packages of PyPI and npm, Svix's) verifies
a delivery; so do the clients' ``verify_signature`` (sdk/python-template, sdk/typescript-template).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import time
from collections.abc import Mapping

#: The headers of a delivery (lower case: HTTP header names are case-insensitive).
ID_HEADER, TIMESTAMP_HEADER, SIGNATURE_HEADER = "webhook-id", "webhook-timestamp", "webhook-signature"
#: The attempt's number, 1 first: ours, beside the standard's, for receivers that log it.
ATTEMPT_HEADER = "Celestial-Attempt"
#: How far (seconds) a delivery's timestamp may lie from the receiver's clock, either way: the
#: specification's libraries allow five minutes. A retry is signed anew when sent, so only
#: clock skew and transit count against it.
TOLERANCE_S = 300
#: The symmetric (HMAC-SHA256) signature's version in the header.
SCHEME = "v1"
#: A secret's prefix in the specification's serialization.
SECRET_PREFIX = "whsec_"


def secret_key(secret: str) -> bytes:
    """Return the HMAC key ``secret`` serializes: the base64 after ``whsec_`` (the prefix and the
    padding optional, as the specification's libraries read it), decoded. Raises ValueError when
    it is not base64 or holds no byte.

    A secret made before issue 46 (``whsec_`` and 64 hex digits) is read the same way: hex digits
    are base64 characters, and 64 of them decode to 48 bytes, so such a secret keeps working
    with every Standard Webhooks library, unchanged, and stays until its owner rotates it."""
    text = secret[len(SECRET_PREFIX) :] if secret.startswith(SECRET_PREFIX) else secret
    text = text.rstrip("=")
    try:
        key = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError) as error:
        raise ValueError("a webhook secret is whsec_ followed by base64") from error
    if not key:
        raise ValueError("a webhook secret holds at least one byte")
    return key


def signature(event_id: str, timestamp_s: int, body: bytes, secret: str) -> str:
    """Return the base64 HMAC-SHA256 of ``<event_id>.<timestamp_s>.<body>`` keyed with the
    secret's bytes (without the ``v1,`` prefix)."""
    signed = f"{event_id}.{int(timestamp_s)}.".encode() + body
    return base64.b64encode(hmac.new(secret_key(secret), signed, hashlib.sha256).digest()).decode()


def delivery_headers(
    event_id: str, attempt: int, body: bytes, secret: str, timestamp_s: int | None = None
) -> dict[str, str]:
    """Return the headers that sign and name one delivery of ``body`` (event ``event_id``,
    attempt ``attempt``), signed at ``timestamp_s`` (Unix seconds; default now): the three of
    Standard Webhooks and ``Celestial-Attempt``."""
    t = int(time.time() if timestamp_s is None else timestamp_s)
    return {
        ID_HEADER: event_id,
        TIMESTAMP_HEADER: str(t),
        SIGNATURE_HEADER: f"{SCHEME},{signature(event_id, t, body, secret)}",
        ATTEMPT_HEADER: str(attempt),
    }


def signatures_of(header: str) -> list[str]:
    """Return the ``v1`` signatures a ``webhook-signature`` value lists (entries of another
    version, such as the asymmetric ``v1a``, are skipped)."""
    found = []
    for entry in str(header).split():
        version, _, value = entry.partition(",")
        if version == SCHEME and value:
            found.append(value)
    return found


def verify_signature(
    body: bytes,
    headers: Mapping[str, str],
    secret: str,
    *,
    now_s: float | None = None,
    tolerance_s: float = TOLERANCE_S,
) -> bool:
    """Return whether ``headers`` (any mapping of a delivery's headers, names in any case) sign
    ``body`` with ``secret``, timestamped within ``tolerance_s`` seconds of ``now_s`` (Unix
    seconds; default now). False when a header is missing or malformed. Compares in constant
    time. Raises ValueError when ``secret`` is not a secret (see :func:`secret_key`)."""
    key = secret_key(secret)
    named = {str(name).lower(): value for name, value in headers.items()}
    event_id, timestamp, listed = named.get(ID_HEADER), named.get(TIMESTAMP_HEADER), named.get(SIGNATURE_HEADER)
    if not event_id or not listed or timestamp is None or not str(timestamp).isascii() or not str(timestamp).isdigit():
        return False
    now = time.time() if now_s is None else now_s
    if abs(now - int(timestamp)) > tolerance_s:
        return False
    signed = f"{event_id}.{int(timestamp)}.".encode() + body
    expected = hmac.new(key, signed, hashlib.sha256).digest()
    matched = False
    for candidate in signatures_of(listed):
        try:
            given = base64.b64decode(candidate, validate=True)
        except (binascii.Error, ValueError):
            continue
        # Every candidate is compared, so the time taken tells nothing of which one matched.
        matched = hmac.compare_digest(expected, given) or matched
    return matched
