"""Sending one webhook delivery (issue 40, part 3; issue 46, part 2): the JSON body, its
signature, the POST.

A delivery is a POST of ``application/json`` whose body is ``{"webhook_id", "event", "chart",
"attempt", "test"}``: ``event`` the event as ``/v1/forecast`` writes it (its ``id`` the same
id, the receiver's idempotency key), ``chart`` the stored chart's id (null for the sky's
events), ``attempt`` from 1. It carries the Standard Webhooks headers ``webhook-id`` (the
event's id), ``webhook-timestamp`` and ``webhook-signature`` (``webhooks/signing.py``), signed
when sent, so a retry is signed anew, and ``Celestial-Attempt``.

One attempt (:func:`send`) is one exchange on the event loop, no thread:

- the URL is read and its host resolved and checked again (``webhooks/egress.py``), then the
  delivery connects to an address that was checked, never to the name (which could resolve
  elsewhere by then: DNS rebinding); for ``https`` the certificate is verified against the
  URL's host name (SNI), and ``Host`` is the URL's;
- an HTTP/1.1 POST with ``Content-Length`` and ``Connection: close``; the answer's status
  line and headers, then at most :data:`MAX_ANSWER_BYTES` of its body, are read (``h11``);
- all of it (resolution, connection, TLS, request, answer) within one wall-clock deadline of
  ``timeout_s`` from the attempt's start: a receiver that drips its answer a byte at a time is
  cut at the deadline and the attempt is a failure (``"timeout"``).

Only a 2xx answer counts as delivered; redirects are not followed (a 3xx is a failure, so a
receiver's address cannot send the body elsewhere). A failure's ``error`` is the egress rule
broken or a short neutral phrase (:data:`ERRORS`), never a socket error's text, which would
name our addresses or tell a scanner what listens where.
"""

from __future__ import annotations

import asyncio
import errno
import socket
import ssl
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import h11
import orjson

from webhooks.egress import (
    EgressRefused,
    Resolver,
    Target,
    checked_addresses,
    read_url,
    system_resolver,
)
from webhooks.signing import delivery_headers

#: Seconds a whole attempt may take (CELESTIAL_WEBHOOK_TIMEOUT_S changes it).
DEFAULT_TIMEOUT_S = 10.0
#: The most bytes of a receiver's answer body read (the rest is ignored: only its status matters).
MAX_ANSWER_BYTES = 4096
#: The most bytes of an answer's status line and headers taken (h11's default limit).
MAX_HEAD_BYTES = 16 * 1024
#: Bytes asked of the socket at a time.
READ_BYTES = 4096
USER_AGENT = "Celestial-Webhooks/1"

#: What a failed attempt records, by cause.
TIMEOUT = "timeout"
REFUSED = "connection refused"
RESET = "connection reset"
UNREACHABLE = "host unreachable"
NO_CONNECTION = "connection failed"
NOT_RESOLVED = "host name not resolved"
CLOSED = "connection closed before the answer"
NOT_HTTP = "invalid http answer"
NOT_SENDABLE = "the url cannot be sent in a request"
TLS_CERTIFICATE = "tls: certificate verify failed"
TLS_FAILED = "tls: handshake failed"
ERRORS = (
    TIMEOUT,
    REFUSED,
    RESET,
    UNREACHABLE,
    NO_CONNECTION,
    NOT_RESOLVED,
    CLOSED,
    NOT_HTTP,
    NOT_SENDABLE,
    TLS_CERTIFICATE,
    TLS_FAILED,
)

Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]
#: Opens a connection to ``(address, port)``, with TLS when a context is given, verifying the
#: certificate against ``server_hostname``.
Connector = Callable[[str, int, ssl.SSLContext | None, str | None], Awaitable[Streams]]


@dataclass(frozen=True)
class Outcome:
    """What a POST met: the HTTP ``status`` (None when no answer came: ``error`` says why) and
    the time to the answer's status line, ``response_ms`` (milliseconds; to the failure when
    there was none)."""

    status: int | None
    response_ms: float
    error: str = ""

    @property
    def succeeded(self) -> bool:
        """Return whether the receiver answered 2xx."""
        return self.status is not None and 200 <= self.status < 300


def delivery_body(
    webhook_id: str, event: dict[str, Any], chart_id: str | None, attempt: int, test: bool = False
) -> bytes:
    """Return the JSON bytes of a delivery (see the module's docstring)."""
    return orjson.dumps({"webhook_id": webhook_id, "event": event, "chart": chart_id, "attempt": attempt, "test": test})


@lru_cache(maxsize=1)
def tls_context() -> ssl.SSLContext:
    """Return the TLS context of every https delivery: the system's trusted certificates,
    the host name checked (built once: loading the certificates costs milliseconds)."""
    return ssl.create_default_context()


async def open_stream(address: str, port: int, tls: ssl.SSLContext | None, server_hostname: str | None) -> Streams:
    """Return the streams of a TCP connection to ``address``, TLS over it when ``tls`` is given."""
    return await asyncio.open_connection(address, port, ssl=tls, server_hostname=server_hostname if tls else None)


