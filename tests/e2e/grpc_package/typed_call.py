"""A consumer's program as a type checker sees it: the messages' fields typed by the package's
``.pyi`` files, the helpers by their annotations (checked with mypy --strict, not run)."""

from __future__ import annotations

import grpc

from celestial.v1 import common_pb2, ephemeris_service_pb2, ephemeris_service_pb2_grpc
from celestial_grpc import ErrorDetails, channel_options, error_details


def sun_degree(address: str) -> float:
    """Return the Sun's degree in its sign at the March equinox of 2024, from the pool at ``address``."""
    with grpc.insecure_channel(address, options=channel_options(processes=1)) as channel:
        # grpcio generates the stubs without annotations (the README says so).
        stub = ephemeris_service_pb2_grpc.EphemerisServiceStub(channel)  # type: ignore[no-untyped-call]
        request = ephemeris_service_pb2.ComputePositionsRequest(
            moment=common_pb2.Moment(datetime="2024-03-20T12:00:00Z"), bodies=["sun"]
        )
        reply: ephemeris_service_pb2.ComputePositionsResponse = stub.ComputePositions(request, timeout=10)
    return reply.data[0].ecliptic.sign_degree


def refusal(error: grpc.RpcError) -> str | None:
    """Return the parameter a refused call names, if its status carries the API's error."""
    details: ErrorDetails | None = error_details(error)
    return details.param if details else None
