"""Idempotency keys are scoped by account and mode (issue 48, part 1; docs/idempotency.md) on
the NATS store: the gateway app in process on the run's nats-server, the rule of
``tests/api/modes_apart.py`` (test then live and live then test, single and batch)."""

from __future__ import annotations

import pytest

from tests.api.modes_apart import ORDERS, SHAPES, check_modes_apart


@pytest.fixture(scope="module")
def nats_stack(module_stacks, nats_server):
    """The gateway app in process whose key and credit store is the run's nats-server."""
    return module_stacks.in_process("nats-modes", env={"CELESTIAL_NATS_URL": nats_server.url})


@pytest.mark.parametrize("order", ORDERS, ids=["test-then-live", "live-then-test"])
@pytest.mark.parametrize("shape", SHAPES)
def test_a_key_is_kept_apart_per_mode_on_nats_each_computed_once_and_the_live_one_charged_once(
    nats_stack, shape, order
):
    check_modes_apart(nats_stack, shape, order)
