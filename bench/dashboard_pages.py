"""The dashboard's pages through the whole stack beside /v1/positions, measured by the same
client in the same run: size and median latency of each page for a signed-in owner, one
request at a time. Goal (issue 24): each page under 100 KB and answered under 50 ms."""

from __future__ import annotations

import re
import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx

from bench.figures import record
from deploy.local_stack import start_stack, stop_stack

SECONDS = 1.5
PASSWORD = "benchmarks of the seven sisters"
POSITIONS = "/v1/positions?datetime=2024-03-20T12:00:00Z"
#: (path, signed in?) of each page measured.
PAGES = (
    ("/dashboard/sign-in", False),
    ("/dashboard/keys", True),
    ("/dashboard/usage", True),
    ("/dashboard/password", True),
)
_CSRF = re.compile(r'name="csrf_token" value="([^"]*)"')


def _median_ms(client: httpx.Client, path: str) -> tuple[float, int]:
    """Return (median latency in ms, size in bytes) of GET ``path`` repeated for SECONDS."""
    timings, size = [], 0
    end = time.monotonic() + SECONDS
    while time.monotonic() < end:
        start = time.perf_counter()
        response = client.get(path)
        timings.append((time.perf_counter() - start) * 1000)
        response.raise_for_status()
        size = len(response.content)
    return statistics.median(timings), size


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        stack = start_stack(Path(tmp))
        try:
            name, key = stack.new_key(credits=1_000_000, rate_per_minute=100_000_000, max_concurrent=1000)
            link = stack.admin("account", "invite", name, f"{name}@example.com").stdout.strip().splitlines()[-1]
            with (
                httpx.Client(base_url=stack.base_url, timeout=30) as owner,
                httpx.Client(base_url=stack.base_url, timeout=30) as visitor,
                httpx.Client(base_url=stack.base_url, headers={"Authorization": f"Bearer {key}"}, timeout=30) as api,
            ):
                for _ in range(20):  # some usage to draw
                    api.get(POSITIONS).raise_for_status()
                parts = urlsplit(link)
                page = owner.get(f"{parts.path}?{parts.query}")
                token = parse_qs(parts.query)["token"][0]
                owner.post(
                    "/dashboard/invite",
                    data={"csrf_token": _CSRF.search(page.text).group(1), "token": token, "password": PASSWORD},
                )
                reference, _ = _median_ms(api, POSITIONS)
                print("dashboard pages, whole stack (1 connection, one request at a time, signed in)")
                print(f"  {'/v1/positions':20s} p50 {reference:6.2f} ms  (reference)")
                for path, signed_in in PAGES:
                    latency_ms, size = _median_ms(owner if signed_in else visitor, path)
                    figure = "dashboard_" + (
                        path.removeprefix("/dashboard").strip("/").replace("/", "_").replace("-", "_") or "home"
                    )
                    record(f"{figure}_p50_ms", latency_ms)
                    record(f"{figure}_kb", size / 1000)
                    print(
                        f"  {path:20s} p50 {latency_ms:6.2f} ms  {size / 1000:6.1f} KB  ratio to positions"
                        f" {latency_ms / reference:5.2f}  (goal < 50 ms, < 100 KB)"
                    )
        finally:
            stop_stack(stack)


if __name__ == "__main__":
    main()
