"""``make sdk`` (deploy/generate_sdks.py): what it prints is its own, and the clients read every
document the API answers by its format."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

from deploy.generate_sdks import DOCUMENT_FORMATS, answer_model, document_formats
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
