"""The curated tools: small enough to list (tools/list under 30,000 characters), local time
first, each argument one of its operation's parameters, checked before anything is sent, and
each result a summary first, paged or cut to the limit, matching the output schema."""

from __future__ import annotations

import asyncio
import base64
import json
from datetime import datetime, timedelta
from pathlib import Path

import httpx
from jsonschema import Draft202012Validator

from celestial_mcp.curated import (
    OUTPUT_SCHEMA,
    OWN_ARGUMENTS,
    TOOLS,
    curated_tool,
    curated_tools,
    read_parameters,
)
from celestial_mcp.results import RESULT_LIMIT
from celestial_mcp.server import INSTRUCTIONS, McpSettings, create_server, main
from celestial_mcp.tools import AnswerCache, call_curated
from gateway.endpoints import discover_endpoints
from gateway.envelope import success_body
from gateway.reference.openapi import build_openapi
from kernel.deadline import Deadline
from services.search import server as search_server
from shared.runtime.transcoder import request_from_json
from shared.runtime.validation import validate

DOCUMENT = build_openapi(discover_endpoints(), version="test")
TOOLS_LIST_LIMIT = 30_000
#: No one tool may take more than a tenth of the list: a model reads every description.
TOOL_LIMIT = 3_000


def _listed_chars(tool) -> int:
    """Return the characters of ``tool`` as tools/list carries it (JSON, by its wire names)."""
    return len(json.dumps(curated_tool(tool).model_dump(mode="json", by_alias=True, exclude_none=True)))


def test_tools_list_is_under_30000_characters_in_all():
    sizes = {tool.name: _listed_chars(tool) for tool in TOOLS}
    print("tools/list characters:", sizes, "total", sum(sizes.values()))
    assert sum(sizes.values()) < TOOLS_LIST_LIMIT


def test_each_tool_is_under_a_tenth_of_the_list():
    for tool in TOOLS:
        assert _listed_chars(tool) < TOOL_LIMIT, tool.name


def test_the_curated_set_is_about_fifteen_tools_covering_the_issues_list():
    names = set(curated_tools())
    assert 12 <= len(names) <= 18
    assert {
        "places",
        "timezone",
        "positions",
        "natal_chart",
        "chart_wheel",
        "transits",
        "time_lords",
        "sky_events",
        "eclipses",
        "astrocartography",
    } <= names


def test_the_default_mode_lists_the_curated_tools_and_full_one_per_operation():
    curated = create_server(DOCUMENT, McpSettings("http://api", None))
    full = create_server(DOCUMENT, McpSettings("http://api", None, tools="full"))

    assert curated.instructions == INSTRUCTIONS["curated"]
    assert full.instructions == INSTRUCTIONS["full"]


def test_the_instructions_lead_with_place_and_tz_and_say_not_to_convert_to_utc():
    for instructions in INSTRUCTIONS.values():
        first_sentence = instructions.split(".")[0]
        assert "local" in first_sentence and "place" in instructions[:300] and "tz" in instructions[:300]
        assert "Never convert to UTC yourself" in instructions
        assert "UTC without an offset" not in instructions


def test_every_tool_with_a_birth_or_moment_takes_it_as_local_time_with_place_or_tz():
    for tool in TOOLS:
        properties = tool.properties
        # The timezone tool is the one that reads a UTC moment (or tz=auto).
        if "datetime" in properties and tool.name != "timezone":
            assert "place" in properties or "tz" in properties, tool.name
            assert "local" in properties["datetime"]["description"].lower(), tool.name


def test_every_argument_is_a_parameter_of_the_operation_it_calls_or_the_tools_own():
    for tool in TOOLS:
        for path in tool.paths.values():
            operation = DOCUMENT["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"][
                "properties"
            ]
            for name in tool.properties:
                if name in OWN_ARGUMENTS and not (name == "kind" and None in tool.paths):
                    continue
                sent_as = name + "_a" if "partner" in tool.properties and name + "_a" in operation else name
                assert sent_as in operation, (tool.name, path, name)


def test_a_curated_input_schema_is_a_valid_schema_refusing_unknown_arguments():
    for tool in TOOLS:
        Draft202012Validator.check_schema(tool.input_schema)
        assert tool.input_schema["additionalProperties"] is False


