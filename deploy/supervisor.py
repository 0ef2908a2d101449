"""The local supervisor behind `make run`: every service process and the gateway on loopback.

It starts CELESTIAL_<SERVICE>_PROCESSES processes per service (each on its own port from
CELESTIAL_SERVICE_BASE_PORT on) and one gateway on CELESTIAL_HTTP_PORT, restarts a
service process that dies, waits until /readyz answers, prints a development key and a
ready curl line, and stops every process on Ctrl-C (SIGINT) or SIGTERM.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field

from shared.runtime.config import REPO_ROOT, SERVICE_NAMES, Settings, load_settings

READY_LINE = "CELESTIAL READY"
RESTART_BACKOFF_S = 1.0


@dataclass
class Child:
    """One supervised process and how to start it again."""

    name: str
    argv: list[str]
    process: subprocess.Popen | None = None
    restarts: int = 0
    started_at: float = field(default=0.0)

    def start(self) -> None:
        self.process = subprocess.Popen(self.argv, cwd=REPO_ROOT, env=os.environ.copy())
        self.started_at = time.monotonic()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


def plan(settings: Settings) -> list[Child]:
    """Return the processes to run: every service process, then the gateway."""
    children: list[Child] = []
    for service in SERVICE_NAMES:
        for index, address in enumerate(settings.service_addresses[service]):
            port = address.rsplit(":", 1)[1]
            children.append(Child(f"{service}-{index}", [sys.executable, "-m", f"services.{service}.server", "--port", port]))
    children.append(Child("gateway", [sys.executable, "-m", "gateway.main"]))
    return children


def busy_ports(settings: Settings) -> list[tuple[str, int]]:
    """Return (what listens there, port) for each port of the plan that cannot be bound now,
    probed as the servers bind (SO_REUSEADDR: a port in TIME_WAIT is free for them)."""
    wanted = [(f"{service}-{index}", address) for service in SERVICE_NAMES
              for index, address in enumerate(settings.service_addresses[service])]
    wanted.append(("gateway", f"{settings.http_host}:{settings.http_port}"))
    busy = []
    for name, address in wanted:
        host, port = address.rsplit(":", 1)
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((host, int(port)))
            except OSError:
                busy.append((name, int(port)))
    return busy


def wait_ready(settings: Settings, children: list[Child], timeout_s: float = 90.0) -> None:
    """Return once the gateway's /readyz answers 200; raise if a process dies or time runs out."""
    url = f"http://{settings.http_host}:{settings.http_port}/readyz"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for child in children:
            if not child.alive():
                raise RuntimeError(f"{child.name} exited with status {child.process.returncode} during start-up")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the gateway was not ready at {url} within {timeout_s:.0f} s")


def development_key() -> str:
    """Return a new key of the `dev` account (created with 1,000,000 credits when missing)."""
    admin = [sys.executable, "-m", "gateway.admin_cli"]
    show = subprocess.run(admin + ["account", "show", "dev"], cwd=REPO_ROOT, capture_output=True, text=True)
    if show.returncode != 0:
        subprocess.run(admin + ["account", "create", "dev", "--credits", "1000000"], cwd=REPO_ROOT, check=True, capture_output=True)
    created = subprocess.run(admin + ["key", "create", "--account", "dev"], cwd=REPO_ROOT, check=True, capture_output=True, text=True)
    return created.stdout.strip()


def stop(children: list[Child], grace_s: float = 5.0) -> None:
    """Send SIGTERM to every process, then SIGKILL to any still running after ``grace_s``."""
    for child in children:
        if child.alive():
            child.process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    for child in children:
        if child.process is None:
            continue
        try:
            child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.process.kill()
            child.process.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run every Celestial process on loopback")
    parser.add_argument("--no-dev-key", action="store_true", help="do not create and print a development key")
    args = parser.parse_args(argv)
    settings = load_settings()
    busy = busy_ports(settings)
    if busy:
        listed = ", ".join(f"{port} ({name})" for name, port in busy)
        print(f"supervisor: ports already in use: {listed}. Free them, or choose others with "
              "CELESTIAL_SERVICE_BASE_PORT (gRPC services) and CELESTIAL_HTTP_PORT (gateway).",
              file=sys.stderr, flush=True)
        return 1
    children = plan(settings)
    stopping = {"now": False}

    def request_stop(signum, frame):
        stopping["now"] = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    for child in children:
        child.start()
    try:
        wait_ready(settings, children)
        base = f"http://{settings.http_host}:{settings.http_port}"
        print(f"{READY_LINE} {base}", flush=True)
        if not args.no_dev_key:
            key = development_key()
            print(f"\nDevelopment key (account 'dev'): {key}", flush=True)
            print(f"Try:\n  curl -s -H 'Authorization: Bearer {key}' '{base}/v1/positions?datetime=2024-03-20T12:00:00Z'\n", flush=True)
            print(f"Docs: {base}/docs   OpenAPI: {base}/v1/openapi.json   Stop: Ctrl-C", flush=True)
        while not stopping["now"]:
            for child in children:
                if not child.alive() and not stopping["now"]:
                    if child.name == "gateway":
                        raise RuntimeError(f"the gateway exited with status {child.process.returncode}")
                    if time.monotonic() - child.started_at > RESTART_BACKOFF_S:
                        child.restarts += 1
                        print(f"restarting {child.name} (restart {child.restarts})", file=sys.stderr, flush=True)
                        child.start()
            time.sleep(0.2)
    except RuntimeError as error:
        print(f"supervisor: {error}", file=sys.stderr, flush=True)
        stop(children)
        return 1
    stop(children)
    return 0


if __name__ == "__main__":
    sys.exit(main())
