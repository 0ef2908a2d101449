"""gateway/reference/examples.py: recorded calls per operation, kept as
``docs_assets/examples/<operation name>.json`` with each document answer (an SVG or PNG wheel,
an iCalendar file) in a file beside it, merged into the OpenAPI document (OpenAPI 3.1
§4.8.12/§4.8.14/§4.8.19: a parameter's ``example``, a media type's named ``examples``, a
binary example's ``externalValue``) so that each example is valid against the schema it
illustrates; a POST body typed as its schema types it; a picture shown in its operation's
description."""

from __future__ import annotations

import hashlib
import re
import struct
from xml.etree import ElementTree

import jsonschema
import orjson
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from gateway.endpoints import account_operations, discover_endpoints
from gateway.operation_names import operation_name
from gateway.reference.examples import (
    BODY_METHODS,
    EXAMPLE_NAME,
    EXAMPLES_DIR,
    EXAMPLES_URL,
    Document,
    Example,
    example_of,
    example_path,
    load_examples,
    typed_body,
    typed_value,
    with_examples,
    without_examples,
    write_example,
)
from gateway.reference.openapi import build_openapi
from gateway.reference.routes import reference_routes
from services.ephemeris.wheel.frame import frame
from shared.runtime.sensitivity_inputs import timeline_height, timeline_rows

DOCUMENT = build_openapi(discover_endpoints(), version="test")
EXAMPLES = load_examples()
MERGED = with_examples(DOCUMENT, EXAMPLES)
#: Every recorded call, the operations' other examples too.
CALLS = [call for example in EXAMPLES.values() for call in example.every]
DOCUMENT_CALLS = [call for call in CALLS if call.document]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SVG_NAMESPACE = "{http://www.w3.org/2000/svg}"
#: A small document of each kind, for the store's own tests.
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'
PICTURE_LINK = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
ICS = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"


def _id(call: Example) -> str:
    return f"{call.operation}:{call.name}"


def _documented_media_types(example: Example) -> set[str]:
    """Return the media types other than JSON the document says ``example``'s operation answers
    with 200 (its GET's, else its POST's, for a compute operation answering both alike)."""
    operations = DOCUMENT["paths"][example.operation]
    operation = operations[example.method.lower()] if example.by_method else operations.get("get") or operations["post"]
    return set(operation["responses"]["200"]["content"]) - {"application/json"}


def test_each_example_file_is_named_after_its_operation_and_every_endpoint_has_one():
    for example in EXAMPLES.values():
        suffix = f"_{example.method.lower()}" if example.by_method else ""
        file = example_path(example.operation, example.method if example.by_method else None)
        assert file == EXAMPLES_DIR / f"{operation_name(example.operation)}{suffix}.json" and file.exists()
    assert {e.path for e in discover_endpoints()} <= set(EXAMPLES)


def test_every_operation_of_the_document_has_its_own_example_the_account_resources_too():
    missing = [
        (method, path)
        for path, operations in DOCUMENT["paths"].items()
        for method in operations
        if (example := example_of(EXAMPLES, path, method)) is None or not example.illustrates(method)
    ]
    assert missing == []
    assert {f"{o.http.gateway.method} {o.path}" for o in account_operations()} <= {
        f"{example.method} {example.operation}" for example in EXAMPLES.values()
    }


def test_an_example_is_keyed_by_method_exactly_where_its_path_serves_several_operations():
    for example in EXAMPLES.values():
        methods = DOCUMENT["paths"][example.operation]
        shared = len(methods) > 1 and any(operation.get("x-resource") for operation in methods.values())
        assert example.by_method == shared, example.key


def test_an_example_keyed_by_method_is_merged_into_its_methods_operation_alone():
    create, listing = EXAMPLES["POST /v1/charts"], EXAMPLES["GET /v1/charts"]
    charts = MERGED["paths"]["/v1/charts"]
    assert charts["post"]["requestBody"]["content"]["application/json"]["examples"] == {
        EXAMPLE_NAME: {"summary": "POST /v1/charts", "value": create.request}
    }
    assert set(charts["get"]["responses"]["200"]["content"]["application/json"]["examples"]) == {
        call.name for call in listing.every
    }
    assert charts["post"]["responses"]["200"]["content"]["application/json"]["examples"][EXAMPLE_NAME]["value"] == (
        create.response
    )


