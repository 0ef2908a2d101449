"""The readers of request messages, by the name a message gives its own in its
``(message).reader`` option.

Each reader applies the rules across a request's fields that field options cannot say (a
range and its cap, the targets of a map, the inputs of a scan), raising the one error for bad
input, and returns the typed query the handler computes from; validation runs it once per
process, in the gateway before any charge and in the service at its edge. The caps come from
the kernel modules that own them.
"""

from __future__ import annotations

from collections.abc import Callable

from kernel import lunations
from shared.runtime.astro_targets import targets_from
from shared.runtime.ayanamsha_systems import ayanamsha_systems
from shared.runtime.body_queries import aspects_query, dignities_query, solar_proximity_query
from shared.runtime.chart_inputs import chart_inputs, composite_inputs, draconic_inputs
from shared.runtime.chart_part_queries import midpoints_query, patterns_query
from shared.runtime.chart_wheel_input import chart_wheel_input
from shared.runtime.explain_difference_input import explain_difference_input
from shared.runtime.forecast_input import forecast_input
from shared.runtime.heliacal_event import heliacal_event
from shared.runtime.houses_query import chart_query, houses_query, lots_query
from shared.runtime.moment_queries import (
    meridian_query,
    moment_query,
    planetary_hours_query,
    time_zone_query,
)
from shared.runtime.parans_query import parans_query
from shared.runtime.place_query import place_query
from shared.runtime.positions_query import positions_query
from shared.runtime.progression import progression_from
from shared.runtime.ranges import event_range
from shared.runtime.request_reading import RequestReading
from shared.runtime.return_count import return_input
from shared.runtime.search_queries import eclipse_query, ingress_query
from shared.runtime.sensitivity_inputs import birth_time_sensitivity_input
from shared.runtime.sky_event_inputs import calendar_input, stations_input, void_periods_input
from shared.runtime.star_selection import star_selection
from shared.runtime.time_lord_points import firdaria_input, profections_input, releasing_input
from shared.runtime.transit_inputs import scan_input
from shared.runtime.vedic_inputs import (
    ashtakavarga_input,
    kundali_match_input,
    panchang_input,
    shadbala_input,
    vedic_chart_input,
    vimshottari_input,
)
from shared.runtime.void_of_course_bodies import void_of_course_bodies

#: The reader each request message names in its ``(message).reader``, by that name.
READERS: dict[str, Callable[[RequestReading], object]] = {
    "astrocartography_targets": targets_from,
    "parans_query": parans_query,
    "transit_scan": scan_input,
    "profections_input": profections_input,
    "releasing_input": releasing_input,
    "firdaria_input": firdaria_input,
    "vedic_chart_input": vedic_chart_input,
    "vimshottari_input": vimshottari_input,
    "panchang_input": panchang_input,
    "kundali_match_input": kundali_match_input,
    "ashtakavarga_input": ashtakavarga_input,
    "shadbala_input": shadbala_input,
    "birth_time_sensitivity_input": birth_time_sensitivity_input,
    "return_input": return_input,
    "void_of_course_bodies": void_of_course_bodies,
    "chart_inputs": chart_inputs,
    "composite_inputs": composite_inputs,
    "draconic_inputs": draconic_inputs,
    "chart_wheel_input": chart_wheel_input,
    "explain_difference_input": explain_difference_input,
    "progression": progression_from,
    "midpoints_query": midpoints_query,
    "patterns_query": patterns_query,
    "ayanamsha_systems": ayanamsha_systems,
    "star_selection": star_selection,
    "heliacal_event": heliacal_event,
    "stations_input": stations_input,
    "lunations_range": lambda request: event_range(request, cap_years=lunations.RANGE_CAP_YEARS),
    "void_of_course_periods": void_periods_input,
    "calendar_input": calendar_input,
    "forecast_input": forecast_input,
    "place_query": place_query,
    "positions_query": positions_query,
    "chart_query": chart_query,
    "houses_query": houses_query,
    "lots_query": lots_query,
    "aspects_query": aspects_query,
    "dignities_query": dignities_query,
    "solar_proximity_query": solar_proximity_query,
    "moment_query": moment_query,
    "meridian_query": meridian_query,
    "planetary_hours_query": planetary_hours_query,
    "time_zone_query": time_zone_query,
    "ingress_query": ingress_query,
    "eclipse_query": eclipse_query,
}
