"""``celestial-mcp`` driven by the MCP client of the same SDK against the real stack: over
stdio (the console script as a local assistant starts it) and over streamable HTTP (with the
client's own key): its tools are the document's operations named after their paths, a call
answers the endpoint's JSON, and a refused parameter or an empty balance comes back as a tool
error with the API's message and suggestion."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from deploy.local_stack import Stack, free_port_block
from gateway.operation_names import operation_name
from shared.runtime.config import REPO_ROOT

CONSOLE_SCRIPT = Path(sys.executable).with_name("celestial-mcp")
START_TIMEOUT_S = 30
MOMENT = {"datetime": "2024-03-20T12:00:00Z"}


@pytest.fixture(scope="module")
def document(stack: Stack) -> dict:
    with stack.client() as client:
        return client.get("/v1/openapi.json").json()


def stdio_server(stack: Stack, key: str) -> StdioServerParameters:
    env = {**stack.env, "CELESTIAL_BASE_URL": stack.base_url, "CELESTIAL_API_KEY": key}
    return StdioServerParameters(command=str(CONSOLE_SCRIPT), args=[], env=env, cwd=str(REPO_ROOT))


def run(session):
    """Return what ``session(client)`` returns, run on a fresh event loop."""
    return anyio.run(session)


def test_the_tools_are_the_operations_named_after_their_paths(stack: Stack, document):
    _, key = stack.new_key()

    async def session():
        async with Client(stdio_server(stack, key)) as client:
            return (await client.list_tools()).tools

    tools = {tool.name: tool for tool in run(session)}

    assert set(tools) == {operation_name(path) for path in document["paths"]}
    assert {"positions", "natal_chart", "eclipses_solar", "zodiacal_releasing", "batch"} <= set(tools)
    body = document["paths"]["/v1/natal-chart"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert tools["natal_chart"].input_schema["properties"] == body["properties"]
    assert tools["houses"].input_schema["required"] == ["lat", "lon"]
    # A birth's lat and lon may come from place instead: required by neither, as the document says.
    assert "required" not in tools["natal_chart"].input_schema and "place" in tools["natal_chart"].input_schema["properties"]
    assert "Costs 2 credits" in tools["natal_chart"].description


def test_a_call_answers_the_endpoints_json_and_errors_carry_message_and_suggestion(stack: Stack):
    _, key = stack.new_key()

    async def session():
        async with Client(stdio_server(stack, key)) as client:
            answered = await client.call_tool("positions", {**MOMENT, "bodies": ["sun", "moon"]})
            refused = await client.call_tool("positions", {**MOMENT, "bodies": "plutoo"})
            return answered, refused

    answered, refused = run(session)

    assert not answered.is_error
    assert [row["body"] for row in answered.structured_content["data"]] == ["sun", "moon"]
    assert answered.structured_content["meta"]["credits_used"] == 1
    assert refused.is_error
    error = refused.structured_content["errors"][0]
    assert error["code"] == "body_not_found"
    text = refused.content[0].text
    assert "HTTP 400" in text and error["message"] in text and error["suggestion"] in text


def test_an_empty_balance_is_a_tool_error_saying_what_to_do(stack: Stack):
    _, key = stack.new_key(credits=0)

    async def session():
        async with Client(stdio_server(stack, key)) as client:
            return await client.call_tool("positions", MOMENT)

    result = run(session)

    assert result.is_error
    error = result.structured_content["errors"][0]
    assert error["code"] == "insufficient_credits"
    assert "HTTP 402" in result.content[0].text and error["suggestion"] in result.content[0].text


def test_the_reference_data_are_resources(stack: Stack):
    _, key = stack.new_key()

    async def session():
        async with Client(stdio_server(stack, key)) as client:
            listed = (await client.list_resources()).resources
            bodies = await client.read_resource("celestial://reference/bodies")
            return listed, bodies

    listed, bodies = run(session)

    assert {str(resource.uri) for resource in listed} == {
        f"celestial://reference/{name}" for name in ("bodies", "house_systems", "ayanamshas", "aspect_types")
    }
    assert '"sun"' in bodies.contents[0].text and '"planets"' in bodies.contents[0].text


@pytest.fixture(scope="module")
def http_server(stack: Stack):
    """``celestial-mcp --http`` on a free port, with no key of its own."""
    port = free_port_block(1)
    env = {**stack.env, "CELESTIAL_BASE_URL": stack.base_url}
    env.pop("CELESTIAL_API_KEY", None)
    process = subprocess.Popen([str(CONSOLE_SCRIPT), "--http", "--port", str(port)], env=env, cwd=REPO_ROOT)
    url = f"http://127.0.0.1:{port}/mcp"
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        try:
            httpx.get(url, timeout=1)
            break
        except httpx.HTTPError:
            assert process.poll() is None and time.monotonic() < deadline, "celestial-mcp --http did not start"
            time.sleep(0.2)
    yield url
    process.terminate()
    process.wait(timeout=10)


def test_over_streamable_http_each_client_calls_with_its_own_key(stack: Stack, http_server):
    _, key = stack.new_key(credits=10)

    async def session(headers):
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
            async with Client(streamable_http_client(http_server, http_client=http)) as client:
                return await client.call_tool("natal_chart", {**MOMENT, "lat": 51.5, "lon": -0.1})

    answered = anyio.run(session, {"Authorization": f"Bearer {key}"})
    keyless = anyio.run(session, {})

    assert not answered.is_error and answered.structured_content["meta"]["credits_remaining"] == 8
    assert keyless.is_error and "No API key" in keyless.content[0].text
