"""Session-wide test fixtures shared by every test package, among them the one way a test
starts a stack: the whole stack on real processes (``deploy/local_stack.py``) or the gateway
app in process (``tests/api/in_process_stack.py``), and the hooks of the suite's two tiers
(:mod:`tests.tiers`): a test that takes ``processes`` runs in ``make test-all`` only."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from deploy.local_stack import Stack, start_stack, stop_stack
from kernel import civil_time, engine, places
from shared.runtime.config import load_settings
from tests import tiers
from tests.api.in_process_stack import AppStack, start_app_stack, stop_app_stack
from tests.name_table import NameTable

# The kernel computes from the repository's ephemeris files in every test, as a service does.
engine.use_ephemeris_files(load_settings().ephe_path)
places.use_gazetteer(load_settings().places_path)
civil_time.use_zone_files(load_settings().tz_path)


tiers.install()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that starts processes (takes the ``processes`` fixture, directly or
    through another fixture) with the ``processes`` marker, which the fast tier deselects."""
    for item in items:
        if tiers.starts_processes(getattr(item, "fixturenames", ())):
            item.add_marker(tiers.MARKER)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item):
    with tiers.guard_the_test(item.nodeid, getattr(item, "fixturenames", ())):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    with tiers.guard_the_test(item.nodeid, getattr(item, "fixturenames", ())):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item):
    with tiers.guard_the_test(item.nodeid, getattr(item, "fixturenames", ())):
        return (yield)


@pytest.fixture(scope="session")
def processes() -> None:
    """Declares that the test, or the fixture that takes this, starts processes (a server, a
    child, a browser): the test then runs in ``make test-all`` only, and may start them."""


class Stacks:
    """Starts stacks, each in a fresh folder, and stops every one it started when it closes.
    The fixtures that hand out :meth:`real` take ``processes``; the in-process ones do not."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory, stopping: contextlib.ExitStack):
        self._tmp_path_factory = tmp_path_factory
        self._stopping = stopping

    def real(self, name: str, env: dict[str, str] | None = None) -> Stack:
        """Return the whole stack started on real processes (the supervisor, uvicorn, the
        services over gRPC) with ``env`` added to its environment."""
        running = start_stack(self._tmp_path_factory.mktemp(name), env)
        self._stopping.callback(stop_stack, running)
        return running

    def in_process(
        self, name: str, env: dict[str, str] | None = None, pools: dict | None = None, resolve: NameTable | None = None
    ) -> AppStack:
        """Return the gateway app started in this process on its own store, with in-process
        services (``pools`` in place of the services' own) and ``resolve`` answering webhook
        hosts (a table of public names by default: no test asks a real resolver)."""
        running = start_app_stack(self._tmp_path_factory.mktemp(name), env, pools, resolve)
        self._stopping.callback(stop_app_stack, running)
        return running


@pytest.fixture(scope="session")
def session_stacks(tmp_path_factory) -> Iterator[Stacks]:
    """In-process stacks that live for the whole run (the one each test package shares)."""
    with contextlib.ExitStack() as stopping:
        yield Stacks(tmp_path_factory, stopping)


@pytest.fixture(scope="module")
def module_stacks(tmp_path_factory) -> Iterator[Stacks]:
    """In-process stacks that live for one test module (one with its own settings)."""
    with contextlib.ExitStack() as stopping:
        yield Stacks(tmp_path_factory, stopping)


@pytest.fixture(scope="session")
def session_real_stacks(processes, tmp_path_factory) -> Iterator[Stacks]:
    """Stacks on real processes that live for the whole run."""
    with contextlib.ExitStack() as stopping:
        yield Stacks(tmp_path_factory, stopping)


@pytest.fixture(scope="module")
def module_real_stacks(processes, tmp_path_factory) -> Iterator[Stacks]:
    """Stacks on real processes that live for one test module (one with its own settings)."""
    with contextlib.ExitStack() as stopping:
        yield Stacks(tmp_path_factory, stopping)
