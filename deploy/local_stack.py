"""The whole stack on free loopback ports, for the API tests and the benchmarks.

:func:`start_stack` runs the supervisor (``deploy/supervisor.py``, what `make run` runs) with
its own ports and data folder; :func:`start_gateway` adds one more gateway process beside it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from deploy.supervisor import READY_LINE, search_pool_environment
from shared.runtime.config import REPO_ROOT, load_settings

START_TIMEOUT_S = 120


def free_port_block(count: int) -> int:
    """Return the first of ``count`` consecutive loopback ports that are free now."""
    for _ in range(200):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            base = probe.getsockname()[1]
        if base + count < 65535 and port_block_free(base, count):
            return base
    raise RuntimeError("no block of free ports found")


def port_block_free(base: int, count: int) -> bool:
    """Return whether ports ``base`` to ``base + count - 1`` of 127.0.0.1 can be bound by our
    servers now. A port whose last connection sits in TIME_WAIT counts as free: uvicorn and
    gRPC bind with SO_REUSEADDR, as this probe does (without it, after a few thousand loopback
    connections no block of eight was ever found)."""
    sockets = []
    try:
        for port in range(base, base + count):
            probe = socket.socket()
            sockets.append(probe)
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False
    finally:
        for probe in sockets:
            probe.close()


@dataclass
class Stack:
    """A running gateway and its services, and how to administer its store."""

    base_url: str
    env: dict[str, str]
    log_path: Path
    process: subprocess.Popen

    def admin(self, *args: str) -> subprocess.CompletedProcess:
        """Run `celestial-admin` against this stack's store."""
        return subprocess.run(
            [sys.executable, "-m", "gateway.admin.cli", *args],
            cwd=REPO_ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        )

    def new_key(
        self, credits: int = 100_000, *, rate_per_minute: int = 300, max_concurrent: int = 50
    ) -> tuple[str, str]:
        """Return (account name, plain key) of a fresh account holding ``credits``, with these limits."""
        name = f"acct-{os.urandom(6).hex()}"
        self.admin(
            "account",
            "create",
            name,
            "--credits",
            str(credits),
            "--rate-per-minute",
            str(rate_per_minute),
            "--max-concurrent",
            str(max_concurrent),
        )
        key = self.admin("key", "create", "--account", name).stdout.strip()
        return name, key

    def search_pool_environment(self) -> dict[str, str]:
        """Return the environment naming this stack's search processes, for a webhook worker
        started beside it (the supervisor's own workers get the same)."""
        return search_pool_environment(load_settings(self.env))

    def client(self, key: str | None = None, headers: dict[str, str] | None = None) -> httpx.Client:
        """Return a client of the gateway sending ``key`` (and ``headers``)."""
        headers = {**({"Authorization": f"Bearer {key}"} if key else {}), **(headers or {})}
        return httpx.Client(base_url=self.base_url, headers=headers, timeout=60)


def start_stack(tmp: Path, extra_env: dict[str, str] | None = None) -> Stack:
    """Start the supervisor with its own ports and data folder; return once ready."""
    http_port = free_port_block(1)
    service_base = free_port_block(8)
    env = os.environ.copy()
    env.update(
        {
            "CELESTIAL_HTTP_PORT": str(http_port),
            "CELESTIAL_SERVICE_BASE_PORT": str(service_base),
            "CELESTIAL_DATA_DIR": str(tmp / "data"),
            "CELESTIAL_LOG_FORMAT": "json",
            "CELESTIAL_EPHEMERIS_PROCESSES": "2",
            # No self-probes (docs/status.md): a test counting requests or killing a gateway
            # turns them on only when it means to.
            "CELESTIAL_STATUS_PROBE_S": "0",
        }
    )
    env.update(extra_env or {})
    log_path = tmp / "stack.log"
    log_file = open(log_path, "wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "deploy.supervisor", "--no-dev-key"],
        cwd=REPO_ROOT,
        env=env,
        stdout=log_file,
        stderr=subprocess.STDOUT,
    )
    log_file.close()
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if READY_LINE.encode() in log_path.read_bytes():
            return Stack(f"http://127.0.0.1:{http_port}", env, log_path, process)
        if process.poll() is not None:
            break
        time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"stack did not start; log:\n{log_path.read_text(errors='replace')[-4000:]}")


@dataclass
class ExtraGateway:
    """A second gateway process beside a stack, on its services and its store."""

    base_url: str
    process: subprocess.Popen
    log_path: Path

    def stop(self) -> None:
        _terminate(self.process)


def start_gateway(stack: Stack, extra_env: dict[str, str] | None = None) -> ExtraGateway:
    """Start one more gateway process sharing ``stack``'s services and store; return once ready."""
    port = free_port_block(1)
    env = {**stack.env, "CELESTIAL_HTTP_PORT": str(port), **(extra_env or {})}
    log_path = stack.log_path.with_name(f"gateway-{port}.log")
    with open(log_path, "wb") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "gateway.main"], cwd=REPO_ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT
        )
    base_url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            if httpx.get(f"{base_url}/readyz", timeout=2).status_code == 200:
                return ExtraGateway(base_url, process, log_path)
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"gateway did not start; log:\n{log_path.read_text(errors='replace')[-4000:]}")


def stop_stack(stack: Stack) -> None:
    _terminate(stack.process)


def _terminate(process: subprocess.Popen) -> None:
    """Stop a process as Ctrl-C would (SIGTERM), killing it after 20 s if it still runs."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
