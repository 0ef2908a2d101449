"""The MCP tools are read from the OpenAPI document: one per operation, each input schema the
operation's body schema standing alone, with nothing listed by hand."""

from __future__ import annotations

import asyncio
import base64
import json

import httpx

from celestial_mcp.server import _bearer_key
from celestial_mcp.tools import call_operation, operation_tools
from gateway.endpoints import discover_endpoints
from gateway.operation_names import operation_name
from gateway.reference.openapi import build_openapi

DOCUMENT = build_openapi(discover_endpoints(), version="test")


def test_every_operation_is_a_tool_whose_schema_stands_alone():
    tools = operation_tools(DOCUMENT)
    # Every operation that takes a body (every computation); the account's GET-only reads are not tools.
    # A resource's operations (stored charts, webhooks: x-resource) are left to the HTTP API.
    assert set(tools) == {
        operation_name(path)
        for path, operations in DOCUMENT["paths"].items()
        if "post" in operations and not operations["post"].get("x-resource")
    }
    for tool in tools.values():
        assert tool.input_schema["type"] == "object"
        assert "$ref" not in json.dumps(tool.input_schema)
        assert tool.as_tool().annotations.read_only_hint is True


def test_a_new_operation_in_the_document_is_a_new_tool():
    document = json.loads(json.dumps(DOCUMENT))
    document["paths"]["/v1/new-thing"] = document["paths"]["/v1/positions"]
    assert operation_tools(document)["new_thing"].path == "/v1/new-thing"


def test_the_key_of_an_http_client_is_its_bearer_token_only():
    class Request:
        def __init__(self, value):
            self.headers = {"authorization": value} if value is not None else {}

    assert _bearer_key(Request("Bearer svc_live_abc")) == "svc_live_abc"
    assert _bearer_key(Request("Basic abc")) is None
    assert _bearer_key(Request("Bearer ")) is None
    assert _bearer_key(Request(None)) is None and _bearer_key(None) is None


def test_a_document_answered_instead_of_json_is_the_tools_text():
    ics = "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, text=ics, headers={"content-type": "text/calendar; charset=utf-8"})

    async def call():
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer), base_url="http://api") as client:
            return await call_operation(
                client,
                operation_tools(DOCUMENT)["calendar"],
                {"format": "ics", "start": "2024-01-01", "end": "2024-01-02"},
                "svc_live_abc",
            )

    result = asyncio.run(call())
    assert not result.is_error and result.content[0].text == ics


def test_a_png_answered_instead_of_json_is_the_tools_image():
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))  # the signature, then bytes no text decoding keeps

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=png, headers={"content-type": "image/png"})

    async def call():
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer), base_url="http://api") as client:
            return await call_operation(
                client, operation_tools(DOCUMENT)["chart_wheel"], {"format": "png"}, "svc_live_abc"
            )

    result = asyncio.run(call())
    assert not result.is_error
    assert (result.content[0].type, result.content[0].mime_type) == ("image", "image/png")
    assert base64.b64decode(result.content[0].data) == png


def _call(tool: str, arguments: dict, sent: list) -> object:
    """Return the result of ``tool`` called with ``arguments`` against an API that answers 200
    and records each request it gets in ``sent``."""

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(200, json={"data": [], "meta": {}})

    async def call():
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer), base_url="http://api") as client:
            return await call_operation(client, operation_tools(DOCUMENT)[tool], arguments, "svc_live_abc")

    return asyncio.run(call())


def test_arguments_the_tools_schema_does_not_admit_are_a_tool_error_and_nothing_is_sent():
    # Issue 36: bodies: 5 (an integer, against the schema) was forwarded and read as asteroid 5.
    cases = [
        ("positions", {"jd": 2451545.0, "bodies": 5}, "bodies: 5 is not a string or an array of strings"),
        ("positions", {"jd": 2451545.0, "bodies": ["sun", 5]}, "bodies"),
        ("positions", {"jd": "2451545.0x", "lat": 91}, "lat: 91 is greater than the maximum of 90"),
        ("positions", {"jd": 2451545.0, "nonesuch": 1}, "nonesuch"),
        ("astrocartography", {"jd": 2451545.0, "targets": [{"body": 5}]}, "targets[0].body: 5 is not of type 'string'"),
        ("places", {"q": 3.4e16}, "q: 3.4e+16 is not of type 'string'"),
    ]
    for tool, arguments, said in cases:
        sent: list = []
        result = _call(tool, arguments, sent)
        assert result.is_error and said in result.content[0].text, (tool, arguments, result.content[0].text)
        assert sent == [], (tool, arguments)


def test_arguments_the_tools_schema_admits_are_sent_as_they_are():
    sent: list = []
    arguments = {"jd": 2451545.0, "bodies": ["sun", "moon"], "lat": 51.5, "lon": -0.13}
    assert not _call("positions", arguments, sent).is_error and sent == [arguments]
    assert (
        not _call("positions", {"datetime": "2024-03-20T12:00:00Z", "bodies": "sun,moon"}, sent).is_error
        and len(sent) == 2
    )
