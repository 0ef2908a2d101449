"""The gateway application in the test process, for the many per-rule API tests.

:class:`AppStack` has the interface of :class:`deploy.local_stack.Stack` (``base_url``,
``env``, ``admin``, ``new_key``, ``client``), so a rule's test reads the same whichever it
runs on. Here the real Starlette app runs on its real SQLite store in a temporary folder,
its services are :class:`~tests.api.in_process_pool.InProcessPool` s, and requests go
through httpx's ASGI transport instead of a socket, on one event loop kept in a background
thread (an anyio blocking portal) for the app's whole life, as uvicorn's loop would be.
What needs real processes, uvicorn or NATS is proven by the smaller set in ``tests/e2e``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import anyio.from_thread
import httpx

from gateway.app import create_app
from shared.runtime.config import Settings, load_settings
from shared.runtime.logging import configure_logging
from tests.api.in_process_pool import in_process_pools
from tests.in_process_admin import run_admin
from tests.name_table import NameTable

BASE_URL = "http://testserver"

#: The one log file of every app in this test process. structlog caches its loggers on first
#: use, so logging is configured once and every app's lines (JSON, as in production) go here.
_log_file: TextIO | None = None


def _log_path(tmp: Path, settings: Settings) -> Path:
    """Return the file this process's apps log to, configuring logging on the first call."""
    global _log_file
    if _log_file is None:
        _log_file = open(tmp / "app.log", "a", encoding="utf-8")
        configure_logging(settings, "gateway", _log_file)
        # The test client's own line per request ("HTTP Request: GET <url>") is not the
        # gateway's log, and would repeat the keys tests send in paths on purpose.
        logging.getLogger("httpx").setLevel(logging.WARNING)
    return Path(_log_file.name)


@dataclass
class AppStack:
    """A running gateway app with in-process services, and how to administer its store."""

    env: dict[str, str]
    settings: Settings
    _transport: httpx.BaseTransport
    _running: contextlib.ExitStack
    base_url: str = BASE_URL
    log_path: Path | None = field(default=None)
    #: What the app asks a webhook URL's host's addresses of (no test asks a real resolver).
    resolve: NameTable = field(default_factory=NameTable)
    #: The app itself, for a test that reaches into its state (a store made to fail).
    app: Any = None

    def admin(self, *args: str) -> subprocess.CompletedProcess:
        """Run ``celestial-admin`` in this process against this app's store; raise
        CalledProcessError on a non-zero exit, as ``Stack.admin`` does."""
        completed = run_admin(args, self.settings)
        completed.check_returncode()
        return completed

    def new_key(
        self, credits: int = 100_000, *, rate_per_minute: int = 300, max_concurrent: int = 50
    ) -> tuple[str, str]:
        """Return (account name, plain key) of a fresh account holding ``credits``, with these limits."""
        name = f"acct-{os.urandom(6).hex()}"
        self.admin(
            "account",
            "create",
            name,
            "--credits",
            str(credits),
            "--rate-per-minute",
            str(rate_per_minute),
            "--max-concurrent",
            str(max_concurrent),
        )
        return name, self.admin("key", "create", "--account", name).stdout.strip()

    def client(self, key: str | None = None, headers: dict[str, str] | None = None) -> httpx.Client:
        """Return a client of the app sending ``key`` (and ``headers``); all clients share the
        app's one running event loop."""
        headers = {**({"Authorization": f"Bearer {key}"} if key else {}), **(headers or {})}
        return httpx.Client(transport=self._transport, base_url=self.base_url, headers=headers, timeout=60)


def start_app_stack(
    tmp: Path,
    extra_env: dict[str, str] | None = None,
    pools: dict | None = None,
    resolve: NameTable | None = None,
) -> AppStack:
    """Start the gateway app (its lifespan) on a store in ``tmp`` with in-process services
    (``pools`` in place of the services' own, e.g. one from an older release) and ``resolve``
    answering webhook hosts (a :class:`NameTable` of public names by default)."""
    env = {key: value for key, value in os.environ.items() if key != "CELESTIAL_NATS_URL"}
    env.update({"CELESTIAL_DATA_DIR": str(tmp / "data"), **(extra_env or {})})
    settings = load_settings(env)
    log_path = _log_path(tmp, settings)
    resolve = resolve if resolve is not None else NameTable()
    app = create_app(settings, pools=pools or in_process_pools(), resolve=resolve)
    running = contextlib.ExitStack()
    portal = running.enter_context(anyio.from_thread.start_blocking_portal())
    running.enter_context(portal.wrap_async_context_manager(app.router.lifespan_context(app)))
    return AppStack(env, settings, PortalTransport(app, portal), running, log_path=log_path, resolve=resolve, app=app)


def stop_app_stack(stack: AppStack) -> None:
    """Run the app's shutdown (drain the accounting, close the store) and stop its loop."""
    stack._running.close()


class PortalTransport(httpx.BaseTransport):
    """A synchronous httpx transport that sends each request to an ASGI app on the portal's loop."""

    def __init__(self, app, portal: anyio.from_thread.BlockingPortal):
        self._asgi = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        self._portal = portal

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        async def send() -> httpx.Response:
            response = await self._asgi.handle_async_request(request)
            content = b"".join([chunk async for chunk in response.stream])
            return httpx.Response(response.status_code, headers=response.headers, content=content)

        return self._portal.call(send)