def host_header(target: Target) -> str:
    """Return the ``Host`` header of a request to ``target``: its host, bracketed when IPv6,
    with its port unless the scheme's own."""
    host = f"[{target.host}]" if ":" in target.host else target.host
    default_port = 443 if target.scheme == "https" else 80
    return host if target.port == default_port else f"{host}:{target.port}"


def error_of(failure: BaseException) -> str:
    """Return the phrase a failed attempt records for ``failure``: never its text."""
    if isinstance(failure, EgressRefused):
        return f"egress refused: {failure.rule}"
    if isinstance(failure, TimeoutError):
        return TIMEOUT
    if isinstance(failure, ssl.SSLCertVerificationError):
        return TLS_CERTIFICATE
    if isinstance(failure, ssl.SSLError):
        return TLS_FAILED
    if isinstance(failure, h11.RemoteProtocolError):
        return NOT_HTTP
    if isinstance(failure, h11.LocalProtocolError):
        return NOT_SENDABLE  # a path h11 will not write (raw spaces, controls): egress refuses them first
    if isinstance(failure, socket.gaierror):
        return NOT_RESOLVED
    if isinstance(failure, ConnectionRefusedError):
        return REFUSED
    if isinstance(failure, (ConnectionResetError, BrokenPipeError)):
        return RESET
    if isinstance(failure, OSError) and failure.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH):
        return UNREACHABLE
    return NO_CONNECTION


class ClosedEarly(Exception):
    """The receiver closed the connection before its answer's status line."""


async def _connect(target: Target, addresses: tuple[str, ...], connect: Connector) -> Streams:
    """Return streams to the first of ``addresses`` that accepts; the last failure otherwise."""
    tls = tls_context() if target.scheme == "https" else None
    failure: OSError | None = None
    for address in addresses:
        try:
            return await connect(address, target.port, tls, target.host if tls else None)
        except ssl.SSLError:
            raise  # the receiver's certificate: another address of the same name would show it too
        except OSError as error:
            failure = error
    assert failure is not None  # checked_addresses returns at least one address
    raise failure


async def _exchange(
    target: Target, body: bytes, headers: dict[str, str], streams: Streams, started: float
) -> tuple[int, float]:
    """Return the answer's status and the milliseconds from ``started`` to it, once its
    headers and at most :data:`MAX_ANSWER_BYTES` of its body are read."""
    reader, writer = streams
    client = h11.Connection(h11.CLIENT, max_incomplete_event_size=MAX_HEAD_BYTES)
    request_headers = [
        ("Host", host_header(target)),
        *headers.items(),
        ("Content-Length", str(len(body))),
        ("Connection", "close"),
    ]
    writer.write(client.send(h11.Request(method="POST", target=target.path, headers=request_headers)))
    writer.write(client.send(h11.Data(data=body)))
    writer.write(client.send(h11.EndOfMessage()))
    await writer.drain()
    status: int | None = None
    response_ms = 0.0
    body_bytes = 0
    while True:
        event = client.next_event()
        if event is h11.NEED_DATA:
            client.receive_data(await reader.read(READ_BYTES))
        elif isinstance(event, h11.Response):
            status, response_ms = event.status_code, (time.perf_counter() - started) * 1000
        elif isinstance(event, h11.Data):
            body_bytes += len(event.data)
            if body_bytes >= MAX_ANSWER_BYTES:
                break
        elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
            break
        # an InformationalResponse (1xx) is followed by the real answer
    if status is None:
        raise ClosedEarly()
    return status, response_ms


async def send(
    url: str,
    body: bytes,
    secret: str,
    event_id: str,
    attempt: int,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    *,
    development: bool,
    resolve: Resolver = system_resolver,
    connect: Connector = open_stream,
) -> Outcome:
    """Return the outcome of POSTing ``body`` to ``url`` signed with ``secret`` now, the whole
    attempt within ``timeout_s`` seconds (see the module's docstring). ``development`` is the
    deployment's mode (the loopback is a destination only then); ``resolve`` and ``connect``
    are the resolver and the connector (the tests', to speak of other hosts on the loopback)."""
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        **delivery_headers(event_id, attempt, body, secret),
    }
    started = time.perf_counter()
    streams: Streams | None = None
    try:
        async with asyncio.timeout(timeout_s):
            target = read_url(url, development)
            addresses = await checked_addresses(target, development, resolve)
            streams = await _connect(target, addresses, connect)
            status, response_ms = await _exchange(target, body, headers, streams, started)
        return Outcome(status, round(response_ms, 1))
    except ClosedEarly:
        return Outcome(None, _since(started), CLOSED)
    except (EgressRefused, TimeoutError, OSError, h11.ProtocolError) as failure:
        return Outcome(None, _since(started), error_of(failure))
    finally:
        if streams is not None:
            # Nothing more is read or said: no TLS goodbye to wait for from a receiver we cut.
            streams[1].transport.abort()


def _since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
