"""webhooks/settings.py: the worker's timings come from the deployment's settings."""

from __future__ import annotations

import pytest

from shared.runtime.config import load_settings
from webhooks.settings import WorkerSettings


def test_the_settings_come_from_the_deployments_and_the_ack_wait_exceeds_the_timeout():
    read = WorkerSettings.of(
        load_settings(
            {
                "CELESTIAL_WEBHOOK_TICK_S": "1.5",
                "CELESTIAL_WEBHOOK_CONCURRENCY": "3",
                "CELESTIAL_WEBHOOK_ACCOUNT_CONCURRENCY": "2",
            }
        )
    )
    assert (read.tick_s, read.concurrency, read.account_concurrency, read.retry_for_s, read.timeout_s) == (
        1.5,
        3,
        2,
        259200.0,
        10.0,
    )
    default = WorkerSettings.of(load_settings({}))
    assert (default.concurrency, default.account_concurrency) == (256, 4)
    with pytest.raises(ValueError):
        WorkerSettings.of(load_settings({"CELESTIAL_WEBHOOK_ACK_WAIT_S": "5"}))


def test_retries_last_72_hours_at_most():
    assert WorkerSettings.of(load_settings({"CELESTIAL_WEBHOOK_RETRY_FOR_S": "600"})).retry_for_s == 600.0
    with pytest.raises(ValueError):
        WorkerSettings.of(load_settings({"CELESTIAL_WEBHOOK_RETRY_FOR_S": str(72 * 3600 + 1)}))
