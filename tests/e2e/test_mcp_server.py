"""``celestial-mcp`` driven by the MCP client of the same SDK against the real stack: over
stdio (the console script as a local assistant starts it) and over streamable HTTP (with the
client's own key). By default its tools are the curated set: listed in under 30,000
characters, each answering under 20,000 (the SDK's client checks each result against the
tool's output schema), a year of transits a page at a time, a birth in local time with
no UTC arithmetic by the caller, and "why does my chart differ" and "born in the morning"
answered from one call each. With --tools=full they are the document's operations named
after their paths, a call answers the endpoint's JSON, and a refused parameter or an empty
balance comes back as a tool error with the API's message and suggestion."""

from __future__ import annotations

import json
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
TOOLS_LIST_LIMIT = 30_000
RESULT_LIMIT = 20_000
#: A birth in Lyon as a person tells it: local time, a town.
BIRTH = {"datetime": "1985-07-13T14:05", "place": "2996944"}
BIRTH_BY_ZONE = {"datetime": "1985-07-13T14:05", "tz": "Europe/Paris", "lat": 45.75, "lon": 4.85}
PARTNER = {"datetime": "1990-01-01T08:00", "place": "2996944"}
YEAR = {"start": "2024-01-01T00:00", "end": "2025-01-01T00:00"}
#: One call of each curated tool, with the arguments an assistant would send.
CURATED_CALLS = [
    ("places", {"q": "Lyon", "country": "FR"}),
    ("timezone", {"lat": 45.75, "lon": 4.85, "datetime": "1985-07-13T14:05", "tz": "auto"}),
    ("positions", {"datetime": "2024-03-20T12:00", "tz": "Europe/Paris"}),
    ("natal_chart", BIRTH),
    ("natal_chart", {**BIRTH, "kind": "draconic"}),
    ("relationship_chart", {**BIRTH, "partner": PARTNER}),
    ("relationship_chart", {**BIRTH, "kind": "davison", "partner": PARTNER}),
    ("progressed_chart", {**BIRTH, "when": "2024-01-01T00:00"}),
    ("chart_wheel", {**BIRTH, "size": 400}),
    ("transits", {**YEAR, **BIRTH_BY_ZONE}),
    ("forecast", {**YEAR, **BIRTH}),
    ("returns", {**BIRTH_BY_ZONE, "body": "sun", "search_start": "2024-01-01T00:00"}),
    ("time_lords", {**BIRTH, "kind": "zodiacal_releasing", "start": "2024-01-01T00:00", "end": "2030-01-01T00:00"}),
    ("sky_events", {**YEAR, "tz": "Europe/Paris"}),
    ("eclipses", {"kind": "lunar", "datetime": "2024-01-01T00:00", "tz": "Europe/Paris", "count": 3}),
    ("astrocartography", {"datetime": "1985-07-13T14:05", "tz": "Europe/Paris"}),
    ("planetary_hours", {"datetime": "2024-06-01T12:00", "tz": "Europe/Paris", "lat": 45.75, "lon": 4.85}),
    ("vedic", {**BIRTH, "kind": "dasha", "extra": {"at": "2024-01-01T00:00"}}),
    ("explain_difference", {**BIRTH, "theirs": {"positions": {"sun": 111.0667}, "asc": 209.0}}),
    ("birth_time_sensitivity", {"between": "1985-07-13T06:00", "and": "1985-07-13T12:00", "place": "2996944"}),
]
#: A birth in Paris as it was entered, and another program's numbers for it (docs/explain-difference.md).
PARIS = {"datetime": "1985-07-13T14:05", "place": "2988507"}
THEIRS = {"positions": {"sun": 111.0667, "moon": 59.35}, "asc": 209.0, "mc": 127.55}


@pytest.fixture(scope="module")
def document(stack: Stack) -> dict:
    with stack.client() as client:
        return client.get("/v1/openapi.json").json()


