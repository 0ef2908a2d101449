"""Verifying a webhook delivery (docs/webhooks.md), signed as Standard Webhooks 1.0 says
(https://www.standardwebhooks.com): ``webhook-signature`` lists ``v1,<base64 HMAC-SHA256>``
of ``<webhook-id>.<webhook-timestamp>.<body>``, keyed with the bytes of the secret
(``whsec_`` then base64). Any Standard Webhooks library verifies the same deliveries."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import time
from collections.abc import Mapping

#: How far (seconds) a delivery's timestamp may lie from this clock, either way: the
#: specification's five minutes.
SIGNATURE_TOLERANCE_S = 300


def _secret_key(secret: str) -> bytes:
    text = secret[len("whsec_") :] if secret.startswith("whsec_") else secret
    text = text.rstrip("=")
    try:
        key = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError) as error:
        raise ValueError("a webhook secret is whsec_ followed by base64") from error
    if not key:
        raise ValueError("a webhook secret holds at least one byte")
    return key


def verify_signature(
    body: bytes | str,
    headers: Mapping[str, str],
    secret: str,
    *,
    tolerance_s: float = SIGNATURE_TOLERANCE_S,
    now_s: float | None = None,
) -> bool:
    """Return whether ``headers`` (the delivery's headers, any mapping, names in any case)
    sign ``body`` (the raw body as received, before any JSON parsing) with ``secret``,
    timestamped within ``tolerance_s`` seconds of ``now_s`` (Unix seconds; default now).
    False when ``webhook-id``, ``webhook-timestamp`` or ``webhook-signature`` is missing or
    malformed. Compares in constant time. Raises ValueError when ``secret`` is not
    ``whsec_`` and base64 (a configuration error, not a forged delivery)."""
    key = _secret_key(secret)
    raw = body.encode() if isinstance(body, str) else bytes(body)
    named = {str(name).lower(): value for name, value in headers.items()}
    event_id = named.get("webhook-id")
    timestamp = str(named.get("webhook-timestamp") or "")
    listed = named.get("webhook-signature")
    if not event_id or not listed or not (timestamp.isascii() and timestamp.isdigit()):
        return False
    if abs((time.time() if now_s is None else now_s) - int(timestamp)) > tolerance_s:
        return False
    expected = hmac.new(key, f"{event_id}.{int(timestamp)}.".encode() + raw, hashlib.sha256).digest()
    matched = False
    for entry in str(listed).split():
        version, _, value = entry.partition(",")
        if version != "v1":
            continue
        try:
            given = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            continue
        # Every candidate is compared, so the time taken tells nothing of which one matched.
        matched = hmac.compare_digest(expected, given) or matched
    return matched
