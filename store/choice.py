"""Which store a gateway or the admin CLI uses: NATS JetStream when CELESTIAL_NATS_URL is set,
else the embedded SQLite file under CELESTIAL_DATA_DIR."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from store.interfaces import Store
from store.transaction_metrics import time_transactions


class StoreSettings(Protocol):
    """What the choice reads of the deployment's settings (``shared.runtime.config.Settings``
    has it; the store names no settings class, so it imports nothing of the runtime)."""

    @property
    def nats_url(self) -> str | None: ...
    @property
    def nats_replicas(self) -> int: ...
    @property
    def data_dir(self) -> Path: ...
    @property
    def database_path(self) -> Path: ...


async def open_configured_store(settings: StoreSettings) -> Store:
    """Return the store the settings select, opened and ready."""
    if settings.nats_url:
        from store.nats_store import open_nats_store

        return time_transactions(await open_nats_store(settings.nats_url, replicas=settings.nats_replicas), "nats")
    from store.sqlite_store import SqliteStore

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return time_transactions(SqliteStore(settings.database_path), "sqlite")
