"""The OpenAPI ``links`` of a resource's creation (issue 49, part 3): the answer of
``POST /v1/charts`` names the chart the operations of ``/v1/charts/{chart_id}`` take, that of
``POST /v1/webhooks`` the subscription of ``/v1/webhooks/{webhook_id}`` and its sub-resources.
A client (and schemathesis' stateful phase) follows them from the created resource's ``id``.

Kept apart from ``openapi.py``, which builds the operations: this adds to them afterwards.
"""

from __future__ import annotations

import copy
import re
from typing import Any

#: Where a creation's answer holds the new resource's id.
CREATED_ID = "$response.body#/data/id"

_PARAMETER = re.compile(r"\{([^}]+)\}")


def with_resource_links(paths: dict[str, Any]) -> dict[str, Any]:
    """Return ``paths`` with each resource creation's success answer (a POST of an
    ``x-resource`` path without a path parameter) linking to every operation under that path
    whose one path parameter is the created resource's id."""
    result = copy.deepcopy(paths)
    for path, operations in result.items():
        creation = operations.get("post")
        if not creation or not creation.get("x-resource") or _PARAMETER.search(path):
            continue
        links = {}
        for other_path, others in paths.items():
            parameters = _PARAMETER.findall(other_path)
            if not other_path.startswith(f"{path}/{{") or len(parameters) != 1:
                continue
            for method, operation in others.items():
                links[operation["operationId"]] = {
                    "operationId": operation["operationId"],
                    "parameters": {parameters[0]: CREATED_ID},
                    "description": f"{method.upper()} {other_path} of the resource created.",
                }
        success = next((creation["responses"][s] for s in ("200", "201") if s in creation["responses"]), None)
        if links and success is not None:
            success["links"] = links
    return result
