"""gateway/reference/caching_openapi.py: the GET of an operation answering pictures takes
If-None-Match and answers ETag, Cache-Control and 304; no other operation does."""

from __future__ import annotations

from gateway.endpoints import discover_endpoints
from gateway.reference.caching_openapi import NOT_MODIFIED_RESPONSE, with_picture_caching
from gateway.reference.openapi import build_openapi


def test_only_the_gets_answering_pictures_take_if_none_match_and_answer_304():
    paths = build_openapi(tuple(discover_endpoints()), version="test")["paths"]
    cached = {
        (path, method)
        for path, operations in paths.items()
        for method, operation in operations.items()
        if isinstance(operation, dict)
        and "If-None-Match" in [parameter["name"] for parameter in operation.get("parameters", ())]
    }
    assert ("/v1/chart-wheel", "get") in cached
    assert all(method == "get" for _, method in cached)
    for path, method in cached:
        responses = paths[path][method]["responses"]
        assert responses["304"] == NOT_MODIFIED_RESPONSE
        assert {"ETag", "Cache-Control"} <= set(responses["200"]["headers"])
        assert any(media_type.startswith("image/") for media_type in responses["200"]["content"])
    assert "304" not in paths["/v1/chart-wheel"]["post"]["responses"]
    assert "304" not in paths["/v1/natal-chart"]["get"]["responses"]


def test_the_operation_given_is_not_changed():
    endpoint = next(e for e in discover_endpoints() if e.path == "/v1/chart-wheel")
    operation = {"parameters": [], "responses": {"200": {"content": {}}}}
    changed = with_picture_caching(operation, endpoint)
    assert operation == {"parameters": [], "responses": {"200": {"content": {}}}}
    assert "304" in changed["responses"]
