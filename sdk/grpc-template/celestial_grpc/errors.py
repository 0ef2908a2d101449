"""The error a refused call carries: the ``google.rpc.Status`` in its ``grpc-status-details-bin``
trailer, whose ``ErrorInfo`` names the API's error code, its suggestion and the parameter at fault."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import grpc
from google.rpc import error_details_pb2, status_pb2

from .error_codes import ERROR_STATUS

#: The ``ErrorInfo.domain`` of the API's errors.
ERROR_DOMAIN = "celestial.v1"
#: The trailer that carries the serialised ``google.rpc.Status`` (gRPC's rich error model).
STATUS_DETAILS_KEY = "grpc-status-details-bin"


class FailedCall(Protocol):
    """What a failed call offers, blocking (``grpc.RpcError``) or asyncio (``grpc.aio.AioRpcError``)."""

    def code(self) -> grpc.StatusCode: ...

    # Pairs of key and value: tuples, or grpcio's _Metadatum (typed apart in types-grpcio).
    def trailing_metadata(self) -> Iterable[Any] | None: ...


@dataclass(frozen=True)
class ErrorDetails:
    """One refusal of the API, as the HTTP API would answer it."""

    #: The API's error code, lower snake case as in the HTTP answers (``body_not_found``).
    code: str
    #: What is wrong, for a person.
    message: str
    #: What to send instead.
    suggestion: str
    #: The request parameter at fault, named as the HTTP API names it (``bodies``), if one is.
    param: str | None
    #: The call's gRPC status code.
    grpc_code: grpc.StatusCode
    #: The HTTP status the gateway answers this code with (``ERROR_STATUS``); None for a code
    #: this package's release does not know.
    http_status: int | None


def error_details(error: FailedCall) -> ErrorDetails | None:
    """Return the API's error that the failed call ``error`` carries, or None when its status
    has no ``ErrorInfo`` of the API's domain: a deadline that passed in the client, a
    connection refused, a process whose queue is full (RESOURCE_EXHAUSTED, worth a retry)."""
    for key, value in error.trailing_metadata() or ():
        if key != STATUS_DETAILS_KEY or not isinstance(value, bytes):
            continue
        status = status_pb2.Status.FromString(value)
        for detail in status.details:
            info = error_details_pb2.ErrorInfo()
            if not detail.Unpack(info) or info.domain != ERROR_DOMAIN:
                continue
            code = info.reason.lower()
            return ErrorDetails(
                code=code,
                message=status.message,
                suggestion=info.metadata.get("suggestion", ""),
                param=info.metadata.get("param") or None,
                grpc_code=error.code(),
                http_status=ERROR_STATUS.get(code),
            )
    return None
