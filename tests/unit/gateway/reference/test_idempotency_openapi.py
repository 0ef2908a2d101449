"""gateway/reference/idempotency_openapi.py: every paid operation of the document, and the two
free creations (POST /v1/webhooks, POST /v1/charts), take the Idempotency-Key header and answer
422 for a key reused with another request, 409 for one in progress (the IETF Idempotency-Key
draft's statuses); other free ones are left as they are."""

from __future__ import annotations

from gateway.endpoints import discover_endpoints
from gateway.reference.idempotency_openapi import CREATIONS, with_idempotency_key
from gateway.reference.openapi import build_openapi


def test_every_paid_operation_takes_the_key_and_answers_422_reuse_and_409_in_progress_and_free_ones_do_not():
    paths = build_openapi(tuple(discover_endpoints()), version="test")["paths"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            names = [parameter["name"] for parameter in operation.get("parameters", ())]
            keyed = path == "/v1/batch" or operation.get("x-credits", 0) > 0 or (path, method) in CREATIONS
            assert ("Idempotency-Key" in names) == keyed, (method, path)
            # A free operation may answer a 409 of its own (PATCH /v1/webhooks/{id}: webhook_ended), never the key's.
            conflict = operation.get("responses", {}).get("409", {}).get("description", "")
            assert ("idempotency_key_in_progress" in conflict) == keyed, (method, path)
            reuse = operation.get("responses", {}).get("422", {}).get("description", "")
            assert ("idempotency_key_reuse" in reuse) == keyed, (method, path)
            assert "idempotency_key_reuse" not in conflict, (method, path)
            if keyed:
                assert "Idempotent-Replayed" in operation["responses"]["200"]["headers"]
    assert "Idempotency-Key" in [p["name"] for p in paths["/v1/positions"]["get"]["parameters"]]
    assert "Idempotency-Key" not in [p["name"] for p in paths["/v1/places"]["get"]["parameters"]]


def test_the_creations_take_the_key_and_keep_their_own_409():
    paths = build_openapi(tuple(discover_endpoints()), version="test")["paths"]
    assert CREATIONS == {("/v1/webhooks", "post"), ("/v1/charts", "post")}
    for path, limit in (("/v1/webhooks", "webhook_limit_reached"), ("/v1/charts", "chart_limit_reached")):
        operation = paths[path]["post"]
        (parameter,) = [p for p in operation["parameters"] if p["name"] == "Idempotency-Key"]
        assert parameter["in"] == "header" and "mode" in parameter["description"]
        assert limit in operation["responses"]["409"]["description"]
        assert "idempotency_key_in_progress" in operation["responses"]["409"]["description"]


def test_the_operations_given_are_not_changed():
    paths = {"/v1/x": {"get": {"x-credits": 1, "responses": {"200": {}}}}}
    with_idempotency_key(paths)
    assert paths == {"/v1/x": {"get": {"x-credits": 1, "responses": {"200": {}}}}}
