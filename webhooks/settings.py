"""The webhook worker's timings (CELESTIAL_WEBHOOK_*, docs/configuration.md)."""

from __future__ import annotations

from dataclasses import dataclass

from shared.runtime.config import Settings
from webhooks.account_slots import DEFAULT_PER_ACCOUNT
from webhooks.in_flight import DEFAULT_CONCURRENCY
from webhooks.timing import FIRST_RETRY_S, MAX_RETRY_S, RETRY_FOR_S


@dataclass(frozen=True)
class WorkerSettings:
    """The worker's timings, in seconds (CELESTIAL_WEBHOOK_*, docs/configuration.md). The
    tests shorten them: a receiver failing for an hour is, there, a receiver failing for a
    ``retry_for_s`` of seconds; the defaults are the product's."""

    tick_s: float = 5.0
    timeout_s: float = 10.0
    first_retry_s: float = FIRST_RETRY_S
    max_retry_s: float = MAX_RETRY_S
    retry_for_s: float = RETRY_FOR_S
    ack_wait_s: float = 30.0
    concurrency: int = DEFAULT_CONCURRENCY
    account_concurrency: int = DEFAULT_PER_ACCOUNT
    heartbeat_path: str | None = None
    #: (NATS) how far ahead a subscription's day is planned: the day jobs of a midnight (every
    #: subscription's next day) spread over this long, and a day is computed this long before
    #: its first instant falls due.
    plan_ahead_s: float = 3 * 3600.0
    #: (NATS) day jobs one worker computes at once (each waits on the search pool).
    day_concurrency: int = 4

    @classmethod
    def of(cls, settings: Settings) -> WorkerSettings:
        """Return the worker's settings from the deployment's. Raises ValueError when the
        acknowledgement wait does not exceed the receiver's timeout, or when retries would last
        longer than 72 hours."""
        worker = cls(
            settings.webhook_tick_s,
            settings.webhook_timeout_s,
            settings.webhook_first_retry_s,
            settings.webhook_max_retry_s,
            settings.webhook_retry_for_s,
            settings.webhook_ack_wait_s,
            settings.webhook_concurrency,
            settings.webhook_account_concurrency,
            settings.webhook_heartbeat_path,
        )
        if worker.ack_wait_s <= worker.timeout_s:
            raise ValueError("CELESTIAL_WEBHOOK_ACK_WAIT_S must exceed CELESTIAL_WEBHOOK_TIMEOUT_S")
        if worker.retry_for_s > RETRY_FOR_S:
            # The stores' delivered marks and the NATS queue's duplicate window are sized for it.
            raise ValueError(f"CELESTIAL_WEBHOOK_RETRY_FOR_S is at most {RETRY_FOR_S:.0f} (72 hours)")
        return worker
