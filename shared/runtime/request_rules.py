"""The rules across a request's fields that field options cannot say, by the name a request
message gives them in its ``(message).rules`` option.

Each rule is a reader of a value kind (a range and its cap, the targets of a map, the inputs
of a scan) that raises the one error for bad input; validation runs the rules of a message in
the gateway, before any charge, and the service calls the same readers to read its request.
The caps come from the kernel modules that own them.
"""

from __future__ import annotations

from collections.abc import Callable

from google.protobuf.message import Message

from shared.kernel import firdaria, lunations, profections, releasing
from shared.runtime.astro_targets import targets_from
from shared.runtime.ayanamsha_systems import ayanamsha_systems
from shared.runtime.chart_inputs import chart_inputs, composite_inputs, draconic_inputs
from shared.runtime.heliacal_event import heliacal_event
from shared.runtime.midpoint_lots import midpoint_lots
from shared.runtime.pattern_place import pattern_place
from shared.runtime.place_query import place_query
from shared.runtime.progression import progression_from
from shared.runtime.ranges import event_range, life_range
from shared.runtime.return_count import return_body
from shared.runtime.sky_event_inputs import calendar_input, stations_input, void_periods_input
from shared.runtime.star_selection import star_selection
from shared.runtime.time_lord_points import firdaria_sect, natal_bodies, profection_boundaries, starting_point
from shared.runtime.transit_inputs import scan_input
from shared.runtime.void_of_course_bodies import void_of_course_bodies

#: The parameters (top-level fields or values) a rule reads, and so checks, itself: the
#: gateway leaves their vocabulary to the rule, so each is parsed once per layer.
READS: dict[str, tuple[str, ...]] = {
    "astrocartography_targets": ("targets", "bodies"),
    "transit_scan": ("start", "end", "moving", "moment", "bodies"),
    "profections_range": ("timeline",),
    "firdaria_range": ("timeline",),
    "releasing_range": ("timeline",),
    "return_body": ("body",),
    "void_of_course_bodies": ("bodies",),
    "stations_input": ("start", "end", "bodies"),
    "lunations_range": ("start", "end"),
    "void_of_course_periods": ("start", "end", "bodies"),
    "calendar_input": ("start", "end", "bodies"),
    "place_query": ("q", "country"),
}

RULES: dict[str, Callable[[Message], object]] = {
    "astrocartography_targets": targets_from,
    "transit_scan": scan_input,
    "profections_range": lambda request: life_range(request, profections.RANGE_CAP_YEARS),
    "firdaria_range": lambda request: life_range(request, firdaria.RANGE_CAP_YEARS),
    "releasing_range": lambda request: life_range(request, releasing.RANGE_CAP_YEARS[request.max_level]),
    "return_body": return_body,
    "void_of_course_bodies": void_of_course_bodies,
    "chart_inputs": chart_inputs,
    "composite_inputs": composite_inputs,
    "draconic_inputs": draconic_inputs,
    "progression": progression_from,
    "midpoint_lots": midpoint_lots,
    "pattern_place": pattern_place,
    "ayanamsha_systems": ayanamsha_systems,
    "star_selection": star_selection,
    "time_lord_bodies": natal_bodies,
    "time_lord_starting_point": starting_point,
    "profection_boundaries": profection_boundaries,
    "firdaria_sect": firdaria_sect,
    "heliacal_event": heliacal_event,
    "stations_input": stations_input,
    "lunations_range": lambda request: event_range(request, cap_years=lunations.RANGE_CAP_YEARS),
    "void_of_course_periods": void_periods_input,
    "calendar_input": calendar_input,
    "place_query": place_query,
}
