"""The real stack for the end-to-end tests: the supervisor, uvicorn, service processes over gRPC."""

from __future__ import annotations

import pytest

from deploy.local_stack import Stack, start_stack, stop_stack
from tests.api.in_process_stack import AppStack, start_app_stack, stop_app_stack


@pytest.fixture(scope="session")
def stack(tmp_path_factory) -> Stack:
    running = start_stack(tmp_path_factory.mktemp("stack"))
    yield running
    stop_stack(running)


@pytest.fixture(scope="session")
def app_stack(tmp_path_factory) -> AppStack:
    """The same gateway in process, to compare the real stack's answers with."""
    running = start_app_stack(tmp_path_factory.mktemp("e2e-app"))
    yield running
    stop_app_stack(running)
