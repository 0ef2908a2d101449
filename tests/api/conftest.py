"""The real stack for API tests: fixtures over :mod:`deploy.local_stack`."""

from __future__ import annotations

import httpx
import pytest

from deploy.local_stack import Stack, start_stack, stop_stack


@pytest.fixture(scope="session")
def stack(tmp_path_factory) -> Stack:
    running = start_stack(tmp_path_factory.mktemp("stack"))
    yield running
    stop_stack(running)


@pytest.fixture(scope="module")
def key(stack: Stack) -> str:
    """A key of a fresh, well-funded account, shared by one test module."""
    return stack.new_key()[1]


@pytest.fixture(scope="module")
def api(stack: Stack, key: str) -> httpx.Client:
    with stack.client(key) as client:
        yield client
