"""Schemathesis hooks for the whole document's run (tests/reliability/test_fuzz_openapi.py,
``SCHEMATHESIS_HOOKS=tests.reliability.schemathesis_hooks``): what the document itself says
a request the schemas admit may still be refused for, and nothing else, is dropped from the
failures of the positive-data check.

- A GET whose query parameters break the operation's ``x-query-constraints`` (the rules
  across parameters OpenAPI cannot spell for a query string) is not schema-admitted.
- A refusal the document lists in ``x-refused-beyond-the-schema``
  (gateway/reference/request_constraints.py's ``beyond_the_schema``) is expected: among them
  planetary hours in a polar day or night, and a stored chart's PATCH leaving its birth
  incomplete (a null removing lon but not lat).
- An ``Idempotency-Key`` is one request's: each generated request sends its own.
"""

from __future__ import annotations

import uuid

import schemathesis
from jsonschema import Draft202012Validator

from gateway.reference.examples import typed_value
from gateway.reference.request_constraints import QUERY_CONSTRAINTS, beyond_the_schema

IDEMPOTENCY_KEY = "Idempotency-Key"


def query_admitted(operation: dict, query: dict | None) -> bool:
    """Return whether ``query`` (a GET's parameters, as text) keeps the operation's rules
    across its query parameters (``x-query-constraints``)."""
    constraints = operation.get(QUERY_CONSTRAINTS)
    if not constraints:
        return True
    schemas = {parameter["name"]: parameter.get("schema", {}) for parameter in operation.get("parameters", ())}
    values = {name: typed_value(str(value), schemas.get(name, {})) for name, value in (query or {}).items()}
    return Draft202012Validator(constraints).is_valid(values)


def refused_beyond_the_schema(path: str, body) -> bool:
    """Return whether an error body is a refusal the document lists beyond its schemas."""
    if not isinstance(body, dict) or not body.get("errors"):
        return False
    error = body["errors"][0]
    return beyond_the_schema(error.get("code", ""), error.get("param") or "", path) is not None


@schemathesis.hook
def before_call(context, case, kwargs) -> None:
    if case.headers and IDEMPOTENCY_KEY in case.headers:
        case.headers[IDEMPOTENCY_KEY] = uuid.uuid4().hex
    headers = kwargs.get("headers")
    if headers and IDEMPOTENCY_KEY in headers:
        headers[IDEMPOTENCY_KEY] = (
            case.headers.get(IDEMPOTENCY_KEY, uuid.uuid4().hex) if case.headers else uuid.uuid4().hex
        )


@schemathesis.hook
def filter_failure(context, failure, case, response) -> bool:
    if getattr(failure, "code", "") != "ST202":
        return True
    if case.method == "GET" and not query_admitted(case.operation.definition.raw, case.query):
        return False
    try:
        body = response.json()
    except ValueError:
        return True
    return not refused_beyond_the_schema(case.path, body)
