"""shared/runtime/metrics_endpoint.py: ``/metrics`` in the Prometheus text format on a port of
its own, off at port 0; the gauges read at a scrape are refreshed by the scrape; nothing but
``/metrics`` is served there."""

from __future__ import annotations

import asyncio

from prometheus_client import REGISTRY, Gauge
from prometheus_client.parser import text_string_to_metric_families

from deploy.local_stack import free_port_block
from gateway.request_metrics import record_request
from shared import metrics_recording
from shared.metrics_recording import before_scrape
from shared.runtime.metrics_endpoint import record_if_served, start_metrics_endpoint, stop_metrics_endpoint

# Not in the catalogue (shared.metrics_recording.gauge would put it there): the test's own.
SCRAPED = Gauge("celestial_test_scrapes", "Scrapes seen by this test module (a gauge set at each scrape).")
_scrapes = [0]


def _count_scrape() -> None:
    _scrapes[0] += 1
    SCRAPED.set(_scrapes[0])


before_scrape(_count_scrape)


async def get(port: int, request: bytes) -> tuple[bytes, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    answer = await reader.read()
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    return head, body


def scraped(requests: list[bytes]) -> list[tuple[bytes, bytes]]:
    async def scenario():
        port = free_port_block(1)
        server = await start_metrics_endpoint("127.0.0.1", port)
        try:
            return [await get(port, request) for request in requests]
        finally:
            await stop_metrics_endpoint(server)

    return asyncio.run(scenario())


def test_metrics_are_served_in_the_prometheus_text_format():
    ((head, body),) = scraped([b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"])
    assert head.startswith(b"HTTP/1.1 200 ")
    assert b"text/plain; version=0.0.4" in head
    names = {family.name for family in text_string_to_metric_families(body.decode())}
    assert "celestial_test_scrapes" in names


def test_each_scrape_refreshes_the_gauges_first():
    answers = scraped([b"GET /metrics HTTP/1.1\r\n\r\n", b"GET /metrics HTTP/1.1\r\n\r\n"])
    values = [
        sample.value
        for _, body in answers
        for family in text_string_to_metric_families(body.decode())
        if family.name == "celestial_test_scrapes"
        for sample in family.samples
    ]
    assert values[1] == values[0] + 1


def test_only_the_metrics_path_is_served():
    (head, _), (other, _) = scraped([b"GET /healthz HTTP/1.1\r\n\r\n", b"POST /metrics HTTP/1.1\r\n\r\n"])
    assert head.startswith(b"HTTP/1.1 404 ") and other.startswith(b"HTTP/1.1 405 ")


def test_port_zero_serves_nothing():
    assert asyncio.run(start_metrics_endpoint("127.0.0.1", 0)) is None


def test_a_process_serving_no_metrics_records_none(monkeypatch):
    monkeypatch.setattr(metrics_recording, "_recording", True)
    record_if_served(9102)
    assert metrics_recording.recording()
    labels = {"operation": "other", "status": "418"}
    before = REGISTRY.get_sample_value("celestial_http_requests_total", labels) or 0.0
    record_if_served(0)
    record_request({}, 418, 0.001)
    assert not metrics_recording.recording()
    assert (REGISTRY.get_sample_value("celestial_http_requests_total", labels) or 0.0) == before