def test_a_partner_is_sent_as_the_b_birth_and_the_first_birth_as_a():
    tool = curated_tools()["relationship_chart"]
    arguments = {
        "datetime": "1985-07-13T14:05",
        "place": "2996944",
        "kind": "composite",
        "partner": {"datetime": "1990-01-01T08:00", "tz": "Europe/Paris", "lat": 45.0, "lon": 5.0},
    }

    assert tool.path(arguments) == "/v1/composite"
    assert tool.request(arguments) == {
        "datetime_a": "1985-07-13T14:05",
        "place_a": "2996944",
        "datetime_b": "1990-01-01T08:00",
        "tz_b": "Europe/Paris",
        "lat_b": 45.0,
        "lon_b": 5.0,
        "parallels": False,
    }


def test_when_is_the_moment_of_the_wheels_kind_and_the_wheel_is_always_a_png():
    tool = curated_tools()["chart_wheel"]
    arguments = {"datetime": "1985-07-13T14:05", "place": "2996944", "kind": "transit", "when": "2024-01-01T00:00"}

    assert tool.request(arguments) == {
        **{k: v for k, v in arguments.items() if k != "when"},
        "transit_datetime": "2024-01-01T00:00",
        "format": "png",
    }


def test_extra_is_passed_through_and_wins_over_a_default():
    tool = curated_tools()["astrocartography"]

    assert tool.request({"datetime": "1985-07-13T14:05", "tz": "Europe/Paris"})["latitude_step"] == 5
    assert tool.request({"datetime": "1985-07-13T14:05", "extra": {"latitude_step": 2, "mode": "mundo"}}) == {
        "datetime": "1985-07-13T14:05",
        "latitude_step": 2,
        "mode": "mundo",
    }


def test_the_parameters_resource_lists_what_extra_may_carry():
    found = read_parameters("celestial://parameters/natal_chart", curated_tools(), DOCUMENT)
    reference = json.loads(found.contents[0].text)

    assert {"house_position_mode", "derived_points", "lots"} <= set(reference["/v1/natal-chart"])
    assert read_parameters("celestial://parameters/nonesuch", curated_tools(), DOCUMENT) is None


def _call(name: str, arguments: dict, answer_body: dict | bytes, sent: list, cache: AnswerCache | None = None):
    """Return the curated tool's result against an API answering ``answer_body`` (JSON, or PNG
    bytes), recording each request body in ``sent``."""

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        if isinstance(answer_body, bytes):
            return httpx.Response(200, content=answer_body, headers={"content-type": "image/png"})
        return httpx.Response(200, json=answer_body)

    async def call():
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer), base_url="http://api") as client:
            return await call_curated(
                client, curated_tools()[name], arguments, "svc_live_abc", DOCUMENT, cache or AnswerCache()
            )

    return asyncio.run(call())


def test_arguments_the_tools_schema_does_not_admit_are_a_tool_error_and_nothing_is_sent():
    cases = [
        ("natal_chart", {"datetime": "1985-07-13T14:05", "bodies": 5}, "bodies: 5 is not of type 'array'"),
        ("natal_chart", {"datetime": "1985-07-13T14:05", "lat": 91}, "lat: 91 is greater than the maximum of 90"),
        ("natal_chart", {"datetime": "1985-07-13T14:05", "jd": 2451545.0}, "'jd' was unexpected"),
        ("relationship_chart", {"datetime": "1985-07-13T14:05"}, "'partner' is a required property"),
        ("eclipses", {"kind": "stellar"}, "kind: 'stellar' is not one of"),
    ]
    for name, arguments, said in cases:
        sent: list = []
        result = _call(name, arguments, {"data": {}, "meta": {}}, sent)
        assert result.is_error and said in result.content[0].text, (name, result.content[0].text)
        assert sent == []


def test_extra_the_operations_schema_does_not_admit_is_a_tool_error_and_nothing_is_sent():
    sent: list = []

    result = _call(
        "natal_chart",
        {"datetime": "1985-07-13T14:05", "extra": {"nonesuch": 1, "patterns": "yes"}},
        {"data": {}, "meta": {}},
        sent,
    )

    assert (
        result.is_error
        and "nonesuch" in result.content[0].text
        and "patterns: 'yes' is not of type 'boolean'" in result.content[0].text
    )
    assert sent == []


