"""The gateway app in process for the per-rule API tests: fixtures over :mod:`tests.api.in_process_stack`."""

from __future__ import annotations

import httpx
import pytest

from tests.api.in_process_stack import AppStack


@pytest.fixture(scope="session")
def stack(session_stacks) -> AppStack:
    return session_stacks.in_process("app")


@pytest.fixture(scope="module")
def key(stack: AppStack) -> str:
    """A key of a fresh, well-funded account, shared by one test module."""
    return stack.new_key()[1]


@pytest.fixture(scope="module")
def api(stack: AppStack, key: str) -> httpx.Client:
    with stack.client(key) as client:
        yield client
