"""Sending one webhook delivery (issue 40, part 3): the JSON body, its signature, the POST.

A delivery is a POST of ``application/json`` whose body is ``{"webhook_id", "event", "chart",
"attempt", "test"}``: ``event`` the event as ``/v1/forecast`` writes it (its ``id`` the same
id, the receiver's idempotency key), ``chart`` the stored chart's id (null for the sky's
events), ``attempt`` from 1. It carries the Standard Webhooks headers ``webhook-id`` (the
event's id), ``webhook-timestamp`` and ``webhook-signature`` (``webhooks/signing.py``), signed
when sent, so a retry is signed anew, and ``Celestial-Attempt``.

Only a 2xx answer counts as delivered; redirects are not followed (a 3xx is a failure, so a
receiver's address cannot send the body elsewhere). A receiver gets :data:`DEFAULT_TIMEOUT_S`
seconds to answer.
"""

from __future__ import annotations

import asyncio
import http.client
import ssl
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson

from webhooks.signing import delivery_headers

#: Seconds a receiver has to answer (CELESTIAL_WEBHOOK_TIMEOUT_S changes it).
DEFAULT_TIMEOUT_S = 10.0
#: The most bytes of a receiver's answer read (the rest is ignored: only its status matters).
MAX_ANSWER_BYTES = 4096
USER_AGENT = "Celestial-Webhooks/1"


@dataclass(frozen=True)
class Outcome:
    """What a POST met: the HTTP ``status`` (None when no answer came: ``error`` says why) and
    the time to the answer's status line, ``response_ms`` (milliseconds)."""

    status: int | None
    response_ms: float
    error: str = ""

    @property
    def succeeded(self) -> bool:
        """Return whether the receiver answered 2xx."""
        return self.status is not None and 200 <= self.status < 300


def delivery_body(webhook_id: str, event: dict[str, Any], chart_id: str | None, attempt: int, test: bool = False) -> bytes:
    """Return the JSON bytes of a delivery (see the module's docstring)."""
    return orjson.dumps({"webhook_id": webhook_id, "event": event, "chart": chart_id, "attempt": attempt, "test": test})


def _post(url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> Outcome:
    parts = urlsplit(url)
    started = time.perf_counter()
    if parts.scheme == "https":
        connection: http.client.HTTPConnection = http.client.HTTPSConnection(
            parts.hostname, parts.port, timeout=timeout_s, context=ssl.create_default_context()
        )
    else:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout_s)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        connection.request("POST", path, body=body, headers=headers)
        answer = connection.getresponse()
        elapsed_ms = (time.perf_counter() - started) * 1000
        answer.read(MAX_ANSWER_BYTES)
        return Outcome(answer.status, round(elapsed_ms, 1))
    except TimeoutError:
        return Outcome(None, round((time.perf_counter() - started) * 1000, 1), "timeout")
    except (OSError, http.client.HTTPException) as exc:
        return Outcome(None, round((time.perf_counter() - started) * 1000, 1), f"{type(exc).__name__}: {exc}"[:200])
    finally:
        connection.close()


async def send(url: str, body: bytes, secret: str, event_id: str, attempt: int, timeout_s: float = DEFAULT_TIMEOUT_S) -> Outcome:
    """Return the outcome of POSTing ``body`` to ``url`` signed with ``secret`` now (the blocking
    HTTP exchange runs in a thread, so the event loop stays free)."""
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT, **delivery_headers(event_id, attempt, body, secret)}
    return await asyncio.to_thread(_post, url, body, headers, timeout_s)
