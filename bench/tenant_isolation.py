"""One tenant never slows another (issue 48, part 3), on the whole stack (real processes).

1. PNG wheels beside positions: one account's 16 keep-alive clients ask for 1,600 px PNG chart
   wheels (resvg, about 0.08 s of CPU each, computed by the ephemeris processes' compute children);
   another account's one client asks for /v1/positions (computed on the same processes' own
   loops). Printed: the other account's positions p99 under that flood beside its p99 alone,
   measured in this run (a ratio: the shared machine's noise cancels), and every status each
   account got. The goal: p99 <= 100 ms under the flood.
2. Mixed load of one account: 64 clients cycling a transit scan, a station scan and a short
   search (lunar eclipses); meanwhile a second account's one client sends the short search.
   Printed: the second account's p99 under that load beside alone, and the first account's
   statuses: its excess is 429 (too_many_concurrent_requests, with Retry-After), never 5xx.
   The goal: 0 5xx, the second account's p99 under 1 s.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

from bench.figures import record
from bench.loadclient import _read_response
from deploy.local_stack import start_stack, stop_stack

SECONDS = 20.0
ALONE_SECONDS = 8.0
WHEEL_CLIENTS = 16
MIXED_CLIENTS = 64
BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
WHEEL_PNG = "/v1/chart-wheel?" + urlencode({**BIRTH, "format": "png", "size": 1600})
POSITIONS = "/v1/positions?datetime=2024-03-20T12:00:00Z"
TRANSITS = "/v1/transits?" + urlencode({**BIRTH, "start": "2024-01-01T00:00:00Z", "end": "2024-12-31T00:00:00Z"})
STATIONS = "/v1/stations?" + urlencode({"start": "2024-01-01T00:00:00Z", "end": "2026-01-01T00:00:00Z"})
ECLIPSES = "/v1/eclipses/lunar?" + urlencode({"datetime": "2024-01-01T00:00:00Z", "lat": 51.5, "lon": -0.13})


async def _client(port: int, key: str, paths: list[str], stop_at: float, statuses: Counter, latencies: list) -> None:
    """Send ``paths`` in turn on one keep-alive connection until ``stop_at``; count every
    status, and keep the seconds of each 200."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    turn = 0
    try:
        while time.perf_counter() < stop_at:
            path = paths[turn % len(paths)]
            turn += 1
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n\r\n".encode())
            started = time.perf_counter()
            status = await _read_response(reader)
            statuses[status] += 1
            if status == 200:
                latencies.append(time.perf_counter() - started)
    finally:
        writer.close()


async def _load(port: int, flood: tuple[str, int, list[str]] | None, probe: tuple[str, str], seconds: float):
    """Run ``flood`` (key, clients, paths they cycle; each client starts at its own place) and
    one client of ``probe`` (key, path) for ``seconds``; return the flood's statuses, the
    probe's statuses and the probe's latencies."""
    stop_at = time.perf_counter() + seconds
    flood_statuses: Counter = Counter()
    probe_statuses: Counter = Counter()
    probe_latencies: list[float] = []
    clients = []
    if flood is not None:
        key, count, paths = flood
        clients += [
            _client(port, key, paths[i % len(paths) :] + paths[: i % len(paths)], stop_at, flood_statuses, [])
            for i in range(count)
        ]
    clients.append(_client(port, probe[0], [probe[1]], stop_at, probe_statuses, probe_latencies))
    await asyncio.gather(*clients)
    return flood_statuses, probe_statuses, probe_latencies


def _p99_ms(latencies: list[float]) -> float:
    if not latencies:
        return float("nan")
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000


def _case(port: int, name: str, flood: tuple[str, int, list[str]], probe: tuple[str, str], goal_ms: float) -> None:
    _, _, alone = asyncio.run(_load(port, None, probe, ALONE_SECONDS))
    flood_statuses, probe_statuses, loaded = asyncio.run(_load(port, flood, probe, SECONDS))
    alone_ms, loaded_ms = _p99_ms(alone), _p99_ms(loaded)
    print(
        f"{name}: the other account's p99 {record(f'{name}_other_p99_ms', loaded_ms):8.1f} ms under the load, "
        f"{alone_ms:6.1f} ms alone: ratio {record(f'{name}_other_p99_ratio', loaded_ms / alone_ms):6.1f} "
        f"(goal <= {goal_ms:g} ms); its answers {dict(sorted(probe_statuses.items()))}; "
        f"the loading account's {dict(sorted(flood_statuses.items()))}; "
        f"5xx {record(f'{name}_5xx', sum(n for s, n in (flood_statuses + probe_statuses).items() if s >= 500))}"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        stack = start_stack(Path(tmp))
        try:
            port = int(stack.base_url.rsplit(":", 1)[1])
            keys = [stack.new_key(credits=10**9, rate_per_minute=10**8, max_concurrent=10**5)[1] for _ in range(4)]
            _case(port, "png_wheels", (keys[0], WHEEL_CLIENTS, [WHEEL_PNG]), (keys[1], POSITIONS), 100)
            _case(
                port,
                "mixed_searches",
                (keys[2], MIXED_CLIENTS, [TRANSITS, STATIONS, ECLIPSES]),
                (keys[3], ECLIPSES),
                1000,
            )
        finally:
            stop_stack(stack)


if __name__ == "__main__":
    main()
