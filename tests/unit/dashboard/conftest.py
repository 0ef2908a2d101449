"""Fixtures of the dashboard's module tests: a fresh SQLite dashboard store per test, and the
gateway app in process that the page modules' tests share."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from store.sqlite_store import SqliteStore
from tests.api.in_process_stack import AppStack


@pytest.fixture
def with_store(tmp_path: Path) -> Callable[[Callable[[SqliteStore], Awaitable[Any]]], Any]:
    """Return a runner of ``scenario(store)`` on a new SQLite store, opened and closed on one
    event loop (the store's connection belongs to the loop that opened it)."""

    def run(scenario: Callable[[SqliteStore], Awaitable[Any]]) -> Any:
        async def opened() -> Any:
            store = SqliteStore(tmp_path / "store.sqlite")
            try:
                return await scenario(store)
            finally:
                await store.close()

        return asyncio.run(opened())

    return run


@pytest.fixture(scope="session")
def pages_stack(session_stacks) -> AppStack:
    """The gateway app in process with its dashboard, keys read afresh on every request."""
    return session_stacks.in_process("dashboard-pages", {"CELESTIAL_KEY_CACHE_S": "0"})
