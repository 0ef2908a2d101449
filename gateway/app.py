"""The Starlette gateway: routes built from the descriptors, auth, credits, transcoding, envelope."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import orjson
import structlog
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from gateway.auth import KeyAuthenticator
from gateway.endpoints import Endpoint, discover_endpoints
from gateway.envelope import error_body, success_body
from gateway.middleware import RequestContextMiddleware, new_request_id
from gateway.openapi import build_openapi, render_docs_page
from gateway.rpc import ServicePool
from gateway.store.interfaces import Store
from gateway.transcoder import request_from_json, request_from_query
from shared.config import SERVICE_NAMES, Settings
from shared.errors import (
    CelestialError,
    InternalError,
    InvalidBody,
    InvalidParameter,
    MethodNotAllowed,
    NotFound,
    NotImplementedEndpoint,
    PayloadTooLarge,
)
from shared.validation import credit_cost, validate

API_VERSION = "v1"
BUILD_VERSION = "0.1.0"
MAX_BODY_BYTES = 1024 * 1024

log = structlog.get_logger("celestial.gateway")


class JSONResponse(Response):
    """A JSON response encoded with orjson (the stdlib encoder costs as much as the astronomy)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def _request_id(request: Request) -> str:
    return request.scope.get("state", {}).get("request_id", "")


def error_response(request: Request, error: CelestialError) -> JSONResponse:
    """Return the spec's error body for ``error``, with Retry-After where it applies."""
    headers = {}
    if error.http_status in (429, 503):
        headers["Retry-After"] = str(getattr(error, "retry_after_s", 1))
    if isinstance(error, MethodNotAllowed) and getattr(error, "allow", None):
        headers["Allow"] = error.allow
    return JSONResponse(error_body([error], _request_id(request)), status_code=error.http_status, headers=headers)


async def _handle_celestial_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, CelestialError)
    return error_response(request, exc)


