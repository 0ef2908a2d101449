"""What the SQLite store's unit tests share: a store opened on one file for a scenario, and a
plain connection's view of that file's rows (what the store wrote, read without the store)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from store.sqlite_store import SqliteStore

T = TypeVar("T")


def rows(path: Path, sql: str, *params) -> list[tuple]:
    """Return the rows ``sql`` selects from the SQLite file at ``path``, read by a plain connection."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def with_store(path: Path, scenario: Callable[[SqliteStore], Awaitable[T]]) -> T:
    """Return what ``scenario`` returns, run on a store opened on ``path`` and closed after."""

    async def run() -> T:
        store = SqliteStore(path)
        try:
            return await scenario(store)
        finally:
            await store.close()

    return asyncio.run(run())
