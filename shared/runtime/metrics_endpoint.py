"""``/metrics``: the process's metrics in the Prometheus text format, on a port of its own
(CELESTIAL_METRICS_HOST:CELESTIAL_METRICS_PORT, off when the port is 0), never the public one.

Served on the process's own event loop, not from a thread (as ``prometheus_client``'s
``start_http_server`` would): the gauges read at a scrape (``before_scrape``) read state the
loop changes, which a thread could see half-changed. One request per connection: the answer
says ``Connection: close``.
"""

from __future__ import annotations

import asyncio
import contextlib

import structlog
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from shared.metrics_recording import refresh_gauges, stop_recording

log = structlog.get_logger("celestial.metrics")

METRICS_PATH = b"/metrics"
#: The most bytes of a request's line and headers read: a scraper sends a few hundred.
MAX_REQUEST_BYTES = 16 * 1024
#: Seconds a client may take to send its request.
READ_TIMEOUT_S = 5.0


def exposition() -> bytes:
    """Return every metric of the process in the Prometheus text format, the gauges refreshed."""
    refresh_gauges()
    return generate_latest(REGISTRY)


def _answer(status: bytes, content_type: bytes, body: bytes) -> bytes:
    head = (
        b"HTTP/1.1 "
        + status
        + b"\r\nContent-Type: "
        + content_type
        + b"\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\nConnection: close\r\n\r\n"
    )
    return head + body


async def _serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        async with asyncio.timeout(READ_TIMEOUT_S):
            head = await reader.readuntil(b"\r\n\r\n")
        method, _, rest = head.partition(b" ")
        target = rest.partition(b" ")[0].partition(b"?")[0]
        if method not in (b"GET", b"HEAD"):
            answer = _answer(b"405 Method Not Allowed", b"text/plain", b"GET /metrics\n")
        elif target != METRICS_PATH:
            answer = _answer(b"404 Not Found", b"text/plain", b"Only /metrics is served here.\n")
        else:
            body = exposition()
            answer = _answer(b"200 OK", CONTENT_TYPE_LATEST.encode(), body)
            if method == b"HEAD":
                answer = answer[: len(answer) - len(body)]
        writer.write(answer)
        await writer.drain()
    except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        pass
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


def record_if_served(port: int) -> None:
    """At a process's start: record no metric when its /metrics is off (``port`` 0), so
    metrics nobody reads cost nothing. (An app built in a test process records regardless.)"""
    if not port:
        stop_recording()


async def start_metrics_endpoint(host: str, port: int) -> asyncio.Server | None:
    """Return the server of ``/metrics`` listening on ``host:port``, or None when ``port`` is 0 (off)."""
    if not port:
        return None
    server = await asyncio.start_server(_serve, host, port, limit=MAX_REQUEST_BYTES, reuse_address=True)
    log.info("metrics_listening", host=host, port=port)
    return server


async def stop_metrics_endpoint(server: asyncio.Server | None) -> None:
    """Stop serving ``/metrics`` (nothing when it was off)."""
    if server is not None:
        server.close()
        with contextlib.suppress(Exception):
            await server.wait_closed()
