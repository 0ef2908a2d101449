"""Traces (shared/runtime/tracing.py): on only when an OTLP endpoint is configured, free when
off, and one trace carried from an HTTP request's ``traceparent`` through a gRPC call into the
computation, each span with the request id.

References: W3C Trace Context (``traceparent`` = version-traceid-parentid-flags); the
OpenTelemetry specification's OTLP exporter settings. Spans go to the SDK's in-memory
exporter here; tests/e2e/test_traces.py exports them by OTLP from real processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys

import grpc
import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from shared.runtime import trace_spans, tracing
from shared.runtime.pool_channel import REQUEST_ID_METADATA_KEY
from tests.otlp_collector import OtlpCollector

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"
TRACEPARENT = f"00-{TRACE_ID}-{PARENT_ID}-01"
OTEL_SETTINGS = (*tracing.ENDPOINT_SETTINGS, "OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER")


@pytest.fixture
def no_otel_settings(monkeypatch):
    for name in OTEL_SETTINGS:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def spans(no_otel_settings):
    """Tracing on in this process, exporting to memory; yields a function returning the spans
    ended so far (exported first) by name and kind, ``(name, kind)`` and by name alone."""
    exporter = InMemorySpanExporter()
    assert tracing.configure("test", exporter=exporter)

    def finished():
        tracing._provider.force_flush()
        ended = exporter.get_finished_spans()
        return {span.name: span for span in ended} | {(span.name, span.kind): span for span in ended}

    yield finished
    tracing.shutdown()


def _hex(number: int, width: int) -> str:
    return format(number, f"0{width}x")


async def _get(app, path_template: str, headers: list[tuple[bytes, bytes]]) -> int:
    """Run one GET through the ASGI ``app`` (routed to ``path_template``); return its status."""
    route = type("Route", (), {"path": path_template})()
    scope = {"type": "http", "method": "GET", "path": "/v1/x", "headers": headers, "route": route}
    sent = []

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    return sent[0]["status"]


def test_tracing_is_requested_by_either_otlp_endpoint_setting():
    assert tracing.tracing_requested({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"})
    assert tracing.tracing_requested({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"})
    assert not tracing.tracing_requested({})
    assert not tracing.tracing_requested({"OTEL_EXPORTER_OTLP_ENDPOINT": " "})


def test_otel_sdk_disabled_keeps_tracing_off_even_with_an_endpoint():
    assert not tracing.tracing_requested({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "true"})


def test_otel_traces_exporter_none_keeps_tracing_off_even_with_an_endpoint():
    assert not tracing.tracing_requested(
        {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "none"}
    )


def test_without_an_endpoint_no_tracer_provider_is_installed(no_otel_settings):
    assert not tracing.configure("gateway")
    assert not tracing.tracing_on()
    assert tracing._provider is None
    # The API's global provider is still its no-op proxy: nothing was registered globally either.
    assert type(trace.get_tracer_provider()).__name__ == "ProxyTracerProvider"


def test_when_off_every_hook_returns_what_it_was_given(no_otel_settings):
    tracing.configure("gateway")

    async def app(scope, receive, send): ...

    async def method(request, context): ...

    def handler(reading, deadline): ...

    assert tracing.traced_asgi(app, lambda scope: "id") is app
    assert tracing.client_interceptors("ephemeris") == []
    assert tracing.traced_method(method, "celestial.v1.EphemerisService", "ComputePositions") is method
    assert tracing.traced_compute(handler, "ComputePositions", "child") is handler
    assert tracing.job_context() is None
    assert tracing.continued({"traceparent": TRACEPARENT}, "id") is tracing.continued(None, "id")


def test_when_off_no_process_kind_imports_opentelemetry(processes):
    # A process's start pays for what it imports (a killed service must serve again within
    # the stated recovery time): with tracing off, the gateway, a service, the compute child
    # and the webhook worker load no OpenTelemetry module at all.
    environ = {name: value for name, value in os.environ.items() if name not in OTEL_SETTINGS}
    probe = (
        "import sys, gateway.main, shared.runtime.server, shared.runtime.compute_child, webhooks.worker; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'opentelemetry'))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], env=environ, capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


def test_when_off_a_traced_request_makes_no_span_and_carries_no_context(no_otel_settings):
    seen = []

    async def app(scope, receive, send):
        seen.append((trace.get_current_span().get_span_context().is_valid, tracing.job_context()))
        await send({"type": "http.response.start", "status": 200, "headers": []})

    status = asyncio.run(_get(tracing.traced_asgi(app, lambda scope: "r-1"), "/v1/x", [(b"traceparent", b"00-x")]))
    assert status == 200
    assert seen == [(False, None)]


def test_with_an_endpoint_the_spans_are_exported_by_otlp_http_under_the_process_name(no_otel_settings, monkeypatch):
    collector = OtlpCollector()
    try:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint)
        assert tracing.configure("gateway")

        async def app(scope, receive, send):
            await send({"type": "http.response.start", "status": 200, "headers": []})

        asyncio.run(_get(tracing.traced_asgi(app, lambda scope: "r-otlp"), "/v1/positions", []))
        tracing.shutdown()
        (span,) = collector.spans
        assert (span.name, span.kind, span.service) == ("GET /v1/positions", "SPAN_KIND_SERVER", "celestial-gateway")
        assert span.attributes[trace_spans.REQUEST_ID_ATTRIBUTE] == "r-otlp"
    finally:
        tracing.shutdown()
        collector.close()


def test_with_the_sdk_disabled_a_configured_collector_receives_nothing(no_otel_settings, monkeypatch):
    collector = OtlpCollector()
    try:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint)
        monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
        assert not tracing.configure("gateway")

        async def app(scope, receive, send):
            await send({"type": "http.response.start", "status": 200, "headers": []})

        asyncio.run(_get(tracing.traced_asgi(app, lambda scope: "r-2"), "/v1/x", []))
        tracing.shutdown()  # what a process does at exit: would flush any span held
        assert collector.received == 0 and collector.spans == []
    finally:
        collector.close()


def test_an_incoming_traceparent_is_continued_by_the_request_span(spans):
    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})

    traced = tracing.traced_asgi(app, lambda scope: "req-continued")
    asyncio.run(_get(traced, "/v1/positions", [(b"traceparent", TRACEPARENT.encode())]))
    span = spans()["GET /v1/positions"]
    assert _hex(span.context.trace_id, 32) == TRACE_ID
    assert _hex(span.parent.span_id, 16) == PARENT_ID
    assert span.kind == trace.SpanKind.SERVER
    assert span.attributes[trace_spans.REQUEST_ID_ATTRIBUTE] == "req-continued"
    assert span.attributes["http.route"] == "/v1/positions"
    assert span.attributes["http.response.status_code"] == 200


def test_a_request_without_traceparent_starts_a_new_trace(spans):
    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})

    asyncio.run(_get(tracing.traced_asgi(app, lambda scope: "req-new"), "/v1/positions", []))
    span = spans()["GET /v1/positions"]
    assert span.parent is None
    assert span.context.trace_id != int(TRACE_ID, 16)


def test_a_5xx_answer_marks_the_request_span_failed(spans):
    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 503, "headers": []})

    asyncio.run(_get(tracing.traced_asgi(app, lambda scope: "req-503"), "/v1/positions", []))
    assert spans()["GET /v1/positions"].status.status_code == trace.StatusCode.ERROR


async def _echo_call(app_metadata: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Call a traced echo RPC of a loopback grpc.aio server through a traced channel, under
    the current context; return the job context the server's method saw."""
    seen: dict[str, str] = {}

    async def echo(request: bytes, context) -> bytes:
        seen.update(tracing.job_context() or {})
        return request

    handler = grpc.method_handlers_generic_handler(
        "test.Echo", {"Echo": grpc.unary_unary_rpc_method_handler(tracing.traced_method(echo, "test.Echo", "Echo"))}
    )
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(
            f"127.0.0.1:{port}", interceptors=tracing.client_interceptors("echo")
        ) as channel:
            call = channel.unary_unary("/test.Echo/Echo")
            assert await call(b"ping", metadata=app_metadata, timeout=10) == b"ping"
    finally:
        await server.stop(None)
    return seen


