"""Reader of what a chart request adds to its chart: patterns, derived points (midpoints,
antiscia, lots) and dignities, read from the chart options into the kernel's ChartExtras
(which :func:`kernel.chart.cast_chart` casts)."""

from __future__ import annotations

from celestial.v1 import common_pb2
from celestial.v1 import ephemeris_service_pb2 as ephemeris_pb
from kernel.chart_extras import ChartExtras
from kernel.dignities import parse_rulership
from kernel.dignity_tables import RULERSHIPS
from kernel.lots import parse_lots
from kernel.patterns import PATTERN_TYPES, STELLIUM_SCOPES, parse_pattern_types
from shared.errors import InvalidParameter
from shared.runtime.chart_options import chart_request_options
from shared.runtime.closed_sets import bound_to_choices
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import sent_or_default

# The extras' closed sets name the kernel's patterns, stellium scopes and rulership tables.
bound_to_choices(
    PATTERN_TYPES,
    "kernel.patterns.PATTERN_TYPES",
    (common_pb2.ChartOptions, "pattern_types"),
    (ephemeris_pb.FindPatternsRequest, "patterns"),
)
bound_to_choices(
    STELLIUM_SCOPES,
    "kernel.patterns.STELLIUM_SCOPES",
    (common_pb2.ChartOptions, "stellium_scope"),
    (ephemeris_pb.FindPatternsRequest, "stellium_scope"),
)
bound_to_choices(
    RULERSHIPS,
    "kernel.dignity_tables.RULERSHIPS",
    (common_pb2.ChartOptions, "rulership"),
    (ephemeris_pb.ComputeDignitiesRequest, "rulership"),
)


def chart_extras_from(
    request, *, dignities: bool, resolution: str = "lower", resolution_sent: bool = False
) -> ChartExtras:
    """Return the extras of a chart request: its options, and the request's own ``dignities``
    switch and midpoint ``resolution`` (``lower`` where the request has none of its own).

    Lots need geocentric positions: with ``heliocentric`` a request whose derived points would
    hold lots is refused (InvalidParameter naming ``lots``). ``unused`` names the derived-point
    parameters sent without ``derived_points=true`` (``lots``, ``midpoints``, ``antiscia``,
    ``resolution``: validation leaves those absent when not sent, ``default_by_reader``).
    """
    options = chart_request_options(request).options
    with naming("lots"):
        lots = parse_lots(list(options.lots)) if options.lots else ()
    if options.derived_points and lots and options.heliocentric:
        # A lot adds and subtracts geocentric longitudes to the Ascendant; a heliocentric
        # chart has no such longitudes to give it.
        raise InvalidParameter(
            "Lots are built from geocentric longitudes and the Ascendant; a heliocentric chart has none.",
            suggestion="Drop heliocentric, or drop lots.",
            param="lots",
        )
    midpoints, midpoints_sent = sent_or_default(request, "midpoints")
    antiscia, antiscia_sent = sent_or_default(request, "antiscia")
    with naming("pattern_types"):
        patterns = parse_pattern_types(list(options.pattern_types)) if options.patterns else None
    with naming("rulership"):
        rulers = parse_rulership(options.rulership)
    sent = (
        ("lots", bool(lots)),
        ("midpoints", midpoints_sent),
        ("antiscia", antiscia_sent),
        ("resolution", resolution_sent),
    )
    return ChartExtras(
        patterns=patterns,
        stellium_min=options.stellium_min,
        stellium_scope=options.stellium_scope,
        derived=options.derived_points,
        midpoints=midpoints,
        antiscia=antiscia,
        lots=lots,
        resolution=resolution,
        dignities=dignities,
        rulers=rulers,
        day_chart=options.day_chart if options.HasField("day_chart") else None,
        unused=() if options.derived_points else tuple(name for name, was_sent in sent if was_sent),
    )
