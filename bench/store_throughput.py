"""Requests per second of a credit-charged endpoint through the gateway with each key and credit
store: the NATS JetStream store, the embedded SQLite store, and an in-memory stub (the
reference: the same gateway with a store that costs nothing). Goal: NATS >= 60% of the stub.

All three gateways run side by side on the same service processes and are measured by the same
client in interleaved rounds, so the ratios compare the stores alone.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.figures import record
from bench.loadclient import median_run, run_load
from deploy.local_stack import free_port_block, start_gateway, start_stack, stop_stack
from deploy.nats_server import NatsServer
from shared.runtime.config import REPO_ROOT, default_process_counts

CONNECTIONS = 16
SECONDS = 3.0
ROUNDS = 3
QUERY = "/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=sun"
BIG = str(10**9)
# One hot account puts every debit on one optimistic chain; real traffic spreads over many.
ACCOUNTS = 8


def _admin_key(stack, env: dict[str, str]) -> str:
    """Return a key of a fresh, effectively unlimited account in the store ``env`` selects."""

    def admin(*args: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "gateway.admin.cli", *args],
            cwd=REPO_ROOT,
            env={**stack.env, **env},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()

    name = f"bench-{time.monotonic_ns()}"
    admin("account", "create", name, "--credits", BIG, "--rate-per-minute", BIG, "--max-concurrent", "100000")
    return admin("key", "create", "--account", name)


def _headers(keys: list[str]) -> list[dict[str, str]]:
    return [{"Authorization": f"Bearer {key}"} for key in keys]


def _warm(base_url: str, keys: list[str]) -> None:
    """Check every key answers, then load the gateway for a second (caches, connections)."""
    for one in _headers(keys):
        httpx.get(base_url + QUERY, headers=one, timeout=30).raise_for_status()
    run_load("127.0.0.1", int(base_url.rsplit(":", 1)[1]), QUERY, _headers(keys), connections=CONNECTIONS, seconds=1.0)


def _measure(base_url: str, keys: list[str]):
    return run_load(
        "127.0.0.1", int(base_url.rsplit(":", 1)[1]), QUERY, _headers(keys), connections=CONNECTIONS, seconds=SECONDS
    )


def _start_stub_gateway(stack, tmp: Path) -> tuple[str, subprocess.Popen, str]:
    port = free_port_block(1)
    key_file = tmp / "stub.key"
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.stub_gateway", str(port), str(key_file)],
        cwd=REPO_ROOT,
        env=stack.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    base_url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(base_url + "/readyz", timeout=2).status_code == 200 and key_file.exists():
                return base_url, process, key_file.read_text().strip()
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.kill()
    raise RuntimeError("the stub gateway did not start")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp_name, contextlib.ExitStack() as cleanup:
        tmp = Path(tmp_name)
        nats = NatsServer(tmp / "nats")
        nats.start()
        cleanup.callback(nats.stop)
        (tmp / "stack").mkdir()
        stack = start_stack(
            tmp / "stack",
            {
                "CELESTIAL_LOG_LEVEL": "WARNING",
                "CELESTIAL_EPHEMERIS_PROCESSES": str(default_process_counts()["ephemeris"]),
            },
        )
        cleanup.callback(stop_stack, stack)
        nats_gateway = start_gateway(stack, {"CELESTIAL_NATS_URL": nats.url})
        cleanup.callback(nats_gateway.stop)
        stub_url, stub_process, stub_key = _start_stub_gateway(stack, tmp)
        cleanup.callback(lambda: (stub_process.terminate(), stub_process.wait()))
        nats_env = {"CELESTIAL_NATS_URL": nats.url}
        sqlite_keys = [_admin_key(stack, {}) for _ in range(ACCOUNTS)]
        nats_keys = [_admin_key(stack, nats_env) for _ in range(ACCOUNTS)]
        targets = {
            "one account": (
                (stub_url, [stub_key]),
                (stack.base_url, sqlite_keys[:1]),
                (nats_gateway.base_url, nats_keys[:1]),
            ),
            f"{ACCOUNTS} accounts": (
                (stub_url, [stub_key]),
                (stack.base_url, sqlite_keys),
                (nats_gateway.base_url, nats_keys),
            ),
        }
        for spread in targets.values():
            for base_url, keys in spread:
                _warm(base_url, keys)
        # Rounds interleave the three stores in rotating order, so a slow spell of the machine
        # (other processes, CPU frequency, a throttled VM) falls on all three alike; each
        # store's median round is reported.
        rounds: dict[str, list[list]] = {spread: [[], [], []] for spread in targets}
        for round_index in range(ROUNDS):
            for spread, stores in targets.items():
                # Each round starts with another store, so none is always measured last.
                for step in range(len(stores)):
                    index = (round_index + step) % len(stores)
                    base_url, keys = stores[index]
                    rounds[spread][index].append(_measure(base_url, keys))
        results = {spread: tuple(median_run(runs) for runs in per_store) for spread, per_store in rounds.items()}
    print(f"store throughput (/v1/positions, {CONNECTIONS} keep-alive connections, same services, same client)")
    for spread, (stub, sqlite, on_nats) in results.items():
        if spread == "one account":
            record("sqlite_over_stub", sqlite.rps / stub.rps)
            record("nats_over_stub_one_account", on_nats.rps / stub.rps)
        else:
            record("nats_over_stub_8_accounts", on_nats.rps / stub.rps)
        print(f" {spread}:")
        for label, result in (("stub  ", stub), ("sqlite", sqlite), ("nats  ", on_nats)):
            ratio = result.rps / stub.rps if stub.rps else float("nan")
            print(
                f"  {label} {result.rps:8.0f} req/s  p50 {result.p50_ms:6.2f} ms  p99 {result.p99_ms:6.2f} ms  errors "
                f"{result.errors}  ratio to stub {ratio:.2f}"
            )
    print("  goal: nats >= 0.60 of stub (issue 16: simplicity and the guarantees first)")


if __name__ == "__main__":
    main()
