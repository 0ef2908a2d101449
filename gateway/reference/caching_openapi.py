"""The OpenAPI of picture caching (``gateway/picture_caching.py``): a GET answered with a
picture takes ``If-None-Match`` and answers its ``ETag`` and ``Cache-Control``, and 304."""

from __future__ import annotations

import copy
from typing import Any

from gateway.endpoints import Endpoint
from gateway.picture_caching import FIXED, STORED, picture_formats

IF_NONE_MATCH_PARAMETER = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": (
        "The ETag of a picture (format=svg or png) already held: while it is still the request's, the "
        "answer is 304 Not Modified with no body, computed from nothing and costing no credits (counted "
        "under the rate limit like any request). See docs/chart-wheels.md."
    ),
    "schema": {"type": "string"},
}
ETAG_HEADER = {
    "description": (
        "A picture's tag: of its request's parameters (defaults filled in) and the server's versions, "
        "never of the account; the same for every account sending the same request."
    ),
    "schema": {"type": "string", "pattern": '^"[0-9a-f]{32}"$'},
}
CACHE_CONTROL_HEADER = {
    "description": f"A picture's: `{FIXED}`, or `{STORED}` for a stored chart's (it can change).",
    "schema": {"type": "string", "enum": [FIXED, STORED]},
}
NOT_MODIFIED_RESPONSE = {
    "description": "Not Modified: If-None-Match names the picture's current ETag; no body, no credits.",
    "headers": {"ETag": ETAG_HEADER, "Cache-Control": CACHE_CONTROL_HEADER},
}


def with_picture_caching(operation: dict[str, Any], endpoint: Endpoint) -> dict[str, Any]:
    """Return the GET ``operation`` of ``endpoint`` taking If-None-Match, its 200 answering
    ETag and Cache-Control and a 304 beside, when the endpoint answers pictures; else unchanged."""
    if not picture_formats(endpoint.response_cls.DESCRIPTOR):
        return operation
    operation = copy.deepcopy(operation)
    operation["parameters"] = [*operation.get("parameters", ()), IF_NONE_MATCH_PARAMETER]
    responses = operation["responses"]
    responses["200"].setdefault("headers", {}).update({"ETag": ETAG_HEADER, "Cache-Control": CACHE_CONTROL_HEADER})
    responses["304"] = NOT_MODIFIED_RESPONSE
    return operation
