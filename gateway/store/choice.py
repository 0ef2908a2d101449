"""Which store a gateway or the admin CLI uses: NATS JetStream when CELESTIAL_NATS_URL is set,
else the embedded SQLite file under CELESTIAL_DATA_DIR."""

from __future__ import annotations

from gateway.store.interfaces import Store
from shared.runtime.config import Settings


async def open_configured_store(settings: Settings) -> Store:
    """Return the store the settings select, opened and ready."""
    if settings.nats_url:
        from gateway.store.nats_store import open_nats_store

        return await open_nats_store(settings.nats_url, replicas=settings.nats_replicas)
    from gateway.store.sqlite_store import SqliteStore

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return SqliteStore(settings.database_path)
