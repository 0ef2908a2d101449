"""One computation of a request, as every service process runs it: the request read once (the
proto options' rules and its reader), the service's handler under the call's deadline, the
bound on the reply, and the error a failure is answered with."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import structlog
from google.protobuf.message import Message

from kernel.deadline import Deadline, DeadlinePassed
from kernel.errors import OutOfRange
from shared.errors import CelestialError, DeadlineExceeded, InternalError, ResultTooLarge
from shared.runtime.clock_time_warnings import with_clock_time_warnings
from shared.runtime.kernel_errors import naming_each
from shared.runtime.validation import validate
from shared.runtime.wire import edge_names

Handler = Callable[[Any, Deadline], Message]

#: The largest reply a service sends: gRPC's default message limit, which the gateway's
#: channel receives (decisions.md: 4 MiB of protobuf).
MAX_REPLY_BYTES = 4 * 1024 * 1024

log = structlog.get_logger("celestial.service")


def compute_reply(handler: Handler, request: Message, deadline: Deadline) -> Message:
    """Return ``handler(reading, deadline)``, ``reading`` the request read once, at the
    service's edge (:func:`validate`: the proto options' rules and the message's reader, whose
    query and values the handler computes from). Raises DeadlinePassed for a request that
    waited past its deadline (it is not started), ResultTooLarge for a reply over
    MAX_REPLY_BYTES. The kernel's errors about an argument that the handler left unnamed (the
    request's moment, the house system, a search's count) are named here
    (:func:`~shared.runtime.wire.edge_names`); validation's readers name their own, as they
    do in the gateway. The reply carries the Delta T warning of its moments and instants
    (``clock_time_warnings.py``)."""
    deadline.check()
    reading = validate(request)
    with naming_each(edge_names(request), also=(OutOfRange,)):
        reply = handler(reading, deadline)
    # Every answer says when a clock time in it rests on a predicted or modelled Delta T.
    reply = with_clock_time_warnings(reading, reply)
    # The parameters' bounds keep every reply under the limit (tests/service/test_reply_bounds.py
    # measures the largest each endpoint can give); this is the backstop that keeps a reply
    # too large for the wire a 400 instead of a failed call answered as a busy service.
    size = reply.ByteSize()
    if size > MAX_REPLY_BYTES:
        raise ResultTooLarge(f"The answer holds {size:,} bytes; one reply carries at most {MAX_REPLY_BYTES:,}.")
    return reply


def answered_error(exception: Exception, rpc: str, request_id: str) -> CelestialError:
    """Return the error a handler's ``exception`` is answered with: a CelestialError as it is,
    a passed deadline as DEADLINE_EXCEEDED, anything else as an internal error (logged here
    with its traceback, never shown to the caller)."""
    if isinstance(exception, CelestialError):
        return exception
    if isinstance(exception, DeadlinePassed):
        return stopped(rpc)
    log.exception("rpc_failed", exc_info=exception)
    return InternalError(f"Internal error; request id {request_id or 'unknown'}.")


def stopped(rpc: str) -> DeadlineExceeded:
    """Return the error of a computation of ``rpc`` stopped by its deadline or its caller's leaving."""
    return DeadlineExceeded(f"{rpc} stopped: its deadline passed or its caller left.")
