"""The Python client package (deploy/python_client_package.py): the generator is given the
document without defaults, and each method answers its operation's model."""

from __future__ import annotations

import ast

from deploy.python_client_package import answer_model, python_document
from gateway.endpoints import discover_endpoints
from gateway.reference.openapi import build_openapi


def test_the_answer_model_is_the_member_of_the_return_type_that_is_not_the_error_in_either_order():
    for annotation in ("Response[ComputeNatalChartResponse | Error]", "Response[Error | ComputeNatalChartResponse]"):
        assert answer_model(ast.parse(annotation, mode="eval").body) == "ComputeNatalChartResponse"


def test_a_pictures_bodiless_304_is_no_answer_model_whatever_the_members_order():
    # The generator writes the members in name order: Any | Error | FindBirthTimeSensitivityResponse
    # put the answer on the right of two (make sdk failed), Any | DrawChartWheelResponse | Error on the left.
    for annotation in (
        "Response[Any | Error | FindBirthTimeSensitivityResponse]",
        "Response[Any | DrawChartWheelResponse | Error]",
    ):
        answer = answer_model(ast.parse(annotation, mode="eval").body)
        assert answer in ("FindBirthTimeSensitivityResponse", "DrawChartWheelResponse")


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
