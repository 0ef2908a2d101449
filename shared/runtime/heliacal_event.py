"""Reader of what a heliacal search looks for: a body eligible for heliacal searches and an
event it has (evening_first and morning_last only for Mercury and Venus; the acronychal events
refused), the kernel's :func:`kernel.heliacal.check_event`. Validation runs it in the
gateway before any charge (the reader of FindHeliacalEventRequest,
`shared/runtime/request_readers.py`); the search service calls it to read the request."""

from __future__ import annotations

from dataclasses import fields

from google.protobuf.message import Message

from kernel.errors import InvalidHeliacalEvent, UnreadableValue
from kernel.heliacal import Atmosphere, Eyes, check_event, search_stopped
from shared.runtime.eligible_body import eligible_body
from shared.runtime.kernel_errors import BODY_ERRORS, naming
from shared.runtime.wire import parameter_names, required_place


def heliacal_event(request: Message) -> tuple[str, str]:
    """Return the body and the event of a heliacal search (BodyNotEligible naming body for a
    body without that event, InvalidHeliacalEvent naming event for an acronychal one)."""
    body = eligible_body(request)
    with naming("event", also=(InvalidHeliacalEvent,)), naming("body", also=BODY_ERRORS):
        check_event(body, request.event)
    return body, request.event


def heliacal_search_stopped(request: Message, searched_s: float) -> UnreadableValue | None:
    """Return the 400 of a heliacal search stopped at its deadline of ``searched_s`` seconds
    when the request lies outside the engine's documented conditions (a latitude beyond 60°,
    optical aid, a sky or eyes other than the defaults: :func:`kernel.heliacal.search_stopped`),
    naming ``lat``, ``telescope_aperture_cm`` or the sky's or eyes' parameter; None inside them
    (the stop is then the service's 504)."""
    body, event = heliacal_event(request)

    def sent(dataclass):
        # What the request sent of a dataclass' fields (the same names), the others its defaults.
        names = [f.name for f in fields(dataclass) if request.HasField(f.name)]
        return dataclass(**{name: getattr(request, name) for name in names})

    eyes, atmosphere = sent(Eyes), sent(Atmosphere)
    refusal = search_stopped(body, event, required_place(request), eyes, searched_s, atmosphere)
    if refusal is not None:
        place_names = parameter_names(request.DESCRIPTOR, "place")
        named = {"place": place_names["lat"], "eyes": "telescope_aperture_cm"}
        refusal.param = named.get(refusal.about, refusal.about)
    return refusal
