"""What both clients read from the OpenAPI document (deploy/client_contract.py): every document
the API answers is read by its format, and the boolean that chooses an answer's shape."""

from __future__ import annotations

from deploy.client_contract import DOCUMENT_FORMATS, document_formats, shape_switch
from gateway.endpoints import discover_endpoints
from gateway.reference.openapi import build_openapi


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


def test_the_boolean_that_chooses_an_answers_shape_is_read_from_the_document():
    document = build_openapi(discover_endpoints(), version="test")
    switches = {
        path: shape_switch(document, operation)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if method == "get" and shape_switch(document, operation)
    }
    assert switches == {"/v1/positions": ("equatorial", {True: "EquatorialPosition", False: "EclipticPosition"}, True)}
