"""Fixtures of the dashboard's module tests: a fresh SQLite dashboard store per test."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from store.sqlite_store import SqliteStore


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
