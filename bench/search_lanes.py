"""A short search under one account's mixed load, and the gateway's memory under overload
(issue 36, section 3).

The whole stack (its default one search process); one account; 64 keep-alive clients, each
cycling through a transit scan, a station scan (the long calls), a lunar-eclipse search (the
short one) and positions. Printed: each endpoint's p50 under that load beside the same
endpoint's p50 alone, one request at a time (a ratio: the shared machine's noise cancels), the
statuses (the account's own excess is 429 since issue 48, a 503 only a pool full for everyone);
then three rounds of overload (400 clients), and the gateway's resident memory after
each round and two minutes after the last: a leak grows with every round, a high-water mark of
the allocator only in the first.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlencode

import httpx

from bench.figures import record
from bench.loadclient import _read_response
from deploy.local_stack import start_stack, stop_stack

CONNECTIONS = 64
SECONDS = 20.0
#: The overload: this many clients (about six times what the pools hold) for OVERLOAD_S, in
#: OVERLOAD_ROUNDS rounds; the gateway's memory after each, and AFTER_S after the last.
OVERLOAD_CONNECTIONS = 400
OVERLOAD_S = 10.0
OVERLOAD_ROUNDS = 3
AFTER_S = 120.0
BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
PATHS = {
    "transits": "/v1/transits?" + urlencode({**BIRTH, "start": "2024-01-01T00:00:00Z", "end": "2024-12-31T00:00:00Z"}),
    "stations": "/v1/stations?" + urlencode({"start": "2024-01-01T00:00:00Z", "end": "2026-01-01T00:00:00Z"}),
    "eclipses": "/v1/eclipses/lunar?" + urlencode({"datetime": "2024-01-01T00:00:00Z", "lat": 51.5, "lon": -0.13}),
    "positions": "/v1/positions?datetime=2024-03-20T12:00:00Z",
}


async def _client(port: int, key: str, order: list[str], stop_at: float, latencies: dict, statuses: dict) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    turn = 0
    try:
        while time.perf_counter() < stop_at:
            name = order[turn % len(order)]
            turn += 1
            writer.write(
                f"GET {PATHS[name]} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n\r\n".encode()
            )
            started = time.perf_counter()
            status = await _read_response(reader)
            statuses[name][status] += 1
            if status == 200:
                latencies[name].append(time.perf_counter() - started)
    finally:
        writer.close()


async def _mixed(port: int, key: str, connections: int = CONNECTIONS, seconds: float = SECONDS) -> tuple[dict, dict]:
    names = list(PATHS)
    latencies: dict[str, list[float]] = defaultdict(list)
    statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    stop_at = time.perf_counter() + seconds
    await asyncio.gather(
        *(
            _client(port, key, names[i % len(names) :] + names[: i % len(names)], stop_at, latencies, statuses)
            for i in range(connections)
        )
    )
    return latencies, statuses


def _alone_ms(client: httpx.Client, path: str, rounds: int = 7) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        client.get(path).raise_for_status()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def _gateway_rss_kib(supervisor_pid: int) -> int:
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            words = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(stat[1]) == supervisor_pid and b"gateway.main" in words:
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    return 0


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        stack = start_stack(Path(tmp))
        try:
            _, key = stack.new_key(credits=10**9, rate_per_minute=10**8, max_concurrent=10**5)
            port = int(stack.base_url.rsplit(":", 1)[1])
            with stack.client(key) as client:
                alone = {name: _alone_ms(client, path) for name, path in PATHS.items()}
            rss_before = _gateway_rss_kib(stack.process.pid)
            latencies, statuses = asyncio.run(_mixed(port, key))
            for name in PATHS:
                p50 = statistics.median(latencies[name]) * 1000 if latencies[name] else float("nan")
                answered = dict(sorted(statuses[name].items()))
                print(
                    f"{name:10s} p50 under mixed load {p50:8.1f} ms, alone {alone[name]:7.1f} ms: "
                    f"ratio {record(f'mixed_{name}_p50_ratio', p50 / alone[name]):7.1f}; answers {answered}"
                )
            total = sum(sum(s.values()) for s in statuses.values())
            print(f"{total / SECONDS:.0f} answers a second over {SECONDS:g} s with {CONNECTIONS} clients")
            rss = [_gateway_rss_kib(stack.process.pid)]
            for _ in range(OVERLOAD_ROUNDS):
                asyncio.run(_mixed(port, key, OVERLOAD_CONNECTIONS, OVERLOAD_S))
                rss.append(_gateway_rss_kib(stack.process.pid))
            time.sleep(AFTER_S)
            rss_later = _gateway_rss_kib(stack.process.pid)
            print(
                f"gateway RSS: before {rss_before / 1024:.1f} MiB; after the mixed load {rss[0] / 1024:.1f} MiB; "
                f"after each round of {OVERLOAD_CONNECTIONS} clients "
                f"{', '.join(f'{kib / 1024:.1f}' for kib in rss[1:])} MiB; {AFTER_S:g} s later {rss_later / 1024:.1f} "
                "MiB"
            )
            # A leak grows with every round; a high-water mark grows in the first and then holds.
            record("gateway_rss_last_round_growth_ratio", rss[-1] / rss[1] if rss[1] else float("nan"))
        finally:
            stop_stack(stack)


if __name__ == "__main__":
    main()
