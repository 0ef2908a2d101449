"""Traces with OpenTelemetry: one trace per HTTP request, through the gateway, its gRPC call,
the service process and the compute child, exported by OTLP over HTTP.

Tracing is on in a process when ``OTEL_EXPORTER_OTLP_ENDPOINT`` or
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` is set (and neither ``OTEL_SDK_DISABLED=true`` nor
``OTEL_TRACES_EXPORTER=none`` says otherwise):
:func:`configure`, called once at a process's start, then installs an SDK tracer provider
with a batch exporter (the SDK reads the other ``OTEL_*`` settings: sampler, batch sizes,
headers, timeout; docs/configuration.md). Otherwise no OpenTelemetry module is imported at all
(the spans live in ``trace_spans.py``, loaded only when on, so a process's start does not pay
for them) and no span is ever made: each hook below is applied once, where an application, a
channel or a handler is built, and when tracing is off it returns what it was given
unchanged, so a request pays nothing for it. The one per-request call left when off,
:func:`job_context` for a call handed to the compute child, is a global's test.

Spans (docs/operating.md, "Traces"): the gateway's ``GET /v1/...`` (server), the gRPC call
``celestial.v1.XService/Method`` as the gateway makes it (client) and as the service serves it
(server), and ``compute Method`` where the engine computes it (the service's own loop or its
compute child). The W3C ``traceparent`` of an incoming request is continued (a new trace
otherwise) and carried in the call's metadata and the child's job; every span carries the
request's ``X-Request-Id`` (``trace_spans.REQUEST_ID_ATTRIBUTE``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

#: The settings that switch tracing on (the OTLP exporter's own, OpenTelemetry's specification).
ENDPOINT_SETTINGS = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")

#: ``shared.runtime.trace_spans`` when tracing is on in this process; None when off.
_spans: ModuleType | None = None
_provider: Any = None
_OFF = contextlib.nullcontext()


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
    global _spans, _provider
    if _spans is not None:
        return True
    if exporter is None and not tracing_requested():
        return False
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    from shared.runtime import trace_spans

    if exporter is None:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        exporter = OTLPSpanExporter()
    name = os.environ.get("OTEL_SERVICE_NAME", "").strip() or f"celestial-{process}"
    # The sampler comes from OTEL_TRACES_SAMPLER(_ARG), parent-based always-on by default.
    provider = TracerProvider(resource=Resource.create({SERVICE_NAME: name}), shutdown_on_exit=True)
    provider.add_span_processor(BatchSpanProcessor(exporter))
    trace_spans.start(provider.get_tracer("celestial"))
    _provider, _spans = provider, trace_spans
    return True


def shutdown() -> None:
    """Export the spans still held and switch tracing off in this process."""
    global _spans, _provider
    spans, provider, _spans, _provider = _spans, _provider, None, None
    if spans is not None:
        spans.start(None)
    if provider is not None:
        provider.shutdown()


def tracing_on() -> bool:
    """Return whether this process makes spans."""
    return _spans is not None


def traced_asgi(app: Callable, request_id_of: Callable[[dict], str]) -> Callable:
    """Return ``app`` with a server span over each HTTP request (``app`` itself when tracing
    is off). The span continues the request's ``traceparent`` and is named ``METHOD /route``
    once routed; ``request_id_of(scope)`` gives the request's id."""
    return app if _spans is None else _spans.traced_asgi(app, request_id_of)


def client_interceptors(pool: str) -> list:
    """Return the interceptors of a channel to ``pool``: none when tracing is off, else one
    making a client span per call and sending its context in the call's metadata."""
    return [] if _spans is None else [_spans.ClientSpans(pool)]


def traced_method(method: Callable, service: str, rpc: str) -> Callable:
    """Return the gRPC method ``method(request, context)`` of ``service``'s ``rpc`` with a
    server span continuing the caller's trace and request id (``method`` itself when off)."""
    return method if _spans is None else _spans.traced_method(method, service, rpc)


def traced_compute(handler: Callable, rpc: str, where: str) -> Callable:
    """Return the computation ``handler(reading, deadline)`` with a ``compute <rpc>`` span
    under the current one (``handler`` itself when off); ``where`` is ``in_process`` or
    ``child``."""
    return handler if _spans is None else _spans.traced_compute(handler, rpc, where)


def job_context() -> dict[str, str] | None:
    """Return the current trace context as the compute child's job carries it (W3C
    ``traceparent``), or None when tracing is off."""
    return None if _spans is None else _spans.job_context()


def continued(carrier: Mapping[str, str] | None, request_id: str) -> contextlib.AbstractContextManager:
    """Return a context manager under which the job's trace (``carrier``, from
    :func:`job_context`) and ``request_id`` are current: nothing when either side is off."""
    if _spans is None or carrier is None:
        return _OFF
    return _spans.continued(carrier, request_id)
