"""The webhook worker's deliveries: each attempt by its outcome, and how late a delivered
event reached its receiver (the 2xx's time minus the event's due time)."""

from __future__ import annotations

from shared.metrics_recording import counter, duration_histogram, recording

#: The ``outcome`` of an attempt: a 2xx; any other answer or none; its account out of credits
#: (the subscription paused); no longer wanted (deleted or paused, or delivered already).
DELIVERED, FAILED, NO_CREDITS, NOT_WANTED = "delivered", "failed", "no_credits", "not_wanted"

DELIVERIES = counter("celestial_webhook_deliveries_total", "Webhook delivery attempts, by outcome.", ("outcome",))
LAG = duration_histogram(
    "celestial_webhook_delivery_lag_seconds", "Seconds from an event's due time to its delivery (its 2xx)."
)


def record_attempt(outcome: str) -> None:
    """Count one delivery attempt with ``outcome``."""
    if not recording():
        return
    DELIVERIES.labels(outcome).inc()


def record_delivered(due_at_s: float, delivered_at_s: float) -> None:
    """Count one event delivered at ``delivered_at_s`` (Unix seconds), due at ``due_at_s``."""
    if not recording():
        return
    DELIVERIES.labels(DELIVERED).inc()
    LAG.observe(max(0.0, delivered_at_s - due_at_s))
