"""Reader of what a chart request casts: its ChartSettings (``chart_options.py``) and the
extras it adds to the chart (``chart_extras.py``), with the rules of its kind of chart.

Validation runs these readers in the gateway before any charge (the readers of the chart
requests, ``shared/runtime/request_readers.py``): mundane house positions or Gauquelin sectors
with ``j2000`` or ``heliocentric``, lots with ``heliocentric``, a mundane composite, and a
draconic chart with dignities, heliocentric or no node are refused there. The services call
the same readers to read their requests.
"""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.bodies import NODE_BODIES
from kernel.chart import MUNDANE, ChartSettings
from kernel.chart_extras import ChartExtras
from kernel.draconic import require_node
from kernel.errors import NoNorthNode
from shared.errors import InvalidParameter
from shared.runtime.chart_extras import chart_extras_from
from shared.runtime.chart_options import chart_options_value, chart_request_options, chart_settings_from
from shared.runtime.closed_sets import bound_to_choices
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import bodies_from, flags_from, sent_or_default

# The node a draconic chart turns by names one of the kernel's node bodies.
bound_to_choices(
    NODE_BODIES,
    "kernel.bodies.NODE_BODIES",
    (pb.ComputeDraconicChartRequest, "node"),
    (pb.DrawChartWheelRequest, "node"),
)


@dataclass(frozen=True)
class ChartInputs:
    """A chart request read once: how to cast the chart and what to add to it."""

    settings: ChartSettings
    extras: ChartExtras


def chart_inputs(request: Message) -> ChartInputs:
    """Return the settings and extras of a natal, synastry, Davison, progressed, draconic or
    returns chart request, its midpoints resolved by its own ``resolution``. Refuses mundane
    house positions and Gauquelin sectors with ``j2000`` or ``heliocentric`` and lots with
    ``heliocentric`` (InvalidParameter naming house_position_mode, system or lots)."""
    settings = chart_settings_from(request)
    resolution, resolution_sent = sent_or_default(request, "resolution")
    extras = chart_extras_from(
        request,
        dignities=chart_request_options(request).dignities,
        resolution=resolution,
        resolution_sent=resolution_sent,
    )
    return ChartInputs(settings, extras)


def composite_inputs(request: Message) -> ChartInputs:
    """Return the settings and extras of a composite chart request, refusing
    ``house_position_mode=mundane`` before the rules of :func:`chart_inputs`. Its derived
    midpoints break exact 180-degree ties with ``lower``: the request's ``resolution`` says
    which arc each composite position takes. Reads the options where the request holds them
    (its own fields, or a ChartRequestOptions: a chart wheel of kind composite)."""
    held = chart_request_options(request)
    if held.house_position_mode == MUNDANE:
        raise InvalidParameter(
            "A composite chart was never seen from a place, so it has no mundane house positions.",
            suggestion="Use house_position_mode=zodiacal.",
            param="house_position_mode",
        )
    return ChartInputs(
        chart_settings_from(request), chart_extras_from(request, dignities=held.dignities, resolution="lower")
    )


def draconic_inputs(request: Message) -> ChartInputs:
    """Return the settings and extras of a draconic chart request, refusing, before the rules
    of :func:`chart_inputs`, ``dignities=true`` and ``heliocentric`` (InvalidParameter naming
    each) and bodies without a node (NoNorthNode naming bodies). Reads the options where the
    request holds them (its own fields, or a ChartRequestOptions: a chart wheel of kind
    draconic)."""
    held = chart_request_options(request)
    if held.dignities:
        raise InvalidParameter(
            "A draconic chart does not take dignities=true.",
            suggestion="Leave dignities at its default, or ask /v1/natal-chart for it.",
            param="dignities",
        )
    flags = flags_from(request, chart_options_value(request))
    if flags.heliocentric:
        # The lunar nodes are where the Moon's orbit crosses the ecliptic seen from the Earth;
        # a heliocentric chart has no node to turn by.
        raise InvalidParameter(
            "A draconic chart turns by the Moon's node, which has no heliocentric position.",
            suggestion="Drop heliocentric, or ask /v1/natal-chart for a heliocentric chart.",
            param="heliocentric",
        )
    bodies = bodies_from(request, flags)
    with naming("bodies", also=(NoNorthNode,)):
        require_node(bodies)
    return chart_inputs(request)
