"""Signing webhook deliveries (issue 40, part 3): the ``Celestial-Signature`` header.

A delivery carries ``Celestial-Signature: t=<unix seconds>,v1=<hex>`` where ``<hex>`` is the
HMAC-SHA256, keyed with the subscription's secret, of the bytes ``<t>.<body>`` (the timestamp
in decimal, a full stop, then the body exactly as sent). A receiver recomputes it over the body
it received, compares in constant time, and refuses a timestamp more than
:data:`TOLERANCE_S` seconds from its own clock, so a captured delivery cannot be replayed later.
The clients' ``verify_signature`` (sdk/python-template, sdk/typescript-template) follow these rules.
"""

from __future__ import annotations

import hashlib
import hmac
import time

#: The header that carries the signature.
SIGNATURE_HEADER = "Celestial-Signature"
#: How far (seconds) a delivery's timestamp may lie from the receiver's clock, either way: a
#: retry is signed anew when sent, so only clock skew and transit count against it.
TOLERANCE_S = 300
#: The signature scheme's name in the header.
SCHEME = "v1"


def signature(body: bytes, secret: str, timestamp_s: int) -> str:
    """Return the hex HMAC-SHA256 of ``<timestamp_s>.<body>`` keyed with ``secret``."""
    signed = str(int(timestamp_s)).encode() + b"." + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def signature_header(body: bytes, secret: str, timestamp_s: int | None = None) -> str:
    """Return the ``Celestial-Signature`` value for ``body`` signed at ``timestamp_s`` (Unix
    seconds; default now)."""
    t = int(time.time() if timestamp_s is None else timestamp_s)
    return f"t={t},{SCHEME}={signature(body, secret, t)}"


def delivery_headers(event_id: str, attempt: int, body: bytes, secret: str, timestamp_s: int | None = None) -> dict[str, str]:
    """Return the headers that sign and name one delivery of ``body`` (event ``event_id``,
    attempt ``attempt``), signed at ``timestamp_s`` (Unix seconds; default now)."""
    return {
        SIGNATURE_HEADER: signature_header(body, secret, timestamp_s),
        "Celestial-Event-Id": event_id,
        "Celestial-Attempt": str(attempt),
    }


def parse_header(header: str) -> tuple[int, list[str]] | None:
    """Return (timestamp, the v1 signatures) a header holds; None when it has no timestamp or
    no v1 signature (several v1 values are allowed, for a receiver rotating its secret)."""
    timestamp: int | None = None
    signatures: list[str] = []
    for part in str(header).split(","):
        name, _, value = part.strip().partition("=")
        if name == "t" and value.isdigit():
            timestamp = int(value)
        elif name == SCHEME and value:
            signatures.append(value)
    if timestamp is None or not signatures:
        return None
    return timestamp, signatures


def verify_signature(
    body: bytes, header: str, secret: str, *, now_s: float | None = None, tolerance_s: float = TOLERANCE_S
) -> bool:
    """Return whether ``header`` is a signature of ``body`` with ``secret`` made within
    ``tolerance_s`` seconds of ``now_s`` (Unix seconds; default now). Compares in constant time."""
    parsed = parse_header(header)
    if parsed is None:
        return False
    timestamp, signatures = parsed
    now = time.time() if now_s is None else now_s
    if abs(now - timestamp) > tolerance_s:
        return False
    expected = signature(body, secret, timestamp)
    # Every candidate is compared, so the time taken tells nothing of which one matched.
    return sum(hmac.compare_digest(expected, candidate) for candidate in signatures) > 0
