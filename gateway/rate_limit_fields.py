"""The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-11, sections 3 and
4): ``RateLimit-Policy``, the quota a policy allocates, and ``RateLimit``, what is left of it
now, each a Structured Field List (RFC 9651) of one Item per policy.

The gateway advertises one policy, :data:`RATE_POLICY`: an account's requests per minute, in
fixed windows aligned to the minute (a test key's answer the test limit's,
``gateway/key_modes.py``), the figures the ``X-RateLimit-*`` headers carry too. The other
limits that refuse a request are named, not advertised (docs/limits.md): the requests in
flight (:data:`CONCURRENCY_POLICY`), the spend caps (:func:`spend_cap_policy`) and the test
deliveries in flight (:data:`WEBHOOK_DELIVERIES_POLICY`).
"""

from __future__ import annotations

import math

#: The name of the requests-per-minute policy (a Structured Field String, as draft-11 requires).
RATE_POLICY = "minute"
#: The name of the requests-in-flight limit, which a 429 for concurrency names.
CONCURRENCY_POLICY = "concurrency"
#: The name of the limit on an account's test deliveries in flight on one gateway
#: (``POST /v1/webhooks/{id}/test``, docs/webhooks.md), which its 429 names.
WEBHOOK_DELIVERIES_POLICY = "webhook-deliveries"


def spend_cap_policy(scope: str, period: str) -> str:
    """Return the name of a spend cap's policy: its scope (``account`` or ``key``) and period
    (``daily`` or ``monthly``), e.g. ``account-daily-spend``."""
    return f"{scope}-{period}-spend"


def sf_string(value: str) -> str:
    """Return ``value`` as a Structured Field String (RFC 9651 section 4.1.6): quoted, with
    backslash and double quote escaped. Raises ValueError outside printable ASCII."""
    if not all(0x20 <= ord(character) <= 0x7E for character in value):
        raise ValueError(f"A Structured Field String holds printable ASCII only, not {value!r}.")
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def policy_field(policy: str, quota: int, window_s: int) -> str:
    """Return a ``RateLimit-Policy`` value: ``policy`` allocating ``quota`` requests (the
    default quota unit) per window of ``window_s`` seconds, e.g. ``"minute";q=300;w=60``."""
    return f"{sf_string(policy)};q={max(0, quota)};w={window_s}"


def limit_field(policy: str, remaining: int, window_left_s: int | None) -> str:
    """Return a ``RateLimit`` value: ``remaining`` requests left under ``policy`` (``r``) and,
    when given, the seconds within which no more than those may be used (``t``), e.g.
    ``"minute";r=299;t=37``."""
    value = f"{sf_string(policy)};r={max(0, remaining)}"
    return value if window_left_s is None else f"{value};t={max(0, window_left_s)}"


def seconds_until(reset_at_s: int, now_s: float) -> int:
    """Return the whole seconds from ``now_s`` to ``reset_at_s`` (Unix seconds), rounded up
    so that a client that waits them never comes back before the window ends."""
    return max(0, math.ceil(reset_at_s - now_s))
