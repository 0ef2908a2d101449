"""The contract of ``tests/unit/store/test_status_store_contract.py``, collected again here with
``factory`` opening a NatsStore under a fresh prefix on the run's nats-server."""

from __future__ import annotations

import pytest

from tests.nats.store.nats_store_factory import NatsFactory
from tests.unit.store.test_status_store_contract import *  # noqa: F403 (the contract's tests, collected here too)


@pytest.fixture
def factory(nats_factory: NatsFactory) -> NatsFactory:
    """The store under test: a NatsStore on the run's nats-server."""
    return nats_factory
