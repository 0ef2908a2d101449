"""Idempotency keys are scoped by account and mode (issue 48, part 1; docs/idempotency.md),
in process on the SQLite store: a test answer never replays to a live key nor the reverse, on
the single-request and the batch path, in both orders. The same rule on NATS:
``tests/nats/test_idempotency_modes_nats.py``."""

from __future__ import annotations

import pytest

from tests.api.modes_apart import ORDERS, SHAPES, check_modes_apart


@pytest.mark.parametrize("order", ORDERS, ids=["test-then-live", "live-then-test"])
@pytest.mark.parametrize("shape", SHAPES)
def test_a_key_is_kept_apart_per_mode_each_computed_once_and_the_live_one_charged_once(stack, shape, order):
    check_modes_apart(stack, shape, order)
