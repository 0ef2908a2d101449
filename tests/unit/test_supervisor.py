"""`make run`'s supervisor: what it checks before it starts anything."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

from deploy import supervisor
from shared.runtime.config import REPO_ROOT, load_settings
from deploy.local_stack import free_port_block


def test_a_port_of_the_plan_already_listened_on_is_reported_with_its_process():
    base = free_port_block(8)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", base + 1))
        holder.listen()
        settings = load_settings({"CELESTIAL_SERVICE_BASE_PORT": str(base), "CELESTIAL_EPHEMERIS_PROCESSES": "1",
                                  "CELESTIAL_HTTP_PORT": str(free_port_block(1))})
        assert supervisor.busy_ports(settings) == [("timelords-0", base + 1)]


def test_with_a_port_in_use_the_supervisor_starts_nothing_and_says_which_and_what_to_set():
    http_port = free_port_block(1)
    env = {**os.environ, "CELESTIAL_HTTP_PORT": str(http_port), "CELESTIAL_SERVICE_BASE_PORT": str(free_port_block(8))}
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", http_port))
        holder.listen()
        finished = subprocess.run([sys.executable, "-m", "deploy.supervisor", "--no-dev-key"], cwd=REPO_ROOT, env=env,
                                  capture_output=True, text=True, timeout=60)
    assert finished.returncode == 1
    assert f"{http_port} (gateway)" in finished.stderr and "CELESTIAL_HTTP_PORT" in finished.stderr
    assert "service_started" not in finished.stdout + finished.stderr  # no process was started


def test_ports_free_now_are_not_reported():
    settings = load_settings({"CELESTIAL_SERVICE_BASE_PORT": str(free_port_block(8)), "CELESTIAL_EPHEMERIS_PROCESSES": "1",
                              "CELESTIAL_HTTP_PORT": str(free_port_block(1))})
    assert supervisor.busy_ports(settings) == []
