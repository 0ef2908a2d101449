"""webhooks/timing.py: an event is due its lead before its instant; retries back off
exponentially up to a cap, for 24 hours; a subscription delivers nothing from before it existed."""

from __future__ import annotations

import pytest

from webhooks.timing import (
    MAX_RETRY_S,
    RETRY_FOR_S,
    due_s,
    failing_too_long,
    retry_delay_s,
    still_retried,
    wanted,
)


def test_an_event_is_due_its_lead_before_its_instant():
    assert due_s(10_000.0, 0) == 10_000.0
    assert due_s(10_000.0, 15) == 10_000.0 - 900


def test_the_backoff_doubles_from_the_first_delay_up_to_its_cap():
    assert [retry_delay_s(n, first_s=30, max_s=3600) for n in range(1, 10)] == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]
    assert retry_delay_s(10_000) == MAX_RETRY_S


def test_the_backoff_follows_a_failed_attempt():
    with pytest.raises(ValueError):
        retry_delay_s(0)


def test_the_default_backoff_tries_about_thirty_times_in_24_hours():
    # 30 s, 1, 2, 4, 8, 16, 32 minutes, then hourly: the attempts made before 24 hours pass.
    elapsed, attempts = 0.0, 1
    while still_retried(0.0, elapsed + retry_delay_s(attempts)):
        elapsed += retry_delay_s(attempts)
        attempts += 1
    assert 28 <= attempts <= 32


def test_a_delivery_is_tried_for_24_hours_after_it_fell_due():
    assert still_retried(1000.0, 1000.0 + RETRY_FOR_S - 1)
    assert not still_retried(1000.0, 1000.0 + RETRY_FOR_S)


def test_a_subscription_failing_for_24_hours_pauses():
    assert not failing_too_long(None, 1e9)
    assert not failing_too_long(0.0, RETRY_FOR_S - 1)
    assert failing_too_long(0.0, RETRY_FOR_S)


def test_the_scheduler_wants_events_due_since_the_creation_and_not_too_far_ahead():
    created, now = 1000.0, 2000.0
    assert wanted(1500.0, created, now, ahead_s=60)
    assert wanted(2060.0, created, now, ahead_s=60)
    assert not wanted(2061.0, created, now, ahead_s=60)
    assert not wanted(999.0, created, now, ahead_s=60)  # due before the subscription existed
    assert not wanted(now - RETRY_FOR_S, 0.0, now, ahead_s=60)  # given up already
