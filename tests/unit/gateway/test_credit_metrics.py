"""gateway/credit_metrics.py: the credits a request is charged are counted by key mode, and
given back when it fails (docs/operating.md). The gateway in process."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from gateway.credit_metrics import LIVE_MODE, key_mode, record_refund
from gateway.key_modes import TEST_MODE
from tests.api.in_process_stack import AppStack


@pytest.fixture(scope="module")
def stack(session_stacks) -> AppStack:
    return session_stacks.in_process("app")


def credits(kind: str, mode: str) -> float:
    return REGISTRY.get_sample_value(f"celestial_credits_{kind}_total", {"key_mode": mode}) or 0.0


def test_a_paid_request_counts_the_credits_it_was_charged(stack):
    before = credits("charged", LIVE_MODE)
    with stack.client(stack.new_key()[1]) as client:
        answer = client.get("/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=sun")
    used = answer.json()["meta"]["credits_used"]
    assert used > 0
    assert credits("charged", LIVE_MODE) - before == used


def test_a_refused_request_is_charged_nothing(stack):
    before = credits("charged", LIVE_MODE)
    with stack.client(stack.new_key()[1]) as client:
        assert client.get("/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=vulcan").status_code == 400
    assert credits("charged", LIVE_MODE) == before


def test_the_key_mode_label_is_live_or_test():
    assert (key_mode(False), key_mode(True)) == (LIVE_MODE, TEST_MODE)


def test_a_refund_counts_its_credits_by_key_mode():
    before = credits("refunded", LIVE_MODE)
    record_refund(3, test=False)
    assert credits("refunded", LIVE_MODE) - before == 3
