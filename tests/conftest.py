"""Session-wide test fixtures shared by every test package, among them the one way a test
starts a stack: the whole stack on real processes (``deploy/local_stack.py``) or the gateway
app in process (``tests/api/in_process_stack.py``)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

import pytest

from deploy.local_stack import Stack, start_stack, stop_stack
from kernel import civil_time, engine, places
from shared.runtime.config import load_settings
from tests.api.in_process_stack import AppStack, start_app_stack, stop_app_stack
from tests.name_table import NameTable

# The kernel computes from the repository's ephemeris files in every test, as a service does.
engine.use_ephemeris_files(load_settings().ephe_path)
places.use_gazetteer(load_settings().places_path)
civil_time.use_zone_files(load_settings().tz_path)


@pytest.fixture(scope="session", autouse=True)
def _stop_the_shared_nats_server():
    """Stop the nats-server the NATS store tests started on first use, at the end of the run.

    Starting is lazy (``tests.unit.store.nats_store_factory.session_server``), so a run without NATS
    tests starts no server; this only makes sure one that was started does not outlive the run.
    """
    yield
    factory_module = sys.modules.get("tests.unit.store.nats_store_factory")
    if factory_module is not None:
        factory_module.stop_session_server()


class Stacks:
    """Starts stacks, each in a fresh folder, and stops every one it started when it closes."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory, stopping: contextlib.ExitStack):
        self._tmp_path_factory = tmp_path_factory
        self._stopping = stopping

    def real(self, name: str, env: dict[str, str] | None = None) -> Stack:
        """Return the whole stack started on real processes (the supervisor, uvicorn, the
        services over gRPC) with ``env`` added to its environment."""
        running = start_stack(self._tmp_path_factory.mktemp(name), env)
        self._stopping.callback(stop_stack, running)
        return running

    def in_process(self, name: str, env: dict[str, str] | None = None, pools: dict | None = None, resolve: NameTable | None = None) -> AppStack:
        """Return the gateway app started in this process on its own store, with in-process
        services (``pools`` in place of the services' own) and ``resolve`` answering webhook
        hosts (a table of public names by default: no test asks a real resolver)."""
        running = start_app_stack(self._tmp_path_factory.mktemp(name), env, pools, resolve)
        self._stopping.callback(stop_app_stack, running)
        return running


@pytest.fixture(scope="session")
def session_stacks(tmp_path_factory) -> Iterator[Stacks]:
    """Stacks that live for the whole run (the one each test package shares)."""
    with contextlib.ExitStack() as stopping:
        yield Stacks(tmp_path_factory, stopping)


@pytest.fixture(scope="module")
def module_stacks(tmp_path_factory) -> Iterator[Stacks]:
    """Stacks that live for one test module (one with its own settings)."""
    with contextlib.ExitStack() as stopping:
        yield Stacks(tmp_path_factory, stopping)
