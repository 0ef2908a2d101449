"""gateway/middleware.py: every answer carries ``X-Request-Id`` (decisions.md, "Envelope and
headers"), the client's own when it is short and printable, else 128 fresh random bits; CORS
(Fetch standard, "CORS protocol"): any origin may call, a preflight is answered with the
allowed methods, headers and max-age, a simple response to a request with ``Origin`` exposes
the rate-limit headers, and every response varies on ``Origin`` (RFC 9110 §12.5.5)."""

from __future__ import annotations

import asyncio
import re

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from gateway.middleware import CORS_MAX_AGE_S, RequestContextMiddleware
from gateway.request_state import request_state


async def _echo(request: Request) -> PlainTextResponse:
    if request.query_params.get("limited"):
        request_state(request).rate_limit_headers = [(b"x-ratelimit-limit", b"300")]
    vary = {"Vary": "Accept-Encoding"} if request.query_params.get("vary") else {}
    return PlainTextResponse(request_state(request).request_id, headers=vary)


APP = RequestContextMiddleware(Starlette(routes=[Route("/v1/echo", _echo, methods=["GET", "POST"])]))


def _get(method: str = "GET", path: str = "/v1/echo", headers: dict[str, str] | None = None) -> httpx.Response:
    async def send() -> httpx.Response:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=APP), base_url="http://testserver") as client:
            return await client.request(method, path, headers=headers)

    return asyncio.run(send())


def test_a_request_without_an_id_gets_32_fresh_hex_characters_seen_by_the_app_and_the_client():
    first, second = _get(), _get()
    assert re.fullmatch(r"[0-9a-f]{32}", first.headers["x-request-id"])
    assert first.text == first.headers["x-request-id"] != second.headers["x-request-id"]


def test_a_short_printable_client_id_is_kept():
    assert _get(headers={"X-Request-Id": "client-42.a:b_c"}).headers["x-request-id"] == "client-42.a:b_c"


def test_a_long_or_unprintable_client_id_is_replaced():
    for supplied in ("x" * 129, "two words", "a\tb", 'id"quoted', "a/b"):
        answer = _get(headers={"X-Request-Id": supplied})
        assert re.fullmatch(r"[0-9a-f]{32}", answer.headers["x-request-id"]), supplied


def test_a_request_with_an_origin_may_read_the_answer_and_its_rate_limit_headers():
    answer = _get(headers={"Origin": "https://app.example.com"})
    assert answer.headers["access-control-allow-origin"] == "*"
    exposed = {h.strip().lower() for h in answer.headers["access-control-expose-headers"].split(",")}
    assert {"x-request-id", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after"} <= exposed
    assert {"ratelimit-policy", "ratelimit"} <= exposed  # the IETF draft-11 fields


def test_a_request_without_an_origin_gets_no_cors_headers_but_still_varies_on_origin():
    answer = _get()
    assert "access-control-allow-origin" not in answer.headers and answer.headers["vary"] == "Origin"


def test_origin_is_added_to_the_apps_own_vary():
    assert _get(path="/v1/echo?vary=1").headers["vary"] == "Accept-Encoding, Origin"


def test_a_preflight_is_answered_with_the_methods_headers_and_max_age():
    answer = _get(
        "OPTIONS",
        headers={
            "Origin": "https://app.example.com",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Authorization, Content-Type",
        },
    )
    assert answer.status_code == 200 and answer.headers["access-control-max-age"] == str(CORS_MAX_AGE_S)
    assert {m.strip() for m in answer.headers["access-control-allow-methods"].split(",")} >= {"GET", "POST"}
    allowed = answer.headers["access-control-allow-headers"].lower()
    assert "authorization" in allowed and "content-type" in allowed
    assert re.fullmatch(r"[0-9a-f]{32}", answer.headers["x-request-id"])


def test_the_rate_limit_headers_an_admitted_request_sets_reach_the_answer():
    assert _get(path="/v1/echo?limited=1").headers["x-ratelimit-limit"] == "300"