def test_a_path_parameter_takes_the_recorded_id_as_its_example_and_the_summary_the_url_sent():
    patch = EXAMPLES["PATCH /v1/charts/{chart_id}"]
    chart_id = patch.path_parameters["chart_id"]
    operations = MERGED["paths"]["/v1/charts/{chart_id}"]
    for method in ("get", "patch", "delete"):
        parameter = next(p for p in operations[method]["parameters"] if p["name"] == "chart_id")
        assert parameter["example"] == example_of(EXAMPLES, "/v1/charts/{chart_id}", method).path_parameters["chart_id"]
    assert patch.summary == f"PATCH /v1/charts/{chart_id}"
    assert EXAMPLES["GET /v1/charts"].more[0].summary == "GET /v1/charts?export=true"


def test_a_record_keyed_by_method_with_path_parameters_reads_back_the_same(tmp_path):
    example = Example(
        "/v1/charts/{chart_id}",
        "PATCH",
        {"name": "Ada L."},
        200,
        {"data": {"id": "chart_1"}},
        by_method=True,
        path_parameters={"chart_id": "chart_1"},
    )
    write_example(example, tmp_path)
    assert [file.name for file in tmp_path.iterdir()] == ["charts_chart_id_patch.json"]
    assert load_examples(tmp_path) == {"PATCH /v1/charts/{chart_id}": example}


def test_a_record_written_reads_back_the_same(tmp_path):
    example = Example("/v1/positions", "GET", {"datetime": "2024-03-20T12:00:00Z"}, 200, {"data": {"ä": 1}})
    write_example(example, tmp_path)
    assert load_examples(tmp_path) == {"/v1/positions": example}
    assert (tmp_path / "positions.json").read_bytes().endswith(b"}\n")


def test_a_document_example_and_its_named_others_written_read_back_the_same(tmp_path):
    request = {"datetime": "1990-06-15T14:30:00Z"}
    others = (
        Example(
            "/v1/chart-wheel",
            "GET",
            {**request, "format": "png"},
            200,
            document=Document("image/png", PNG_SIGNATURE),
            name="png",
        ),
        Example("/v1/chart-wheel", "GET", {**request, "format": "json"}, 200, {"data": {"svg": "<svg/>"}}, name="json"),
    )
    example = Example("/v1/chart-wheel", "GET", request, 200, document=Document("image/svg+xml", SVG), more=others)

    write_example(example, tmp_path)

    assert load_examples(tmp_path) == {"/v1/chart-wheel": example}


def test_a_document_is_kept_beside_the_record_named_after_operation_and_media_type_with_its_sha256(tmp_path):
    example = Example("/v1/calendar", "GET", {"format": "ics"}, 200, document=Document("text/calendar", ICS))

    write_example(example, tmp_path)

    record = orjson.loads((tmp_path / "calendar.json").read_bytes())
    assert "response" not in record
    assert record["document"] == {
        "media_type": "text/calendar",
        "file": "calendar.ics",
        "sha256": hashlib.sha256(ICS).hexdigest(),
    }
    assert (tmp_path / "calendar.ics").read_bytes() == ICS


def test_two_documents_of_one_media_type_in_one_operation_are_refused_as_they_would_share_a_file(tmp_path):
    other = Example(
        "/v1/chart-wheel", "GET", {"theme": "dark"}, 200, document=Document("image/svg+xml", SVG), name="dark"
    )
    example = Example("/v1/chart-wheel", "GET", {}, 200, document=Document("image/svg+xml", SVG), more=(other,))

    with pytest.raises(ValueError, match="chart_wheel.svg"):
        write_example(example, tmp_path)


def test_every_media_type_an_operation_answers_has_a_recorded_example():
    for example in EXAMPLES.values():
        assert {call.media_type for call in example.every} >= _documented_media_types(example), example.key


def test_the_chart_wheels_default_example_is_its_default_answer_the_svg():
    wheel = EXAMPLES["/v1/chart-wheel"]
    assert "format" not in wheel.request and wheel.media_type == "image/svg+xml"


