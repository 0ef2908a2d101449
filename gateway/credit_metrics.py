"""Credits as the gateway takes and gives them back: charged for a request before its
service is called, refunded when it fails (``gateway/paid_requests.py``), by key mode."""

from __future__ import annotations

from gateway.key_modes import TEST_MODE
from shared.metrics_recording import counter, recording

LIVE_MODE = "live"

CHARGED = counter("celestial_credits_charged_total", "Credits charged for requests, by key mode.", ("key_mode",))
REFUNDED = counter(
    "celestial_credits_refunded_total", "Credits refunded for requests that failed, by key mode.", ("key_mode",)
)


def key_mode(test: bool) -> str:
    """Return the ``key_mode`` label of a request through a test key (``test``) or a live one."""
    return TEST_MODE if test else LIVE_MODE


def record_charge(credits: int, test: bool) -> None:
    """Count ``credits`` charged through a key of mode ``test``/live."""
    if not recording():
        return
    CHARGED.labels(key_mode(test)).inc(credits)


def record_refund(credits: int, test: bool) -> None:
    """Count ``credits`` refunded through a key of mode ``test``/live."""
    if not recording():
        return
    REFUNDED.labels(key_mode(test)).inc(credits)
