"""A counting events source for the scheduling tests: every (subscription, day) asked is
counted, and answered with synthetic events falling due a few seconds from the start."""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from store.chart_records import StoredChart
from store.webhook_records import Webhook
from webhooks.forecast_requests import day_of


def synthetic_event(webhook_id: str, number: int, instant_s: float) -> dict[str, Any]:
    """Return an event (the delivered shape) numbered ``number`` of a subscription, at ``instant_s``."""
    digest = hashlib.sha256(f"{webhook_id}.{number}".encode()).hexdigest()[:24]
    moment = datetime.fromtimestamp(instant_s, UTC)
    return {
        "id": f"fc_{digest}",
        "kind": "transit",
        "phase": "exact",
        "bodies": ["sun", "moon"],
        "instant": {"jd": instant_s / 86400.0 + 2440587.5, "datetime": moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")},
    }


class CountingEvents:
    """``events_of`` answering ``per_day`` events per subscription, due ``first_in_s`` seconds
    after it was made and then a second apart (those of the day asked), after ``answer_s``
    seconds (the search pool's answer); ``calls`` counts each (subscription id, day) asked."""

    def __init__(self, per_day: int = 2, first_in_s: float = 2.0, answer_s: float = 0.02):
        self.start_s = time.time()
        self.per_day = per_day
        self.first_in_s = first_in_s
        self.answer_s = answer_s
        self.calls: Counter = Counter()
        self.charts: list[StoredChart | None] = []

    def instants(self) -> list[float]:
        return [self.start_s + self.first_in_s + number for number in range(self.per_day)]

    def events(self, webhook_id: str) -> list[dict[str, Any]]:
        """Return every event of the subscription, whatever its day."""
        return [synthetic_event(webhook_id, number, instant) for number, instant in enumerate(self.instants())]

    async def __call__(self, webhook: Webhook, chart: StoredChart | None, day: datetime) -> list[dict[str, Any]]:
        self.calls[(webhook.webhook_id, day)] += 1
        self.charts.append(chart)
        await asyncio.sleep(self.answer_s)
        return [
            event for event, instant in zip(self.events(webhook.webhook_id), self.instants()) if day_of(instant) == day
        ]
