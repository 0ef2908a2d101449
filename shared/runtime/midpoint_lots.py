"""Reader of the lots a midpoints request adds to its derived points: a lot is measured from
the Ascendant, so lots need a place. The reader of ComputeMidpointsRequest
(:func:`shared.runtime.chart_part_queries.midpoints_query`) reads them with it, first."""

from __future__ import annotations

from google.protobuf.message import Message

from kernel.lots import parse_lots
from shared.errors import MissingParameter
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import place_from


def midpoint_lots(request: Message) -> tuple[str, ...]:
    """Return the ids of the lots a midpoints request names (none when it names none),
    refusing lots without ``lat`` and ``lon`` (MissingParameter naming lat)."""
    with naming("lots"):
        lot_ids = parse_lots(list(request.lots)) if request.lots else ()
    if lot_ids and place_from(request, "location") is None:
        raise MissingParameter(
            "Lots need the Ascendant, so lat and lon.", suggestion="Add lat and lon, or drop lots.", param="lat"
        )
    return lot_ids
