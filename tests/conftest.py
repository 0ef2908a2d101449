"""Session-wide test fixtures shared by every test package."""

from __future__ import annotations

import sys

import pytest

from shared.kernel import engine
from shared.runtime.config import load_settings

# The kernel computes from the repository's ephemeris files in every test, as a service does.
engine.use_ephemeris_files(load_settings().ephe_path)


@pytest.fixture(scope="session", autouse=True)
def _stop_the_shared_nats_server():
    """Stop the nats-server the NATS store tests started on first use, at the end of the run.

    Starting is lazy (``tests.unit.nats_store_factory.session_server``), so a run without NATS
    tests starts no server; this only makes sure one that was started does not outlive the run.
    """
    yield
    factory_module = sys.modules.get("tests.unit.nats_store_factory")
    if factory_module is not None:
        factory_module.stop_session_server()