async def _handle_http_exception(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 405:
        error = MethodNotAllowed(f"{request.method} is not allowed on {request.url.path}.")
        error.allow = (exc.headers or {}).get("Allow", "")
        if error.allow:
            error.suggestion = f"Use {error.allow}."
        return error_response(request, error)
    if exc.status_code == 404:
        return error_response(request, NotFound(f"No endpoint at {request.url.path}."))
    return error_response(request, InternalError(f"Unexpected HTTP error {exc.status_code}."))


async def _handle_unexpected(request: Request, exc: Exception) -> Response:
    log.error("unhandled_exception", exc_info=exc)
    return error_response(request, InternalError(f"Internal error; request id {_request_id(request)}."))


async def read_parameters(request: Request, endpoint: Endpoint):
    """Return the request message built from the query string (GET) or the JSON body (POST)."""
    request_cls = endpoint.request_cls
    if request.method == "GET":
        return request_from_query(request_cls, request.query_params.multi_items(), endpoint.path)
    if request.query_params:
        raise InvalidParameter(
            "A POST carries its parameters in the JSON body, not in the query string.",
            suggestion="Move the query parameters into the JSON object body, or use GET.",
            param=next(iter(request.query_params.keys())),
        )
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise PayloadTooLarge(f"The body is {declared} bytes; at most {MAX_BODY_BYTES} are accepted.")
    chunks = bytearray()
    async for chunk in request.stream():
        chunks.extend(chunk)
        if len(chunks) > MAX_BODY_BYTES:
            raise PayloadTooLarge(f"The body exceeds {MAX_BODY_BYTES} bytes.")
    if not chunks.strip():
        return request_cls()
    content_type = request.headers.get("content-type", "application/json").split(";")[0].strip().lower()
    if content_type not in ("application/json", "") and not content_type.endswith("+json"):
        raise InvalidBody(f"The body must be JSON (Content-Type: application/json), not {content_type}.")
    try:
        body = orjson.loads(bytes(chunks))
    except orjson.JSONDecodeError:
        raise InvalidBody("The body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise InvalidBody(f"The body must be a JSON object, not a JSON {type(body).__name__}.")
    return request_from_json(request_cls, body, endpoint.path)


class Gateway:
    """The shared resources of one gateway process (built in the lifespan)."""

    def __init__(self, settings: Settings, store: Store):
        self.settings = settings
        self.store = store
        self.authenticator = KeyAuthenticator(store, cache_seconds=settings.key_cache_s)
        self.pools = {name: ServicePool(name, settings.service_addresses[name]) for name in SERVICE_NAMES}

    async def close(self) -> None:
        for pool in self.pools.values():
            await pool.close()

    def deadline_s(self, endpoint: Endpoint) -> float:
        return self.settings.scan_deadline_s if endpoint.scan else self.settings.fast_deadline_s

    async def serve(self, request: Request, endpoint: Endpoint) -> Response:
        """Authenticate, transcode, validate, reserve credits, call the service, render."""
        request_id = _request_id(request)
        state = request.scope["state"]
        account, _key = await self.authenticator.authenticate(request.headers, request.headers.get("origin"))
        state["account_id"] = account.id
        message = await read_parameters(request, endpoint)
        validate(message)
        cost = credit_cost(endpoint.http, message)
        # The ledger key is minted here, never the client's X-Request-Id: a replayed id
        # must not make a second request look like a retry of a paid one.
        charge_id = new_request_id()
        state["charge_id"] = charge_id
        remaining = await self.store.reserve(account.id, cost, charge_id)
        started = time.perf_counter()
        try:
            reply = await self.pools[endpoint.service].call(
                endpoint.rpc_path,
                message,
                endpoint.response_cls,
                timeout_s=self.deadline_s(endpoint),
                request_id=request_id,
            )
            computation_ms = round((time.perf_counter() - started) * 1000, 3)
            body = success_body(
                reply,
                {
                    "request_id": request_id,
                    "credits_used": cost,
                    "credits_remaining": remaining,
                    "computation_ms": computation_ms,
                    "version": {"api": API_VERSION, "build": BUILD_VERSION},
                },
            )
            content = orjson.dumps(body)
        except BaseException:
            # Only a 2xx costs credits; shield the refund from a client disconnect.
            await asyncio.shield(self.store.refund(account.id, cost, charge_id))
            raise
        state["credits_used"] = cost
        return Response(content, media_type="application/json")


def _endpoint_handler(endpoint: Endpoint):
    async def handle(request: Request) -> Response:
        gateway: Gateway = request.app.state.gateway
        try:
            return await gateway.serve(request, endpoint)
        except CelestialError as error:
            return error_response(request, error)
        except Exception as error:  # a bug: log it, answer 500 with the request id only
            log.error("unhandled_exception", exc_info=error)
            return error_response(request, InternalError(f"Internal error; request id {_request_id(request)}."))

    return handle


async def _batch_not_implemented(request: Request) -> Response:
    gateway: Gateway = request.app.state.gateway
    try:
        await gateway.authenticator.authenticate(request.headers, request.headers.get("origin"))
        raise NotImplementedEndpoint("POST /v1/batch is not implemented yet.")
    except CelestialError as error:
        return error_response(request, error)


async def _healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def _readyz(request: Request) -> Response:
    gateway: Gateway = request.app.state.gateway
    checks = await asyncio.gather(*(pool.ready() for pool in gateway.pools.values()))
    services = {name: ("ready" if ok else "unavailable") for name, ok in zip(gateway.pools, checks)}
    ready = all(checks)
    return JSONResponse({"status": "ready" if ready else "unavailable", "services": services}, status_code=200 if ready else 503)


def create_app(settings: Settings, store: Store | None = None) -> Starlette:
    """Return the gateway application; ``store`` defaults to the embedded SQLite store."""
    endpoints = discover_endpoints()
    openapi_document = build_openapi(endpoints, version=BUILD_VERSION)
    openapi_bytes = orjson.dumps(openapi_document)
    docs_page = render_docs_page(openapi_document)

    async def openapi(request: Request) -> Response:
        return Response(openapi_bytes, media_type="application/json")

    async def docs(request: Request) -> Response:
        return HTMLResponse(docs_page)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        chosen = store
        if chosen is None:
            from gateway.store.sqlite_store import SqliteStore

            settings.data_dir.mkdir(parents=True, exist_ok=True)
            chosen = SqliteStore(settings.database_path)
        gateway = Gateway(settings, chosen)
        app.state.gateway = gateway
        try:
            yield
        finally:
            await gateway.close()
            close = getattr(chosen, "close", None)
            if close is not None:
                result = close()
                if asyncio.iscoroutine(result):
                    await result

    routes = [Route(e.path, _endpoint_handler(e), methods=["POST"] if e.http.post_only else ["GET", "POST"]) for e in endpoints]
    routes += [
        Route("/v1/batch", _batch_not_implemented, methods=["POST"]),
        Route("/v1/openapi.json", openapi, methods=["GET"]),
        Route("/docs", docs, methods=["GET"]),
        Route("/healthz", _healthz, methods=["GET"]),
        Route("/readyz", _readyz, methods=["GET"]),
    ]
    middleware = [
        Middleware(RequestContextMiddleware),
        Middleware(
            CORSMiddleware,
            allow_origins=["*"],
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "X-API-Key", "Content-Type", "X-Request-Id"],
            expose_headers=["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After"],
            max_age=600,
        ),
    ]
    return Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={
            CelestialError: _handle_celestial_error,
            HTTPException: _handle_http_exception,
            Exception: _handle_unexpected,
        },
    )
