"""The public price list, ``/pricing`` (HTML) and ``/pricing.json``: every endpoint's credits
and the credits that replace them for some parameter values, read from the endpoints'
descriptors (the ``(http)`` option of each RPC, as the gateway charges them), the free
routes, the per-account limits, and where test keys stand. No key is needed to read it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gateway.endpoints import Endpoint
from gateway.html_pages import render_page
from gateway.json_response import json_response
from gateway.key_modes import TEST_MAX_CONCURRENT, TEST_RATE_PER_MINUTE
from store.records import Account

#: The routes that are not operations of the contract, all free and needing no key.
FREE_ROUTES = (
    ("/pricing", "this price list (also as JSON at /pricing.json)"),
    ("/docs", "the API reference, with a request and its answer for every operation"),
    ("/v1/openapi.json", "the OpenAPI 3.1 document"),
    ("/llms.txt", "the reference for language models, one Markdown page per operation"),
    ("/dashboard", "the customer dashboard: keys, balance and usage"),
    ("/status", "the service's status: latency by operation class, errors and uptime (also as JSON at /v1/status)"),
    ("/healthz", "liveness"),
    ("/readyz", "readiness"),
)
BATCH = {
    "path": "/v1/batch",
    "methods": ["POST"],
    "credits": "the sum of the credits of its successful sub-requests (at most 50 in one call)",
}
TEST_KEYS = {
    "available": True,
    "credits": 0,
    "limits": {"rate_per_minute": TEST_RATE_PER_MINUTE, "max_concurrent": TEST_MAX_CONCURRENT},
    "counted_by": "computation: each request counts the credits it would cost through a live key (at least 1), "
    "a batch the sum of its sub-requests' and one slot in flight per sub-request it runs at once",
    "note": f"svc_test_ keys (created in the dashboard, beside live keys) get real answers and cost nothing, "
    f"under a limit of their own of {TEST_RATE_PER_MINUTE} computations a minute and {TEST_MAX_CONCURRENT} in "
    "flight per account, apart from the live keys' limits. A request counts what it would cost through a live "
    "key (at least 1: a wheel 3, a forecast 10, a batch of 50 single-credit calls 50); their answers say "
    'meta.mode "test".',
}


def default_limits() -> dict[str, int]:
    """Return the limits a new account starts with: requests per minute and requests in flight."""
    defaults = {field.name: field.default for field in dataclasses.fields(Account)}
    return {"rate_per_minute": defaults["rate_per_minute"], "max_concurrent": defaults["max_concurrent"]}


def endpoint_prices(endpoints: Sequence[Endpoint]) -> list[dict[str, Any]]:
    """Return each endpoint's price, in the contract's order: path, methods, summary, credits,
    and the credits charged instead when a parameter holds a value."""
    return [
        {
            "path": endpoint.path,
            "methods": ["POST"] if endpoint.http.post_only else ["GET", "POST"],
            "summary": endpoint.http.summary,
            "credits": endpoint.http.credits,
            "conditional_credits": [
                {"parameter": rule.field, "equals": rule.equals, "credits": rule.credits}
                for rule in endpoint.http.conditional_credits
            ],
        }
        for endpoint in endpoints
    ]


def price_list(endpoints: Sequence[Endpoint]) -> dict[str, Any]:
    """Return the whole price list: endpoints, batch, free routes, limits, test keys."""
    return {
        "endpoints": endpoint_prices(endpoints),
        "batch": BATCH,
        "free_routes": [{"path": path, "what": what} for path, what in FREE_ROUTES],
        "limits": default_limits(),
        "test_keys": TEST_KEYS,
    }


def pricing_routes(endpoints: Sequence[Endpoint]) -> list[Route]:
    """Return the routes of ``/pricing`` and ``/pricing.json``, built once from ``endpoints``."""
    prices = price_list(endpoints)
    document = json_response(prices).body

    async def page(request: Request) -> Response:
        paid = [price for price in prices["endpoints"] if price["credits"] or price["conditional_credits"]]
        free = [price for price in prices["endpoints"] if not (price["credits"] or price["conditional_credits"])]
        return render_page(
            request, "pricing.html", {"title": "Pricing", "who": None, "prices": prices, "paid": paid, "free": free}
        )

    async def as_json(request: Request) -> Response:
        return json_response(document)

    return [Route("/pricing", page, methods=["GET"]), Route("/pricing.json", as_json, methods=["GET"])]
