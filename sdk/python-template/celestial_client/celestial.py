"""``Celestial``: the API's operations as methods that answer their typed model (or, for a
document format, its bytes or text) or raise a ``CelestialError``, retrying what the API says
may be retried."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx

from ._operations import Operations
from .client import AuthenticatedClient
from .exceptions import AuthenticationError, CelestialError, ServerError, error_from_answer, error_from_transport
from .types import Response

T = TypeVar("T")
# What a send answers: the generated client's parsed Response, or httpx's for a document.
Answer = TypeVar("Answer", Response[Any], httpx.Response)


@dataclass(frozen=True)
class Retry:
    """When a call is tried again: a 429 or 503 (which cost nothing) and a refused connection
    (the request never left), up to ``attempts`` tries in all.

    The wait is the answer's ``Retry-After`` when it gives one, else the window of a quota its
    IETF ``RateLimit`` field says is used up (``r=0``, wait ``t``), else ``backoff`` seconds doubled
    at each try; a wait over ``max_wait`` is not waited: the error is raised at once, so a
    caller is never held for a minute it did not agree to. ``Retry(attempts=1)`` never retries.
    """

    attempts: int = 3
    backoff: float = 0.5
    max_wait: float = 30.0
    statuses: frozenset[int] = frozenset({429, 503})

    def wait(self, attempt: int, retry_after: float | None) -> float | None:
        """Return the seconds to wait before try ``attempt + 1``, or None to give up."""
        if attempt >= self.attempts:
            return None
        seconds = retry_after if retry_after is not None else self.backoff * 2 ** (attempt - 1)
        return seconds if seconds <= self.max_wait else None


class Celestial(Operations):
    """The API at ``base_url`` with one key: ``Celestial(base_url=..., api_key=...)``.

    Each operation is a method named after its path (``natal_chart`` for ``/v1/natal-chart``)
    taking the query parameters as keywords; it returns the answer's model or raises. A missing
    or empty ``api_key`` raises ``AuthenticationError`` here, before any request. Use it
    as a context manager, or call ``close()``, to release its connections.
    """

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str,
        timeout: float = 90.0,
        retry: Retry | None = None,
        httpx_args: dict[str, Any] | None = None,
    ) -> None:
        if not isinstance(api_key, str) or not api_key.strip():
            # Refused here, before any request: sent empty, the header would read "Bearer " and
            # httpx would fail it as a network error, which sends the user to the wrong place.
            raise AuthenticationError(
                "No API key: api_key is empty",
                code="invalid_api_key",
                param="api_key",
                suggestion="Pass the account's key (svc_live_... or svc_test_...) as api_key=.",
            )
        # The deadline of the longest operation (a scan's, 60 s) plus the way there and back.
        self.client = AuthenticatedClient(
            base_url=base_url, token=api_key, timeout=httpx.Timeout(timeout), httpx_args=httpx_args or {}
        )
        self.retry = retry or Retry()

    def __enter__(self) -> Celestial:
        self.client.__enter__()
        return self

    def __exit__(self, *args: Any) -> None:
        self.client.__exit__(*args)

    def close(self) -> None:
        """Close the connections (the client opens new ones if used again)."""
        self.client.get_httpx_client().close()

    def _call(self, send: Callable[[], Response[Any]], answer: type[T]) -> T:
        """Return the model of ``send()``'s answer, retried as ``self.retry`` says; raise the
        ``CelestialError`` of an error answer or of no answer."""
        response = self._answered(send)
        if isinstance(response.parsed, answer):
            return response.parsed
        status = int(response.status_code)
        raise ServerError(f"An answer {status} the client cannot read", code="unreadable_answer", status=status)

    def _document(self, send: Callable[[], httpx.Response], media_type: str) -> httpx.Response:
        """Return ``send()``'s answer when it is a ``media_type`` document (an SVG, a PNG, an
        iCalendar), retried as ``self.retry`` says; raise as ``_call`` does."""
        response = self._answered(send)
        answered = response.headers.get("Content-Type", "").split(";")[0].strip()
        if answered == media_type:
            return response
        raise ServerError(
            f"An answer {answered or 'without a Content-Type'} where {media_type} was asked for",
            code="unreadable_answer",
            status=response.status_code,
        )

    def _answered(self, send: Callable[[], Answer]) -> Answer:
        """Return ``send()``'s 2xx answer, retried as ``self.retry`` says; raise the
        ``CelestialError`` of an error answer or of no answer."""
        attempt = 1
        while True:
            cause: BaseException | None = None
            retry_after: float | None = None
            try:
                response = send()
            except (KeyError, TypeError, ValueError) as failure:
                # A 2xx whose body is not the documented answer (the generated parser failed).
                raise ServerError("An answer the client cannot read", code="unreadable_answer") from failure
            except httpx.TransportError as failure:
                error: CelestialError = error_from_transport(failure)
                cause = failure
                # A refused connection never reached the server; a timeout may have been charged.
                retryable = isinstance(failure, httpx.ConnectError)
            else:
                status = int(response.status_code)
                if 200 <= status < 300:
                    return response
                error = error_from_answer(status, response.headers, response.content)
                retry_after = error.retry_after
                retryable = status in self.retry.statuses
            seconds = self.retry.wait(attempt, retry_after) if retryable else None
            if seconds is None:
                raise error from cause
            time.sleep(seconds)
            attempt += 1
