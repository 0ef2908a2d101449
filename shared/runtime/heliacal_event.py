"""Reader of what a heliacal search looks for: a body eligible for heliacal searches and an
event it has (evening_first and morning_last only for Mercury and Venus; the acronychal events
refused), the kernel's :func:`kernel.heliacal.check_event`. Validation runs it in the
gateway before any charge (the reader of FindHeliacalEventRequest,
`shared/runtime/request_readers.py`); the search service calls it to read the request."""

from __future__ import annotations

from google.protobuf.message import Message

from kernel.errors import InvalidHeliacalEvent
from kernel.heliacal import check_event
from shared.runtime.eligible_body import eligible_body
from shared.runtime.kernel_errors import BODY_ERRORS, naming


def heliacal_event(request: Message) -> tuple[str, str]:
    """Return the body and the event of a heliacal search (BodyNotEligible naming body for a
    body without that event, InvalidHeliacalEvent naming event for an acronychal one)."""
    body = eligible_body(request)
    with naming("event", also=(InvalidHeliacalEvent,)), naming("body", also=BODY_ERRORS):
        check_event(body, request.event)
    return body, request.event
