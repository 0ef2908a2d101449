"""A process `make run`'s supervisor started stops when that supervisor is gone.

A supervisor killed with SIGKILL cannot stop its children; left running, they would hold
their ports, and the next `make run` would refuse to start. Linux then gives each child
another parent, which is what this watches for.
"""

from __future__ import annotations

import os
import signal
import threading
import time

# How often a child looks at its parent: the ports are free again within about this long.
PARENT_CHECK_S = 1.0


def stop_when_orphaned(supervisor_pid: int | None) -> None:
    """Start a daemon thread that sends this process SIGTERM (its own graceful stop) once its
    parent is no longer ``supervisor_pid``; return at once. Nothing when ``supervisor_pid``
    is None (a process started by hand)."""
    if supervisor_pid is None:
        return

    def watch() -> None:
        while os.getppid() == supervisor_pid:
            time.sleep(PARENT_CHECK_S)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()
