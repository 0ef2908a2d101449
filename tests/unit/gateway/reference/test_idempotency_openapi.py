"""gateway/reference/idempotency_openapi.py: every paid operation of the document takes the
Idempotency-Key header and answers 409; free ones are left as they are."""

from __future__ import annotations

from gateway.endpoints import discover_endpoints
from gateway.reference.idempotency_openapi import with_idempotency_key
from gateway.reference.openapi import build_openapi


def test_every_paid_operation_takes_the_key_and_answers_409_and_free_ones_do_not():
    paths = build_openapi(tuple(discover_endpoints()), version="test")["paths"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            names = [parameter["name"] for parameter in operation.get("parameters", ())]
            paid = path == "/v1/batch" or operation.get("x-credits", 0) > 0
            assert ("Idempotency-Key" in names) == paid, (method, path)
            # A free operation may answer a 409 of its own (/v1/charts: chart_limit_reached), never the key's.
            conflict = operation.get("responses", {}).get("409", {}).get("description", "")
            assert ("idempotency_key_reuse" in conflict) == paid, (method, path)
            if paid:
                assert "Idempotent-Replayed" in operation["responses"]["200"]["headers"]
    assert "Idempotency-Key" in [p["name"] for p in paths["/v1/positions"]["get"]["parameters"]]
    assert "Idempotency-Key" not in [p["name"] for p in paths["/v1/places"]["get"]["parameters"]]


def test_the_operations_given_are_not_changed():
    paths = {"/v1/x": {"get": {"x-credits": 1, "responses": {"200": {}}}}}
    with_idempotency_key(paths)
    assert paths == {"/v1/x": {"get": {"x-credits": 1, "responses": {"200": {}}}}}
