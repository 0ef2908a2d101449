"""The child process that computes a service's requests, and the serving process's hold on it.

pyswisseph holds the GIL through each engine call, and one call can last seconds (a heliacal
search near the pole: 13.6 s within one synodic period, a window no flag of the engine
shortens). Computed in the serving process, such a call would silence its health checks, and
nothing could stop it at its deadline. So a service process computes every call whose time is
not bounded (``(http).bounded`` unset, ``shared/runtime/server.py``) in one child process,
one request at a time, and stops it (SIGKILL) when a computation outlives its deadline, or its
caller's leaving, by HARD_STOP_GRACE_S; a new child, warmed before it computes, takes its place.

Children fork from a forkserver that imported the service's modules once, so a new child is
ready in milliseconds instead of an interpreter's start-up. Each child opens the ephemeris
files itself (a file opened before the fork would share its offset between processes).

In the usual case a computation stops by itself before the hard stop: the child's deadline is
the call's (Linux's monotonic clock is the machine's), and a cancellation reaches it through a
shared counter its :class:`~kernel.deadline.Deadline` reads at every check.
"""

from __future__ import annotations

import ctypes
import importlib
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection

import structlog
from google.protobuf import descriptor_pool, message_factory
from google.protobuf.descriptor import ServiceDescriptor

from kernel.deadline import Deadline, DeadlinePassed
from shared.errors import InternalError
from shared.runtime import tracing
from shared.runtime.computation import Handler, answered_error, compute_reply, stopped
from shared.runtime.config import load_settings
from shared.runtime.engine_setup import open_engine
from shared.runtime.logging import configure_logging
from shared.runtime.status import rich_status

#: How long a computation may run past its deadline, or past its caller's leaving, before its
#: child is killed: a scan checks its deadline far more often than this, so only a single long
#: engine call ever meets the hard stop.
HARD_STOP_GRACE_S = 1.0
#: The compute child's niceness (Linux: 0 to 19, higher yields the CPU sooner). A child computes
#: the calls whose time is not bounded (scans, searches, PNG wheels: up to seconds of CPU);
#: the serving process computes the bounded ones (positions, houses: milliseconds) on its own
#: loop. On a machine whose cores the children keep busy, the scheduler then gives a bounded
#: call the CPU first instead of an equal slice, so a cheap call is not slowed by another
#: account's expensive ones (issue 48; docs/performance.md).
COMPUTE_NICENESS = 10
#: How often the waiting thread looks for a cancellation to pass on to the child.
_CANCEL_POLL_S = 0.05
_READY = b"ready"
# Linux prctl(2) option: the signal a process receives when its parent exits.
_PR_SET_PDEATHSIG = 1

log = structlog.get_logger("celestial.service")


@dataclass(frozen=True)
class Outcome:
    """What one computation gave: a serialized reply when ``ok``, else a serialized google.rpc.Status."""

    ok: bool
    payload: bytes


@dataclass
class Job:
    """One request handed to the child: the RPC's name, the request's bytes, its deadline."""

    rpc: str
    request: bytes
    deadline: Deadline
    request_id: str
    #: When (monotonic seconds) its caller left; set from the event loop's thread.
    cancelled_at: float | None = None
    #: The trace it is computed in (W3C ``traceparent``, shared/runtime/tracing.py), None untraced.
    trace_context: dict[str, str] | None = None

    def cancel(self) -> None:
        """Mark the job abandoned by its caller: the child is told to stop it."""
        if self.cancelled_at is None:
            self.cancelled_at = time.monotonic()

    def hard_stop_at(self) -> float:
        """Return when (monotonic seconds) the child computing this job is killed."""
        stop_at = self.deadline.at_monotonic_s + HARD_STOP_GRACE_S
        if self.cancelled_at is not None:
            stop_at = min(stop_at, self.cancelled_at + HARD_STOP_GRACE_S)
        return stop_at


