"""A small keep-alive HTTP/1.1 load client on raw asyncio streams (cheap per request, so the
client costs the same for every target it measures)."""

from __future__ import annotations

import asyncio
import os
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


async def _worker(
    host: str,
    port: int,
    requests: list[bytes],
    stop_at: float,
    latencies: list[float],
    errors: list[int],
    unique: bytes | None = None,
) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    turn = 0
    try:
        while time.perf_counter() < stop_at:
            started = time.perf_counter()
            if unique is None:
                writer.write(requests[turn % len(requests)])
            else:  # the request's head, then a header of a value no other request of the run has
                writer.write(requests[turn % len(requests)] + unique + b"%d\r\n\r\n" % turn)
            turn += 1
            status = await _read_response(reader)
            # Only successes count: a fast 429 or 503 must not pass for throughput.
            if status == 200:
                latencies.append(time.perf_counter() - started)
            else:
                errors.append(status)
    finally:
        writer.close()


async def _run(
    host: str,
    port: int,
    paths: list[str],
    header_sets: list[dict[str, str]],
    connections: int,
    seconds: float,
    unique_header: str | None = None,
) -> LoadResult:
    def encode(path: str, one: dict[str, str]) -> bytes:
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}"] + [f"{k}: {v}" for k, v in one.items()]
        return ("\r\n".join(lines) + ("\r\n" if unique_header else "\r\n\r\n")).encode()

    run = os.urandom(8).hex()
    uniques = [None if unique_header is None else f"{unique_header}: {run}-{i}-".encode() for i in range(connections)]

    # Connection i sends with header set i (mod their number), cycling through the paths;
    # connections start at different paths so they do not ask the same thing in step.
    per_connection = []
    for i in range(connections):
        one = header_sets[i % len(header_sets)]
        order = paths[i % len(paths) :] + paths[: i % len(paths)]
        per_connection.append([encode(path, one) for path in order])
    latencies: list[float] = []
    errors: list[int] = []
    started = time.perf_counter()
    stop_at = started + seconds
    await asyncio.gather(
        *(_worker(host, port, per_connection[i], stop_at, latencies, errors, uniques[i]) for i in range(connections))
    )
    elapsed = time.perf_counter() - started
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else float("nan")

    return LoadResult(len(latencies), len(errors), elapsed, pct(0.50), pct(0.99))


def median_run(runs: list[LoadResult]) -> LoadResult:
    """Return the run of median throughput among repeated runs of one target."""
    return sorted(runs, key=lambda run: run.rps)[len(runs) // 2]


def run_load(
    host: str,
    port: int,
    path: str | list[str],
    headers: dict[str, str] | list[dict[str, str]],
    *,
    connections: int = 16,
    seconds: float = 5.0,
    unique_header: str | None = None,
) -> LoadResult:
    """Return the result of ``connections`` keep-alive clients sending GET ``path`` for ``seconds``.

    ``path`` is one path, or a list each connection cycles through (a different moment per
    request, say). ``headers`` is one set for every connection, or a list handed out to the
    connections in turn (several accounts' keys, say). ``unique_header`` names a header every
    request carries with a value no other request of the run has (an ``Idempotency-Key``, say).
    """
    paths = path if isinstance(path, list) else [path]
    header_sets = headers if isinstance(headers, list) else [headers]
    try:
        import uvloop

        return uvloop.run(_run(host, port, paths, header_sets, connections, seconds, unique_header))
    except ImportError:
        return asyncio.run(_run(host, port, paths, header_sets, connections, seconds, unique_header))
