"""The nats-server the NATS tests share: one for the whole run (each xdist worker its own),
started on first use by a test that takes it, and a fresh stream and bucket prefix per test."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest

from deploy.nats_server import NatsServer
from tests.nats.store.nats_store_factory import NatsFactory


@pytest.fixture(scope="session")
def nats_server(processes, tmp_path_factory) -> Iterator[NatsServer]:
    """Return the run's nats-server (JetStream on, a free loopback port, a temporary folder);
    skip the test when nats-server is not installed."""
    try:
        server = NatsServer(tmp_path_factory.mktemp("nats")).start()
    except RuntimeError as error:
        pytest.skip(str(error))
    yield server
    server.stop()


@pytest.fixture
def nats_factory(nats_server: NatsServer) -> NatsFactory:
    """Return a factory of NatsStores under a prefix no other test uses, on the run's server."""
    return NatsFactory(nats_server.url, "T" + secrets.token_hex(6), str(nats_server.storage_dir))
