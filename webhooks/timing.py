"""When webhook deliveries fall due and when they are tried again (issue 40, part 3; issue 46).

An event at instant ``t`` of a subscription with a lead of ``L`` minutes is due at ``t - L``.
A subscription delivers the events due from its creation on (none from before it existed).
A delivery answered anything but 2xx, or nothing within the timeout, is tried again after an
exponential backoff with jitter, :func:`retry_delay_s`, for ``retry_for_s`` (72 hours: Stripe's
three days, the "multiple days" Standard Webhooks recommends) after the event fell due; then
it is given up (its credit refunded) and the subscription, failing all that time, pauses itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable

#: The backoff's defaults (seconds): the ceiling of the first retry's delay 30 s, doubling
#: after each failure, at most an hour, for 72 hours: 7 retries in the first hour, then one
#: every half hour to hour (see :func:`retry_delay_s`), about 90 attempts in all.
FIRST_RETRY_S = 30.0
MAX_RETRY_S = 3600.0
RETRY_FOR_S = 72 * 3600.0


def due_s(instant_s: float, lead_minutes: int) -> float:
    """Return when an event at ``instant_s`` (Unix seconds) is due for a lead of ``lead_minutes``."""
    return instant_s - 60.0 * lead_minutes


def backoff_s(failed_attempts: int, first_s: float = FIRST_RETRY_S, max_s: float = MAX_RETRY_S) -> float:
    """Return the backoff's ceiling after ``failed_attempts`` (>= 1) failed attempts, in
    seconds: ``first_s * 2 ** (failed_attempts - 1)``, at most ``max_s``."""
    if failed_attempts < 1:
        raise ValueError("the backoff follows at least one failed attempt")
    # Capped before it is computed, so a long run of failures never overflows a float.
    return min(max_s, first_s * 2.0 ** min(failed_attempts - 1, 60))


def retry_delay_s(
    failed_attempts: int,
    first_s: float = FIRST_RETRY_S,
    max_s: float = MAX_RETRY_S,
    uniform: Callable[[], float] = random.random,
) -> float:
    """Return the seconds to wait after ``failed_attempts`` (>= 1) failed attempts before the
    next: "equal jitter", half the backoff's ceiling ``b`` (:func:`backoff_s`) plus a random
    part of the other half, so in ``[b/2, b]``. ``uniform`` draws the random fraction in
    [0, 1) (the tests inject theirs).

    Why equal jitter rather than full jitter (a delay anywhere in ``[0, b]``; both from
    Marc Brooker, "Exponential Backoff And Jitter", AWS Architecture Blog, 2015): what we
    spread is many deliveries failing at once against one receiver (an outage, a deploy), and
    half the ceiling is spread enough to part them; but full jitter may retry a failing
    receiver at once, and would double the attempts of the hourly tail (a mean half hour
    apart instead of three quarters), each attempt a request the receiver must refuse. Equal
    jitter keeps the backoff's promise that every wait grows with the failures."""
    ceiling = backoff_s(failed_attempts, first_s, max_s)
    return ceiling / 2.0 + uniform() * ceiling / 2.0


def still_retried(due_at_s: float, now_s: float, retry_for_s: float = RETRY_FOR_S) -> bool:
    """Return whether a delivery due at ``due_at_s`` is still tried at ``now_s``."""
    return now_s - due_at_s < retry_for_s


def failing_too_long(failing_since_s: float | None, now_s: float, retry_for_s: float = RETRY_FOR_S) -> bool:
    """Return whether a subscription whose failures began at ``failing_since_s`` (None: it is
    not failing) has failed long enough at ``now_s`` to pause itself."""
    return failing_since_s is not None and now_s - failing_since_s >= retry_for_s


def wanted(due_at_s: float, created_s: float, now_s: float, ahead_s: float, retry_for_s: float = RETRY_FOR_S) -> bool:
    """Return whether a scheduler at ``now_s`` queues a delivery due at ``due_at_s`` for a
    subscription created at ``created_s``: due since the creation, no further ahead than
    ``ahead_s``, and not given up already."""
    return due_at_s >= created_s and due_at_s <= now_s + ahead_s and still_retried(due_at_s, now_s, retry_for_s)
