"""The gateway's HTTP server: uvicorn's httptools protocol with the bounds a public port needs.

uvicorn bounds idle keep-alive connections but not how long a client may take to send a
request, nor how many connections stay open, and answers what httptools cannot parse in
plain text. :class:`BoundedHttpProtocol` adds, for every connection:

- a header timeout: the request line and headers must arrive within
  ``http_header_timeout_s`` of the request's first byte (of the connection's opening, for
  the first request); then 408 and close;
- a body timeout: the body must arrive within ``http_body_timeout_s`` of the headers; then
  408 and close (the app reads a body before it takes any limit slot, so a trickling body
  holds one connection, not an account's concurrency);
- a URL bound, :data:`MAX_URL_BYTES`: longer is 414;
- a connection bound, ``http_max_connections``: one more is answered 503 and closed;
- every answer it writes itself (these, and an unreadable request: 400 ``invalid_request``)
  is the spec's JSON error body with an ``X-Request-Id``, as the app's are.
"""

from __future__ import annotations

import asyncio

import orjson
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from gateway.envelope import error_body
from gateway.errors import error_headers
from gateway.middleware import new_request_id
from shared.errors import (
    CelestialError,
    InvalidRequest,
    RequestTimeout,
    ServiceUnavailable,
    UriTooLong,
)
from shared.runtime.config import Settings

#: Longest request target (path and query) accepted, bytes. Common servers refuse request
#: lines past 8 KiB; twice that leaves room for long body lists sent with GET.
MAX_URL_BYTES = 16 * 1024

#: Seconds a refused connection keeps reading (and dropping) what its client still sends.
LINGER_S = 2.0

_REASONS = {400: b"Bad Request", 408: b"Request Timeout", 414: b"URI Too Long", 503: b"Service Unavailable"}


class _UrlTooLong(Exception):
    """Raised from the parser's URL callback to stop parsing an over-long request target."""


class BoundedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with header and body timeouts and URL and connection bounds.

    ``settings`` is set on a subclass by :func:`bounded_protocol` (uvicorn builds one
    protocol per connection from the class).
    """

    settings: Settings

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._timer: asyncio.TimerHandle | None = None
        self._refusal: CelestialError | None = None
        self._lingering = False
        if len(self.connections) > self.settings.http_max_connections:
            self._answer_and_close(ServiceUnavailable("This gateway has too many open connections."))
            return
        self._start_timer(self.settings.http_header_timeout_s, "headers")

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._timer is None:  # the first request's timer runs from the connection's opening
            self._start_timer(self.settings.http_header_timeout_s, "headers")

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > MAX_URL_BYTES:
            self._refusal = UriTooLong(f"The request target is longer than {MAX_URL_BYTES} bytes.")
            raise _UrlTooLong

    def on_headers_complete(self) -> None:
        self._stop_timer()
        super().on_headers_complete()
        self._start_timer(self.settings.http_body_timeout_s, "body")

    def on_message_complete(self) -> None:
        self._stop_timer()
        super().on_message_complete()

    def send_400_response(self, msg: str) -> None:
        """Answer a request httptools could not parse (or one refused while parsing)."""
        self._answer_and_close(self._refusal or InvalidRequest("The HTTP request could not be read."))

    def _start_timer(self, seconds: float, part: str) -> None:
        self._stop_timer()
        self._timer = self.loop.call_later(seconds, self._timed_out, part, seconds)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _timed_out(self, part: str, seconds: float) -> None:
        self._timer = None
        if self.cycle is not None and not self.cycle.response_complete and self.cycle.response_started:
            self.transport.close()  # the app already answered; the client only stalls its end
            return
        self._answer_and_close(RequestTimeout(f"The request's {part} did not arrive within {seconds:g} seconds."))

    def _answer_and_close(self, error: CelestialError) -> None:
        """Write ``error`` as the spec's error body and close the connection."""
        if self.transport.is_closing() or self._lingering:
            return
        request_id = new_request_id()
        body = orjson.dumps(error_body([error], request_id))
        headers = {
            "content-type": "application/json",
            "content-length": str(len(body)),
            "x-request-id": request_id,
            "connection": "close",
            **{name.lower(): value for name, value in error_headers(error).items()},
        }
        head = b"HTTP/1.1 %d %s\r\n" % (error.http_status, _REASONS.get(error.http_status, b""))
        head += b"".join(b"%s: %s\r\n" % (name.encode(), value.encode()) for name, value in headers.items())
        self.transport.write(head + b"\r\n" + body)
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # the app, if still reading, hears a disconnect
            self.cycle.message_event.set()
        self._linger()

    def _linger(self) -> None:
        """Close after the answer without losing it: closing a socket whose client is still
        sending (the rest of an over-long URL, say) makes the kernel reset the connection,
        and the client may never read the answer. So the write side is shut, what the client
        still sends is read and dropped for up to LINGER_S, then the socket closes."""
        self._lingering = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_S, self.transport.close)

    def data_received(self, data: bytes) -> None:
        if self._lingering:
            return
        super().data_received(data)


def bounded_protocol(settings: Settings) -> type[BoundedHttpProtocol]:
    """Return the protocol class uvicorn should use, bound to ``settings``' limits."""
    return type("GatewayHttpProtocol", (BoundedHttpProtocol,), {"settings": settings})
