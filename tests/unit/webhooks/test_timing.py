"""webhooks/timing.py: an event is due its lead before its instant; retries back off
exponentially up to a cap, with equal jitter (half the backoff fixed, half random), for 72
hours; a subscription delivers nothing from before it existed. What outlives the retries in the
store (the delivered marks, the NATS queue's duplicate window and messages) outlives 72 hours."""

from __future__ import annotations

import random

import pytest

from store.nats_webhook_queue import DUPLICATE_WINDOW_S, MAX_AGE_S
from store.webhook_records import DELIVERED_MARK_S, MAX_LEAD_MINUTES
from webhooks.timing import (
    FIRST_RETRY_S,
    MAX_RETRY_S,
    RETRY_FOR_S,
    backoff_s,
    due_s,
    failing_too_long,
    retry_delay_s,
    still_retried,
    wanted,
)

#: The random fraction's extremes: the draw of [0, 1) closest to each end.
LOWEST, HIGHEST = (lambda: 0.0), (lambda: 1.0 - 2**-53)


def test_an_event_is_due_its_lead_before_its_instant():
    assert due_s(10_000.0, 0) == 10_000.0
    assert due_s(10_000.0, 15) == 10_000.0 - 900


def test_the_backoffs_ceiling_doubles_from_the_first_delay_up_to_its_cap():
    assert [backoff_s(n, first_s=30, max_s=3600) for n in range(1, 10)] == [
        30,
        60,
        120,
        240,
        480,
        960,
        1920,
        3600,
        3600,
    ]
    assert backoff_s(10_000) == MAX_RETRY_S


def test_the_backoff_follows_a_failed_attempt():
    with pytest.raises(ValueError):
        retry_delay_s(0)


def test_a_retry_waits_between_half_the_backoffs_ceiling_and_all_of_it():
    for failed in range(1, 12):
        ceiling = backoff_s(failed)
        assert retry_delay_s(failed, uniform=LOWEST) == ceiling / 2
        assert ceiling / 2 < retry_delay_s(failed, uniform=HIGHEST) <= ceiling
        assert retry_delay_s(failed, uniform=lambda: 0.5) == 0.75 * ceiling


def test_the_jitter_draws_from_the_random_source_given():
    draws = iter([0.1, 0.9])
    assert retry_delay_s(1, first_s=100, max_s=1000, uniform=lambda: next(draws)) == 55.0
    assert retry_delay_s(1, first_s=100, max_s=1000, uniform=lambda: next(draws)) == 95.0


def test_by_default_the_jitter_is_random_and_within_its_bounds():
    delays = {retry_delay_s(8) for _ in range(200)}
    assert len(delays) > 100 and all(MAX_RETRY_S / 2 <= d <= MAX_RETRY_S for d in delays)


def test_the_default_backoff_tries_about_ninety_times_in_72_hours():
    # 7 retries in the first hour, then one every 30 to 60 minutes: 72 to 144 in 72 hours
    # at the jitter's extremes; a seeded draw lands near the mean, 3/4 of an hour apart.
    def attempts(uniform) -> int:
        elapsed, made = 0.0, 1
        while still_retried(0.0, elapsed + retry_delay_s(made, uniform=uniform)):
            elapsed += retry_delay_s(made, uniform=uniform)
            made += 1
        return made

    seeded = random.Random(46)
    assert 70 <= attempts(HIGHEST) < attempts(seeded.random) < attempts(LOWEST) <= 150
    assert 85 <= attempts(random.Random(46).random) <= 105


def test_the_first_retry_comes_within_thirty_seconds():
    assert FIRST_RETRY_S / 2 <= retry_delay_s(1) <= FIRST_RETRY_S == 30.0


def test_a_delivery_is_tried_for_72_hours_after_it_fell_due():
    assert RETRY_FOR_S == 72 * 3600
    assert still_retried(1000.0, 1000.0 + RETRY_FOR_S - 1)
    assert not still_retried(1000.0, 1000.0 + RETRY_FOR_S)


def test_a_subscription_failing_for_72_hours_pauses():
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


def test_an_event_stays_marked_delivered_past_the_longest_lead_and_the_retries():
    assert DELIVERED_MARK_S >= MAX_LEAD_MINUTES * 60 + RETRY_FOR_S + 86400


def test_the_nats_queue_drops_a_duplicate_and_keeps_a_message_as_long_as_it_is_retried():
    # A scheduler publishes an event again as long as it is still retried: until then the
    # queue must know it, and keep it while its retries go on.
    assert DUPLICATE_WINDOW_S > RETRY_FOR_S
    assert MAX_AGE_S > DUPLICATE_WINDOW_S