def stdio_server(stack: Stack, key: str, *args: str) -> StdioServerParameters:
    env = {**stack.env, "CELESTIAL_BASE_URL": stack.base_url, "CELESTIAL_API_KEY": key}
    env.pop("CELESTIAL_MCP_TOOLS", None)
    return StdioServerParameters(command=str(CONSOLE_SCRIPT), args=list(args), env=env, cwd=str(REPO_ROOT))


def listed_chars(tool) -> int:
    """Return the characters of ``tool`` as tools/list carries it."""
    return len(json.dumps(tool.model_dump(mode="json", by_alias=True, exclude_none=True)))


def run(session):
    """Return what ``session(client)`` returns, run on a fresh event loop."""
    return anyio.run(session)


def test_the_curated_tools_are_the_default_and_list_in_under_30000_characters(stack: Stack):
    _, key = stack.new_key()

    async def session():
        async with (
            Client(stdio_server(stack, key)) as curated,
            Client(stdio_server(stack, key, "--tools=full")) as full,
        ):
            return (await curated.list_tools()).tools, (await full.list_tools()).tools

    curated, full = run(session)

    sizes = {tool.name: listed_chars(tool) for tool in curated}
    print(
        "tools/list characters, curated:", sizes, "total", sum(sizes.values()), "; full:", sum(map(listed_chars, full))
    )
    assert sum(sizes.values()) < TOOLS_LIST_LIMIT
    assert {name for name, _ in CURATED_CALLS} == set(sizes)
    assert all(tool.output_schema is not None for tool in curated)


def test_each_curated_tool_answers_under_the_limit_with_a_summary_first(stack: Stack):
    _, key = stack.new_key()

    async def session():
        async with Client(stdio_server(stack, key)) as client:
            return [(name, await client.call_tool(name, arguments)) for name, arguments in CURATED_CALLS]

    for name, result in run(session):
        assert not result.is_error, (name, result.content[0].text)
        text = result.content[0].text
        print(f"{name}: {len(text)} characters")
        assert len(text) <= RESULT_LIMIT, name
        assert list(json.loads(text))[0] == "summary" and result.structured_content["summary"], name
        # The wheel is a picture the model sees, beside its summary.
        assert [content.type for content in result.content] == (
            ["text", "image"] if name == "chart_wheel" else ["text"]
        ), name


def test_a_year_of_transits_is_counted_by_pair_and_paged_with_the_next_cursor(stack: Stack):
    _, key = stack.new_key()
    arguments = {**YEAR, **BIRTH_BY_ZONE}

    async def session():
        async with Client(stdio_server(stack, key)) as client:
            first = await client.call_tool("transits", arguments)
            cursor = first.structured_content["page"]["next_cursor"]
            return first, await client.call_tool("transits", {**arguments, "cursor": cursor})

    first, second = run(session)

    page = first.structured_content["page"]
    total = sum(group["events"] for group in first.structured_content["data"]["by_moving"].values())
    assert page["total"] == total > page["returned"]
    assert len(first.content[0].text) <= RESULT_LIMIT and len(second.content[0].text) <= RESULT_LIMIT
    assert f"cursor={page['next_cursor']}" in first.structured_content["summary"]
    assert second.structured_content["page"]["from"] == page["next_cursor"]
    assert first.structured_content["data"]["events"][-1] != second.structured_content["data"]["events"][0]
    # The second page is read from the first answer: no new charge.
    assert second.structured_content["meta"]["credits_used"] == 0


def test_a_chart_for_someone_born_in_lyon_on_13_july_1985_at_14_05_needs_no_utc_arithmetic(stack: Stack):
    _, key = stack.new_key()

    async def session():
        async with Client(stdio_server(stack, key)) as client:
            towns = await client.call_tool("places", {"q": "Lyon", "country": "FR"})
            lyon = next(town for town in towns.structured_content["data"]["places"] if town["name"] == "Lyon")
            # The birth as it was told: the town, and the clock time on the wall.
            return await client.call_tool("natal_chart", {"datetime": "1985-07-13T14:05", "place": lyon["id"]})

    chart = run(session)

    assert not chart.is_error, chart.content[0].text
    # In July 1985 France kept summer time, CEST = UTC+2: 14:05 in Lyon was 12:05 UTC.
    assert chart.structured_content["data"]["metadata"]["datetime_iso"] == "1985-07-13T12:05:00.000Z"
    assert "Europe/Paris (CEST, UTC+02:00)" in chart.structured_content["summary"]


