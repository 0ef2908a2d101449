"""The errors a ``Celestial`` call raises: one family, ``CelestialError``, chosen by the error's
code (the server's catalogue, copied into ``error_codes`` when the client is generated)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import httpx

from .error_codes import ERROR_STATUS
from .rate_limit import exhausted_window_s


class CelestialError(Exception):
    """An error the API answered, or a request that got no answer.

    ``code`` is stable (branch on it, never on ``message``); ``suggestion`` says what to do
    next; ``param`` names the parameter at fault, if one is; ``request_id`` is the one to quote
    when reporting a problem; ``status`` is the HTTP status (None when no answer came);
    ``retry_after`` the seconds the answer asked to wait, if it did: its ``Retry-After``, else
    the window of a quota its ``RateLimit`` field says is used up.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        suggestion: str = "",
        param: str | None = None,
        request_id: str | None = None,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.suggestion = suggestion
        self.param = param
        self.request_id = request_id
        self.status = status
        self.retry_after = retry_after

    def __str__(self) -> str:
        where = f" ({self.param})" if self.param else ""
        hint = f" {self.suggestion}" if self.suggestion else ""
        return f"{self.code}{where}: {self.message}{hint}"


class InvalidParameter(CelestialError):
    """400: the request breaks a rule, or asks what cannot be computed; it fails again unchanged."""


class AuthenticationError(CelestialError):
    """401 or 403: no key, an unknown, expired or revoked one, or an origin the key refuses."""


class InsufficientCredits(CelestialError):
    """402: the account's balance does not cover the request (which cost nothing)."""


class NotFound(CelestialError):
    """404 or 405: no such path, or a method it does not take."""


class RequestRejected(CelestialError):
    """Any other 4xx: a request too large, too long or too slow for the server to read."""


class RateLimited(CelestialError):
    """429: over the account's requests per minute or in flight; retry after ``retry_after`` s."""


class ServerError(CelestialError):
    """5xx: the server failed (or an answer the client cannot read); the request cost nothing."""


class ServiceUnavailable(ServerError):
    """503: a service is down or busy; retry after ``retry_after`` seconds."""


class NetworkError(CelestialError):
    """No answer: the connection failed or timed out (``__cause__`` is httpx's error)."""


def _class_for_status(status: int) -> type[CelestialError]:
    """Return the family an HTTP status belongs to."""
    if status == 400:
        return InvalidParameter
    if status in (401, 403):
        return AuthenticationError
    if status == 402:
        return InsufficientCredits
    if status in (404, 405):
        return NotFound
    if status == 429:
        return RateLimited
    if status == 503:
        return ServiceUnavailable
    if status >= 500:
        return ServerError
    return RequestRejected


def error_class(code: str, status: int) -> type[CelestialError]:
    """Return the class of an error: by its code's status in the catalogue, else the answer's."""
    return _class_for_status(ERROR_STATUS.get(code, status))


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """Return the seconds the answer asks to wait: its ``Retry-After`` (the draft-11 RateLimit
    fields defer to it), else the ``t`` of a quota its IETF ``RateLimit`` field says is used up
    (``r=0``: :mod:`celestial_client.rate_limit`); None when it says neither (or a date)."""
    value = headers.get("Retry-After") or headers.get("retry-after")
    try:
        if value is not None:
            return max(0.0, float(value))
    except ValueError:
        pass
    rate_limit = headers.get("RateLimit") or headers.get("ratelimit")
    return exhausted_window_s([rate_limit]) if rate_limit is not None else None


def error_from_answer(status: int, headers: Mapping[str, str], content: bytes) -> CelestialError:
    """Return the error an answer that is not a 2xx stands for (its first ``errors[]`` member)."""
    request_id = headers.get("X-Request-Id") or headers.get("x-request-id")
    first: dict[str, Any] = {}
    try:
        body = json.loads(content)
        first = body["errors"][0]
        request_id = body.get("meta", {}).get("request_id", request_id)
    except (ValueError, LookupError, TypeError, AttributeError):
        # Not the API's error body (a proxy's page, say): the status alone says what happened.
        pass
    code = str(first.get("code") or f"http_{status}")
    return error_class(code, status)(
        str(first.get("message") or f"HTTP {status}"),
        code=code,
        suggestion=str(first.get("suggestion") or ""),
        param=first.get("param"),
        request_id=request_id,
        status=status,
        retry_after=retry_after_seconds(headers),
    )


def error_from_transport(failure: httpx.TransportError) -> NetworkError:
    """Return the error for a request that got no answer (connection refused, timeout ...)."""
    kind = "timeout" if isinstance(failure, httpx.TimeoutException) else "connection_failed"
    return NetworkError(
        f"No answer from {failure.request.url if _has_request(failure) else 'the API'}: "
        f"{failure or type(failure).__name__}",
        code=kind,
        suggestion="Check the base URL and the network; retry later if the server is restarting.",
    )


def _has_request(failure: httpx.TransportError) -> bool:
    """Return whether httpx attached the request to ``failure`` (it raises when it did not)."""
    try:
        return failure.request is not None
    except RuntimeError:
        return False