def _transit(moving: str, aspect: str, target: str, day: int) -> dict:
    instant = {"jd": 2460310.5 + day, "datetime": f"2024-01-{day + 1:02d}T00:00:00.000Z"}
    return {
        "moving": moving,
        "aspect": aspect,
        "target": target,
        "enter": instant,
        "exacts": [instant],
        "leave": instant,
        "clamped_start": False,
        "clamped_end": False,
    }


TRANSIT_ANSWER = {
    "data": {
        "start": "2024-01-01",
        "end": "2024-12-31",
        "targets": "natal",
        "moving": ["saturn", "mars"],
        "aspects": ["square"],
        "orb": 1.0,
        "points": [{"body": "sun", "longitude": 111.0}],
        "events": [
            _transit("saturn", "square", "sun", 0),
            _transit("mars", "trine", "moon", 1),
            _transit("saturn", "square", "sun", 2),
            _transit("saturn", "opposition", "moon", 3),
        ],
    },
    "meta": {"credits_used": 5, "credits_remaining": 95},
}


def test_a_transit_scan_is_counted_by_moving_body_and_pair_with_its_events_in_order():
    result = _call(
        "transits",
        {"start": "2024-01-01T00:00", "end": "2025-01-01T00:00", "datetime": "1985-07-13T14:05", "tz": "Europe/Paris"},
        TRANSIT_ANSWER,
        [],
    )

    content = result.structured_content
    assert content["data"]["by_moving"] == {
        "saturn": {"events": 3, "pairs": {"square sun": 2, "opposition moon": 1}},
        "mars": {"events": 1, "pairs": {"trine moon": 1}},
    }
    assert content["data"]["events"] == TRANSIT_ANSWER["data"]["events"]
    assert content["summary"].startswith("4 transit windows in 3 pairs")
    assert content["page"] == {"total": 4, "from": 0, "returned": 4}


def test_a_long_transit_scan_is_a_page_under_the_limit_and_the_next_page_costs_no_new_call():
    events = [_transit(body, "square", "sun", day % 28) for day in range(600) for body in ("mars",)]
    answer = {**TRANSIT_ANSWER, "data": {**TRANSIT_ANSWER["data"], "events": events}}
    arguments = {
        "start": "2024-01-01T00:00",
        "end": "2025-01-01T00:00",
        "datetime": "1985-07-13T14:05",
        "tz": "Europe/Paris",
    }
    cache = AnswerCache()
    sent: list = []

    first = _call("transits", arguments, answer, sent, cache)
    cursor = first.structured_content["page"]["next_cursor"]
    second = _call("transits", {**arguments, "cursor": cursor}, answer, sent, cache)

    assert len(first.content[0].text) <= RESULT_LIMIT and len(second.content[0].text) <= RESULT_LIMIT
    assert first.structured_content["data"]["by_moving"]["mars"]["events"] == 600
    assert f"cursor={cursor}" in first.structured_content["summary"]
    assert second.structured_content["data"]["events"][0] == events[cursor]
    assert len(sent) == 1
    assert second.structured_content["meta"]["credits_used"] == 0


def test_a_result_matches_the_output_schema_and_its_text_is_the_same_json():
    result = _call(
        "transits",
        {"start": "2024-01-01T00:00", "end": "2025-01-01T00:00", "datetime": "1985-07-13T14:05"},
        TRANSIT_ANSWER,
        [],
    )

    Draft202012Validator(OUTPUT_SCHEMA).validate(result.structured_content)
    assert json.loads(result.content[0].text) == result.structured_content
    assert list(result.structured_content)[0] == "summary"


def test_the_chart_wheel_is_image_content_with_its_summary():
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    sent: list = []

    result = _call("chart_wheel", {"datetime": "1985-07-13T14:05", "place": "2996944"}, png, sent)

    text, image = result.content
    assert (image.type, image.mime_type) == ("image", "image/png") and base64.b64decode(image.data) == png
    assert json.loads(text.text) == result.structured_content
    Draft202012Validator(OUTPUT_SCHEMA).validate(result.structured_content)
    assert sent == [{"datetime": "1985-07-13T14:05", "place": "2996944", "format": "png"}]


