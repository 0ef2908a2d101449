"""The gRPC server every service process runs: computations off the event loop, one at a time.

pyswisseph keeps global (per-thread) state and holds the GIL, so a process computes one
request at a time, in one worker thread that the engine configures on its first call. The
asyncio loop only receives, queues and answers, so health checks keep answering during a
long computation. The queue is short (``CELESTIAL_SERVICE_QUEUE`` requests accepted at once,
the computing one included): beyond it the process answers RESOURCE_EXHAUSTED at once and
the gateway's channel retries another process of the pool. Each computation gets the call's
:class:`~shared.kernel.deadline.Deadline`; a client that cancels moves it to now.

A service is a mapping of RPC names to handlers ``handler(request, deadline) -> response``;
RPCs of the service without a handler answer UNIMPLEMENTED (the gateway's 501).
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import signal
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import structlog
from google.protobuf import message_factory
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message import Message
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from shared.errors import CelestialError, DeadlineExceeded, InternalError, ResultTooLarge
from shared.kernel import engine
from shared.kernel.deadline import Deadline, DeadlinePassed
from shared.runtime.config import load_settings
from shared.runtime.logging import configure_logging
from shared.runtime.orphan import stop_when_orphaned
from shared.runtime.status import to_status
from shared.runtime.validation import validate

REQUEST_ID_METADATA_KEY = "x-request-id"

# No port sharing: a second process on a port fails to bind instead of taking half its calls.
# The gateway pings its connections every CELESTIAL_SERVICE_KEEPALIVE_S, calls or not, to
# find a frozen process (gateway/rpc.py); by default a server answers pings that come more
# often than every 5 minutes without data with GOAWAY "too_many_pings", which would drop
# every connection now and then, so these options accept them at any rate.
SERVER_OPTIONS = (
    ("grpc.so_reuseport", 0),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.max_ping_strikes", 0),
)

Handler = Callable[[Any, Deadline], Message]

log = structlog.get_logger("celestial.service")


class ComputeQueue:
    """One worker thread and a bound on the requests waiting for it."""

    def __init__(self, limit: int):
        self.limit = max(1, limit)
        self.accepted = 0
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="compute")

    def full(self) -> bool:
        return self.accepted >= self.limit

    async def run(self, handler: Handler, request: Message, deadline: Deadline) -> Message:
        """Return ``handler(request, deadline)`` computed in the worker thread, after the
        proto options' rules (the handler's reader parses the vocabularies).

        The request stays accepted until the worker is done with it, even when the awaiting
        call is cancelled (the deadline is then cancelled, so the computation stops at its
        next check).
        """
        self.accepted += 1
        context = contextvars.copy_context()
        future = asyncio.get_running_loop().run_in_executor(self._worker, context.run, _compute, handler, request, deadline)
        future.add_done_callback(self._finished)
        try:
            return await future
        except asyncio.CancelledError:
            deadline.cancel()
            raise

    def _finished(self, _future: asyncio.Future) -> None:
        self.accepted -= 1

    def close(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)


#: The largest reply a service sends: gRPC's default message limit, which the gateway's
#: channel receives (decisions.md: 4 MiB of protobuf).
MAX_REPLY_BYTES = 4 * 1024 * 1024


def _compute(handler: Handler, request: Message, deadline: Deadline) -> Message:
    deadline.check()  # a request that waited past its deadline is not started
    reply = handler(validate(request, vocabularies=False), deadline)
    # The parameters' bounds keep every reply under the limit (tests/service/test_reply_bounds.py
    # measures the largest each endpoint can give); this is the backstop that keeps a reply
    # too large for the wire a 400 instead of a failed call answered as a busy service.
    size = reply.ByteSize()
    if size > MAX_REPLY_BYTES:
        raise ResultTooLarge(f"The answer holds {size:,} bytes; one reply carries at most {MAX_REPLY_BYTES:,}.")
    return reply


def _method_handler(queue: ComputeQueue, name: str, handler: Handler, request_cls: type[Message], response_cls: type[Message]):
    async def method(request: Message, context: grpc.aio.ServicerContext) -> Message:
        metadata = dict(context.invocation_metadata() or ())
        request_id = metadata.get(REQUEST_ID_METADATA_KEY, "")
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=request_id, rpc=name)
        if queue.full():
            # No status detail: the gateway's channel retries this on another process.
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, f"This process already holds {queue.limit} requests.")
        remaining = context.time_remaining()
        deadline = Deadline.after(remaining) if remaining is not None else Deadline.never()
        started = time.perf_counter()
        try:
            return await queue.run(handler, request, deadline)
        except Exception as exception:
            await _abort(context, answered_error(exception, name, request_id))
        finally:
            log.debug("rpc_finished", duration_ms=round((time.perf_counter() - started) * 1000, 3))

    return grpc.unary_unary_rpc_method_handler(
        method, request_deserializer=request_cls.FromString, response_serializer=response_cls.SerializeToString
    )


def answered_error(exception: Exception, rpc: str, request_id: str) -> CelestialError:
    """Return the error a handler's ``exception`` is answered with: a CelestialError as it is,
    a passed deadline as DEADLINE_EXCEEDED, anything else as an internal error (logged here
    with its traceback, never shown to the caller)."""
    if isinstance(exception, CelestialError):
        return exception
    if isinstance(exception, DeadlinePassed):
        return DeadlineExceeded(f"{rpc} stopped: its deadline passed or its caller left.")
    log.exception("rpc_failed", exc_info=exception)
    return InternalError(f"Internal error; request id {request_id or 'unknown'}.")


async def _abort(context: grpc.aio.ServicerContext, error: CelestialError) -> None:
    status = to_status(error)
    await context.abort(status.code, status.details, trailing_metadata=status.trailing_metadata)


def service_handler(service: ServiceDescriptor, handlers: Mapping[str, Handler], queue: ComputeQueue) -> grpc.GenericRpcHandler:
    """Return the gRPC handler serving ``handlers`` as RPCs of ``service``.

    Raises ValueError when ``handlers`` names an RPC the service does not have.
    """
    unknown = set(handlers) - {method.name for method in service.methods}
    if unknown:
        raise ValueError(f"{service.full_name} has no RPC {', '.join(sorted(unknown))}")
    methods = {}
    for method in service.methods:
        if method.name in handlers:
            methods[method.name] = _method_handler(
                queue,
                method.name,
                handlers[method.name],
                message_factory.GetMessageClass(method.input_type),
                message_factory.GetMessageClass(method.output_type),
            )
    return grpc.method_handlers_generic_handler(service.full_name, methods)


def implemented_name(service: ServiceDescriptor, rpc: str) -> str:
    """Return the health-check name under which a process reports that it implements ``rpc``."""
    return f"{service.full_name}/{rpc}"


async def run_server(
    service: ServiceDescriptor,
    handlers: Mapping[str, Handler],
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    queue: int = 4,
    ready: Callable[[int], None] | None = None,
) -> None:
    """Serve ``handlers`` as RPCs of ``service`` on ``host:port`` until SIGINT/SIGTERM.

    Port 0 picks a free port; ``ready(port)`` is called once bound. The standard health
    service reports SERVING for the service and for the empty name, which the gateway's
    round_robin health checks use, and for each implemented RPC by its method name
    (``celestial.v1.EphemerisService/ComputePositions``), which the gateway asks before
    charging for an RPC (an RPC without a handler is unknown there: the gateway's 501).
    """
    compute_queue = ComputeQueue(queue)
    server = grpc.aio.server(options=list(SERVER_OPTIONS))
    server.add_generic_rpc_handlers((service_handler(service, handlers, compute_queue),))
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    bound = server.add_insecure_port(f"{host}:{port}")
    await server.start()
    for name in ("", service.full_name, *(implemented_name(service, rpc) for rpc in handlers)):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    log.info("service_started", service=service.full_name, port=bound)
    if ready is not None:
        ready(bound)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    for name in ("", service.full_name):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
    await server.stop(grace=2.0)
    compute_queue.close()
    log.info("service_stopped", service=service.full_name, port=bound)


def serve_main(process: str, service: ServiceDescriptor, handlers: Mapping[str, Handler], argv: list[str] | None = None) -> None:
    """Command-line entry of a service process: ``--port N`` (0 = any free port), ``--host``."""
    parser = argparse.ArgumentParser(description=f"Celestial {process} service process")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args(argv)
    settings = load_settings()
    configure_logging(settings, process)
    stop_when_orphaned(settings.supervisor_pid)
    engine.use_ephemeris_files(settings.ephe_path)
    asyncio.run(
        run_server(service, handlers, host=args.host, port=args.port, queue=settings.service_queue)
    )
