"""A local webhook receiver for the tests: an HTTP server on 127.0.0.1 that records every POST
(path, headers, body, when it arrived) and answers the status it is told to (200 by default)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Received:
    """One POST the receiver got: its path, headers (lower-case names), body and arrival (Unix s)."""

    path: str
    headers: dict[str, str]
    body: bytes
    at_s: float
    answered: int


class Receiver:
    """The receiver: ``url`` to subscribe, ``received`` what came (each once answered),
    ``status`` what it answers (set it to fail), ``delay_s`` how long it waits before answering,
    ``on_arrival`` called with each body as it arrives, before the answer."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.status = 200
        self.delay_s = 0.0
        self.on_arrival = None
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server hook's name)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if receiver.on_arrival is not None:
                    receiver.on_arrival(body)
                if receiver.delay_s:
                    time.sleep(receiver.delay_s)
                status = receiver.status
                with receiver._lock:
                    receiver.received.append(
                        Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body, time.time(), status)
                    )
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/hook"
        self._thread = threading.Thread(target=self._server.serve_forever, name="webhook-receiver", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "Receiver":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
