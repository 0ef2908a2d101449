"""The spans of a traced process (shared/runtime/tracing.py switches them on): the
OpenTelemetry API is imported here, and this module only when tracing is on, so a process
without an OTLP endpoint never loads it (it costs about 0.2 s of every process's start).

Each function below is what a hook of ``tracing`` returns when on: a server span per HTTP
request, a client span per gRPC call, a server span per gRPC method, a compute span; the W3C
Trace Context (``traceparent``) is what crosses a boundary, and every span carries the
request's id as :data:`REQUEST_ID_ATTRIBUTE`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import grpc
from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

from shared.runtime.pool_channel import REQUEST_ID_METADATA_KEY

#: The span attribute holding the request's id (the gateway's ``X-Request-Id``).
REQUEST_ID_ATTRIBUTE = "celestial.request_id"
#: The span attribute saying where a computation ran: ``in_process`` or ``child``.
COMPUTED_IN_ATTRIBUTE = "celestial.compute.where"

# Only W3C Trace Context crosses our boundaries (HTTP headers, gRPC metadata, the child's job).
_W3C = TraceContextTextMapPropagator()
_REQUEST_ID = otel_context.create_key("celestial.request_id")
_TRACEPARENT_HEADERS = {b"traceparent": "traceparent", b"tracestate": "tracestate"}

#: The tracer spans are made with (set by tracing.configure through :func:`start`).
_tracer: trace.Tracer | None = None


def start(tracer: trace.Tracer | None) -> None:
    """Make spans with ``tracer`` from now on (None: make none; tracing.shutdown)."""
    global _tracer
    _tracer = tracer


def _span(name: str, kind: trace.SpanKind, parent: otel_context.Context | None, attributes: dict[str, Any]):
    """Return a started span under ``parent`` (the current context if None), carrying the
    request id that context holds."""
    assert _tracer is not None
    request_id = otel_context.get_value(_REQUEST_ID, parent)
    if request_id:
        attributes[REQUEST_ID_ATTRIBUTE] = request_id
    return _tracer.start_span(name, context=parent, kind=kind, attributes=attributes)


def _continued(carrier: Mapping[str, str], request_id: str) -> otel_context.Context:
    """Return the context of the trace ``carrier`` names (a new trace's if none), holding ``request_id``."""
    return otel_context.set_value(_REQUEST_ID, request_id, _W3C.extract(carrier))


@contextlib.contextmanager
def _current(span, parent: otel_context.Context | None) -> Iterator[Any]:
    """Make ``span`` current while the block runs; end it after, marked failed by an exception."""
    token = otel_context.attach(trace.set_span_in_context(span, parent))
    try:
        yield span
    except BaseException as exception:
        span.record_exception(exception)
        span.set_status(trace.StatusCode.ERROR, type(exception).__name__)
        raise
    finally:
        otel_context.detach(token)
        span.end()


def traced_asgi(app: Callable, request_id_of: Callable[[dict], str]) -> Callable:
    """Return ``app`` with a server span over each HTTP request. The span continues the
    request's ``traceparent`` and is named ``METHOD /route`` once routed;
    ``request_id_of(scope)`` gives the request's id."""

    async def traced(scope, receive, send):
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        carrier = {
            _TRACEPARENT_HEADERS[name]: value.decode("latin-1")
            for name, value in scope.get("headers", ())
            if name in _TRACEPARENT_HEADERS
        }
        parent = _continued(carrier, request_id_of(scope))
        method = scope.get("method", "")
        span = _span(method, trace.SpanKind.SERVER, parent, {"http.request.method": method})
        status = {"code": 500}

        async def send_status(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        with _current(span, parent):
            try:
                await app(scope, receive, send_status)
            finally:
                # The route's template, never the path: a path can hold a key or a place.
                route = getattr(scope.get("route"), "path", None)
                if route:
                    span.update_name(f"{method} {route}")
                    span.set_attribute("http.route", route)
                span.set_attribute("http.response.status_code", status["code"])
                if status["code"] >= 500:
                    span.set_status(trace.StatusCode.ERROR)

    return traced


class ClientSpans(grpc.aio.UnaryUnaryClientInterceptor):
    """A client span over each call of a pool's channel, its context sent in the metadata."""

    def __init__(self, pool: str):
        self.pool = pool

    async def intercept_unary_unary(self, continuation, client_call_details, request):
        method = client_call_details.method
        method = method.decode() if isinstance(method, bytes) else method
        pairs = tuple(client_call_details.metadata or ())
        service, _, rpc = method.lstrip("/").partition("/")
        attributes = {"rpc.system": "grpc", "rpc.service": service, "rpc.method": rpc, "celestial.pool": self.pool}
        # A caller without a request's context (the webhook worker) still names its call's id.
        attributes.update((REQUEST_ID_ATTRIBUTE, value) for key, value in pairs if key == REQUEST_ID_METADATA_KEY)
        span = _span(method.lstrip("/"), trace.SpanKind.CLIENT, None, attributes)
        with _current(span, None):
            carrier: dict[str, str] = {}
            _W3C.inject(carrier)
            details = client_call_details._replace(metadata=grpc.aio.Metadata(*pairs, *carrier.items()))
            call = await continuation(details, request)
            code = await call.code()
            span.set_attribute("rpc.grpc.status_code", code.value[0])
            if code != grpc.StatusCode.OK:
                span.set_status(trace.StatusCode.ERROR, code.name)
            return call


def traced_method(method: Callable, service: str, rpc: str) -> Callable:
    """Return the gRPC method ``method(request, context)`` of ``service``'s ``rpc`` with a
    server span continuing the caller's trace and request id."""
    attributes = {"rpc.system": "grpc", "rpc.service": service, "rpc.method": rpc}

    async def traced(request, context):
        metadata = dict(context.invocation_metadata() or ())
        parent = _continued(metadata, metadata.get(REQUEST_ID_METADATA_KEY, ""))
        with _current(_span(f"{service}/{rpc}", trace.SpanKind.SERVER, parent, dict(attributes)), parent):
            return await method(request, context)

    return traced


def traced_compute(handler: Callable, rpc: str, where: str) -> Callable:
    """Return the computation ``handler(reading, deadline)`` with a ``compute <rpc>`` span
    under the current one; ``where`` is ``in_process`` or ``child``."""

    def traced(reading, deadline):
        with _current(_span(f"compute {rpc}", trace.SpanKind.INTERNAL, None, {COMPUTED_IN_ATTRIBUTE: where}), None):
            return handler(reading, deadline)

    return traced


def job_context() -> dict[str, str]:
    """Return the current trace context as the compute child's job carries it (W3C
    ``traceparent``)."""
    carrier: dict[str, str] = {}
    _W3C.inject(carrier)
    return carrier


@contextlib.contextmanager
def continued(carrier: Mapping[str, str], request_id: str) -> Iterator[None]:
    """Make the job's trace (``carrier``, from :func:`job_context`) and ``request_id`` current
    while the block runs."""
    context = _continued(carrier, request_id)
    token = otel_context.attach(context)
    try:
        yield
    finally:
        otel_context.detach(token)
