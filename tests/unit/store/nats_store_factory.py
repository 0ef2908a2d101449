"""NatsStore for the store contract suite: one nats-server for the whole test run, and a
fresh stream and bucket prefix for every test, so tests never see each other's data.

The server is started on first use (a run that selects no NATS test starts none) and stopped
at the end of the session by ``tests/conftest.py`` (or at interpreter exit).
"""

from __future__ import annotations

import asyncio
import atexit
import secrets
import shutil
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import nats
import pytest

from deploy.nats_server import NatsServer
from store.nats_store import NatsStore, open_nats_store

T = TypeVar("T")

_server: NatsServer | None = None


def session_server() -> NatsServer:
    """Return the run's nats-server, starting it (on a free port, in a temporary dir) if needed."""
    global _server
    if _server is None:
        server = NatsServer(tempfile.mkdtemp(prefix="celestial-nats-"))
        server.start()
        _server = server
        atexit.register(stop_session_server)
    return _server


def stop_session_server() -> None:
    """Stop the run's nats-server, if one was started, and delete its storage."""
    global _server
    server, _server = _server, None
    if server is not None:
        server.stop()
        shutil.rmtree(server.storage_dir, ignore_errors=True)


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


def nats_factory(tmp_path: Path) -> NatsFactory:
    """Return a factory for a fresh prefix on the session's server (skips when nats-server is missing)."""
    try:
        server = session_server()
    except RuntimeError as error:
        pytest.skip(str(error))
    return NatsFactory(server.url, "T" + secrets.token_hex(6), str(server.storage_dir))


def with_plain_client(tmp_path: Path, body: Callable[[NatsStore, Any, str], Awaitable[T]]) -> T:
    """Return what ``body(store, js, prefix)`` returns, run on a fresh store beside a plain
    client's JetStream context ``js`` (to read what the store wrote, without the store) and the
    store's subject prefix."""
    factory = nats_factory(tmp_path)

    async def run() -> T:
        store = await factory.open()
        nc = await nats.connect(factory.url)
        try:
            return await body(store, nc.jetstream(), factory.prefix)
        finally:
            await nc.close()
            await store.close()

    return asyncio.run(run())
