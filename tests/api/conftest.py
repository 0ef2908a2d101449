"""The gateway app in process for the per-rule API tests: fixtures over :mod:`tests.api.in_process_stack`."""

from __future__ import annotations

import httpx
import pytest

from tests.api.in_process_stack import AppStack, start_app_stack, stop_app_stack


@pytest.fixture(scope="session")
def stack(tmp_path_factory) -> AppStack:
    running = start_app_stack(tmp_path_factory.mktemp("app"))
    yield running
    stop_app_stack(running)


@pytest.fixture(scope="module")
def key(stack: AppStack) -> str:
    """A key of a fresh, well-funded account, shared by one test module."""
    return stack.new_key()[1]


@pytest.fixture(scope="module")
def api(stack: AppStack, key: str) -> httpx.Client:
    with stack.client(key) as client:
        yield client