def test_an_unknown_tools_mode_is_refused_before_the_api_is_read(monkeypatch, capsys):
    monkeypatch.setenv("CELESTIAL_MCP_TOOLS", "some")
    # An address nothing answers: the refusal must come before any attempt to read it.
    monkeypatch.setenv("CELESTIAL_BASE_URL", "http://127.0.0.1:9")

    assert main([]) == 2
    assert "curated, full" in capsys.readouterr().err


def _recorded(operation: str) -> dict:
    """Return the recorded answer of an operation (gateway/reference/docs_assets/examples)."""
    path = (
        Path(__file__).resolve().parents[3] / "gateway" / "reference" / "docs_assets" / "examples" / f"{operation}.json"
    )
    return json.loads(path.read_text())["response"]


def test_the_vedic_tool_casts_the_chart_or_runs_the_dasha_and_says_its_conventions():
    sent: list = []
    chart = _call(
        "vedic",
        {
            "datetime": "1985-07-13T14:05",
            "tz": "Asia/Kolkata",
            "lat": 13.0,
            "lon": 77.6,
            "kind": "chart",
            "extra": {"vargas": ["D9"]},
        },
        _recorded("vedic_chart"),
        sent,
    )
    assert not chart.is_error and sent == [
        {"datetime": "1985-07-13T14:05", "tz": "Asia/Kolkata", "lat": 13.0, "lon": 77.6, "vargas": ["D9"]}
    ]
    assert "ayanamsha lahiri" in chart.structured_content["summary"] and "pada" in chart.structured_content["summary"]
    dasha = _call(
        "vedic",
        {
            "datetime": "1985-07-13T14:05",
            "tz": "Asia/Kolkata",
            "lat": 13.0,
            "lon": 77.6,
            "kind": "dasha",
            "extra": {"at": "2024-01-01T00:00"},
        },
        _recorded("vedic_dasha"),
        [],
    )
    summary = dasha.structured_content["summary"]
    assert not dasha.is_error and "Vimshottari: 3 period(s)" in summary and "year_length sidereal" in summary
    panchang = _call(
        "vedic",
        {"datetime": "2024-03-20T12:00", "tz": "Asia/Kolkata", "lat": 13.08, "lon": 80.27, "kind": "panchang"},
        _recorded("vedic_panchang"),
        [],
    )
    assert not panchang.is_error and "budhavara; tithi ekadashi" in panchang.structured_content["summary"]


def test_the_vedic_tool_matches_the_birth_with_the_partner_and_gives_the_total_and_each_manglik_status():
    sent: list = []
    birth = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
    partner = {"datetime": "1992-11-03T08:15:00Z", "lat": 48.86, "lon": 2.35}
    found = _call("vedic", {**birth, "partner": partner, "kind": "match"}, _recorded("vedic_match"), sent)
    assert not found.is_error and sent == [
        {
            "datetime_a": "1990-06-15T14:30:00Z",
            "lat_a": 51.5,
            "lon_a": -0.13,
            "datetime_b": "1992-11-03T08:15:00Z",
            "lat_b": 48.86,
            "lon_b": 2.35,
        }
    ]
    summary = found.structured_content["summary"]
    assert "Ashtakoota 18.5/36" in summary and "nadi 8/8" in summary and "A (groom) manglik" in summary


