"""A local webhook receiver for the tests and ``make examples`` (a test delivery to record): an
HTTP server on 127.0.0.1 that records every POST (path, headers, body, when it arrived) and
answers the status it is told to (200 by default), over TLS when given a server context."""

from __future__ import annotations

import ssl
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: The chunk an endless answer body is written in.
BODY_CHUNK = b"x" * 1024


@dataclass(frozen=True)
class Received:
    """One POST the receiver got: its path, headers (lower-case names), body and arrival (Unix s)."""

    path: str
    headers: dict[str, str]
    body: bytes
    at_s: float
    answered: int


class Receiver:
    """The receiver: ``url`` to subscribe, ``received`` what came (each as its answer starts;
    not the POSTs given a hostile answer),
    ``status`` what it answers (set it to fail), ``delay_s`` how long it waits before answering,
    ``on_arrival`` called with each body as it arrives, before the answer, ``arrived`` how
    many POSTs have arrived (answered or not). It listens on ``port``, a free one by default.

    Two hostile modes: ``drip_s`` writes the answer's status line and headers one byte every
    ``drip_s`` seconds (a receiver holding a sender as long as it likes); ``endless_body``
    answers the status, then a body that never ends (one that would fill a sender's memory)."""

    def __init__(self, tls: ssl.SSLContext | None = None, port: int = 0) -> None:
        self.received: list[Received] = []
        self.status = 200
        self.delay_s = 0.0
        self.drip_s = 0.0
        self.endless_body = False
        self.on_arrival = None
        self.arrived = 0
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server hook's name)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver._lock:
                    receiver.arrived += 1
                if receiver.on_arrival is not None:
                    receiver.on_arrival(body)
                if receiver.delay_s:
                    time.sleep(receiver.delay_s)
                status = receiver.status
                self.close_connection = True
                if not (receiver.drip_s or receiver.endless_body):
                    # Recorded before the answer is written: a sender that has the answer finds it here.
                    with receiver._lock:
                        receiver.received.append(
                            Received(
                                self.path, {k.lower(): v for k, v in self.headers.items()}, body, time.time(), status
                            )
                        )
                try:
                    if receiver.drip_s:
                        self._drip(f"HTTP/1.1 {status} OK\r\nContent-Length: 0\r\n\r\n".encode(), receiver.drip_s)
                    elif receiver.endless_body:
                        self._endless(status)
                    else:
                        self.send_response(status)
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                except OSError:
                    return  # the sender hung up, as it should on a hostile answer

            def _drip(self, head: bytes, every_s: float) -> None:
                for byte in head:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(every_s)

            def _endless(self, status: int) -> None:
                self.send_response(status)
                self.send_header("Content-Length", str(1 << 40))
                self.end_headers()
                while True:
                    self.wfile.write(BODY_CHUNK)

            def log_message(self, *args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        scheme = "http"
        if tls is not None:
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
            scheme = "https"
        self.port = self._server.server_address[1]
        self.url = f"{scheme}://127.0.0.1:{self.port}/hook"
        self._thread = threading.Thread(target=self._server.serve_forever, name="webhook-receiver", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> Receiver:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
