"""A small keep-alive HTTP/1.1 load client on raw asyncio streams (cheap per request, so the
client costs the same for every target it measures)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class LoadResult:
    """Throughput and latency of one load run."""

    requests: int  # answered 200
    errors: int  # answered anything else
    seconds: float
    p50_ms: float
    p99_ms: float

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


async def _read_response(reader: asyncio.StreamReader) -> int:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n"):
        if line[:15].lower() == b"content-length:":
            length = int(line[15:].strip())
    if length:
        await reader.readexactly(length)
    return status


async def _worker(host: str, port: int, request: bytes, stop_at: float, latencies: list[float], errors: list[int]) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        while time.perf_counter() < stop_at:
            started = time.perf_counter()
            writer.write(request)
            status = await _read_response(reader)
            # Only successes count: a fast 429 or 503 must not pass for throughput.
            if status == 200:
                latencies.append(time.perf_counter() - started)
            else:
                errors.append(status)
    finally:
        writer.close()


async def _run(host: str, port: int, path: str, headers: dict[str, str] | list[dict[str, str]], connections: int, seconds: float) -> LoadResult:
    header_sets = headers if isinstance(headers, list) else [headers]
    requests = []
    for one in header_sets:
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}"] + [f"{k}: {v}" for k, v in one.items()]
        requests.append(("\r\n".join(lines) + "\r\n\r\n").encode())
    latencies: list[float] = []
    errors: list[int] = []
    started = time.perf_counter()
    stop_at = started + seconds
    await asyncio.gather(
        *(_worker(host, port, requests[i % len(requests)], stop_at, latencies, errors) for i in range(connections))
    )
    elapsed = time.perf_counter() - started
    latencies.sort()
    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else float("nan")
    return LoadResult(len(latencies), len(errors), elapsed, pct(0.50), pct(0.99))


def run_load(
    host: str, port: int, path: str, headers: dict[str, str] | list[dict[str, str]], *, connections: int = 16, seconds: float = 5.0
) -> LoadResult:
    """Return the result of ``connections`` keep-alive clients sending GET ``path`` for ``seconds``.

    ``headers`` is one set for every connection, or a list handed out to the connections in
    turn (several accounts' keys, say)."""
    try:
        import uvloop

        return uvloop.run(_run(host, port, path, headers, connections, seconds))
    except ImportError:
        return asyncio.run(_run(host, port, path, headers, connections, seconds))
