"""The real stack for the end-to-end tests: the supervisor, uvicorn, service processes over gRPC."""

from __future__ import annotations

import pytest

from deploy.local_stack import Stack
from tests.api.in_process_stack import AppStack
from tests.e2e.browser import launched_chromium


@pytest.fixture(scope="session")
def stack(session_real_stacks) -> Stack:
    return session_real_stacks.real("stack")


@pytest.fixture(scope="session")
def app_stack(session_stacks) -> AppStack:
    """The same gateway in process, to compare the real stack's answers with."""
    return session_stacks.in_process("e2e-app")


@pytest.fixture(scope="module")
def chromium(processes):
    """Debian's chromium through Playwright, for the browser tests (skipped without it)."""
    with launched_chromium() as browser:
        yield browser
