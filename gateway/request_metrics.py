"""The gateway's requests: how many by operation and HTTP status, how long each took in all,
and the error answers by their code; recorded once a response is sent
(``gateway/middleware.py``)."""

from __future__ import annotations

from gateway.operation_names import API_PREFIX, operation_name
from shared.metrics_recording import counter, duration_histogram, recording

#: The ``operation`` of a request that matched no API route (a page, an unknown path).
OTHER = "other"

REQUESTS = counter(
    "celestial_http_requests_total",
    "HTTP requests answered by the gateway, by operation and status.",
    ("operation", "status"),
)
DURATION = duration_histogram(
    "celestial_http_request_duration_seconds", "Seconds the gateway took to answer a request, in all.", ("operation",)
)
REFUSED = counter(
    "celestial_requests_refused_total", "Requests answered with an error, by the error's code.", ("reason",)
)

_operations: dict[str, str] = {}


def operation_of(scope: dict) -> str:
    """Return the ``operation`` label of a request's ASGI ``scope`` once routed: its API
    route's operation name (``gateway/operation_names.py``), else :data:`OTHER`."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if not isinstance(path, str):
        return OTHER
    name = _operations.get(path)
    if name is None:
        name = _operations[path] = operation_name(path) if path.startswith(API_PREFIX) else OTHER
    return name


def record_request(scope: dict, status: int, duration_s: float) -> None:
    """Count one answered request of ``scope`` with HTTP ``status``, which took ``duration_s`` seconds."""
    if not recording():
        return
    operation = operation_of(scope)
    REQUESTS.labels(operation, str(status)).inc()
    DURATION.labels(operation).observe(duration_s)


def record_refusal(code: str) -> None:
    """Count one error answer with the error ``code``."""
    if not recording():
        return
    REFUSED.labels(code).inc()