class ComputeChild:
    """One child process computing a service's requests in turn, started again whenever it is
    stopped or dies. :meth:`start`, :meth:`compute` and :meth:`stop` block and are called from
    one thread; ``on_readiness(bool)`` hears when the child is ready to compute, or is not."""

    def __init__(
        self,
        service: ServiceDescriptor,
        handlers: Mapping[str, Handler],
        process_name: str,
        on_readiness: Callable[[bool], None],
    ):
        self._service = (service.full_name, service.file.name)
        self._handlers = dict(handlers)
        self._process_name = process_name
        self._on_readiness = on_readiness
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(
            sorted({handler.__module__ for handler in handlers.values()} - {"__main__"})
        )
        # The sequence number of the last computation the child must abandon.
        self._abandon = self._context.RawValue("q", 0)
        self._sequence = 0
        self._process: multiprocessing.process.BaseProcess | None = None
        self._connection: Connection | None = None
        self.restarts = 0

    def start(self) -> None:
        """Start a child and return once it is warm. Raises RuntimeError when it dies first."""
        parent_end, child_end = self._context.Pipe()
        process = self._context.Process(
            target=child_main,
            args=(self._service, self._handlers, self._process_name, child_end, self._abandon),
            name=f"{self._process_name}-compute",
            daemon=True,
        )
        process.start()
        child_end.close()
        try:
            if parent_end.recv_bytes() != _READY:
                raise EOFError
        except (EOFError, OSError):
            process.join(timeout=1.0)
            parent_end.close()
            raise RuntimeError(
                f"The {self._process_name} compute process stopped while starting (exit code {process.exitcode})."
            ) from None
        self._process, self._connection = process, parent_end
        self._on_readiness(True)

    def stop(self) -> None:
        """Kill the child, if one runs, and wait for it."""
        process, connection = self._process, self._connection
        self._process = self._connection = None
        if process is not None:
            process.kill()
            process.join(timeout=5.0)
        if connection is not None:
            connection.close()

    def compute(self, job: Job) -> Outcome:
        """Return the outcome of ``job``: computed by the child, or a stop by its deadline (the
        child killed at :meth:`Job.hard_stop_at` and replaced), or an internal error when the
        child died."""
        if self._process is None:
            self.start()
        assert self._connection is not None
        self._sequence += 1
        sequence = self._sequence
        try:
            self._connection.send(
                (sequence, job.rpc, job.request, job.deadline.at_monotonic_s, job.request_id, job.trace_context)
            )
            while True:
                if job.cancelled_at is not None and self._abandon.value < sequence:
                    self._abandon.value = sequence
                wait_s = min(job.hard_stop_at() - time.monotonic(), _CANCEL_POLL_S)
                if wait_s <= 0:
                    log.warning(
                        "compute_process_killed",
                        reason="caller left" if job.cancelled_at else "deadline passed",
                        rpc=job.rpc,
                        request_id=job.request_id,
                    )
                    self._replace()
                    return Outcome(False, rich_status(stopped(job.rpc)).SerializeToString())
                if self._connection.poll(wait_s):
                    _sequence, ok, payload = self._connection.recv()
                    return Outcome(ok, payload)
        except (EOFError, OSError):
            exit_code = self._process.exitcode if self._process is not None else None
            log.error("compute_process_died", rpc=job.rpc, request_id=job.request_id, exit_code=exit_code)
            self._replace()
            error = InternalError(f"Internal error; request id {job.request_id or 'unknown'}.")
            return Outcome(False, rich_status(error).SerializeToString())

    def _replace(self) -> None:
        """Kill the child and start another (the service reports itself not ready meanwhile)."""
        self._on_readiness(False)
        self.stop()
        self.restarts += 1
        try:
            self.start()
        except RuntimeError:
            log.exception("compute_process_restart_failed")  # the next computation tries again


class _ChildDeadline(Deadline):
    """The call's deadline, passed too once the serving process asks this child to abandon the
    computation numbered ``sequence``."""

    __slots__ = ("_abandon", "_sequence")

    def __init__(self, at_monotonic_s: float, abandon, sequence: int):
        super().__init__(at_monotonic_s)
        self._abandon = abandon
        self._sequence = sequence

    @property
    def passed(self) -> bool:
        return self._abandon.value >= self._sequence or super().passed

    def remaining_s(self) -> float:
        return 0.0 if self._abandon.value >= self._sequence else super().remaining_s()

    def check(self) -> None:
        if self._abandon.value >= self._sequence:
            raise DeadlinePassed
        super().check()


def _die_with_parent() -> None:
    """Have Linux kill this process when its parent (the forkserver, which exits with its
    service process) exits, even in the middle of a long engine call."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the closed pipe still ends an idle child
        pass


def child_main(
    service: tuple[str, str], handlers: Mapping[str, Handler], process_name: str, connection: Connection, abandon
) -> None:
    """The child's life (``service`` is the service's full name and proto file): warm up, say ready, then compute each
    request received until the serving process closes the pipe. Each answer is ``(sequence, ok, payload)``."""
    _die_with_parent()
    os.nice(COMPUTE_NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the serving process, which stops this
    settings = load_settings()
    configure_logging(settings, f"{process_name}-compute")
    tracing.configure(f"{process_name}-compute")
    handlers = {rpc: tracing.traced_compute(handler, rpc, "child") for rpc, handler in handlers.items()}
    open_engine(settings)
    full_name, proto_file = service
    importlib.import_module(proto_file.removesuffix(".proto").replace("/", ".") + "_pb2")  # the generated module
    descriptor = descriptor_pool.Default().FindServiceByName(full_name)
    request_classes = {method.name: message_factory.GetMessageClass(method.input_type) for method in descriptor.methods}
    connection.send_bytes(_READY)
    while True:
        try:
            sequence, rpc, request_bytes, deadline_at, request_id, trace_context = connection.recv()
        except (EOFError, OSError):
            return
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=request_id, rpc=rpc)
        try:
            request = request_classes[rpc].FromString(request_bytes)
            with tracing.continued(trace_context, request_id):
                reply = compute_reply(handlers[rpc], request, _ChildDeadline(deadline_at, abandon, sequence))
            answer = (sequence, True, reply.SerializeToString())
        except Exception as exception:
            answer = (sequence, False, rich_status(answered_error(exception, rpc, request_id)).SerializeToString())
        connection.send(answer)
