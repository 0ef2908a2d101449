"""A Celestial stack as containers on one podman network: NATS, one process of each service and
a gateway, all from the one image; the admin CLI run in a container of its own."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

from deploy.local_stack import free_port_block
from shared.runtime.config import SERVICE_NAMES

SERVICE_PORT = 50051


def podman(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["podman", *args], capture_output=True, text=True, check=check)


def wait_ready(base_url: str, logs: Callable[[], str], timeout_s: float = 120.0) -> None:
    """Return once the gateway at ``base_url`` answers /readyz 200; raise with ``logs()`` if it
    does not within ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base_url}/readyz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"the gateway at {base_url} never became ready:\n{logs()}")


@dataclass
class ContainerStack:
    """The containers of one stack, named ``<prefix>-<role>``, and the gateway's published URL."""

    image: str
    nats_image: str
    prefix: str = field(default_factory=lambda: f"smoke-{os.urandom(3).hex()}")
    base_url: str = ""
    containers: list[str] = field(default_factory=list)

    @property
    def network(self) -> str:
        return self.prefix

    def env(self) -> list[str]:
        """The environment every Celestial container gets: the store, and where each service is."""
        pairs = {"CELESTIAL_NATS_URL": f"nats://{self.prefix}-nats:4222"}
        for name in SERVICE_NAMES:
            pairs[f"CELESTIAL_{name.upper()}_ADDRESSES"] = f"{self.prefix}-{name}:{SERVICE_PORT}"
        return [argument for key, value in pairs.items() for argument in ("--env", f"{key}={value}")]

    def run(self, role: str, image: str, *command: str, options: tuple[str, ...] = ()) -> None:
        name = f"{self.prefix}-{role}"
        podman("run", "--detach", "--name", name, "--network", self.network, *options, image, *command)
        self.containers.append(name)

    def start(self) -> None:
        podman("network", "create", self.network)
        self.run("nats", self.nats_image)
        for name in SERVICE_NAMES:
            self.run(
                name,
                self.image,
                "python",
                "-m",
                f"services.{name}.server",
                "--host",
                "0.0.0.0",
                "--port",
                str(SERVICE_PORT),
            )
        port = free_port_block(1)
        self.run(
            "gateway",
            self.image,
            options=(*self.env(), "--env", "CELESTIAL_HTTP_HOST=0.0.0.0", "--publish", f"127.0.0.1:{port}:8080"),
        )
        self.base_url = f"http://127.0.0.1:{port}"
        self.wait_ready()

    def wait_ready(self) -> None:
        wait_ready(self.base_url, lambda: self.logs("gateway"))

    def admin(self, *args: str) -> str:
        """Return what ``celestial-admin ARGS`` prints on stdout, run in a container of its own."""
        return podman(
            "run", "--rm", "--network", self.network, *self.env(), self.image, "celestial-admin", *args
        ).stdout

    def logs(self, role: str) -> str:
        return podman("logs", f"{self.prefix}-{role}", check=False).stdout[-4000:]

    def stop(self) -> None:
        for name in reversed(self.containers):
            podman("rm", "--force", "--time", "5", name, check=False)
        podman("network", "rm", "--force", self.network, check=False)