def _forecast_api(sent: list):
    """Return a transport answering /v1/forecast as the API does: the body validated and
    computed by the search service's handler, in process."""
    endpoint = next(e for e in discover_endpoints() if e.path == "/v1/forecast")

    def answer(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        sent.append(body)
        reading = validate(request_from_json(endpoint.request_cls, body, endpoint.path))
        reply = search_server.HANDLERS[endpoint.method.name](reading, Deadline.after(60))
        return httpx.Response(200, json=success_body(reply, {"credits_used": 10, "credits_remaining": 90}))

    return httpx.MockTransport(answer)


def _forecast(arguments: dict, sent: list):
    async def call():
        async with httpx.AsyncClient(transport=_forecast_api(sent), base_url="http://api") as client:
            return await call_curated(
                client, curated_tools()["forecast"], arguments, "svc_live_abc", DOCUMENT, AnswerCache()
            )

    return asyncio.run(call()).structured_content


LYON_YEAR = {"datetime": "1985-07-13T14:05", "place": "2996944", "start": "2026-01-01T00:00", "end": "2027-01-01T00:00"}
OUTER = {"uranus", "neptune", "pluto"}


def test_the_forecasts_first_page_of_a_year_holds_the_slow_movers_transits_across_the_year():
    sent: list = []
    content = _forecast(LYON_YEAR, sent)

    assert sent[0]["moving"] == ["jupiter", "saturn", "uranus", "neptune", "pluto"]
    assert sent[0]["rank"] == "significance"
    events = content["data"]["events"]
    assert len(json.dumps(content, ensure_ascii=False)) <= RESULT_LIMIT
    assert all(event["bodies"][0] in {"jupiter", "saturn", *OUTER} for event in events)
    transits = [event for event in events if event["kind"] == "transit"]
    moving = {event["bodies"][0] for event in transits}
    assert {"jupiter", "saturn"} <= moving and moving & OUTER
    months = {event["instant"]["datetime"][5:7] for event in transits}
    assert min(months) <= "03" and max(months) >= "10" and len(months) >= 6
    assert "most significant first" in content["summary"] and "jupiter, saturn" in content["summary"]


def test_without_its_defaults_the_forecasts_first_page_is_the_first_days_of_every_kind():
    sent: list = []
    content = _forecast({**LYON_YEAR, "moving": [], "rank": "time"}, sent)

    assert "moving" not in sent[0] or sent[0]["moving"] == []
    events = content["data"]["events"]
    assert {event["instant"]["datetime"][:7] for event in events} == {"2026-01"}
    assert content["page"]["total"] > 1000 and "in time order" in content["summary"]


def _search_api(sent: list, moment: dict):
    """Return a transport answering the search service's operations as the API does: the body
    validated and computed by the service's handler, in process, with ``moment`` as the
    gateway's meta.moment (how it read the birth's local time)."""
    endpoints = {e.path: e for e in discover_endpoints()}

    def answer(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        sent.append(body)
        endpoint = endpoints[request.url.path]
        reading = validate(request_from_json(endpoint.request_cls, body, endpoint.path))
        reply = search_server.HANDLERS[endpoint.method.name](reading, Deadline.after(60))
        return httpx.Response(200, json=success_body(reply, {"credits_used": 3, "moment": moment}))

    return httpx.MockTransport(answer)


def _search(name: str, arguments: dict, sent: list, moment: dict, cache: AnswerCache | None = None):
    async def call():
        async with httpx.AsyncClient(transport=_search_api(sent, moment), base_url="http://api") as client:
            return await call_curated(
                client, curated_tools()[name], arguments, "svc_live_abc", DOCUMENT, cache or AnswerCache()
            )

    return asyncio.run(call())


#: How the gateway reads 09:00 in Lyon on 13 July 1985: CEST, UTC+2.
LYON_MORNING = {
    "datetime": {
        "local": "1985-07-13T09:00:00",
        "tz": "Europe/Paris",
        "abbreviation": "CEST",
        "utc_offset_seconds": 7200,
        "utc": "1985-07-13T07:00:00.000Z",
    }
}
MORNING = {"between": "1985-07-13T06:00", "and": "1985-07-13T12:00", "tz": "Europe/Paris", "lat": 45.76, "lon": 4.83}


def test_a_span_of_birth_times_is_sent_as_its_middle_on_the_clock_and_half_its_length():
    tool = curated_tools()["birth_time_sensitivity"]

    assert tool.request(MORNING) == {
        "tz": "Europe/Paris",
        "lat": 45.76,
        "lon": 4.83,
        "datetime": "1985-07-13T09:00:00",
        "window_hours": 3.0,
    }
    # Either order; a span across midnight; seconds halved exactly.
    assert tool.request({"between": "1985-07-14T01:30", "and": "1985-07-13T23:00:01"}) == {
        "datetime": "1985-07-14T00:15:00.500000",
        "window_hours": 1.2498611111111111,
    }
    # A date the calendar has not is sent for the API to name.
    assert tool.request({"between": "1985-02-30T06:00", "and": "1985-02-30T12:00"}) == {"datetime": "1985-02-30T06:00"}


def test_between_goes_with_and_instead_of_datetime_and_window_hours_or_nothing_is_sent():
    cases = [
        {"between": "1985-07-13T06:00"},
        {"and": "1985-07-13T12:00"},
        {**MORNING, "datetime": "1985-07-13T09:00"},
        {**MORNING, "window_hours": 3},
        {**MORNING, "between": "1985-07-13T06:00+02:00"},
    ]
    for arguments in cases:
        sent: list = []
        result = _search("birth_time_sensitivity", arguments, sent, LYON_MORNING)
        assert result.is_error and "do not match the input schema" in result.content[0].text, arguments
        assert sent == []


def test_the_sensitivity_says_what_holds_over_the_whole_window_and_when_the_rest_changes_on_the_birth_clock():
    sent: list = []
    result = _search("birth_time_sensitivity", MORNING, sent, LYON_MORNING)

    content = result.structured_content
    Draft202012Validator(OUTPUT_SCHEMA).validate(content)
    assert len(result.content[0].text) <= RESULT_LIMIT
    summary, data = content["summary"], content["data"]
    assert summary.startswith("Birth times 06:00:00 to 12:00:00 (Europe/Paris, CEST, UTC+02:00; on 1985-07-13)")
    # The API's answer, read independently: facts holding to both edges, and the Ascendant's changes.
    answer = sent_answer(sent[0], LYON_MORNING)
    throughout = {f["fact"]: f["value"] for f in answer["facts"] if not f["holds_from"] and not f["holds_until"]}
    assert data["holds_throughout"] == throughout and {"sun_sign", "moon_sign"} <= set(throughout)
    assert f"The same for every birth time in it ({len(throughout)}): sun_sign cancer" in summary
    assert {f["fact"] for f in data["facts"]}.isdisjoint(throughout)
    asc = [(c["instant"]["datetime"], f) for c in answer["changes"] for f in c["facts"] if f["fact"] == "asc_sign"]
    said = f"asc_sign {asc[0][1]['before']}" + "".join(
        f", {fact['after']} from {_cest_clock(utc)}" for utc, fact in asc
    )
    changing = len({f["fact"] for c in answer["changes"] for f in c["facts"]})
    assert f"Changing ({changing} facts, at {len(answer['changes'])} birth times): {said};" in summary
    assert len(asc) == 2 and "also" not in summary
    # The changes page: the first page's and the next's are the answer's, from the same answer.
    cursor = content["page"]["next_cursor"]
    assert data["changes"] == answer["changes"][:cursor]
    second = _search("birth_time_sensitivity", {**MORNING, "cursor": cursor}, sent, LYON_MORNING)
    assert second.structured_content["data"]["changes"][0] == answer["changes"][cursor]


def _cest_clock(utc: str) -> str:
    """Return a UTC instant (``1985-07-13T04:56:45.079Z``) on the CEST clock, to the second."""
    moment = datetime.fromisoformat(utc.replace("Z", "+00:00")) + timedelta(hours=2)
    return (moment + timedelta(milliseconds=500)).strftime("%H:%M:%S")


def sent_answer(body: dict, moment: dict) -> dict:
    """Return the data the search service answers ``body`` with, computed afresh."""
    endpoint = next(e for e in discover_endpoints() if e.path == "/v1/natal-chart/sensitivity")
    reading = validate(request_from_json(endpoint.request_cls, body, endpoint.path))
    reply = search_server.HANDLERS[endpoint.method.name](reading, Deadline.after(60))
    return success_body(reply, {"moment": moment})["data"]


def test_a_recorded_two_hour_sensitivity_fits_under_the_limit_with_its_summary_whole():
    recorded = _recorded("natal_chart_sensitivity")
    result = _call("birth_time_sensitivity", {"datetime": "1985-07-13T14:05", "place": "2988507"}, recorded, [])

    content = result.structured_content
    assert len(json.dumps(recorded)) > RESULT_LIMIT >= len(result.content[0].text)
    assert content["summary"].startswith("Birth times 12:05:00 to 16:05:00 (Europe/Paris, CEST, UTC+02:00")
    assert "asc_sign virgo, libra from 12:25:36, scorpio from 15:10:31;" in content["summary"]
    assert "also" not in content["summary"] and "trimmed" not in content


def test_the_explanation_says_the_top_reading_in_words_and_the_request_that_gives_their_numbers():
    sent: list = []
    arguments = {
        "datetime": "1985-07-13T14:05",
        "place": "2988507",
        "theirs": {"positions": {"sun": 111.0667, "moon": 59.35}, "asc": 209.0, "mc": 127.55},
    }
    result = _call("explain_difference", arguments, _recorded("explain_difference"), sent)

    assert sent == [arguments]
    content = result.structured_content
    Draft202012Validator(OUTPUT_SCHEMA).validate(content)
    assert content["summary"] == (
        "Explained: their numbers come from the clock read without the summer hour (dst=not_applied), every number "
        "within 11.5″ (tolerance 60″). natal_chart with datetime=1985-07-13T13:05:00.000Z, lat=48.85341, lon=2.3488, "
        "system=placidus, bodies=[sun, moon] gives their numbers (datetime in UTC). Local times read as: datetime "
        "1985-07-13T14:05:00 Europe/Paris (CEST, UTC+02:00) = 1985-07-13T12:05:00.000Z."
    )


def test_numbers_nothing_explains_are_said_so_with_the_closest_reading_and_its_worst_number():
    sent: list = []
    # The Sun 100 degrees from where any reading puts it.
    theirs = {"positions": {"sun": 11.0667, "moon": 59.35}, "asc": 209.0, "mc": 127.55}
    moment = {**LYON_MORNING["datetime"], "local": "1985-07-13T14:05:00", "utc": "1985-07-13T12:05:00.000Z"}
    arguments = {"datetime": "1985-07-13T14:05", "tz": "Europe/Paris", "lat": 48.85341, "lon": 2.3488}
    result = _search("explain_difference", {**arguments, "theirs": theirs}, sent, {"datetime": moment})

    summary = result.structured_content["summary"]
    assert result.structured_content["data"]["explained"] is False
    assert summary.startswith("Nothing we know explains their numbers. The closest reading, ")
    assert "sun " in summary and "° off (tolerance 60″ for angles)" in summary and "check their numbers" in summary


def test_vedic_numbers_nothing_explains_name_the_one_furthest_outside_its_tolerance():
    sent: list = []
    # A Moon's nakshatra no reading gives, beside a mahadasha start that the birth gives.
    theirs = {"nakshatras": {"moon": "mula"}, "dashas": [{"lord": "venus", "start": "1980-01-01"}]}
    moment = {**LYON_MORNING["datetime"], "local": "1985-07-13T14:05:00", "utc": "1985-07-13T12:05:00.000Z"}
    arguments = {"datetime": "1985-07-13T14:05", "tz": "Europe/Paris", "lat": 48.85341, "lon": 2.3488}
    result = _search("explain_difference", {**arguments, "theirs": theirs}, sent, {"datetime": moment})

    summary = result.structured_content["summary"]
    assert result.structured_content["data"]["explained"] is False
    assert "moon_nakshatra not matched" in summary and "check their numbers" in summary


def test_the_parameters_resources_of_the_two_tools_list_what_extra_may_carry():
    tools = curated_tools()
    explain = json.loads(read_parameters("celestial://parameters/explain_difference", tools, DOCUMENT).contents[0].text)
    window = json.loads(
        read_parameters("celestial://parameters/birth_time_sensitivity", tools, DOCUMENT).contents[0].text
    )

    assert {"theirs", "topocentric"} <= set(explain["/v1/explain-difference"])
    assert {"window_hours", "at", "aspects", "orb"} <= set(window["/v1/natal-chart/sensitivity"])


def test_the_vedic_tool_gives_the_ashtakavarga_and_the_sarvashtakavarga_in_its_summary():
    sent: list = []
    birth = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
    found = _call("vedic", {**birth, "kind": "ashtakavarga"}, _recorded("vedic_ashtakavarga"), sent)
    assert not found.is_error and sent == [birth]
    summary = found.structured_content["summary"]
    assert "Sarvashtakavarga (ayanamsha lahiri, node mean), Aries to Pisces: 35 23 " in summary
    assert "337 in all" in summary
