"""A real Prometheus server for the tests (Debian's ``prometheus`` binary): it scrapes the
given targets every :data:`SCRAPE_INTERVAL_S`, listens on a free loopback port, keeps its data
in a folder of the test's, and answers PromQL queries (:meth:`PrometheusServer.query`)."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import httpx
import yaml

from deploy.local_stack import free_port_block

BINARY = "prometheus"
#: How often each target is scraped (seconds): short, so a test sees its load within seconds.
SCRAPE_INTERVAL_S = 1
START_TIMEOUT_S = 60.0


class PrometheusServer:
    """One Prometheus process scraping ``targets``: job name → {target "host:port": its labels}."""

    def __init__(self, folder: Path, targets: Mapping[str, Mapping[str, Mapping[str, str]]]):
        self.folder = folder
        self.targets = targets
        self.port = 0
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def config(self) -> dict:
        """Return the scrape configuration: one job per kind of process, each target labelled."""
        interval = f"{SCRAPE_INTERVAL_S}s"
        return {
            "global": {"scrape_interval": interval, "evaluation_interval": interval},
            "scrape_configs": [
                {
                    "job_name": job,
                    "static_configs": [{"targets": [target], "labels": dict(labels)} for target, labels in by.items()],
                }
                for job, by in self.targets.items()
            ],
        }

    def start(self) -> PrometheusServer:
        binary = shutil.which(BINARY)
        if binary is None:
            raise RuntimeError("the prometheus binary is missing: apt-get install -y prometheus")
        self.folder.mkdir(parents=True, exist_ok=True)
        config = self.folder / "prometheus.yml"
        config.write_text(yaml.safe_dump(self.config()))
        self.port = free_port_block(1)
        log = open(self.folder / "prometheus.log", "wb")
        self.process = subprocess.Popen(
            [
                binary,
                f"--config.file={config}",
                f"--storage.tsdb.path={self.folder / 'data'}",
                f"--web.listen-address=127.0.0.1:{self.port}",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        self.wait_until(lambda: self._ready(), START_TIMEOUT_S, "Prometheus ready")
        return self

    def _ready(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            log = (self.folder / "prometheus.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"prometheus exited; log:\n{log}")
        try:
            return httpx.get(f"{self.url}/-/ready", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def query(self, expression: str, labels: Mapping[str, str] | None = None) -> list[dict]:
        """Return the instant vector ``expression`` evaluates to now: each item's ``metric``
        (its labels) and ``value`` (a float). With ``labels``, ``expression`` is a metric name
        and the query is that metric with these label values."""
        if labels:
            matchers = ",".join(f'{name}="{value}"' for name, value in labels.items())
            expression = f"{expression}{{{matchers}}}"
        answer = httpx.get(f"{self.url}/api/v1/query", params={"query": expression}, timeout=10).json()
        if answer["status"] != "success":
            raise RuntimeError(f"{expression}: {answer}")
        return [{"metric": item["metric"], "value": float(item["value"][1])} for item in answer["data"]["result"]]

    def value(self, expression: str, labels: Mapping[str, str] | None = None) -> float | None:
        """Return the sum of what ``expression`` (with ``labels``) evaluates to, None when nothing."""
        found = self.query(expression, labels)
        return sum(item["value"] for item in found) if found else None

    def targets_up(self) -> dict[str, float]:
        """Return each scraped target's ``up`` (1: its last scrape succeeded), by instance."""
        return {item["metric"]["instance"]: item["value"] for item in self.query("up")}

    @staticmethod
    def wait_until(condition: Callable[[], bool], within_s: float, what: str) -> None:
        """Return once ``condition()`` holds; raise TimeoutError if it does not within ``within_s``."""
        deadline = time.monotonic() + within_s
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"not within {within_s} s: {what}")
            time.sleep(0.2)