@pytest.mark.parametrize("call", DOCUMENT_CALLS, ids=_id)
def test_a_recorded_documents_sha256_is_the_one_its_record_gives(call: Example):
    record = orjson.loads(example_path(call.operation).read_bytes())
    kept = record["document"] if call.name == EXAMPLE_NAME else record["more"][call.name]["document"]
    assert hashlib.sha256((EXAMPLES_DIR / kept["file"]).read_bytes()).hexdigest() == kept["sha256"]


@pytest.mark.parametrize("call", [c for c in DOCUMENT_CALLS if c.media_type == "image/svg+xml"], ids=_id)
def test_a_recorded_svg_is_xml_with_an_svg_root(call: Example):
    assert ElementTree.fromstring(call.document.content).tag == f"{SVG_NAMESPACE}svg"


#: The lines of the header over the recorded wheel (a natal chart with coordinates, no town).
WHEEL_HEADER_LINES = 4


@pytest.mark.parametrize("call", [c for c in DOCUMENT_CALLS if c.media_type == "image/png"], ids=_id)
def test_a_recorded_png_has_the_signature_and_its_requests_size_in_its_header(call: Example):
    content = call.document.content
    size_schema = next(
        p["schema"] for p in DOCUMENT["paths"][call.operation]["get"]["parameters"] if p["name"] == "size"
    )
    size = int(call.request.get("size", size_schema["default"]))
    # RFC 2083 §3.1-3.2, §4.1.1: the signature, then IHDR first: length 13, width, height.
    assert content[:8] == PNG_SIGNATURE and content[12:16] == b"IHDR"
    # A Vedic chart's picture is its charts side by side, each size pixels square: its example
    # draws the rasi and the navamsa. A wheel's is its square under its header: the example's
    # natal chart has four lines (its title, moment, coordinates, zodiac and houses).
    if call.operation == "/v1/vedic/chart":
        expected = (2 * size, size)
    elif call.operation == "/v1/natal-chart/sensitivity":
        # A timeline is size pixels wide, as tall as its rows: the example's ten planets, the
        # mean node and the profection its request asks.
        expected = (size, timeline_height(size, *timeline_rows(11, sidereal=False, profection=True)))
    else:
        placed = frame(size, header_lines=WHEEL_HEADER_LINES)
        expected = (placed.width, placed.height)
    assert struct.unpack(">II", content[16:24]) == expected


@pytest.mark.parametrize("call", [c for c in DOCUMENT_CALLS if c.media_type == "text/calendar"], ids=_id)
def test_a_recorded_calendar_is_one_vcalendar(call: Example):
    text = call.document.content.decode()
    assert text.startswith("BEGIN:VCALENDAR\r\n") and text.endswith("END:VCALENDAR\r\n")


@pytest.mark.parametrize(
    ("text", "schema", "value"),
    [
        ("2.5", {"type": "number"}, 2.5),
        ("7", {"type": "integer"}, 7),
        ("true", {"type": "boolean"}, True),
        ("1", {"type": "boolean"}, True),
        ("false", {"type": "boolean"}, False),
        ("sun,moon", {"type": "string"}, "sun,moon"),
        ("x", {}, "x"),
    ],
)
def test_a_query_value_is_typed_as_its_schema_types_it(text, schema, value):
    assert typed_value(text, schema) == value and type(typed_value(text, schema)) is type(value)


def test_a_get_example_becomes_a_post_body_valid_against_the_body_schema():
    positions = MERGED["paths"]["/v1/positions"]
    body = positions["post"]["requestBody"]["content"]["application/json"]
    sent = body["examples"][EXAMPLE_NAME]["value"]
    assert sent == typed_body(EXAMPLES["/v1/positions"].request, body["schema"])
    jsonschema.Draft202012Validator(body["schema"]).validate(sent)


def test_every_get_parameter_example_is_valid_against_its_schema():
    for operations in MERGED["paths"].values():
        for parameter in operations.get("get", {}).get("parameters", ()):
            if "example" in parameter:
                jsonschema.Draft202012Validator(parameter["schema"]).validate(parameter["example"])


def test_a_recorded_json_answer_is_the_named_example_of_its_status():
    for call in CALLS:
        if call.document is None:
            for method, operation in MERGED["paths"][call.operation].items():
                if not call.illustrates(method):
                    continue
                content = operation["responses"][str(call.status)]["content"]["application/json"]
                assert content["examples"][call.name] == {"summary": call.summary, "value": call.response}


