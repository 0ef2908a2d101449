"""The gateway's probes of itself, for the status page's uptime (issue 50, part 5).

Every ``CELESTIAL_STATUS_PROBE_S`` seconds (0: never) the gateway sends itself ``GET /readyz``
through its whole application, in process: the middleware, the router, a read from the key
and credit store and a health check of every service pool over gRPC. It costs no credit and
needs no key. The probe is up when that answers 200 within ``PROBE_TIMEOUT_S``; down otherwise
(a pool or the store unavailable, a failure, no answer in time). The results count from the
gateway's first probe up on (before, it is starting and takes no traffic). Each result is recorded
(``status_recording.StatusRecorder.record_probe``) and reaches the store with the next flush.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import structlog

from store.status_records import ProbeResult

log = structlog.get_logger("celestial.gateway")

#: What the probe asks for.
PROBE_PATH = "/readyz"
#: Seconds the probe waits for its answer before counting the gateway down.
PROBE_TIMEOUT_S = 5.0


def probe_scope(path: str = PROBE_PATH) -> dict:
    """Return the ASGI scope of the probe's request: a GET from the gateway itself."""
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode("ascii"),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"status-probe"), (b"user-agent", b"celestial-status-probe")],
        "client": ("127.0.0.1", 0),
        "server": ("127.0.0.1", 0),
    }


async def probe_once(app, timeout_s: float = PROBE_TIMEOUT_S) -> bool:
    """Return whether ``app`` answers the probe with 200 within ``timeout_s`` seconds."""
    answered: dict[str, int] = {}

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            answered["status"] = message["status"]

    try:
        async with asyncio.timeout(timeout_s):
            await app(probe_scope(), receive, send)
    except Exception as error:  # any failure of the real path is what the probe is there to see
        log.warning("status_probe_down", error=type(error).__name__)
        return False
    if answered.get("status") != 200:
        log.warning("status_probe_down", status=answered.get("status"))
        return False
    return True


async def probe_every(app, record: Callable[[ProbeResult], None], interval_s: float) -> None:
    """Probe ``app`` every ``interval_s`` seconds, handing each result to ``record``, until
    cancelled; from its first answer up on: a gateway still starting (its pools not yet
    connected) takes no traffic yet, and is not down."""
    serving = False
    while True:
        await asyncio.sleep(interval_s)
        up = await probe_once(app)
        serving = serving or up
        if serving:
            record(ProbeResult(time.time(), up))
