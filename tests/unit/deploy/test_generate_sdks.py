"""``make sdk`` (deploy/generate_sdks.py): what it prints is its own, and the clients read every
document the API answers by its format."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

from deploy.generate_sdks import DOCUMENT_FORMATS, answer_model, document_formats, python_document, shape_switch
from gateway.endpoints import discover_endpoints
from gateway.reference.openapi import build_openapi
from shared.runtime.config import REPO_ROOT


def test_reading_the_document_in_process_prints_no_gateway_log_line(processes):
    # Issue 36: make sdk printed the gateway's request_finished line among its own output.
    # In a process of its own: the reading configures logging, which a test process keeps.
    code = "import sys; from deploy.generate_sdks import served_document; sys.stdout.write(served_document().decode())"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    assert json.loads(done.stdout)["openapi"] == "3.1.0"  # the document alone on stdout
    assert "request_finished" not in done.stderr and done.stderr == ""


def test_every_document_the_api_answers_is_one_the_clients_read_by_its_format():
    # Issue 37: a media type missing from DOCUMENT_FORMATS would be parsed as JSON again.
    # The document as built, not served: serving it would configure this process's logging.
    document = build_openapi(discover_endpoints(), version="test")
    answered = {
        media_type
        for path in document["paths"].values()
        for operation in path.values()
        for media_type in operation["responses"]["200"]["content"]
        if media_type != "application/json"
    }
    operations = [operation for path in document["paths"].values() for operation in path.values()]
    # Only a GET takes format: a POST's 200 documents are read by the GET's method.
    read = {
        media_type
        for operation in operations
        if "parameters" in operation
        for media_type, _ in document_formats(operation).values()
    }
    assert answered == read == set(DOCUMENT_FORMATS.values())


def test_the_answer_model_is_the_member_of_the_return_type_that_is_not_the_error_in_either_order():
    for annotation in ("Response[ComputeNatalChartResponse | Error]", "Response[Error | ComputeNatalChartResponse]"):
        assert answer_model(ast.parse(annotation, mode="eval").body) == "ComputeNatalChartResponse"


def test_the_python_generator_is_given_no_default_so_both_layers_send_only_what_is_passed():
    # Issue 49: the generated functions sent every default (bodies=planets&equatorial=false...)
    # where Celestial sends none, so one Idempotency-Key across the two layers was a 409.
    document = build_openapi(discover_endpoints(), version="test")
    given = python_document(document)
    parameters = [
        parameter
        for path in given["paths"].values()
        for operation in path.values()
        for parameter in operation.get("parameters", ())
        if parameter["in"] == "query"
    ]
    assert parameters and not [parameter["name"] for parameter in parameters if "default" in parameter["schema"]]
    positions = next(p for p in given["paths"]["/v1/positions"]["get"]["parameters"] if p["name"] == "bodies")
    assert positions["description"].endswith("Default (the server's, when it is not sent): planets.")
    body = given["paths"]["/v1/charts"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert not [name for name, member in body["properties"].items() if "default" in member]
    # The served document keeps them.
    assert any(
        "default" in parameter["schema"] for parameter in document["paths"]["/v1/positions"]["get"]["parameters"]
    )


def test_the_boolean_that_chooses_an_answers_shape_is_read_from_the_document():
    document = build_openapi(discover_endpoints(), version="test")
    switches = {
        path: shape_switch(document, operation)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if method == "get" and shape_switch(document, operation)
    }
    assert switches == {"/v1/positions": ("equatorial", {True: "EquatorialPosition", False: "EclipticPosition"}, True)}
