"""The gRPC server runtime every service shares: one process, one computation at a time.

pyswisseph keeps global state and holds the GIL, so a service process computes requests
one after another: handlers run synchronously inside the asyncio server, and
``maximum_concurrent_rpcs`` bounds the queue (beyond it the server answers
RESOURCE_EXHAUSTED, which the gateway turns into 503 with Retry-After).
"""

from __future__ import annotations

import asyncio
import functools
import signal
import time
from typing import Any, Callable

import grpc
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from celestial.v1 import errors_pb2
from shared.errors import CelestialError, InternalError
from shared.validation import validate

ERROR_METADATA_KEY = "celestial-error-bin"
REQUEST_ID_METADATA_KEY = "x-request-id"

log = structlog.get_logger("celestial.service")


def error_detail(error: CelestialError) -> errors_pb2.ErrorDetail:
    """Return the wire form of a handled error."""
    return errors_pb2.ErrorDetail(
        code=error.code,
        message=error.message,
        suggestion=error.suggestion,
        http_status=error.http_status,
        param=error.param or "",
    )


def unary(handler: Callable[[Any, Any], Any]) -> Callable:
    """Wrap a synchronous ``handler(self, request) -> response`` as an async gRPC method.

    The wrapper binds the caller's request id to the log context, validates the request
    with the proto options, and turns a CelestialError into a status carrying ErrorDetail;
    any other exception becomes INTERNAL with a generic message and a logged traceback.
    """

    @functools.wraps(handler)
    async def method(self, request, context: grpc.aio.ServicerContext):
        metadata = dict(context.invocation_metadata() or ())
        request_id = metadata.get(REQUEST_ID_METADATA_KEY, "")
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=request_id, rpc=handler.__name__)
        started = time.perf_counter()
        try:
            validate(request)
            return handler(self, request)
        except CelestialError as error:
            await _abort(context, error)
        except Exception:
            log.exception("rpc_failed")
            await _abort(context, InternalError(f"Internal error; request id {request_id or 'unknown'}."))
        finally:
            log.debug("rpc_finished", duration_ms=round((time.perf_counter() - started) * 1000, 3))

    return method


async def _abort(context: grpc.aio.ServicerContext, error: CelestialError) -> None:
    await context.abort(
        error.grpc_code,
        error.message,
        trailing_metadata=((ERROR_METADATA_KEY, error_detail(error).SerializeToString()),),
    )


async def run_server(
    add_servicer: Callable[[Any, grpc.aio.Server], None],
    servicer: Any,
    service_full_name: str,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    queue: int = 16,
    ready: Callable[[int], None] | None = None,
) -> None:
    """Serve ``servicer`` on ``host:port`` until SIGINT/SIGTERM; ``ready(port)`` once bound.

    Port 0 picks a free port. The standard health service reports SERVING for the
    service and for the empty name, which the gateway's round_robin health checks use.
    """
    server = grpc.aio.server(maximum_concurrent_rpcs=queue, options=[("grpc.so_reuseport", 0)])
    add_servicer(servicer, server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    bound = server.add_insecure_port(f"{host}:{port}")
    await server.start()
    for name in ("", service_full_name):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    log.info("service_started", service=service_full_name, port=bound)
    if ready is not None:
        ready(bound)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    for name in ("", service_full_name):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
    await server.stop(grace=2.0)
    log.info("service_stopped", service=service_full_name, port=bound)


def serve_main(service: str, add_servicer: Callable[[Any, grpc.aio.Server], None], servicer: Any, full_name: str, argv: list[str] | None = None) -> None:
    """Command-line entry of a service process: ``--port N`` (0 = any free port)."""
    import argparse

    from shared.config import load_settings
    from shared.logging import configure_logging

    parser = argparse.ArgumentParser(description=f"Celestial {service} service process")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args(argv)
    settings = load_settings()
    configure_logging(settings, service)
    asyncio.run(run_server(add_servicer, servicer, full_name, host=args.host, port=args.port, queue=settings.service_queue))
