"""Traces on real processes (issue 50, part 2): with OTEL_EXPORTER_OTLP_ENDPOINT pointing at an
in-test OTLP/HTTP collector, one request is one trace, from the gateway through the gRPC call
and the service process to where it is computed (the service's own loop for a bounded call,
its compute child for the others), every span holding the request id; a client's
``traceparent`` is continued."""

from __future__ import annotations

import os

import pytest

from tests.otlp_collector import OtlpCollector, ReceivedSpan

REQUEST_ID_ATTRIBUTE = "celestial.request_id"
TRACE_ID = "0af7651916cd43dd8448eb211c80319c"
TRACEPARENT = f"00-{TRACE_ID}-b7ad6b7169203331-01"
#: The certificate's fields of tests/e2e/test_birth_certificate.py: London's id in GeoNames, local time.
LONDON_ID, LOCAL_TIME = "2643743", "1944-06-06T08:00:00"


@pytest.fixture(scope="module")
def collector(processes):
    running = OtlpCollector()
    yield running
    running.close()


@pytest.fixture(scope="module")
def traced_stack(module_real_stacks, collector):
    # Short export delays, so each process's spans arrive within the test's wait. The
    # supervisor's first health probes come only once the stack is ready, and a process started
    # more than the restart limit before (a start-up slowed by a busy machine) would be
    # restarted at once: the limit is raised beyond any start-up.
    return module_real_stacks.real(
        "traces",
        {
            "OTEL_EXPORTER_OTLP_ENDPOINT": collector.endpoint,
            "OTEL_BSP_SCHEDULE_DELAY": "100",
            "CELESTIAL_RESTART_UNHEALTHY_AFTER_S": "120",
        },
    )


def _roles_of(request_id: str):
    """Return a condition on the received spans: the spans of ``request_id`` by role (gateway,
    grpc client, service, compute) once all four have arrived. The client span is the one of
    the service's call (the gateway may also ask the pool's health, in a span of its own)."""

    def condition(spans: list[ReceivedSpan]) -> dict[str, ReceivedSpan] | None:
        roles = {}
        mine = [span for span in spans if span.attributes.get(REQUEST_ID_ATTRIBUTE) == request_id]
        for span in mine:
            if span.kind == "SPAN_KIND_SERVER":
                roles["gateway" if span.name.startswith(("GET ", "POST ")) else "service"] = span
            elif span.name.startswith("compute "):
                roles["compute"] = span
        client = [
            span for span in mine if span.kind == "SPAN_KIND_CLIENT" and span.name == roles.get("service", span).name
        ]
        if client:
            roles["grpc client"] = client[0]
        return roles if len(roles) == 4 else None

    return condition


def test_a_local_time_natal_chart_is_one_trace_of_gateway_grpc_service_and_compute_spans(traced_stack, collector):
    _, key = traced_stack.new_key(credits=100)
    request_id = "trace-natal-" + os.urandom(4).hex()
    with traced_stack.client(key, headers={"X-Request-Id": request_id}) as client:
        answer = client.get("/v1/natal-chart", params={"datetime": LOCAL_TIME, "place": LONDON_ID})
    assert answer.status_code == 200, answer.text
    roles = collector.wait_for(_roles_of(request_id))
    assert len({span.trace_id for span in roles.values()}) == 1
    assert roles["gateway"].name == "GET /v1/natal-chart"
    assert roles["grpc client"].parent_span_id == roles["gateway"].span_id
    assert roles["service"].parent_span_id == roles["grpc client"].span_id
    assert roles["compute"].parent_span_id == roles["service"].span_id
    assert roles["service"].name == roles["grpc client"].name == "celestial.v1.EphemerisService/ComputeNatalChart"
    assert roles["compute"].attributes["celestial.compute.where"] == "in_process"
    assert (roles["gateway"].service, roles["service"].service) == ("celestial-gateway", "celestial-ephemeris")


def test_an_incoming_traceparent_is_continued_into_the_compute_child(traced_stack, collector):
    _, key = traced_stack.new_key(credits=100)
    request_id = "trace-child-" + os.urandom(4).hex()
    headers = {"X-Request-Id": request_id, "traceparent": TRACEPARENT}
    with traced_stack.client(key, headers=headers) as client:
        answer = client.get("/v1/dignities", params={"datetime": "2024-03-20T12:00:00Z"})
    assert answer.status_code == 200, answer.text
    roles = collector.wait_for(_roles_of(request_id))
    assert {span.trace_id for span in roles.values()} == {TRACE_ID}
    assert roles["gateway"].parent_span_id == "b7ad6b7169203331"
    assert roles["compute"].parent_span_id == roles["service"].span_id
    assert roles["compute"].attributes["celestial.compute.where"] == "child"
    assert roles["compute"].service == "celestial-ephemeris-compute"
