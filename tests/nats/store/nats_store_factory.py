"""NatsStores for the NATS tests and the NATS half of the store contract suites: a factory of
stores under one prefix on the run's nats-server (the ``nats_factory`` fixture of
``tests/nats/conftest.py``), and a store beside a plain client to read what it wrote.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import nats

from store.nats_store import NatsStore, open_nats_store

T = TypeVar("T")


@dataclass(frozen=True)
class NatsFactory:
    """Opens NatsStores on one server under one name prefix; picklable, for child processes."""

    url: str
    prefix: str
    storage_dir: str

    async def open(self) -> NatsStore:
        return await open_nats_store(self.url, prefix=self.prefix)

    def stored_bytes(self) -> bytes:
        """Return every byte the server keeps on disk for this prefix's stream and buckets."""
        streams = Path(self.storage_dir, "jetstream", "$G", "streams")
        names = {f"{self.prefix}_LEDGER"} | {f"KV_{self.prefix}_{b}" for b in ("ACCOUNTS", "KEYS")}
        files = sorted(f for name in names for f in (streams / name).rglob("*") if f.is_file())
        return b"".join(f.read_bytes() for f in files)


def with_plain_client(factory: NatsFactory, body: Callable[[NatsStore, Any, str], Awaitable[T]]) -> T:
    """Return what ``body(store, js, prefix)`` returns, run on a fresh store of ``factory``
    beside a plain client's JetStream context ``js`` (to read what the store wrote, without the
    store) and the store's subject prefix."""

    async def run() -> T:
        store = await factory.open()
        nc = await nats.connect(factory.url)
        try:
            return await body(store, nc.jetstream(), factory.prefix)
        finally:
            await nc.close()
            await store.close()

    return asyncio.run(run())