def test_the_grpc_call_carries_the_trace_from_client_span_to_server_span(spans):
    async def run():
        async def app(scope, receive, send):
            await _echo_call(((REQUEST_ID_METADATA_KEY, "req-grpc"),))
            await send({"type": "http.response.start", "status": 200, "headers": []})

        await _get(
            tracing.traced_asgi(app, lambda scope: "req-grpc"), "/v1/echo", [(b"traceparent", TRACEPARENT.encode())]
        )

    asyncio.run(run())
    ended = spans()
    request = ended["GET /v1/echo"]
    client = ended["test.Echo/Echo", trace.SpanKind.CLIENT]
    server = ended["test.Echo/Echo", trace.SpanKind.SERVER]
    assert {span.context.trace_id for span in (request, client, server)} == {int(TRACE_ID, 16)}
    assert client.parent.span_id == request.context.span_id
    assert server.parent.span_id == client.context.span_id
    assert client.attributes["rpc.system"] == "grpc" and client.attributes["celestial.pool"] == "echo"
    assert client.attributes["rpc.grpc.status_code"] == grpc.StatusCode.OK.value[0]
    for span in (request, client, server):
        assert span.attributes[trace_spans.REQUEST_ID_ATTRIBUTE] == "req-grpc"


def test_the_compute_childs_job_carries_the_trace_and_request_id(spans):
    def handler(reading, deadline):
        return "reply"

    with trace_spans._current(trace_spans._span("service", trace.SpanKind.SERVER, None, {}), None) as service_span:
        carrier = tracing.job_context()
    # In the child: the job's context and request id made current around the traced handler.
    with tracing.continued(carrier, "req-child"):
        assert tracing.traced_compute(handler, "FindEclipses", "child")(None, None) == "reply"
    compute = spans()["compute FindEclipses"]
    assert carrier["traceparent"].split("-")[1] == _hex(service_span.context.trace_id, 32)
    assert compute.context.trace_id == service_span.context.trace_id
    assert compute.parent.span_id == service_span.context.span_id
    assert compute.attributes[trace_spans.REQUEST_ID_ATTRIBUTE] == "req-child"
    assert compute.attributes[trace_spans.COMPUTED_IN_ATTRIBUTE] == "child"


def test_a_failed_computation_marks_its_span_failed(spans):
    def handler(reading, deadline):
        raise ValueError("no")

    with contextlib.suppress(ValueError):
        tracing.traced_compute(handler, "ComputePositions", "in_process")(None, None)
    assert spans()["compute ComputePositions"].status.status_code == trace.StatusCode.ERROR


def test_configure_again_while_on_changes_nothing(spans):
    provider = tracing._provider
    assert tracing.configure("other", exporter=InMemorySpanExporter())
    assert tracing._provider is provider


def test_shutdown_switches_tracing_off(spans):
    tracing.shutdown()
    assert not tracing.tracing_on()
    assert tracing.client_interceptors("ephemeris") == []
