"""gateway/http_server.py: the bounds of the public port, on uvicorn in process on an
ephemeral port: a request target over its bound is 414 (RFC 9110 §15.5.15), headers or a body
that do not arrive in time are 408 (§15.5.9), an unreadable request is 400 ``invalid_request``,
one connection over the limit is 503; each such answer is the spec's JSON error body with an
``X-Request-Id`` and ``Connection: close`` (RFC 9112 §9.6)."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import replace

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from gateway.http_server import MAX_URL_BYTES, bounded_protocol
from shared.runtime.config import load_settings


async def _echo(request: Request) -> PlainTextResponse:
    return PlainTextResponse(f"{len(await request.body())} bytes")


APP = Starlette(routes=[Route("/echo", _echo, methods=["GET", "POST"])])
SETTINGS = replace(load_settings({}), http_header_timeout_s=0.3, http_body_timeout_s=0.3, http_max_connections=2)


def _exchange(*conversations):
    """Run uvicorn with the bounded protocol and return what each conversation(host, port) returns."""

    async def run():
        config = uvicorn.Config(
            APP,
            host="127.0.0.1",
            port=0,
            http=bounded_protocol(SETTINGS),
            loop="asyncio",
            lifespan="off",
            log_config=None,
            access_log=False,
        )
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        try:
            return [await conversation("127.0.0.1", port) for conversation in conversations]
        finally:
            server.should_exit = True
            await serving

    return asyncio.run(run())


def _send(raw: bytes, pause_s: float = 0.0, rest: bytes = b""):
    async def conversation(host, port):
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(raw)
        await writer.drain()
        if pause_s:
            await asyncio.sleep(pause_s)
        if rest:
            writer.write(rest)
        answer = await asyncio.wait_for(reader.read(), 5)
        writer.close()
        return answer

    return conversation


def _parsed(answer: bytes) -> tuple[int, dict[str, str], dict]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, json.loads(body)


def _assert_refusal(answer: bytes, status: int, code: str) -> None:
    got, headers, body = _parsed(answer)
    assert (got, body["errors"][0]["code"]) == (status, code), answer[:300]
    assert headers["connection"] == "close" and headers["content-type"] == "application/json"
    assert (
        re.fullmatch(r"[0-9a-f]{32}", headers["x-request-id"]) and body["meta"]["request_id"] == headers["x-request-id"]
    )
    assert body["errors"][0]["suggestion"]


def test_a_request_within_the_bounds_is_served():
    [answer] = _exchange(_send(b"GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"0 bytes")


def test_a_request_target_over_the_bound_is_414():
    target = b"/echo?q=" + b"a" * MAX_URL_BYTES
    [answer] = _exchange(_send(b"GET " + target + b" HTTP/1.1\r\nHost: x\r\n\r\n"))
    _assert_refusal(answer, 414, "uri_too_long")


def test_headers_that_do_not_arrive_in_time_are_408():
    [answer] = _exchange(_send(b"GET /echo HTTP/1.1\r\nHost: x\r\n"))
    _assert_refusal(answer, 408, "request_timeout")
    assert "headers" in _parsed(answer)[2]["errors"][0]["message"]


def test_a_body_that_does_not_arrive_in_time_is_408():
    [answer] = _exchange(_send(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc"))
    _assert_refusal(answer, 408, "request_timeout")
    assert "body" in _parsed(answer)[2]["errors"][0]["message"]


def test_a_request_that_cannot_be_parsed_is_400_invalid_request():
    [answer] = _exchange(_send(b"NOT HTTP AT ALL\r\n\r\n"))
    _assert_refusal(answer, 400, "invalid_request")


def test_one_connection_over_the_limit_is_503():
    async def over_the_limit(host, port):
        held = [await asyncio.open_connection(host, port) for _ in range(SETTINGS.http_max_connections)]
        reader, writer = await asyncio.open_connection(host, port)
        answer = await asyncio.wait_for(reader.read(), 5)
        for _, held_writer in held:
            held_writer.close()
        writer.close()
        return answer

    [answer] = _exchange(over_the_limit)
    _assert_refusal(answer, 503, "service_unavailable")
