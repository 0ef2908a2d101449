"""The gRPC server every service process runs: bounded calls computed here, the others in a
child process, one at a time.

pyswisseph keeps global state and holds the GIL, so a process computes a call whose time is
not bounded one at a time, in a child process (``shared/runtime/compute_child.py``) that it
can kill: the asyncio loop here only receives, queues and answers those, so health checks keep
answering during the longest engine call, and a computation that outlives its deadline is
stopped. A call whose engine time is bounded (its RPC's ``(http).bounded``: positions, houses,
a natal chart, a few milliseconds at most) is computed on this process's loop instead, as it
arrives: it cannot run away, and handing it to the child and back (a thread, a pipe, the
request and the reply pickled each way) cost more CPU than the computation itself
(docs/performance.md). The loop is the only thread of this process that calls the engine.
The queue of the child's calls is short (``CELESTIAL_SERVICE_QUEUE`` requests accepted at once,
the computing one included): beyond it the process answers RESOURCE_EXHAUSTED at once and the gateway's channel
retries another process of the pool. Each computation gets the call's deadline; a client
that cancels makes it pass.

A service is a mapping of RPC names to handlers ``handler(request, deadline) -> response``;
RPCs of the service without a handler answer UNIMPLEMENTED (the gateway's 501). The process
reports NOT_SERVING until its child is warm, and while a killed child is replaced.

Told to stop (SIGTERM), the process refuses every new call itself, UNAVAILABLE, and keeps its
port open for the notice (:data:`STOP_NOTICE_S`) and until the calls it holds are done, so
that no call is refused by gRPC's own server shutdown: that answers the calls it has
received but not yet handed to a handler CANCELLED (grpc/grpc#41785), which a channel retries
only when its policy names it (the pools' channel does since: ``pool_channel.py``); the
gateway answered it 500.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import time
from collections.abc import Callable, Collection, Mapping
from concurrent.futures import ThreadPoolExecutor

import grpc
import structlog
from google.protobuf import message_factory
from google.protobuf.descriptor import ServiceDescriptor
from google.rpc import status_pb2
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from grpc_status import rpc_status

from celestial.v1 import options_pb2
from kernel.deadline import Deadline
from shared.runtime import tracing
from shared.runtime.computation import Handler, answered_error, compute_reply
from shared.runtime.compute_child import ComputeChild, Job, Outcome
from shared.runtime.config import load_settings
from shared.runtime.engine_setup import open_engine
from shared.runtime.logging import configure_logging
from shared.runtime.metrics_endpoint import record_if_served, start_metrics_endpoint, stop_metrics_endpoint
from shared.runtime.orphan import stop_when_orphaned
from shared.runtime.pool_channel import REQUEST_ID_METADATA_KEY
from shared.runtime.rpc_metrics import MethodMetrics, service_label
from shared.runtime.status import rich_status

#: The trailing metadata of every answer that says how long its computation took once
#: started (milliseconds; its wait in the queue not counted): the gateway orders calls by it.
COMPUTE_MS_METADATA_KEY = "x-compute-ms"

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


def server_options(connection_age_s: float, calls_grace_s: float) -> list[tuple[str, int]]:
    """Return the server's channel options: SERVER_OPTIONS, and connections closed (GOAWAY)
    once ``connection_age_s`` old, the calls under way on them given ``calls_grace_s`` more."""
    return [
        *SERVER_OPTIONS,
        ("grpc.max_connection_age_ms", round(connection_age_s * 1000)),
        ("grpc.max_connection_age_grace_ms", round(calls_grace_s * 1000)),
    ]


log = structlog.get_logger("celestial.service")

#: How long (seconds) a stopping process keeps its port open however few calls it holds,
#: refusing each new one UNAVAILABLE (retried on another process): its clients' health
#: streams hear NOT_SERVING within it and stop sending it calls before gRPC's shutdown, which
#: would answer a call arriving then CANCELLED. Part of the shutdown grace, not added to it.
STOP_NOTICE_S = 0.5


class Serving:
    """Whether the process still takes new calls, and how many calls it holds (received and
    not yet answered, queued for its child or computing here)."""

    def __init__(self) -> None:
        self.stopping = False
        self.held = 0
        self._idle = asyncio.Event()
        self._idle.set()

    def take(self) -> None:
        self.held += 1
        self._idle.clear()

    def done(self) -> None:
        self.held -= 1
        if self.held == 0:
            self._idle.set()

    async def until_idle(self) -> None:
        """Return once the process holds no call."""
        await self._idle.wait()


async def stop_serving(
    server: grpc.aio.Server, serving: Serving, *, grace_s: float, notice_s: float = STOP_NOTICE_S
) -> None:
    """Stop ``server`` so that gRPC's shutdown meets no call: from now on ``serving`` refuses
    every new call UNAVAILABLE (the caller has reported NOT_SERVING); the port stays open at
    least ``notice_s`` seconds and until the calls held are done, at most ``grace_s`` seconds
    in all; then the server stops, cancelling any call it still holds."""
    serving.stopping = True
    started = time.monotonic()
    notice = asyncio.sleep(min(notice_s, grace_s))
    try:
        async with asyncio.timeout(grace_s):
            await asyncio.gather(notice, serving.until_idle())
    except TimeoutError:
        pass
    await server.stop(grace=max(0.0, grace_s - (time.monotonic() - started)))


class ComputeQueue:
    """The requests a process holds (at most ``limit``), computed in turn by its child."""

    def __init__(self, limit: int, child: ComputeChild):
        self.limit = max(1, limit)
        self.accepted = 0
        self.child = child
        # The one thread that talks to the child: it serialises the computations.
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="compute")

    def full(self) -> bool:
        return self.accepted >= self.limit

    async def start(self) -> None:
        """Return once the child is started and warm."""
        await asyncio.get_running_loop().run_in_executor(self._thread, self.child.start)

    async def run(self, rpc: str, request: bytes, deadline: Deadline, request_id: str) -> tuple[Outcome, float]:
        """Return the outcome of computing ``request`` (the bytes of the RPC's request message)
        and the seconds its computation took once started (its wait in the queue not counted).

        The request stays accepted until the child is done with it, even when the awaiting
        call is cancelled (the child is then told to stop, and killed if it does not).
        """
        self.accepted += 1
        job = Job(rpc, request, deadline, request_id, trace_context=tracing.job_context())
        future = asyncio.get_running_loop().run_in_executor(self._thread, self._timed_compute, job)
        future.add_done_callback(self._finished)
        try:
            return await future
        except asyncio.CancelledError:
            job.cancel()
            raise

    def _timed_compute(self, job: Job) -> tuple[Outcome, float]:
        started = time.perf_counter()
        outcome = self.child.compute(job)
        return outcome, time.perf_counter() - started

    def _finished(self, _future: asyncio.Future) -> None:
        self.accepted -= 1

    def close(self) -> None:
        self._thread.shutdown(wait=False, cancel_futures=True)
        self.child.stop()


def bounded_rpcs(service: ServiceDescriptor) -> frozenset[str]:
    """Return the names of the RPCs of ``service`` whose engine time is bounded: those whose
    ``(http)`` option says ``bounded`` (protos/celestial/v1/options.proto)."""
    return frozenset(
        method.name for method in service.methods if method.GetOptions().Extensions[options_pb2.http].bounded
    )


class InProcess:
    """A bounded RPC computed on the serving process's loop, as the compute child would."""

    def __init__(self, service: ServiceDescriptor, name: str, handler: Handler):
        self.name = name
        self.handler = tracing.traced_compute(handler, name, "in_process")
        self.request_cls = message_factory.GetMessageClass(service.methods_by_name[name].input_type)

    def run(self, request: bytes, deadline: Deadline, request_id: str) -> tuple[Outcome, float]:
        """Return the outcome of computing ``request`` (the RPC's request message's bytes) here,
        and the seconds it took: what :meth:`ComputeQueue.run` returns for the child's calls."""
        started = time.perf_counter()
        try:
            reply = compute_reply(self.handler, self.request_cls.FromString(request), deadline)
            outcome = Outcome(True, reply.SerializeToString())
        except Exception as exception:
            outcome = Outcome(False, rich_status(answered_error(exception, self.name, request_id)).SerializeToString())
        return outcome, time.perf_counter() - started


def _method_handler(
    queue: ComputeQueue,
    name: str,
    metrics: MethodMetrics,
    here: InProcess | None = None,
    service: str = "",
    serving: Serving | None = None,
):
    serving = Serving() if serving is None else serving

    async def method(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        if serving.stopping:
            # No status detail: the caller's channel retries this on another process.
            await context.abort(grpc.StatusCode.UNAVAILABLE, "This process is stopping.")
        serving.take()
        try:
            return await answer(request, context)
        finally:
            serving.done()

    async def answer(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        metadata = dict(context.invocation_metadata() or ())
        request_id = metadata.get(REQUEST_ID_METADATA_KEY, "")
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=request_id, rpc=name)
        if here is None and queue.full():
            # No status detail: the gateway's channel retries this on another process.
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED, f"This process already holds {queue.limit} requests."
            )
        remaining = context.time_remaining()
        deadline = Deadline.after(remaining) if remaining is not None else Deadline.never()
        started = time.perf_counter()
        timing: tuple[tuple[str, str], ...] = ()
        try:
            if here is not None:
                outcome, compute_s = here.run(request, deadline, request_id)
            else:
                outcome, compute_s = await queue.run(name, request, deadline, request_id)
        except Exception as exception:
            status = rich_status(answered_error(exception, name, request_id))
        else:
            metrics.record_engine(compute_s)
            timing = ((COMPUTE_MS_METADATA_KEY, f"{compute_s * 1000:.3f}"),)
            if outcome.ok:
                context.set_trailing_metadata(timing)
                return outcome.payload
            status = status_pb2.Status.FromString(outcome.payload)
        finally:
            log.debug("rpc_finished", duration_ms=round((time.perf_counter() - started) * 1000, 3))
        await _abort(context, status, timing)

    # The bytes cross to the child as they came: this process parses only its bounded calls'.
    return grpc.unary_unary_rpc_method_handler(tracing.traced_method(metrics.observed(method), service, name))


async def _abort(
    context: grpc.aio.ServicerContext, status: status_pb2.Status, metadata: tuple[tuple[str, str], ...] = ()
) -> None:
    carried = rpc_status.to_status(status)
    await context.abort(carried.code, carried.details, trailing_metadata=(*carried.trailing_metadata, *metadata))


def service_handler(
    service: ServiceDescriptor,
    handlers: Mapping[str, Handler],
    queue: ComputeQueue,
    in_process: Collection[str] | None = None,
    serving: Serving | None = None,
) -> grpc.GenericRpcHandler:
    """Return the gRPC handler serving ``handlers`` as RPCs of ``service``: those named in
    ``in_process`` (by default the bounded ones, :func:`bounded_rpcs`) computed in this
    process, the others by ``queue``'s child. Once ``serving`` is stopping, every new call is
    refused UNAVAILABLE.

    Raises ValueError when ``handlers`` names an RPC the service does not have.
    """
    unknown = set(handlers) - {method.name for method in service.methods}
    if unknown:
        raise ValueError(f"{service.full_name} has no RPC {', '.join(sorted(unknown))}")
    here = bounded_rpcs(service) if in_process is None else frozenset(in_process)
    serving = Serving() if serving is None else serving
    methods = {
        name: _method_handler(
            queue,
            name,
            MethodMetrics(service_label(service), name),
            InProcess(service, name, handlers[name]) if name in here else None,
            service.full_name,
            serving,
        )
        for name in (method.name for method in service.methods)
        if name in handlers
    }
    return grpc.method_handlers_generic_handler(service.full_name, methods)


def implemented_name(service: ServiceDescriptor, rpc: str) -> str:
    """Return the health-check name under which a process reports that it implements ``rpc``."""
    return f"{service.full_name}/{rpc}"


async def run_server(
    service: ServiceDescriptor,
    handlers: Mapping[str, Handler],
    *,
    process: str = "service",
    host: str = "127.0.0.1",
    port: int = 0,
    queue: int = 4,
    ready: Callable[[int], None] | None = None,
    shutdown_grace_s: float = 2.0,
    connection_age_s: float = 30.0,
    calls_grace_s: float = 65.0,
    in_process: Collection[str] | None = None,
) -> None:
    """Serve ``handlers`` as RPCs of ``service`` on ``host:port`` until SIGINT/SIGTERM.

    On SIGINT/SIGTERM the process reports NOT_SERVING, refuses new calls itself (UNAVAILABLE,
    which the gateway's channel retries on another process) and gives the calls it holds
    ``shutdown_grace_s`` to finish before it cancels them and stops its child; its port stays
    open meanwhile, at least :data:`STOP_NOTICE_S` (:func:`stop_serving`). Connections
    are closed once ``connection_age_s`` old (calls under way get ``calls_grace_s`` more),
    so a client of a DNS name resolves it again. Server reflection lists the service, so
    grpcurl and any reflection client can call it without the protos.

    Port 0 picks a free port; ``ready(port)`` is called once the process is SERVING. The
    standard health service reports, for the service and for the empty name (which the
    gateway's round_robin health checks use), NOT_SERVING from the moment the port is bound
    until the compute child is warm, and again while a killed child is replaced; it reports
    each implemented RPC by its method name (``celestial.v1.EphemerisService/ComputePositions``)
    from the start, which the gateway asks before charging for an RPC (an RPC without a
    handler is unknown there: the gateway's 501).

    The RPCs named in ``in_process`` (by default the bounded ones, :func:`bounded_rpcs`) are
    computed on this process's loop, the engine's files opened here first; the others in
    the compute child.
    """
    loop = asyncio.get_running_loop()
    health_servicer = health.aio.HealthServicer()

    async def report(status: health_pb2.HealthCheckResponse.ServingStatus) -> None:
        for name in ("", service.full_name):
            await health_servicer.set(name, status)

    def readiness(serving: bool) -> None:  # called from the compute thread
        status = health_pb2.HealthCheckResponse.SERVING if serving else health_pb2.HealthCheckResponse.NOT_SERVING
        loop.call_soon_threadsafe(lambda: loop.create_task(report(status)))

    compute_queue = ComputeQueue(queue, ComputeChild(service, handlers, process, readiness))
    here = (bounded_rpcs(service) if in_process is None else frozenset(in_process)) & set(handlers)
    if here:
        open_engine(load_settings())
    server = grpc.aio.server(options=server_options(connection_age_s, calls_grace_s))
    serving = Serving()
    server.add_generic_rpc_handlers((service_handler(service, handlers, compute_queue, here, serving),))
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection((service.full_name, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    bound = server.add_insecure_port(f"{host}:{port}")
    await report(health_pb2.HealthCheckResponse.NOT_SERVING)
    for rpc in handlers:
        await health_servicer.set(implemented_name(service, rpc), health_pb2.HealthCheckResponse.SERVING)
    # Bound before the child is warm: a gateway connects at once and hears SERVING on its
    # health stream the moment the child is ready, instead of backing off a refused port.
    await server.start()
    settings = load_settings()
    metrics = await start_metrics_endpoint(settings.metrics_host, settings.metrics_port)
    started = time.perf_counter()
    await compute_queue.start()
    await report(health_pb2.HealthCheckResponse.SERVING)
    log.info(
        "service_started",
        service=service.full_name,
        port=bound,
        warm_up_ms=round((time.perf_counter() - started) * 1000, 1),
    )
    if ready is not None:
        ready(bound)
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await report(health_pb2.HealthCheckResponse.NOT_SERVING)
    log.info("service_stopping", service=service.full_name, port=bound, calls_held=serving.held)
    await stop_serving(server, serving, grace_s=shutdown_grace_s)
    compute_queue.close()
    await stop_metrics_endpoint(metrics)
    log.info("service_stopped", service=service.full_name, port=bound)


def serve_main(
    process: str, service: ServiceDescriptor, handlers: Mapping[str, Handler], argv: list[str] | None = None
) -> None:
    """Command-line entry of a service process: ``--port N`` (0 = any free port), ``--host``."""
    parser = argparse.ArgumentParser(description=f"Celestial {process} service process")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args(argv)
    settings = load_settings()
    configure_logging(settings, process)
    tracing.configure(process)
    stop_when_orphaned(settings.supervisor_pid)
    record_if_served(settings.metrics_port)
    asyncio.run(
        run_server(
            service,
            handlers,
            process=process,
            host=args.host,
            port=args.port,
            queue=settings.service_queue,
            shutdown_grace_s=settings.shutdown_grace_s,
            connection_age_s=settings.service_connection_age_s,
            calls_grace_s=settings.scan_deadline_s + 5.0,
        )
    )
