"""What the metrics cost: requests per second of /v1/positions through a stack whose processes
record metrics and serve them (each on its /metrics port, scraped once a second as Prometheus
would) over the same stack with metrics off (no port: nothing recorded), measured by the same
client in alternating rounds of the same run. Goal (issue 50): at least 0.97."""

from __future__ import annotations

import contextlib
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx

from bench.figures import record
from bench.loadclient import median_run
from bench.positions_throughput import QUERY, Target, _load, varied_queries
from deploy.local_stack import free_port_block, start_stack, stop_stack
from deploy.supervisor import plan
from shared.runtime.config import default_process_counts, load_settings

ROUNDS = 5
#: Seconds between two scrapes of every process (the scrape interval of tests/prometheus_server.py).
SCRAPE_EVERY_S = 1.0


@contextlib.contextmanager
def scraping(ports: list[int]) -> Iterator[None]:
    """Scrape every ``ports``' /metrics each SCRAPE_EVERY_S seconds until the block ends."""
    stop = threading.Event()

    def scrape() -> None:
        with httpx.Client(timeout=5) as client:
            while not stop.wait(SCRAPE_EVERY_S):
                for port in ports:
                    client.get(f"http://127.0.0.1:{port}/metrics").raise_for_status()

    thread = threading.Thread(target=scrape, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


@contextlib.contextmanager
def running_stack(metrics: bool) -> Iterator[tuple[Target, list[int]]]:
    """Run the stack `make run` runs here, with metrics or without; yield its target and /metrics ports."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {"CELESTIAL_EPHEMERIS_PROCESSES": str(default_process_counts()["ephemeris"])}
        ports: list[int] = []
        if metrics:
            count = len(plan(load_settings(env)))
            base = free_port_block(count)
            env["CELESTIAL_METRICS_BASE_PORT"] = str(base)
            ports = list(range(base, base + count))
        stack = start_stack(Path(tmp), env)
        try:
            _, key = stack.new_key(credits=100_000_000, rate_per_minute=100_000_000, max_concurrent=1000)
            headers = {"Authorization": f"Bearer {key}"}
            httpx.get(stack.base_url + QUERY, headers=headers).raise_for_status()
            yield Target(int(stack.base_url.rsplit(":", 1)[1]), varied_queries(), headers), ports
        finally:
            stop_stack(stack)


def main() -> None:
    with running_stack(metrics=True) as (on, ports), running_stack(metrics=False) as (off, _):
        with scraping(ports):
            for target in (on, off):
                _load(target, seconds=1.0)  # warm: connections, caches
            on_runs, off_runs = [], []
            for _ in range(ROUNDS):
                on_runs.append(_load(on))
                off_runs.append(_load(off))
    with_metrics, without = median_run(on_runs), median_run(off_runs)
    print(f"metrics overhead (/v1/positions, varied moments, median of {ROUNDS} alternating rounds)")
    print(
        f"  metrics on (recorded, scraped every {SCRAPE_EVERY_S:g} s): {with_metrics.rps:8.0f} req/s  "
        f"p50 {with_metrics.p50_ms:6.2f} ms  p99 {with_metrics.p99_ms:6.2f} ms  errors {with_metrics.errors}"
    )
    print(
        f"  metrics off (no port, nothing recorded):  {without.rps:8.0f} req/s  "
        f"p50 {without.p50_ms:6.2f} ms  p99 {without.p99_ms:6.2f} ms  errors {without.errors}"
    )
    ratio = record("positions_metrics_over_plain", with_metrics.rps / without.rps)
    print(f"  positions_metrics_over_plain: {ratio:.3f}  (goal >= 0.97)")


if __name__ == "__main__":
    main()