def test_why_a_chart_differs_from_another_programs_and_what_a_morning_birth_changes_are_one_call_each(stack: Stack):
    _, key = stack.new_key()

    async def session():
        async with Client(stdio_server(stack, key)) as client:
            why = await client.call_tool("explain_difference", {**PARIS, "theirs": THEIRS})
            morning = await client.call_tool(
                "birth_time_sensitivity", {"between": "1985-07-13T06:00", "and": "1985-07-13T12:00", "place": "2996944"}
            )
            return why, morning

    why, morning = run(session)

    assert not why.is_error and not morning.is_error, (why.content[0].text, morning.content[0].text)
    # The other program read 14:05 without the summer hour: 13:05 UTC, not 12:05.
    assert why.structured_content["summary"].startswith(
        "Explained: their numbers come from the clock read without the summer hour (dst=not_applied)"
    )
    assert "datetime=1985-07-13T13:05:00.000Z" in why.structured_content["summary"]
    # The morning on Lyon's clock (CEST), read by the API itself: 04:00 to 10:00 UTC.
    summary = morning.structured_content["summary"]
    assert summary.startswith("Birth times 06:00:00 to 12:00:00 (Europe/Paris, CEST, UTC+02:00; on 1985-07-13)")
    data = morning.structured_content["data"]
    assert data["start"]["datetime"] == "1985-07-13T04:00:00.000Z"
    assert data["end"]["datetime"] == "1985-07-13T10:00:00.000Z"
    assert "sun_sign cancer" in summary and "asc_sign " in summary


def test_the_curated_tools_parameters_are_resources(stack: Stack):
    _, key = stack.new_key()

    async def session():
        async with Client(stdio_server(stack, key)) as client:
            listed = (await client.list_resources()).resources
            return listed, await client.read_resource("celestial://parameters/natal_chart")

    listed, natal = run(session)

    assert "celestial://parameters/transits" in {str(resource.uri) for resource in listed}
    assert "house_position_mode" in json.loads(natal.contents[0].text)["/v1/natal-chart"]


def test_the_tools_are_the_operations_named_after_their_paths_with_tools_full(stack: Stack, document):
    _, key = stack.new_key()

    async def session():
        async with Client(stdio_server(stack, key, "--tools=full")) as client:
            return (await client.list_tools()).tools

    tools = {tool.name: tool for tool in run(session)}

    # One tool per operation that takes a body: every computation. The account's own reads
    # (/v1/usage, /v1/account: GET only) are for the account's programs, not an assistant's,
    # and so are the stored charts (x-resource: they store and delete; every tool is read-only).
    computations = {
        path
        for path, operations in document["paths"].items()
        if "post" in operations and not operations["post"].get("x-resource")
    }
    assert set(tools) == {operation_name(path) for path in computations}
    assert {"positions", "natal_chart", "eclipses_solar", "zodiacal_releasing", "batch"} <= set(tools)
    body = document["paths"]["/v1/natal-chart"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert tools["natal_chart"].input_schema["properties"] == body["properties"]
    assert tools["houses"].input_schema["required"] == ["lat", "lon"]
    # A birth's lat and lon may come from place instead: required by neither, as the document says.
    assert (
        "required" not in tools["natal_chart"].input_schema
        and "place" in tools["natal_chart"].input_schema["properties"]
    )
    assert "Costs 2 credits" in tools["natal_chart"].description


def test_a_call_answers_the_endpoints_json_and_errors_carry_message_and_suggestion(stack: Stack):
    _, key = stack.new_key()

    async def session():
        async with Client(stdio_server(stack, key, "--tools=full")) as client:
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
        async with Client(stdio_server(stack, key, "--tools=full")) as client:
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
