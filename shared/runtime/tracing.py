"""Traces with OpenTelemetry: one trace per HTTP request, through the gateway, its gRPC call,
the service process and the compute child, exported by OTLP over HTTP.

Tracing is on in a process when ``OTEL_EXPORTER_OTLP_ENDPOINT`` or
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` is set (and neither ``OTEL_SDK_DISABLED=true`` nor
``OTEL_TRACES_EXPORTER=none`` says otherwise):
:func:`configure`, called once at a process's start, then installs an SDK tracer provider
with a batch exporter (the SDK reads the other ``OTEL_*`` settings: sampler, batch sizes,
headers, timeout; docs/configuration.md). Otherwise no SDK is imported and no span is ever
made: each hook below is applied once, where an application, a channel or a handler is built,
and when tracing is off it returns what it was given unchanged, so a request pays nothing for
it. The one per-request call left when off, :func:`job_context` for a call handed to the
compute child, is a global's test.

Spans (docs/operating.md, "Traces"): the gateway's ``GET /v1/...`` (server), the gRPC call
``celestial.v1.XService/Method`` as the gateway makes it (client) and as the service serves it
(server), and ``compute Method`` where the engine computes it (the service's own loop or its
compute child). The W3C ``traceparent`` of an incoming request is continued (a new trace
otherwise) and carried in the call's metadata and the child's job; every span carries the
request's ``X-Request-Id`` as the attribute :data:`REQUEST_ID_ATTRIBUTE`.
"""

from __future__ import annotations

import contextlib
import os
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
#: The settings that switch tracing on (the OTLP exporter's own, OpenTelemetry's specification).
ENDPOINT_SETTINGS = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")

# Only W3C Trace Context crosses our boundaries (HTTP headers, gRPC metadata, the child's job).
_W3C = TraceContextTextMapPropagator()
_REQUEST_ID = otel_context.create_key("celestial.request_id")
_TRACEPARENT_HEADERS = {b"traceparent": "traceparent", b"tracestate": "tracestate"}

#: The tracer when tracing is on in this process; None when off.
_tracer: trace.Tracer | None = None
_provider: Any = None


def tracing_requested(environ: Mapping[str, str] = os.environ) -> bool:
    """Return whether ``environ`` asks for traces: an OTLP endpoint set, neither the SDK
    disabled (``OTEL_SDK_DISABLED=true``) nor the trace exporter (``OTEL_TRACES_EXPORTER=none``)."""
    if environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    if environ.get("OTEL_TRACES_EXPORTER", "").strip().lower() == "none":
        return False
    return any(environ.get(name, "").strip() for name in ENDPOINT_SETTINGS)


def configure(process: str, exporter: Any = None) -> bool:
    """Switch tracing on in this process when the environment asks for it (or ``exporter``,
    a span exporter of the SDK, is given: the tests'); return whether it is on.

    The service name is ``OTEL_SERVICE_NAME`` or ``celestial-<process>``. Called again while
    on, it changes nothing.
    """
    global _tracer, _provider
    if _tracer is not None:
        return True
    if exporter is None and not tracing_requested():
        return False
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    if exporter is None:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        exporter = OTLPSpanExporter()
    name = os.environ.get("OTEL_SERVICE_NAME", "").strip() or f"celestial-{process}"
    # The sampler comes from OTEL_TRACES_SAMPLER(_ARG), parent-based always-on by default.
    provider = TracerProvider(resource=Resource.create({SERVICE_NAME: name}), shutdown_on_exit=True)
    provider.add_span_processor(BatchSpanProcessor(exporter))
    _provider, _tracer = provider, provider.get_tracer("celestial")
    return True


def shutdown() -> None:
    """Export the spans still held and switch tracing off in this process."""
    global _tracer, _provider
    provider, _provider, _tracer = _provider, None, None
    if provider is not None:
        provider.shutdown()


def tracing_on() -> bool:
    """Return whether this process makes spans."""
    return _tracer is not None


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
    """Return ``app`` with a server span over each HTTP request (``app`` itself when tracing
    is off). The span continues the request's ``traceparent`` and is named ``METHOD /route``
    once routed; ``request_id_of(scope)`` gives the request's id."""
    if _tracer is None:
        return app

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


class _ClientSpans(grpc.aio.UnaryUnaryClientInterceptor):
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


def client_interceptors(pool: str) -> list[grpc.aio.ClientInterceptor]:
    """Return the interceptors of a channel to ``pool``: none when tracing is off, else one
    making a client span per call and sending its context in the call's metadata."""
    return [] if _tracer is None else [_ClientSpans(pool)]


def traced_method(method: Callable, service: str, rpc: str) -> Callable:
    """Return the gRPC method ``method(request, context)`` of ``service``'s ``rpc`` with a
    server span continuing the caller's trace and request id (``method`` itself when off)."""
    if _tracer is None:
        return method
    attributes = {"rpc.system": "grpc", "rpc.service": service, "rpc.method": rpc}

    async def traced(request, context):
        metadata = dict(context.invocation_metadata() or ())
        parent = _continued(metadata, metadata.get(REQUEST_ID_METADATA_KEY, ""))
        with _current(_span(f"{service}/{rpc}", trace.SpanKind.SERVER, parent, dict(attributes)), parent):
            return await method(request, context)

    return traced


def traced_compute(handler: Callable, rpc: str, where: str) -> Callable:
    """Return the computation ``handler(reading, deadline)`` with a ``compute <rpc>`` span
    under the current one (``handler`` itself when off); ``where`` is ``in_process`` or
    ``child``."""
    if _tracer is None:
        return handler

    def traced(reading, deadline):
        with _current(_span(f"compute {rpc}", trace.SpanKind.INTERNAL, None, {COMPUTED_IN_ATTRIBUTE: where}), None):
            return handler(reading, deadline)

    return traced


def job_context() -> dict[str, str] | None:
    """Return the current trace context as the compute child's job carries it (W3C
    ``traceparent``), or None when tracing is off."""
    if _tracer is None:
        return None
    carrier: dict[str, str] = {}
    _W3C.inject(carrier)
    return carrier


_OFF = contextlib.nullcontext()


def continued(carrier: Mapping[str, str] | None, request_id: str) -> contextlib.AbstractContextManager:
    """Return a context manager under which the job's trace (``carrier``, from
    :func:`job_context`) and ``request_id`` are current: nothing when either side is off."""
    if _tracer is None or carrier is None:
        return _OFF
    return _attached(_continued(carrier, request_id))


@contextlib.contextmanager
def _attached(context: otel_context.Context) -> Iterator[None]:
    token = otel_context.attach(context)
    try:
        yield
    finally:
        otel_context.detach(token)
