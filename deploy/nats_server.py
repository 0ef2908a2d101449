"""A throwaway nats-server with JetStream for tests and benchmarks: its own free loopback port
and storage dir.

Tests and benchmarks never use a NATS server they did not start (a developer's or the system's own server
on 4222 may hold real data). ``stop()`` then ``start()`` restarts the server on the same port
with the same storage, as an operator restarting NATS would, so clients reconnect by
themselves and find their data.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

#: Where the binary is looked for after ``$NATS_SERVER_BIN`` and ``$PATH``.
_KNOWN_LOCATIONS = ("/usr/sbin/nats-server", "/usr/local/bin/nats-server", "/usr/bin/nats-server")


def nats_server_binary() -> str:
    """Return the path of the nats-server executable; RuntimeError (saying how to get one) if none."""
    candidates = [os.environ.get("NATS_SERVER_BIN"), shutil.which("nats-server"), *_KNOWN_LOCATIONS]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise RuntimeError(
        "nats-server not found: install it (e.g. `apt-get install nats-server`, or the release binary"
        " from https://github.com/nats-io/nats-server/releases) or set NATS_SERVER_BIN to its path"
    )


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class NatsServer:
    """One nats-server process with JetStream, on 127.0.0.1 and a port chosen once."""

    def __init__(
        self,
        storage_dir: str | os.PathLike[str] | None = None,
        *,
        port: int | None = None,
        startup_timeout_s: float = 10.0,
    ):
        """Prepare (not start) a server keeping its JetStream data under ``storage_dir`` (default:
        a new temporary directory, left for the caller to delete) and listening on ``port``
        (default: a free one, chosen now and kept across restarts)."""
        self.storage_dir = Path(storage_dir) if storage_dir is not None else Path(tempfile.mkdtemp(prefix="nats-"))
        self.port = port or _free_port()
        self.startup_timeout_s = startup_timeout_s
        self.binary = nats_server_binary()
        self._process: subprocess.Popen | None = None
        self._log_path = self.storage_dir / "nats-server.log"

    @property
    def url(self) -> str:
        """Return the client URL, ``nats://127.0.0.1:<port>`` (the same across restarts)."""
        return f"nats://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        """Return the server's process id while it runs, else None."""
        return None if self._process is None else self._process.pid

    @property
    def running(self) -> bool:
        """Return whether the server process is alive."""
        return self._process is not None and self._process.poll() is None

    def start(self) -> NatsServer:
        """Start the server and return it once it accepts clients with JetStream ready.

        Raises RuntimeError, with the end of the server's log, if it exits or is not ready
        within ``startup_timeout_s`` seconds.
        """
        if self.running:
            return self
        self.storage_dir.mkdir(parents=True, exist_ok=True)
        # No -m: the monitoring port stays off, so nothing else is bound.
        command = [self.binary, "-js", "-a", "127.0.0.1", "-p", str(self.port), "-sd", str(self.storage_dir)]
        with open(self._log_path, "ab") as log:
            self._process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + self.startup_timeout_s
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"nats-server exited with {self._process.returncode}:\n{self._log_tail()}")
            if self._ready():
                return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(
            f"nats-server not ready on port {self.port} within {self.startup_timeout_s} s:\n{self._log_tail()}"
        )

    def _ready(self) -> bool:
        """Return whether the server greets a client with an INFO line announcing JetStream."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
                greeting = conn.recv(4096)
        except OSError:
            return False
        return greeting.startswith(b"INFO ") and b'"jetstream":true' in greeting

    def stop(self, *, kill: bool = False, timeout_s: float = 10.0) -> None:
        """Stop the server: SIGTERM (a clean shutdown) or, with ``kill``, SIGKILL (a crash).

        Waits up to ``timeout_s`` seconds, then kills it. Stopping a stopped server does nothing.
        """
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGCONT)  # a paused server would not act on SIGTERM
        process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=timeout_s)

    def pause(self) -> None:
        """Freeze the server (SIGSTOP): connections stay open but nothing is answered.

        Returns once the kernel reports the process stopped: the signal is delivered
        asynchronously, and a server still running for a moment would answer requests sent
        right after this call.
        """
        if self.running:
            os.kill(self._process.pid, signal.SIGSTOP)
            deadline = time.monotonic() + 5.0
            while _process_state(self._process.pid) != "T" and time.monotonic() < deadline:
                time.sleep(0.001)

    def resume(self) -> None:
        """Let a paused server run again (SIGCONT)."""
        if self.running:
            os.kill(self._process.pid, signal.SIGCONT)

    def _log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self._log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def __enter__(self) -> NatsServer:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()


def _process_state(pid: int) -> str:
    """Return the process's state letter from /proc (``T`` once stopped by a signal)."""
    with open(f"/proc/{pid}/stat") as stat:
        # The command name (in parentheses) may hold spaces: the state follows its closing one.
        return stat.read().rsplit(")", 1)[1].split()[0]
