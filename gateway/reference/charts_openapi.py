"""The ``chart`` parameters in the OpenAPI document (issue 40, part 1): every operation whose
request names a stored chart (``(message).stored_charts``) takes ``chart`` (``chart_a``,
``chart_b``) in place of a birth's parameters. The stored charts' own operations
(``/v1/charts``) are generated from ``account_service.proto`` like every other operation.
"""

from __future__ import annotations

from typing import Any

from celestial.v1 import account_service_pb2, options_pb2
from gateway.stored_charts import BIRTH_PARAMETERS
from shared.runtime.stored_chart_parameters import stored_chart_names

#: A stored chart's id, as the stored charts' operations declare it (account_service.proto).
_ID = {
    "type": "string",
    "pattern": account_service_pb2.GetStoredChartRequest.DESCRIPTOR.fields_by_name["chart_id"]
    .GetOptions()
    .Extensions[options_pb2.field]
    .pattern,
}


def stood_in_for(request_cls) -> set[str]:
    """Return the parameters of a request that a stored chart can give (so none of them is
    required in the schema: ``chart`` may come instead)."""
    return {f"{birth}{name[len('chart') :]}" for name in stored_chart_names(request_cls) for birth in BIRTH_PARAMETERS}


def chart_parameters(request_cls) -> dict[str, dict[str, Any]]:
    """Return the schema of each parameter of a request that names a stored chart, by name."""
    described = {}
    for name in stored_chart_names(request_cls):
        suffix = name[len("chart") :]
        birth = f"datetime{suffix}, tz{suffix}, place{suffix}, lat{suffix}, lon{suffix}"
        described[name] = {
            **_ID,
            "description": f"A stored chart's id (POST /v1/charts) in place of {birth} ...: its birth, "
            + ("and its settings where this request sends none." if not suffix else "without its settings."),
        }
    return described


def with_chart_members(schema: dict[str, Any], request_cls) -> dict[str, Any]:
    """Return a request body's schema with its stored-chart members added, and the birth
    parameters a chart stands in for no longer required."""
    named = chart_parameters(request_cls)
    if not named:
        return schema
    optional = stood_in_for(request_cls)
    required = [name for name in schema.get("required", []) if name not in optional]
    changed = {**schema, "properties": {**schema["properties"], **named}}
    changed.pop("required", None)
    return {**changed, "required": required} if required else changed
