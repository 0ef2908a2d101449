"""store/choice.py: which store the settings select: the SQLite file under the data dir when no
NATS URL is set (NATS JetStream when one is: tests/nats/store/test_choice.py).

References: docs/stores.md (the embedded SQLite store under CELESTIAL_DATA_DIR; NATS JetStream
when CELESTIAL_NATS_URL is set).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from store.choice import open_configured_store
from store.sqlite_store import SqliteStore


@dataclass(frozen=True)
class Settings:
    data_dir: Path
    nats_url: str | None = None
    nats_replicas: int = 1

    @property
    def database_path(self) -> Path:
        return self.data_dir / "celestial.sqlite3"


def test_without_a_nats_url_the_store_is_the_sqlite_file_under_the_data_dir_created_if_missing(tmp_path):
    settings = Settings(tmp_path / "not" / "yet")

    async def run():
        store = await open_configured_store(settings)
        try:
            assert isinstance(store, SqliteStore)
            await store.create_account("acme", 5)
        finally:
            await store.close()

    asyncio.run(run())
    assert settings.database_path.is_file()


def test_an_empty_nats_url_counts_as_none(tmp_path):
    async def run():
        store = await open_configured_store(Settings(tmp_path, nats_url=""))
        try:
            assert isinstance(store, SqliteStore)
        finally:
            await store.close()

    asyncio.run(run())
