"""POST /v1/batch: several sub-requests in one call (interface.md, Batch; decisions.md, Batch).

The batch itself is one request for the limits (one admission, one concurrency slot; through
a test key, its sub-requests' computations and a slot per sub-request it runs at once:
``gateway/key_modes.py``); each sub-request is validated, charged, computed and refunded on
its own, concurrently, and the response lists one result per sub-request in the order given.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from gateway.endpoints import Endpoint
from gateway.errors import as_celestial_error
from shared.errors import InvalidBody, InvalidParameter, MissingParameter, NotFound

#: Sub-requests one batch may carry (decisions.md: 1-50).
MAX_SUBREQUESTS = 50
BATCH_PATH = "/v1/batch"


@dataclass(frozen=True)
class SubRequest:
    """One entry of ``requests[]``: its position, the endpoint path asked for and its params."""

    index: int
    path: str
    params: dict[str, Any]


def parse_batch(body: Any) -> list[SubRequest]:
    """Return the sub-requests of a batch body, or raise 400 for a malformed batch as a whole.

    A batch is refused whole when its shape is wrong (no ``requests`` list, 0 or more than
    MAX_SUBREQUESTS entries, an entry that is not ``{endpoint, params}``) or it nests a batch;
    an unknown endpoint or bad parameters fail only their own sub-request.
    """
    if body is None:
        raise MissingParameter(
            "The batch body is empty; it must list its sub-requests.",
            suggestion='Send {"requests": [{"endpoint": "/v1/positions", "params": {...}}]}.',
            param="requests",
        )
    if not isinstance(body, dict):
        raise InvalidBody(
            f"The body must be a JSON object, not a JSON {type(body).__name__}.",
            suggestion='Send {"requests": [{"endpoint": "/v1/positions", "params": {...}}]}.',
        )
    unknown = sorted(set(body) - {"requests"})
    if unknown:
        raise InvalidParameter(
            f"Unknown batch member {unknown[0]!r}; a batch body has only 'requests'.",
            suggestion='Send {"requests": [...]}.',
            param=unknown[0],
        )
    entries = body.get("requests")
    if not isinstance(entries, list):
        raise InvalidParameter(
            "'requests' must be a list of sub-requests.",
            suggestion='Send {"requests": [{"endpoint": "/v1/positions", "params": {...}}]}.',
            param="requests",
        )
    if not 1 <= len(entries) <= MAX_SUBREQUESTS:
        raise InvalidParameter(
            f"A batch carries 1 to {MAX_SUBREQUESTS} sub-requests, not {len(entries)}.",
            suggestion=f"Split the work into batches of at most {MAX_SUBREQUESTS}.",
            param="requests",
        )
    parsed: list[SubRequest] = []
    for index, entry in enumerate(entries):
        where = f"requests[{index}]"
        if not isinstance(entry, dict):
            raise InvalidParameter(
                f"{where} must be an object {{endpoint, params}}.",
                suggestion='Write each entry as {"endpoint": "/v1/aspects", "params": {...}}.',
                param=where,
            )
        extra = sorted(set(entry) - {"endpoint", "params"})
        if extra:
            raise InvalidParameter(
                f"{where} has an unknown member {extra[0]!r}.",
                suggestion="A sub-request has only 'endpoint' and 'params'.",
                param=f"{where}.{extra[0]}",
            )
        path = entry.get("endpoint")
        if not isinstance(path, str) or not path:
            raise InvalidParameter(
                f"{where}.endpoint must be a path such as /v1/aspects.",
                suggestion="Name the endpoint by its path, e.g. /v1/positions.",
                param=f"{where}.endpoint",
            )
        if path.rstrip("/") == BATCH_PATH:
            raise InvalidParameter(
                "A batch cannot contain another batch.",
                suggestion="Put the inner batch's sub-requests directly in this one.",
                param=f"{where}.endpoint",
            )
        params = entry.get("params")
        # decisions.md: an entry without params is malformed like any entry that is not
        # {endpoint, params}; an endpoint that needs no parameter takes {}.
        if not isinstance(params, dict):
            missing = "params" not in entry or params is None
            raise InvalidParameter(
                f"{where}.params "
                + ("is missing" if missing else "must be an object")
                + "; each entry is {endpoint, params}.",
                suggestion='Write params as a JSON object of that endpoint\'s parameters, e.g. {"datetime": '
                '"2024-03-20T12:00:00Z"} ({} for none).',
                param=f"{where}.params",
            )
        parsed.append(SubRequest(index, path, params))
    return parsed


#: Runs one sub-request's endpoint with its params; returns the endpoint's success body
#: ``{data, meta, warnings?}`` or raises a CelestialError.
Executor = Callable[[Endpoint, dict[str, Any], int], Awaitable[dict[str, Any]]]


async def run_batch(
    subrequests: list[SubRequest], endpoints: dict[str, Endpoint], execute: Executor, request_id: str
) -> tuple[list[dict[str, Any]], int]:
    """Return (results in the order given, credits charged for the successful ones).

    A sub-request's error is answered as the whole request's would be (``gateway/errors.py``);
    ``request_id`` is the batch's, each sub-request's being ``{request_id}.{index}``.

    Each result is ``{index, status, data, warnings?}`` or ``{index, status, errors}``.
    """

    async def one(sub: SubRequest) -> tuple[dict[str, Any], int]:
        endpoint = endpoints.get(sub.path.rstrip("/") or sub.path)
        try:
            if endpoint is None:
                raise NotFound(
                    f"No endpoint at {sub.path}.",
                    suggestion="Use an endpoint path listed at /v1/openapi.json, e.g. /v1/positions.",
                    param=f"requests[{sub.index}].endpoint",
                )
            body = await execute(endpoint, sub.params, sub.index)
        except Exception as exc:
            error = as_celestial_error(exc, f"{request_id}.{sub.index}")
            return {"index": sub.index, "status": error.http_status, "errors": [error.as_dict()]}, 0
        result = {"index": sub.index, "status": 200, "data": body["data"]}
        if body.get("warnings"):
            result["warnings"] = body["warnings"]
        return result, body["meta"]["credits_used"]

    outcomes = await asyncio.gather(*(one(sub) for sub in subrequests))
    return [result for result, _ in outcomes], sum(cost for _, cost in outcomes)
