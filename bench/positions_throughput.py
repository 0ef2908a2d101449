"""Requests per second and p50/p99 latency of /v1/positions through the whole stack, beside
the floor (bare Starlette + one gRPC call to a constant server), measured by the same client
in the same run. Goal: the full stack at half the floor's throughput or better, p50 < 3 ms."""

from __future__ import annotations

import contextlib
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from bench.figures import record
from bench.loadclient import median_run, run_load
from deploy.local_stack import free_port_block, start_stack, stop_stack
from shared.runtime.config import REPO_ROOT, default_process_counts

CONNECTIONS = 16
SECONDS = 4.0
ROUNDS = 3
SERIAL_SECONDS = 3.0  # one connection, one request at a time: latency without queueing
QUERY = "/v1/positions?datetime=2024-03-20T12:00:00Z"


def varied_queries(count: int = 5000) -> list[str]:
    """Return ``count`` positions queries at distinct moments from 1900 to 2050 (fixed seed).

    With one moment repeated, Swiss Ephemeris answers every body from its cache of the last
    date and the astronomy costs next to nothing; real traffic asks for different moments.
    """
    generator = random.Random(20241120)
    queries = []
    for _ in range(count):
        moment = datetime(1900, 1, 1, tzinfo=UTC) + timedelta(seconds=generator.uniform(0, 150 * 365.25 * 86400))
        queries.append(f"/v1/positions?datetime={moment.strftime('%Y-%m-%dT%H:%M:%SZ')}")
    return queries


def _wait_port(port: int, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"port {port} never opened")


@dataclass(frozen=True)
class Target:
    """One thing to load: where it listens, what to ask, with which headers."""

    port: int
    paths: str | list[str]
    headers: dict[str, str]


@contextlib.contextmanager
def running_floor() -> Iterator[Target]:
    """Run the floor's two processes; yield its target."""
    grpc_port = free_port_block(1)
    grpc_proc = subprocess.Popen([sys.executable, "-m", "bench.floor", "grpc", str(grpc_port)], cwd=REPO_ROOT)
    http_port = free_port_block(1)
    http_proc = subprocess.Popen(
        [sys.executable, "-m", "bench.floor", "http", str(http_port), str(grpc_port)], cwd=REPO_ROOT
    )
    try:
        _wait_port(grpc_port)
        _wait_port(http_port)
        httpx.get(f"http://127.0.0.1:{http_port}/floor").raise_for_status()
        yield Target(http_port, "/floor", {})
    finally:
        for proc in (http_proc, grpc_proc):
            proc.terminate()
            proc.wait()


@contextlib.contextmanager
def running_stack() -> Iterator[Target]:
    """Run the whole stack with the process counts `make run` uses here; yield its target."""
    with tempfile.TemporaryDirectory() as tmp:
        # The test stacks force two ephemeris processes to exercise the balancing.
        counts = default_process_counts()
        stack = start_stack(Path(tmp), {"CELESTIAL_EPHEMERIS_PROCESSES": str(counts["ephemeris"])})
        try:
            _, key = stack.new_key(credits=100_000_000, rate_per_minute=100_000_000, max_concurrent=1000)
            headers = {"Authorization": f"Bearer {key}"}
            httpx.get(stack.base_url + QUERY, headers=headers).raise_for_status()
            yield Target(int(stack.base_url.rsplit(":", 1)[1]), QUERY, headers)
        finally:
            stop_stack(stack)


def _load(target: Target, *, connections: int = CONNECTIONS, seconds: float = SECONDS, paths=None):
    return run_load(
        "127.0.0.1", target.port, paths or target.paths, target.headers, connections=connections, seconds=seconds
    )


def main() -> None:
    with running_floor() as floor, running_stack() as stack:
        varied = varied_queries()
        for target in (floor, stack):
            _load(target, seconds=1.0)  # warm: connections, caches
        # Both run side by side (idle when not loaded) and are measured in alternating
        # rounds, so a slow spell of the machine falls on both alike; medians are reported.
        floor_runs, stack_runs, varied_runs = [], [], []
        for _ in range(ROUNDS):
            floor_runs.append(_load(floor))
            stack_runs.append(_load(stack))
            varied_runs.append(_load(stack, paths=varied))
        floor_serial = _load(floor, connections=1, seconds=SERIAL_SECONDS)
        stack_serial = _load(stack, connections=1, seconds=SERIAL_SECONDS)
    floor_run, full, full_varied = median_run(floor_runs), median_run(stack_runs), median_run(varied_runs)
    print(
        f"positions throughput ({CONNECTIONS} keep-alive connections, loopback, same client, median of {ROUNDS} "
        "alternating rounds)"
    )
    print(
        f"  floor  (Starlette + 1 gRPC hop, constant reply): {floor_run.rps:8.0f} req/s  p50 {floor_run.p50_ms:6.2f} "
        f"ms  p99 {floor_run.p99_ms:6.2f} ms  errors {floor_run.errors}"
    )
    print(
        f"  stack  (/v1/positions, auth + limits + credits + compute): {full.rps:8.0f} req/s  p50 {full.p50_ms:6.2f} "
        f"ms  p99 {full.p99_ms:6.2f} ms  errors {full.errors}"
    )
    print(
        f"  ratio stack/floor throughput: {record('positions_stack_over_floor', full.rps / floor_run.rps):.2f}  (goal "
        ">= 0.50)"
    )
    print(
        f"  stack, a different moment 1900-2050 per request: {full_varied.rps:8.0f} req/s  p50 "
        f"{full_varied.p50_ms:6.2f} ms  p99 {full_varied.p99_ms:6.2f} ms  errors {full_varied.errors}  ratio to floor "
        f"{full_varied.rps / floor_run.rps:.2f}"
    )
    print("positions latency (1 connection, one request at a time)")
    print(f"  floor  p50 {record('floor_p50_ms', floor_serial.p50_ms):6.2f} ms  p99 {floor_serial.p99_ms:6.2f} ms")
    print(
        f"  stack  p50 {record('positions_p50_ms', stack_serial.p50_ms):6.2f} ms  p99 {stack_serial.p99_ms:6.2f} ms  "
        "(goal p50 < 3 ms)"
    )


if __name__ == "__main__":
    main()
