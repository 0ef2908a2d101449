"""A service pool that computes in the test process, for the in-process API tests.

It has the gateway's :class:`~gateway.rpc.Pool` interface and does what a service process
does with a call, minus the network: the request crosses as bytes, the service's own
handler computes it in one worker thread (a service process computes in a child process;
the computation is the same :func:`~shared.runtime.computation.compute_reply`, validation
included) under the call's deadline, and an error comes back through the same
``google.rpc.Status`` encoding the gRPC trailers carry. What it does not prove (channels,
health checks, retries, process death) the end-to-end tests in ``tests/e2e`` prove.
"""

from __future__ import annotations

import asyncio
import contextvars
import importlib
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from google.rpc import status_pb2
from grpc_status import rpc_status

from gateway.call_costs import CallCosts
from kernel.deadline import Deadline
from shared.errors import CelestialError, NotImplementedEndpoint
from shared.runtime.computation import Handler, answered_error, compute_reply
from shared.runtime.config import SERVICE_NAMES
from shared.runtime.status import error_from_status, to_status

_STATUS_TRAILER = rpc_status.GRPC_DETAILS_METADATA_KEY


class InProcessPool:
    """One service's handlers, called in this process as its gRPC server would call them."""

    def __init__(self, name: str, handlers: Mapping[str, Handler], queue: int = 4):
        self.name = name
        self._handlers = handlers
        self.costs = CallCosts()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"{name}-compute")

    async def call(
        self, method_path: str, request: Any, response_cls: Any, *, timeout_s: float, request_id: str
    ) -> Any:
        """Return the reply of ``method_path`` (``/pkg.Service/Method``) or raise the
        CelestialError a real process would have answered."""
        rpc = method_path.rsplit("/", 1)[-1]
        handler = self._handlers.get(rpc)
        if handler is None:
            raise NotImplementedEndpoint("This endpoint is not implemented yet.")
        received = type(request).FromString(request.SerializeToString())
        deadline = Deadline.after(timeout_s)
        context = contextvars.copy_context()
        try:
            reply = await asyncio.get_running_loop().run_in_executor(
                self._worker, context.run, self._timed, method_path, handler, received, deadline
            )
        except asyncio.CancelledError:
            deadline.cancel()  # the scan stops at its next check, as a child's does
            raise
        except Exception as exception:
            raise _as_transported(answered_error(exception, rpc, request_id)) from None
        return response_cls.FromString(reply.SerializeToString())

    def _timed(self, method_path: str, handler: Handler, request: Any, deadline: Deadline):
        """Return compute_reply's reply, its compute time counted as a process reports it."""
        started = time.perf_counter()
        try:
            return compute_reply(handler, request, deadline)
        finally:
            self.costs.record(method_path, time.perf_counter() - started)

    async def ready(self, timeout_s: float = 1.0) -> bool:
        return True

    async def implements(self, method_path: str) -> bool:
        return method_path.rsplit("/", 1)[-1] in self._handlers

    async def close(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)


def _as_transported(error: CelestialError) -> CelestialError:
    """Return ``error`` as the gateway reads it back from the status trailer of a failed call."""
    trailer = dict(to_status(error).trailing_metadata)[_STATUS_TRAILER]
    carried = error_from_status(status_pb2.Status.FromString(trailer))
    assert carried is not None, "every answered error carries an ErrorInfo of ours"
    return carried


def in_process_pools() -> dict[str, InProcessPool]:
    """Return one in-process pool per service, each with the handlers its process serves."""
    return {
        name: InProcessPool(name, importlib.import_module(f"services.{name}.server").HANDLERS) for name in SERVICE_NAMES
    }
