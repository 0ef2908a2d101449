"""store/choice.py with a NATS URL set: the store is NATS JetStream and nothing is written
under the data dir. References: docs/stores.md (NATS JetStream when CELESTIAL_NATS_URL is set).
"""

from __future__ import annotations

import asyncio

from store.choice import open_configured_store
from store.nats_store import NatsStore
from tests.unit.store.test_choice import Settings


def test_with_a_nats_url_the_store_is_nats_and_no_file_is_written(tmp_path, nats_server):
    url = nats_server.url
    settings = Settings(tmp_path / "data", nats_url=url)

    async def run():
        store = await open_configured_store(settings)
        try:
            assert isinstance(store, NatsStore)
        finally:
            await store.close()

    asyncio.run(run())
    assert not settings.data_dir.exists()
