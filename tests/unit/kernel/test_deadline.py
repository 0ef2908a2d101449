"""kernel/deadline.py: a deadline on the monotonic clock that a long computation checks between
steps: never, after some seconds, or cancelled from another thread (the caller gone), measured
against ``time.monotonic()`` itself."""

from __future__ import annotations

import math
import threading
import time

import pytest

from kernel.deadline import Deadline, DeadlinePassed

# Sleeps and clock reads on a shared machine: a margin of a quarter second each way is far
# above scheduling jitter yet far below the 2-second spans the tests use.
SLACK_S = 0.25


def test_a_deadline_that_never_passes_has_infinite_time_left_and_checks_quietly():
    deadline = Deadline.never()
    assert not deadline.passed and deadline.remaining_s() == math.inf and deadline.at_monotonic_s == math.inf
    deadline.check()


def test_a_deadline_after_n_seconds_lies_n_seconds_ahead_on_the_monotonic_clock():
    before = time.monotonic()
    deadline = Deadline.after(2.0)
    after = time.monotonic()
    assert before + 2.0 <= deadline.at_monotonic_s <= after + 2.0
    assert 2.0 - SLACK_S < deadline.remaining_s() <= 2.0
    assert not deadline.passed
    deadline.check()


def test_once_its_time_is_past_a_deadline_has_passed_and_check_raises():
    deadline = Deadline.after(0.05)
    time.sleep(0.05 + 0.05)
    assert deadline.passed and deadline.remaining_s() <= 0.0
    with pytest.raises(DeadlinePassed):
        deadline.check()


def test_a_deadline_in_the_past_has_passed_at_once():
    deadline = Deadline(time.monotonic() - 1.0)
    assert deadline.passed and deadline.remaining_s() < -1.0 + SLACK_S
    with pytest.raises(DeadlinePassed):
        deadline.check()


def test_cancelling_makes_even_a_never_deadline_pass_now():
    deadline = Deadline.never()
    deadline.cancel()
    assert deadline.passed and deadline.remaining_s() == -math.inf
    with pytest.raises(DeadlinePassed):
        deadline.check()


def test_a_cancel_from_another_thread_stops_a_computation_at_its_next_check():
    deadline = Deadline.after(60.0)
    steps = 0
    stopped = threading.Event()

    def computation():
        nonlocal steps
        try:
            while True:
                deadline.check()
                steps += 1
                time.sleep(0.001)
        except DeadlinePassed:
            stopped.set()

    worker = threading.Thread(target=computation)
    worker.start()
    time.sleep(0.05)
    deadline.cancel()
    assert stopped.wait(2.0), "the computation saw the cancel within two seconds"
    worker.join(2.0)
    assert steps > 0 and not worker.is_alive()
