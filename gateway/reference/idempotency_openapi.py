"""The ``Idempotency-Key`` in the OpenAPI document (docs/idempotency.md): the request header on
every paid operation and on the free creations (:data:`CREATIONS`), its 422 and 409 answers
(the IETF Idempotency-Key draft's: another payload, a request in progress), and the
``Idempotent-Replayed`` header of a replay.

Kept apart from ``openapi.py``, which builds the operations: this adds to them afterwards.
"""

from __future__ import annotations

import copy
from typing import Any

from gateway.batch import BATCH_PATH
from gateway.idempotency import MAX_KEY_LENGTH
from gateway.stored_charts import CHARTS_PATH
from gateway.webhooks import WEBHOOKS_PATH

IDEMPOTENCY_KEY_PARAMETER = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": (
        "Makes a retry safe: for 24 hours, the same key with the same request (method, path, parameters) "
        "replays the first answer (status, body and headers, plus Idempotent-Replayed: true) without "
        "computing or charging it again; with another request it is 422 idempotency_key_reuse, and while "
        "the first still runs 409 idempotency_key_in_progress with Retry-After. A refusal that charged "
        "nothing is not kept. Keys belong to the account and the key's mode: a test key's never replay to a "
        "live key. See docs/idempotency.md."
    ),
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH, "pattern": "^[\\x20-\\x7e]+$"},
}
#: The free operations that take a key too (issue 46): creations, whose retry must not make a
#: second resource (a second subscription would deliver, and charge, every event twice).
CREATIONS = frozenset({(WEBHOOKS_PATH, "post"), (CHARTS_PATH, "post")})
CREATION_KEY_PARAMETER = {
    **IDEMPOTENCY_KEY_PARAMETER,
    "description": (
        "Makes a retry safe: for 24 hours, the same key with the same body replays the first creation's answer "
        "(the same id, status, body and headers, a subscription's secret included, plus Idempotent-Replayed: true) "
        "instead of creating another; with another body (or path) it is 422 idempotency_key_reuse, and while the "
        "first still runs 409 idempotency_key_in_progress with Retry-After. A refused creation is not kept. Keys "
        "belong to the account and the key's mode: a test key's never replay to a live key. See docs/idempotency.md."
    ),
}
CONFLICT_RESPONSE = {
    "description": "idempotency_key_in_progress (the key's first request still runs; with Retry-After)",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}
REUSE_RESPONSE = {
    "description": "idempotency_key_reuse (the key was sent with another request in the last 24 hours)",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}
REPLAYED_HEADER = {
    "description": "true on an answer replayed for an Idempotency-Key (absent on the first answer).",
    "schema": {"type": "string", "enum": ["true"]},
}


def is_paid(path: str, operation: dict[str, Any]) -> bool:
    """Return whether an operation of ``path`` charges credits (a batch does, through its sub-requests)."""
    return path == BATCH_PATH or operation.get("x-credits", 0) > 0


def with_idempotency_key(paths: dict[str, Any]) -> dict[str, Any]:
    """Return ``paths`` with every paid operation and every creation (:data:`CREATIONS`) taking
    the ``Idempotency-Key`` header and answering its 422 and 409 and the ``Idempotent-Replayed``
    header; other free ones unchanged."""
    result = {}
    for path, operations in paths.items():
        result[path] = {}
        for method, operation in operations.items():
            creation = (path, method) in CREATIONS
            if not isinstance(operation, dict) or not (creation or is_paid(path, operation)):
                result[path][method] = operation
                continue
            operation = copy.deepcopy(operation)
            parameter = CREATION_KEY_PARAMETER if creation else IDEMPOTENCY_KEY_PARAMETER
            operation["parameters"] = [*operation.get("parameters", ()), parameter]
            responses = operation.setdefault("responses", {})
            own = responses.get("409", {}).get("description")
            # A creation's own 409 (its account full) stays beside the key's.
            responses["409"] = (
                {**CONFLICT_RESPONSE, "description": f"{own}; {CONFLICT_RESPONSE['description']}"}
                if own
                else CONFLICT_RESPONSE
            )
            responses["422"] = REUSE_RESPONSE
            if "200" in responses:
                responses["200"].setdefault("headers", {})["Idempotent-Replayed"] = REPLAYED_HEADER
            result[path][method] = operation
    return result
