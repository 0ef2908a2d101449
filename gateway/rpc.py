"""Channels to the service processes, deadlines, and the one gRPC-to-HTTP error mapping.

Each service is a pool of processes; one channel per service lists them all and balances
with ``round_robin`` over the ones whose standard health check answers SERVING. A process
whose queue is full answers RESOURCE_EXHAUSTED and one that is going away UNAVAILABLE (or,
refused by gRPC's own shutdown, CANCELLED); the channel's ``retryPolicy`` sends the call to
another process then (computations are pure and credits are reserved once per HTTP
request, so a retry cannot charge twice). A process that stops answering altogether
(frozen by SIGSTOP, or stuck) keeps its TCP connection and health stream open; HTTP/2
keepalive pings close that connection within CELESTIAL_SERVICE_KEEPALIVE_S +
CELESTIAL_SERVICE_PING_TIMEOUT_S, so round_robin skips the process until it answers again,
and the calls waiting on it fail UNAVAILABLE and are retried on another process. This is
the only module that catches ``grpc.aio.AioRpcError``.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Protocol

import grpc

from gateway.call_costs import CallCosts
from shared.errors import (
    CelestialError,
    DeadlineExceeded,
    InternalError,
    InvalidParameter,
    NotImplementedEndpoint,
    ServiceUnavailable,
)
from shared.runtime import tracing
from shared.runtime.config import Settings
from shared.runtime.pool_channel import REQUEST_ID_METADATA_KEY, channel_options, channel_target
from shared.runtime.status import error_from_call

# Canonical gRPC codes to our errors (google/rpc/code.proto's HTTP mapping, narrowed to the
# product's own rows of DESIGN.md). Used only when a status carries no ErrorInfo of ours.
_STATUS_TABLE: dict[grpc.StatusCode, type[CelestialError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidParameter,
    grpc.StatusCode.OUT_OF_RANGE: InvalidParameter,
    grpc.StatusCode.UNIMPLEMENTED: NotImplementedEndpoint,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ServiceUnavailable,
    grpc.StatusCode.UNAVAILABLE: ServiceUnavailable,
    # A pool cancels a call only as a process goes away (gRPC's shutdown, the end of its
    # grace), and the channel retries it on another first: the gateway's own cancellation
    # is CancelledError, never a status.
    grpc.StatusCode.CANCELLED: ServiceUnavailable,
    grpc.StatusCode.DEADLINE_EXCEEDED: DeadlineExceeded,
}

#: How long a call whose every process is full (RESOURCE_EXHAUSTED past the channel's own
#: retries) is retried, seconds, before it is answered 503 with Retry-After, and the pauses
#: between tries: enough for a burst from several gateways to drain, short of any deadline.
BUSY_RETRY_S = 2.0
#: The share of a call's own time it may spend waiting for a busy pool: the rest is left to
#: compute in, so a call that gets a process late is not then cut off by its deadline (a 504
#: for what was a full pool, a 503).
BUSY_SHARE_OF_DEADLINE = 0.5
BUSY_BACKOFF_S = 0.02
BUSY_BACKOFF_MAX_S = 0.25


class Pool(Protocol):
    """What the gateway needs of one service: calls, readiness, closing."""

    name: str
    #: The expected compute time of each of its RPCs, as its answers report them.
    costs: CallCosts

    async def call(
        self, method_path: str, request: Any, response_cls: Any, *, timeout_s: float, request_id: str
    ) -> Any:
        """Return the reply of ``method_path`` (``/pkg.Service/Method``) or raise a CelestialError."""
        ...

    async def ready(self, timeout_s: float = 1.0) -> bool:
        """Return whether the service can take a call now."""
        ...

    async def implements(self, method_path: str) -> bool:
        """Return False when the service is known not to implement ``method_path``."""
        ...

    async def close(self) -> None: ...


class ServicePool:
    """A channel to one service's processes and the calls made through it.

    How many calls the gateway sends at once, and whose go first, is the gateway's fair share
    (``gateway/fair_share.py``); here a call is sent at once. Several gateways share the
    processes without knowing of each other: a process that is full then refuses, and the
    channel retries another.

    ``keepalive_s`` and ``ping_timeout_s`` default to CELESTIAL_SERVICE_KEEPALIVE_S and
    CELESTIAL_SERVICE_PING_TIMEOUT_S.
    """

    def __init__(
        self,
        name: str,
        addresses: tuple[str, ...],
        *,
        keepalive_s: float = Settings.service_keepalive_s,
        ping_timeout_s: float = Settings.service_ping_timeout_s,
    ):
        self.name = name
        self.addresses = addresses
        # One multi-callable per method, made on first use rather than on every call.
        self._callables: dict[str, Any] = {}
        self._implements: dict[str, bool] = {}
        self.costs = CallCosts()
        self.channel = grpc.aio.insecure_channel(
            channel_target(addresses),
            options=channel_options(len(addresses), keepalive_s, ping_timeout_s),
            interceptors=tracing.client_interceptors(name),
        )

    async def call(
        self, method_path: str, request: Any, response_cls: Any, *, timeout_s: float, request_id: str
    ) -> Any:
        """Return the reply of ``method_path`` (``/pkg.Service/Method``) or raise a CelestialError."""
        callable_ = self._callables.get(method_path)
        if callable_ is None:
            callable_ = self._callables[method_path] = self.channel.unary_unary(
                method_path,
                request_serializer=type(request).SerializeToString,
                response_deserializer=response_cls.FromString,
            )
        started = time.monotonic()
        backoff_s = BUSY_BACKOFF_S
        while True:
            remaining_s = timeout_s - (time.monotonic() - started)
            try:
                call = callable_(request, timeout=remaining_s, metadata=((REQUEST_ID_METADATA_KEY, request_id),))
                reply = await call
                self.costs.record_metadata(method_path, await call.trailing_metadata())
                return reply
            except grpc.aio.AioRpcError as error:
                self.costs.record_metadata(method_path, error.trailing_metadata())
                # Every process full, even after the channel's retries: other gateways share
                # them, so a burst of theirs can fill what this one left free. Wait briefly
                # for one to free up, within BUSY_RETRY_S and half the call's time, before answering 503.
                busy = error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                if not busy or time.monotonic() - started + backoff_s > min(
                    BUSY_RETRY_S, timeout_s * BUSY_SHARE_OF_DEADLINE
                ):
                    raise map_rpc_error(error, self.name) from None
            await asyncio.sleep(backoff_s)
            backoff_s = min(2 * backoff_s, BUSY_BACKOFF_MAX_S)

    async def ready(self, timeout_s: float = 1.0) -> bool:
        """Return whether at least one process of the pool answers its health check."""
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        stub = health_pb2_grpc.HealthStub(self.channel)
        try:
            reply = await stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=timeout_s)
        except grpc.aio.AioRpcError:
            return False
        return reply.status == health_pb2.HealthCheckResponse.SERVING

    async def implements(self, method_path: str) -> bool:
        """Return False when the pool's processes report that they do not implement
        ``method_path`` (``/pkg.Service/Method``; its health-check name is unknown to them).

        Asked once per method and remembered; when the service cannot answer now, True, and
        the call itself will say what is wrong.
        """
        known = self._implements.get(method_path)
        if known is not None:
            return known
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        try:
            await health_pb2_grpc.HealthStub(self.channel).Check(
                health_pb2.HealthCheckRequest(service=method_path.lstrip("/")), timeout=1.0
            )
            known = True
        except grpc.aio.AioRpcError as error:
            if error.code() != grpc.StatusCode.NOT_FOUND:
                return True
            known = False
        self._implements[method_path] = known
        return known

    async def close(self) -> None:
        await self.channel.close()


def map_rpc_error(error: grpc.aio.AioRpcError, service: str) -> CelestialError:
    """Return the CelestialError a failed call stands for (the one its status carries, if any)."""
    carried = error_from_call(error)
    if carried is not None:
        return carried
    code = error.code()
    cls = _STATUS_TABLE.get(code, InternalError)
    if cls is NotImplementedEndpoint:
        return NotImplementedEndpoint("This endpoint is not implemented yet.")
    if cls is ServiceUnavailable:
        busy = code == grpc.StatusCode.RESOURCE_EXHAUSTED
        return ServiceUnavailable(
            f"The {service} service is {'busy' if busy else 'unavailable'}; no process could take the request.",
        )
    if cls is DeadlineExceeded:
        return DeadlineExceeded(f"The {service} service did not answer within the deadline.")
    if cls is InvalidParameter:
        return InvalidParameter(error.details() or "Invalid request.")
    return InternalError(f"The {service} service failed.")
