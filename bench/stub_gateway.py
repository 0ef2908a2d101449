"""A gateway process on the in-memory store stub, for the store benchmark.

`python -m bench.stub_gateway PORT KEY_FILE`: serves on PORT (services from the environment,
as any gateway) and writes the key of its one account, created at start, to KEY_FILE.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import uvicorn

from gateway.app import create_app
from shared.runtime.config import load_settings
from shared.runtime.logging import configure_logging
from store.memory_store import MemoryStore


def main() -> None:
    port, key_file = int(sys.argv[1]), Path(sys.argv[2])
    settings = load_settings()
    configure_logging(settings, "stub-gateway")
    store = MemoryStore()

    async def seed() -> str:
        account = await store.create_account("bench", 10**12, rate_per_minute=10**9, max_concurrent=10**6)
        return (await store.create_key(account.id))[0]

    key_file.write_text(asyncio.run(seed()))
    uvicorn.run(
        create_app(settings, store=store),
        host="127.0.0.1",
        port=port,
        loop="uvloop",
        http="httptools",
        access_log=False,
        log_config=None,
    )


if __name__ == "__main__":
    main()
