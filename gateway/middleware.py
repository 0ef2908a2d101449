"""Request context as pure ASGI middleware: request id, CORS, timing, and one log line per request."""

from __future__ import annotations

import os
import re
import time

import structlog
from starlette.middleware.cors import CORSMiddleware

from gateway import request_metrics
from gateway.request_state import SCOPE_KEY, RequestState
from store.key_format import redact_keys

log = structlog.get_logger("celestial.gateway")

# A client-supplied X-Request-Id is kept only when it is short and printable, so it cannot
# forge log lines or bloat headers.
_REQUEST_ID_PATTERN = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


def new_request_id() -> str:
    """Return a fresh request id: 32 hex characters, 128 random bits.

    ``os.urandom`` rather than ``uuid4``: the same randomness, cheaper (see
    docs/performance.md), and every paid request mints three of these.
    """
    return os.urandom(16).hex()


#: CORS: any origin may call (a key's own allowed origins are enforced by authentication,
#: with 403s a browser can read); these request headers may be sent and these response
#: headers read.
CORS_ALLOW_METHODS = ("GET", "POST")
CORS_ALLOW_HEADERS = ("Authorization", "X-API-Key", "Content-Type", "X-Request-Id", "Idempotency-Key")
CORS_EXPOSE_HEADERS = (
    "X-Request-Id",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "RateLimit-Policy",
    "RateLimit",
    "Retry-After",
    "Idempotent-Replayed",
)
CORS_MAX_AGE_S = 600

_CORS_SIMPLE_HEADERS = (
    (b"access-control-allow-origin", b"*"),
    (b"access-control-expose-headers", ", ".join(CORS_EXPOSE_HEADERS).encode("latin-1")),
)


class RequestContextMiddleware:
    """Assigns the request id, binds it to the log context, stamps ``X-Request-Id`` and the
    CORS headers, logs once.

    A CORS preflight is answered by Starlette's CORSMiddleware with the policy above; every
    other response gets its CORS headers here, one wrapper fewer on the paid path.
    """

    def __init__(self, app):
        self.app = app
        self.preflight = CORSMiddleware(
            app,
            allow_origins=["*"],
            allow_methods=list(CORS_ALLOW_METHODS),
            allow_headers=list(CORS_ALLOW_HEADERS),
            expose_headers=list(CORS_EXPOSE_HEADERS),
            max_age=CORS_MAX_AGE_S,
        )

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        supplied = ""
        has_origin = False
        asks_preflight = False
        for name, value in scope.get("headers", ()):
            if name == b"x-request-id":
                supplied = value.decode("latin-1")
            elif name == b"origin":
                has_origin = True
            elif name == b"access-control-request-method":
                asks_preflight = True
        request_id = supplied if _REQUEST_ID_PATTERN.match(supplied) else new_request_id()
        state = scope[SCOPE_KEY] = RequestState(request_id)
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=request_id)
        started = time.perf_counter()
        status = {"code": 500}
        preflight = has_origin and asks_preflight and scope["method"] == "OPTIONS"

        async def send_with_id(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                headers = [(k, v) for k, v in message.get("headers", ()) if k != b"x-request-id"]
                # A replayed answer (gateway/idempotency.py) carries its first request's id.
                headers.append((b"x-request-id", (state.answer_request_id or request_id).encode("latin-1")))
                # Set once the account is admitted: every authenticated response carries them.
                headers.extend(state.rate_limit_headers)
                if not preflight:
                    _add_cors_headers(headers, has_origin)
                message = {**message, "headers": headers}
            await send(message)

        try:
            await (self.preflight if preflight else self.app)(scope, receive, send_with_id)
        finally:
            request_metrics.record_request(scope, status["code"], time.perf_counter() - started)
            if scope.get("path", "") not in ("/healthz", "/readyz"):
                log.info(
                    "request_finished",
                    method=scope.get("method"),
                    route=redact_keys(scope.get("path", "")),
                    status=status["code"],
                    account_id=state.account_id,
                    credits_used=state.credits_used,
                    charge_ids=state.charge_ids,
                    duration_ms=round((time.perf_counter() - started) * 1000, 3),
                )
            structlog.contextvars.clear_contextvars()


def _add_cors_headers(headers: list[tuple[bytes, bytes]], has_origin: bool) -> None:
    """Add the CORS headers of a simple (non-preflight) response, as Starlette's CORSMiddleware
    would for any allowed origin: the allow and expose headers when the request has an
    ``Origin``, and ``Vary: Origin`` always (the answer may depend on it)."""
    if has_origin:
        headers.extend(_CORS_SIMPLE_HEADERS)
    vary = [value for name, value in headers if name == b"vary"]
    if vary:
        headers[:] = [(name, value) for name, value in headers if name != b"vary"]
        headers.append((b"vary", b", ".join(vary + [b"Origin"])))
    else:
        headers.append((b"vary", b"Origin"))
