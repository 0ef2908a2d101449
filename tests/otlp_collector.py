"""An OTLP/HTTP trace collector for the tests: a small HTTP server taking the
``ExportTraceServiceRequest`` protobufs an OTLP exporter posts to ``/v1/traces`` and keeping
their spans, which a test waits for by condition.

``python -m tests.otlp_collector PORT`` runs one that only counts what it receives (the
tracing benchmark's, so decoding costs the measured process nothing).
"""

from __future__ import annotations

import gzip
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span

#: Where an OTLP/HTTP exporter posts its traces (the specification's default path).
TRACES_PATH = "/v1/traces"


@dataclass(frozen=True)
class ReceivedSpan:
    """One span as the collector received it: ids in hex, the kind by its proto name
    (``SPAN_KIND_SERVER``...), attributes as plain values, the exporting process's service name."""

    trace_id: str
    span_id: str
    parent_span_id: str
    name: str
    kind: str
    service: str
    attributes: dict[str, Any] = field(default_factory=dict)


def _plain(value: AnyValue) -> Any:
    """Return an OTLP attribute value as a Python value."""
    which = value.WhichOneof("value")
    return getattr(value, which) if which else None


def decode_spans(body: bytes) -> list[ReceivedSpan]:
    """Return the spans of one ``ExportTraceServiceRequest``'s bytes."""
    request = ExportTraceServiceRequest.FromString(body)
    spans = []
    for resource_spans in request.resource_spans:
        resource = {kv.key: _plain(kv.value) for kv in resource_spans.resource.attributes}
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                spans.append(
                    ReceivedSpan(
                        trace_id=span.trace_id.hex(),
                        span_id=span.span_id.hex(),
                        parent_span_id=span.parent_span_id.hex(),
                        name=span.name,
                        kind=Span.SpanKind.Name(span.kind),
                        service=str(resource.get("service.name", "")),
                        attributes={kv.key: _plain(kv.value) for kv in span.attributes},
                    )
                )
    return spans


class OtlpCollector:
    """A running collector on 127.0.0.1 (``port``, 0 for any free one): ``endpoint`` is what
    OTEL_EXPORTER_OTLP_ENDPOINT takes. It keeps the spans received, or with ``keep`` False
    only counts the exports."""

    def __init__(self, keep: bool = True, port: int = 0):
        self.spans: list[ReceivedSpan] = []
        self.received = 0
        self._keep = keep
        self._changed = threading.Condition()
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.path != TRACES_PATH:
                    self.send_error(404)
                    return
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                collector._add(body)
                answer = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, format, *args):  # the tests' output stays theirs
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.endpoint = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, name="otlp-collector", daemon=True)
        self._thread.start()

    def _add(self, body: bytes) -> None:
        spans = decode_spans(body) if self._keep else []
        with self._changed:
            self.spans.extend(spans)
            self.received += 1
            self._changed.notify_all()

    def wait_for(self, condition: Callable[[list[ReceivedSpan]], Any], timeout_s: float = 30.0) -> Any:
        """Return ``condition(spans)`` once it is true of the spans received so far; raise
        TimeoutError when it is not within ``timeout_s``."""
        with self._changed:
            found = self._changed.wait_for(lambda: condition(list(self.spans)), timeout=timeout_s)
            if not found:
                raise TimeoutError(f"not received within {timeout_s} s; spans so far: {self.spans}")
            return found

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def main() -> None:
    """Run a counting collector on the port given until killed."""
    OtlpCollector(keep=False, port=int(sys.argv[1]))._thread.join()


if __name__ == "__main__":
    main()
