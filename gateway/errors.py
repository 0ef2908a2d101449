"""The one translation of whatever a request raised into the error its client sees.

Service errors arrive already as :class:`CelestialError` (``gateway/rpc.py`` reads them from
the gRPC status); store errors, Starlette's HTTP exceptions and bugs are mapped here, and
:func:`error_response` renders any of them as the spec's error body with the headers the
error declares. The public API, the batch sub-requests and the admin API all answer
through it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import structlog
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from gateway.envelope import error_body
from gateway.json_response import json_response
from gateway.problem_details import PROBLEM_MEDIA_TYPE, asks_for_problem_json, problem_members
from gateway.request_metrics import record_refusal
from gateway.request_state import request_state
from shared.errors import (
    CelestialError,
    ClientGone,
    DuplicateAccount,
    InactiveKey,
    InternalError,
    InvalidAdminToken,
    InvalidParameter,
    MethodNotAllowed,
    NotFound,
    RequestIdConflict,
    ServiceUnavailable,
)
from store.bounds import MAX_BALANCE
from store.errors import (
    AccountExists,
    AccountNotFound,
    BalanceCeiling,
    KeyNotActive,
    KeyNotFound,
    LedgerConflict,
    StoreBusy,
    StoreUnavailable,
)
from store.key_format import exception_message, redact_keys

log = structlog.get_logger("celestial.gateway")

STORE_DOWN_MESSAGE = "The key and credit store is busy or unreachable; nothing was charged or changed."

#: Store failures that change nothing and pass: the server is down, or the embedded file
#: stayed locked by other writers past the store's wait limit. Both are a 503, never a 500.
TRANSIENT_STORE_ERRORS = (StoreUnavailable, StoreBusy)


def request_id_of(request: Request) -> str:
    """Return the request id the middleware gave ``request`` ("" outside the middleware)."""
    return request_state(request).request_id


def as_celestial_error(exc: BaseException, request_id: str, method: str = "", path: str = "") -> CelestialError:
    """Return the error the client sees for ``exc`` (raised by ``method`` on ``path``);
    anything unforeseen is logged as a bug and answered 500 with only the request id.

    Whatever a message repeats of the request (a path, a parameter, a header), it never
    repeats a key: anything shaped like one is cut to its prefix here, the one way out of
    every error body.
    """
    error = _mapped(exc, request_id, method, path)
    error.message = redact_keys(error.message)
    error.suggestion = redact_keys(error.suggestion)
    if error.param:
        error.param = redact_keys(error.param)
    return error


def _mapped(exc: BaseException, request_id: str, method: str, path: str) -> CelestialError:
    if isinstance(exc, CelestialError):
        return exc
    path = redact_keys(path)
    if isinstance(exc, TRANSIENT_STORE_ERRORS):
        return ServiceUnavailable(STORE_DOWN_MESSAGE)
    if isinstance(exc, KeyNotFound):
        return NotFound(
            exception_message(exc),
            suggestion="Check the key id; GET /admin/v1/accounts/{account}/keys lists an account's keys.",
        )
    if isinstance(exc, AccountNotFound):
        return NotFound(exception_message(exc), suggestion="Check the account name or id; names are case-sensitive.")
    if isinstance(exc, AccountExists):
        return DuplicateAccount(exception_message(exc), param="name")
    if isinstance(exc, KeyNotActive):
        return InactiveKey(exception_message(exc))
    if isinstance(exc, BalanceCeiling):
        return InvalidParameter(
            exception_message(exc),
            suggestion=f"Top up at most {MAX_BALANCE} credits in all; the balance never exceeds that.",
            param="credits",
        )
    if isinstance(exc, LedgerConflict):
        return RequestIdConflict(exception_message(exc), param="request_id")
    if isinstance(exc, HTTPException) and exc.status_code == 405:
        # Starlette lists a route's methods from a set (any order) and adds HEAD beside GET,
        # which /v1 does not serve: the answer lists them sorted, without HEAD on /v1.
        methods = {method.strip() for method in (exc.headers or {}).get("Allow", "").split(",") if method.strip()}
        if path.startswith("/v1/"):
            methods.discard("HEAD")
        allow = ", ".join(sorted(methods))
        return MethodNotAllowed(
            f"{method} is not allowed on {path}.", suggestion=f"Use {allow}." if allow else None, allow=allow
        )
    if isinstance(exc, ClientDisconnect):
        return ClientGone("The client closed the connection before its request was read.")
    if isinstance(exc, HTTPException) and exc.status_code == 404:
        return NotFound(f"No endpoint at {path}.")
    log.error("unhandled_exception", exc_info=exc)
    return InternalError(f"Internal error; request id {request_id}.")


def error_headers(error: CelestialError) -> dict[str, str]:
    """Return the HTTP headers ``error`` declares: Retry-After, Allow, WWW-Authenticate."""
    headers = {}
    if error.retry_after_s is not None:
        headers["Retry-After"] = str(error.retry_after_s)
    if isinstance(error, MethodNotAllowed) and error.allow:
        headers["Allow"] = error.allow
    if isinstance(error, InvalidAdminToken):
        headers["WWW-Authenticate"] = 'Bearer realm="celestial-admin"'
    return headers


def error_response(request: Request, exc: BaseException) -> Response:
    """Return the spec's error body for whatever ``exc`` is, with its declared headers and,
    for a limit's refusal, the RFC 9457 problem details beside it (``gateway/problem_details.py``)."""
    request_id = request_id_of(request)
    error = as_celestial_error(exc, request_id, request.method, request.url.path)
    record_refusal(error.code)
    problem = problem_members(error)
    headers = error_headers(error)
    if problem:
        # Its media type depends on Accept (RFC 9457's, when asked for).
        headers["Vary"] = "Accept"
        if asks_for_problem_json(request.headers.get("accept")):
            headers["Content-Type"] = PROBLEM_MEDIA_TYPE
    return json_response({**error_body([error], request_id), **problem}, error.http_status, headers)


def with_error_body(serve: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """Return the route handler that runs ``serve`` and answers whatever it raises with
    :func:`error_response`: every route's one error path, ``/v1`` and ``/admin/v1`` alike.

    A route catches its own errors rather than leave them to Starlette: Starlette answers an
    exception it does not know from its outermost middleware, outside the request context
    (no ``X-Request-Id``, no log line), and raises it again.
    """

    async def handle(request: Request) -> Response:
        try:
            return await serve(request)
        except Exception as error:
            return error_response(request, error)

    return handle
