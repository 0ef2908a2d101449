"""Verifying a webhook delivery (docs/webhooks.md): ``Celestial-Signature`` is
``t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the subscription's secret>``."""

from __future__ import annotations

import hashlib
import hmac
import time

#: How far (seconds) a delivery's timestamp may lie from this clock, either way.
SIGNATURE_TOLERANCE_S = 300


def verify_signature(
    body: bytes | str, header: str, secret: str, *, tolerance_s: float = SIGNATURE_TOLERANCE_S, now_s: float | None = None
) -> bool:
    """Return whether ``header`` (the ``Celestial-Signature`` header) signs ``body`` (the raw
    body as received, before any JSON parsing) with ``secret``, made within ``tolerance_s``
    seconds of ``now_s`` (Unix seconds; default now). Compares in constant time."""
    raw = body.encode() if isinstance(body, str) else bytes(body)
    timestamp = None
    signatures = []
    for part in str(header or "").split(","):
        name, _, value = part.strip().partition("=")
        if name == "t" and value.isdigit():
            timestamp = value
        elif name == "v1" and value:
            signatures.append(value)
    if timestamp is None or not signatures:
        return False
    if abs((time.time() if now_s is None else now_s) - int(timestamp)) > tolerance_s:
        return False
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + raw, hashlib.sha256).hexdigest()
    # Every candidate is compared, so the time taken tells nothing of which one matched.
    return sum(hmac.compare_digest(expected, candidate) for candidate in signatures) > 0
