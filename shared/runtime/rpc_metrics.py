"""A service process's calls: how many by method and gRPC status code, their service time
(from the call's arrival to its answer) and their engine time (the computation alone, in the
compute child or on the loop for a bounded call), recorded by ``shared/runtime/server.py``."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

import grpc
from google.protobuf.descriptor import ServiceDescriptor

from shared.metrics_recording import counter, duration_histogram, recording

REQUESTS = counter(
    "celestial_rpc_requests_total",
    "gRPC calls a service process answered, by method and status code.",
    ("service", "method", "code"),
)
DURATION = duration_histogram(
    "celestial_rpc_duration_seconds",
    "Seconds a service process took to answer a call, its queue included.",
    ("service", "method"),
)
ENGINE = duration_histogram(
    "celestial_engine_duration_seconds",
    "Seconds a call's computation took once started (the engine's time).",
    ("service", "method"),
)

Method = Callable[[bytes, grpc.aio.ServicerContext], Awaitable[bytes]]


def service_label(service: ServiceDescriptor) -> str:
    """Return the ``service`` label of ``service``: its pool's name (``EphemerisService`` → ``ephemeris``)."""
    return service.name.removesuffix("Service").lower()


def code_name(code: grpc.StatusCode | None) -> str:
    """Return the ``code`` label of a call answered with ``code`` (None: answered OK)."""
    return (code or grpc.StatusCode.OK).name


class MethodMetrics:
    """The metrics of one RPC of one service, their label values bound once."""

    def __init__(self, service: str, method: str):
        self.service = service
        self.method = method
        self.duration = DURATION.labels(service, method)
        self.engine = ENGINE.labels(service, method)

    def observed(self, method: Method) -> Method:
        """Return ``method`` counted by status code and timed from its arrival to its answer
        (``method`` itself when this process records no metric)."""
        if not recording():
            return method

        async def observed_method(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
            started = time.perf_counter()
            code: grpc.StatusCode | None = grpc.StatusCode.UNKNOWN
            try:
                reply = await method(request, context)
                code = context.code()
                return reply
            except BaseException:
                code = _aborted_code(context)
                raise
            finally:
                self.duration.observe(time.perf_counter() - started)
                REQUESTS.labels(self.service, self.method, code_name(code)).inc()

        return observed_method

    def record_engine(self, compute_s: float) -> None:
        """Count one computation that took ``compute_s`` seconds."""
        if not recording():
            return
        self.engine.observe(compute_s)


def _aborted_code(context: grpc.aio.ServicerContext) -> grpc.StatusCode:
    """Return the code a call stopped by an exception answers: its abort's, else CANCELLED
    (the client left) or UNKNOWN."""
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code
    return grpc.StatusCode.CANCELLED if context.cancelled() else grpc.StatusCode.UNKNOWN
