"""webhooks/delivery_metrics.py: every delivery attempt is counted by its outcome, and a
delivered event's lag behind its due time observed (docs/operating.md)."""

from __future__ import annotations

from prometheus_client import REGISTRY

from tests.unit.webhooks.scenarios import SETTINGS, WORKER, a_job, with_store
from webhooks.attempts import deliver
from webhooks.delivery_metrics import DELIVERED, FAILED, NOT_WANTED, record_delivered

LAG = "celestial_webhook_delivery_lag_seconds"


def deliveries(outcome: str) -> float:
    return REGISTRY.get_sample_value("celestial_webhook_deliveries_total", {"outcome": outcome}) or 0.0


def lag(part: str) -> float:
    return REGISTRY.get_sample_value(f"{LAG}_{part}") or 0.0


def test_each_attempt_is_counted_by_its_outcome(tmp_path):
    async def scenario(store, receiver, account, webhook):
        before = {outcome: deliveries(outcome) for outcome in (DELIVERED, FAILED, NOT_WANTED)}
        job = a_job(webhook)
        receiver.status = 500
        await deliver(store, SETTINGS, WORKER, job, 1)
        receiver.status = 200
        await deliver(store, SETTINGS, WORKER, job, 2)
        await deliver(store, SETTINGS, WORKER, job, 3)  # delivered already: not wanted
        return {outcome: deliveries(outcome) - before[outcome] for outcome in before}

    assert with_store(tmp_path, scenario) == {DELIVERED: 1, FAILED: 1, NOT_WANTED: 1}


def test_a_delivered_events_lag_is_its_delivery_time_minus_its_due_time():
    count, total = lag("count"), lag("sum")
    record_delivered(due_at_s=1000.0, delivered_at_s=1002.5)
    assert (lag("count") - count, lag("sum") - total) == (1, 2.5)


def test_an_event_delivered_before_its_due_time_lags_by_nothing():
    total = lag("sum")
    record_delivered(due_at_s=1000.0, delivered_at_s=999.0)
    assert lag("sum") == total
