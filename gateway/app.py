"""The gateway application: its routes, middleware, error handling and lifespan.

``/v1`` requests are served by the paid-request pipeline (``gateway/paid_requests.py``),
``/v1/batch`` on it (``gateway/paid_batches.py``), the account resources (``/v1/usage`` and ``/v1/account``:
``gateway/account_api.py``; ``/v1/charts``: ``gateway/stored_charts.py``; ``/v1/webhooks``:
``gateway/webhooks.py``) each as a table of operations served one way
(``gateway/account_resources.py``), ``/admin/v1`` by the admin API (``gateway/admin/api.py``),
``/dashboard`` by the account dashboard (``gateway/dashboard/routes.py``);
this module assembles them with the OpenAPI document, the docs page and the health checks.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping

import orjson
import structlog
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route

from gateway import account_api, paid_batches, stored_charts, webhooks
from gateway.admin.api import admin_app
from gateway.dashboard.routes import dashboard_app
from gateway.endpoints import Endpoint, discover_endpoints
from gateway.errors import TRANSIENT_STORE_ERRORS, error_response, with_error_body
from gateway.json_response import json_response
from gateway.middleware import RequestContextMiddleware
from gateway.paid_requests import Gateway
from gateway.pricing import pricing_routes
from gateway.reference.examples import load_examples, with_examples
from gateway.reference.guides import guide_links, guide_markdown_links, guide_routes, load_guides
from gateway.reference.openapi import build_openapi
from gateway.reference.routes import CONTENT_SECURITY_POLICY, reference_routes
from gateway.rpc import Pool
from gateway.version import BUILD_VERSION
from kernel import civil_time, places
from shared.errors import MethodNotAllowed
from shared.runtime.config import Settings
from shared.runtime.metrics_endpoint import start_metrics_endpoint, stop_metrics_endpoint
from store.choice import open_configured_store
from store.interfaces import GatewayHeartbeats, Store
from webhooks.egress import Resolver, system_resolver

log = structlog.get_logger("celestial.gateway")


def _endpoint_handler(endpoint: Endpoint):
    """Return the route handler of one ``/v1`` endpoint: the paid-request pipeline."""
    allow = "POST" if endpoint.http.post_only else "GET, POST"

    async def serve(request: Request) -> Response:
        if request.method == "HEAD":
            # Not served: a HEAD would be charged for an answer nobody reads.
            raise MethodNotAllowed(f"HEAD is not served on {endpoint.path}.", suggestion=f"Use {allow}.", allow=allow)
        return await request.app.state.gateway.serve(request, endpoint)

    return with_error_body(serve)


@with_error_body
async def _serve_batch(request: Request) -> Response:
    return await paid_batches.serve_batch(request.app.state.gateway, request)


async def _healthz(request: Request) -> Response:
    return json_response({"status": "ok"})


#: The account /readyz looks up: a real round trip to the store that finds nothing and changes nothing.
READINESS_PROBE_ACCOUNT = "readiness-probe"
#: How long /readyz waits for the store's answer (a healthy store answers in milliseconds).
STORE_READY_WITHIN_S = 1.0


async def _store_ready(store: Store) -> bool:
    """Return whether the key and credit store answers a read now."""
    try:
        async with asyncio.timeout(STORE_READY_WITHIN_S):
            await store.get_account(READINESS_PROBE_ACCOUNT)
    except (*TRANSIENT_STORE_ERRORS, TimeoutError):
        return False
    return True


async def _readyz(request: Request) -> Response:
    """200 when the store and every service pool can take a call now, else 503; the body says
    which part is not (what a load balancer or Kubernetes' readiness probe asks)."""
    gateway: Gateway = request.app.state.gateway
    store_ready, *checks = await asyncio.gather(
        _store_ready(gateway.store), *(pool.ready() for pool in gateway.pools.values())
    )
    services = {name: ("ready" if ok else "unavailable") for name, ok in zip(gateway.pools, checks)}
    ready = store_ready and all(checks)
    body = {
        "status": "ready" if ready else "unavailable",
        "store": "ready" if store_ready else "unavailable",
        "services": services,
    }
    return json_response(body, 200 if ready else 503)


def create_app(
    settings: Settings,
    store: Store | None = None,
    pools: Mapping[str, Pool] | None = None,
    resolve: Resolver = system_resolver,
) -> Starlette:
    """Return the gateway application.

    ``store`` defaults to the configured store and ``pools`` (one per service name) to gRPC
    channels to the configured service processes; the tests pass pools computing in process.
    ``resolve`` answers a webhook URL's host with its addresses (the system's resolver; the
    tests pass a table).
    The gateway never gives the engine the ephemeris files: validation needs none. It opens
    the places database, for validation reads a ``place`` id to its town.
    """
    places.use_gazetteer(settings.places_path)
    civil_time.use_zone_files(settings.tz_path)
    civil_time.open_zone_map()  # validation reads tz=auto
    endpoints = discover_endpoints()
    guides, guide_images = load_guides(settings.guides_path)
    openapi_document = with_examples(
        build_openapi(endpoints, version=BUILD_VERSION, guides=guide_links(guides)), load_examples()
    )
    openapi_bytes = orjson.dumps(openapi_document)

    async def openapi(request: Request) -> Response:
        return json_response(openapi_bytes)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        chosen = store if store is not None else await open_configured_store(settings)
        if settings.signup_open and settings.smtp_url is None:
            log.warning(
                "dashboard_signup_off", reason="CELESTIAL_SIGNUP=open needs CELESTIAL_SMTP_URL to confirm addresses"
            )
        gateway = Gateway(settings, chosen, endpoints, pools, resolve)
        app.state.gateway = gateway
        follower = asyncio.create_task(gateway.authenticator.follow())
        # On a store shared by several gateways: this one's heartbeat, and a dead peer's
        # in-flight charges refunded within seconds (store/nats_heartbeats.py).
        heartbeat = asyncio.create_task(chosen.follow_peers()) if isinstance(chosen, GatewayHeartbeats) else None
        metrics = await start_metrics_endpoint(settings.metrics_host, settings.metrics_port)
        try:
            yield
        finally:
            await stop_metrics_endpoint(metrics)
            for task in (follower, heartbeat):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            await gateway.close()
            await chosen.close()

    routes = [
        Route(e.path, _endpoint_handler(e), methods=["POST"] if e.http.post_only else ["GET", "POST"])
        for e in endpoints
    ]
    routes += [
        Route("/v1/batch", _serve_batch, methods=["POST"]),
        *account_api.ROUTES,
        *stored_charts.ROUTES,
        *webhooks.ROUTES,
        Route("/v1/openapi.json", openapi, methods=["GET"]),
        # The guides' Markdown (/docs/guides.md, /docs/guides/<page>.md) before /docs/<operation>.md.
        *guide_routes(guides, guide_images, CONTENT_SECURITY_POLICY),
        *reference_routes(openapi_document, guide_markdown_links(guides)),
        *pricing_routes(endpoints),
        Route("/healthz", _healthz, methods=["GET"]),
        Route("/readyz", _readyz, methods=["GET"]),
        Mount("/admin/v1", app=admin_app()),
        Route("/dashboard", lambda request: RedirectResponse("/dashboard/", status_code=307), methods=["GET"]),
        Mount("/dashboard", app=dashboard_app()),
    ]
    middleware = [Middleware(RequestContextMiddleware)]
    app = Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        # What no route handler sees (the router's 404 and 405, a failure of the middleware)
        # takes the same one error path as what a route raises (with_error_body).
        exception_handlers={HTTPException: error_response, Exception: error_response},
    )
    # A path with a trailing slash is 404 like any unknown path, never a redirect to a
    # Location built from the client's own Host header.
    app.router.redirect_slashes = False
    return app