def test_a_recorded_text_document_is_the_named_example_of_its_media_type_as_its_text():
    for call in DOCUMENT_CALLS:
        if call.media_type != "image/png":
            for operation in MERGED["paths"][call.operation].values():
                content = operation["responses"][str(call.status)]["content"][call.media_type]
                assert content["examples"][call.name] == {
                    "summary": call.summary,
                    "value": call.document.content.decode(),
                }


def test_a_recorded_png_is_the_named_example_of_its_media_type_as_the_url_of_its_file():
    pngs = [call for call in DOCUMENT_CALLS if call.media_type == "image/png"]
    assert pngs
    for call in pngs:
        for operation in MERGED["paths"][call.operation].values():
            content = operation["responses"][str(call.status)]["content"]["image/png"]
            assert content["examples"][call.name] == {
                "summary": call.summary,
                "externalValue": f"{EXAMPLES_URL}/{operation_name(call.operation)}.png",
            }


def _document_urls() -> dict[str, str]:
    """Return the URL of each recorded document's file, as its record names it, and its media type."""
    urls = {}
    for call in DOCUMENT_CALLS:
        record = orjson.loads(example_path(call.operation).read_bytes())
        kept = record["document"] if call.name == EXAMPLE_NAME else record["more"][call.name]["document"]
        urls[f"{EXAMPLES_URL}/{kept['file']}"] = call.media_type
    return urls


def test_every_example_url_of_the_document_is_a_recorded_documents_file():
    referenced = set()
    for operations in MERGED["paths"].values():
        for operation in operations.values():
            referenced |= set(PICTURE_LINK.findall(operation.get("description", "")))
            for content in operation["responses"]["200"]["content"].values():
                referenced |= {
                    named["externalValue"] for named in content.get("examples", {}).values() if "externalValue" in named
                }
    assert referenced and referenced <= set(_document_urls())


def test_every_recorded_document_is_served_at_its_url_with_its_media_type():
    with TestClient(Starlette(routes=reference_routes(MERGED))) as client:
        for url, media_type in _document_urls().items():
            answer = client.get(url)
            assert answer.status_code == 200, url
            assert answer.headers["content-type"].split(";")[0] == media_type, url


def test_an_operation_answering_a_picture_shows_it_in_its_description_under_the_request():
    wheel = EXAMPLES["/v1/chart-wheel"]
    for operation in MERGED["paths"]["/v1/chart-wheel"].values():
        description = operation["description"]
        assert f"]({EXAMPLES_URL}/chart_wheel.svg)" in description
        assert description.index(wheel.summary) < description.index("![")


def test_an_operation_without_a_picture_has_none_in_its_description():
    for path in ("/v1/positions", "/v1/calendar"):
        for operation in MERGED["paths"][path].values():
            assert "![" not in operation["description"]


def test_every_example_is_a_named_body_example_of_each_operation_it_is_merged_into_that_takes_a_body():
    checked = 0
    for example in EXAMPLES.values():
        for method, operation in MERGED["paths"][example.operation].items():
            if method.upper() in BODY_METHODS and example.illustrates(method):
                body = operation["requestBody"]["content"]["application/json"]
                assert set(body["examples"]) == {call.name for call in example.every}, example.key
                checked += 1
    assert checked > 40


def test_an_example_of_an_unknown_operation_is_ignored_and_the_document_is_not_changed_in_place():
    stray = Example("/v1/gone", "GET", {}, 200, {"data": {}})
    before = repr(DOCUMENT)
    assert with_examples(DOCUMENT, {"/v1/gone": stray})["paths"] == DOCUMENT["paths"]
    with_examples(DOCUMENT, EXAMPLES)
    assert repr(DOCUMENT) == before


def test_without_examples_strips_every_example_and_nothing_else():
    assert without_examples(MERGED) == without_examples(DOCUMENT)
    pending, keys = [without_examples(MERGED)], set()
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            keys |= set(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    assert EXAMPLE_NAME not in keys and "example" not in keys


def test_a_summary_is_the_call_as_it_was_made():
    assert Example("/v1/x", "GET", {"a": "1", "b": "c"}, 200, {}).summary == "GET /v1/x?a=1&b=c"
    assert Example("/v1/batch", "POST", {"requests": []}, 200, {}).summary == "POST /v1/batch"
