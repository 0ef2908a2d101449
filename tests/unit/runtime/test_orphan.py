"""A process stops when the supervisor that started it is gone (shared/runtime/orphan.py).

References: the module's contract (a child whose parent is no longer its supervisor sends
itself SIGTERM within about PARENT_CHECK_S; nothing for a process started by hand); Linux
re-parents an orphan (prctl(2), PR_SET_CHILD_SUBREAPER; init otherwise). The processes are
real, and small: a Python interpreter importing only the module.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from shared.runtime.orphan import PARENT_CHECK_S, stop_when_orphaned

REPO = Path(__file__).resolve().parents[3]
# The watched process: it names its supervisor, says it is watching, then waits to be stopped.
WATCHED = """
import os, sys, time
from shared.runtime.orphan import stop_when_orphaned
stop_when_orphaned(int(sys.argv[1]))
print(os.getpid(), flush=True)
time.sleep(30)
"""
# A supervisor that starts the watched process and dies at once, leaving it orphaned.
DYING_SUPERVISOR = """
import os, subprocess, sys
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], str(os.getpid())], stdout=subprocess.PIPE, text=True)
print(child.stdout.readline().strip(), flush=True)
os._exit(0)
"""


def alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists() and "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()


def gone_within(pid: int, seconds: float) -> bool:
    stop_at = time.monotonic() + seconds
    while time.monotonic() < stop_at:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


def test_a_process_started_by_hand_watches_nothing():
    before = threading.active_count()
    stop_when_orphaned(None)
    assert threading.active_count() == before


def test_a_process_whose_supervisor_lives_keeps_running(processes):
    watched = subprocess.Popen(
        [sys.executable, "-c", WATCHED, str(os.getpid())], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    try:
        watched.stdout.readline()
        time.sleep(2 * PARENT_CHECK_S + 0.2)
        assert watched.poll() is None
    finally:
        watched.kill()
        watched.wait()
        watched.stdout.close()


def test_a_process_orphaned_by_its_supervisor_stops_itself(processes):
    supervisor = subprocess.run(
        [sys.executable, "-c", DYING_SUPERVISOR, WATCHED],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    pid = int(supervisor.stdout.strip())
    try:
        assert gone_within(pid, 2 * PARENT_CHECK_S + 1.0)
    finally:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_the_stop_is_sigterm_the_processs_graceful_stop(processes):
    # A supervisor pid that is not the parent: the process is orphaned from its start.
    watched = subprocess.run(
        [sys.executable, "-c", WATCHED, str(os.getpid() + 1_000_000)],
        cwd=REPO,
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert watched.returncode == -signal.SIGTERM
