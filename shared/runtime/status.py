"""Errors across gRPC in the standard shape: a ``google.rpc.Status`` with an ``ErrorInfo`` detail.

A service turns a :class:`CelestialError` into a status with :func:`to_status`; the gateway (or
any gRPC consumer, with ``grpc_status.rpc_status.from_call``) reads it back. The ErrorInfo's
``reason`` is the spec's code in upper snake case (Google's AIP-193 form, e.g.
``INVALID_PARAMETER``), its ``domain`` is :data:`ERROR_DOMAIN`, and its metadata carries the
``suggestion`` and, when the error names one, the ``param``.
"""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

import kernel.errors  # noqa: F401  (defines the domain error classes a status may name)
from shared.errors import CelestialError, error_class_for_code

ERROR_DOMAIN = "celestial.v1"

# The canonical gRPC code of each HTTP status of decisions.md's error table
# (google/rpc/code.proto gives the HTTP mapping of each code).
_GRPC_CODE_OF_HTTP_STATUS: dict[int, grpc.StatusCode] = {
    400: grpc.StatusCode.INVALID_ARGUMENT,
    401: grpc.StatusCode.UNAUTHENTICATED,
    402: grpc.StatusCode.FAILED_PRECONDITION,
    403: grpc.StatusCode.PERMISSION_DENIED,
    404: grpc.StatusCode.NOT_FOUND,
    405: grpc.StatusCode.UNIMPLEMENTED,
    409: grpc.StatusCode.ALREADY_EXISTS,
    413: grpc.StatusCode.INVALID_ARGUMENT,
    429: grpc.StatusCode.RESOURCE_EXHAUSTED,
    500: grpc.StatusCode.INTERNAL,
    501: grpc.StatusCode.UNIMPLEMENTED,
    503: grpc.StatusCode.UNAVAILABLE,
    504: grpc.StatusCode.DEADLINE_EXCEEDED,
}
# Codes whose gRPC meaning is narrower than their HTTP status's.
_GRPC_CODE_OF_ERROR: dict[str, grpc.StatusCode] = {
    "out_of_range": grpc.StatusCode.OUT_OF_RANGE,
    "key_not_active": grpc.StatusCode.FAILED_PRECONDITION,
}


def grpc_code(error: CelestialError) -> grpc.StatusCode:
    """Return the canonical gRPC status code that carries ``error``."""
    return _GRPC_CODE_OF_ERROR.get(error.code) or _GRPC_CODE_OF_HTTP_STATUS.get(
        error.http_status, grpc.StatusCode.UNKNOWN
    )


def rich_status(error: CelestialError) -> status_pb2.Status:
    """Return the ``google.rpc.Status`` of ``error``: its code, message and ErrorInfo detail."""
    metadata = {"suggestion": error.suggestion}
    if error.param:
        metadata["param"] = error.param
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.ErrorInfo(reason=error.code.upper(), domain=ERROR_DOMAIN, metadata=metadata))
    return status_pb2.Status(code=grpc_code(error).value[0], message=error.message, details=[detail])


def to_status(error: CelestialError) -> grpc.Status:
    """Return the ``grpc.Status`` (code, message, and the rich status in the trailers) of ``error``."""
    return rpc_status.to_status(rich_status(error))


def error_from_status(status: status_pb2.Status | None) -> CelestialError | None:
    """Return the CelestialError a rich status carries, or None when it has no ErrorInfo of ours."""
    if status is None:
        return None
    for detail in status.details:
        if not detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            continue
        info = error_details_pb2.ErrorInfo()
        detail.Unpack(info)
        if info.domain != ERROR_DOMAIN:
            continue
        cls = error_class_for_code(info.reason.lower())
        return cls(
            status.message, suggestion=info.metadata.get("suggestion") or None, param=info.metadata.get("param") or None
        )
    return None


def error_from_call(call: grpc.Call) -> CelestialError | None:
    """Return the CelestialError a failed call carries (see :func:`error_from_status`), or None."""
    try:
        return error_from_status(rpc_status.from_call(call))
    except ValueError:  # a status whose code or message disagrees with the call's: not ours
        return None
