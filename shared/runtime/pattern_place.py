"""Reader of the place a patterns request casts its houses for: stelliums by house need one.
The reader of FindPatternsRequest (:func:`shared.runtime.chart_part_queries.patterns_query`)
reads it with it, first."""

from __future__ import annotations

from google.protobuf.message import Message

from kernel.patterns import parse_pattern_types, require_houses
from kernel.positions import Observer
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import place_from


def pattern_place(request: Message) -> Observer | None:
    """Return the place of a patterns request's houses, or None when it sent no ``lat`` and
    ``lon``; ``stellium_scope=house`` without a place is MissingParameter naming lat."""
    place = place_from(request, "location")
    with naming("patterns"):
        types = parse_pattern_types(list(request.patterns))
    with naming("lat", words="lat and lon"):
        # By house, the place is needed whichever patterns are asked for (the document's rule,
        # ``(field).required_when``), not only when a stellium is among them.
        require_houses(("stellium",), request.stellium_scope, has_houses=place is not None)
        require_houses(types, request.stellium_scope, has_houses=place is not None)
    return place
