"""Readers of the natal points a time-lord request relies on: its chart's bodies, each with
an ephemeris at the birth, the point profections and zodiacal releasing start from, the Sun that solar profections
follow, and the Sun that firdaria read the sect from. Each point must be one the request's natal chart holds, which the
request alone decides (its bodies, the Ascendant and Midheaven of its place, the lots those allow), so validation runs
them in the gateway before any charge (parts of the readers of the time-lord requests,
`shared/runtime/request_readers.py`); the time-lords service reads the request through them.
"""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from kernel import firdaria, profections, releasing
from kernel.bodies import SUN, check_span
from kernel.errors import OutOfRange
from kernel.lots import LOTS
from kernel.natal_points import point_names
from kernel.time_lord_periods import TimeQuery
from shared.errors import InvalidParameter
from shared.runtime.kernel_errors import naming
from shared.runtime.ranges import life_range
from shared.runtime.request_reading import kept
from shared.runtime.wire import bodies_from, flags_from, moment_from, sent_moment_name

SOLAR, MEAN = "solar", "mean"
AUTO = "auto"


def natal_bodies(request: Message) -> tuple[str, ...]:
    """Return the resolved bodies of a time-lord request's natal chart (groups expanded),
    each with an ephemeris at the birth (an asteroid outside its files' span is OutOfRange
    naming the birth's datetime or jd); read once per reading."""
    return kept(request, "time_lord_bodies", lambda: _natal_bodies(request))


def _natal_bodies(request: Message) -> tuple[str, ...]:
    bodies = bodies_from(request, flags_from(request))
    birth = moment_from(request, "timeline.moment")
    for name in bodies:
        with naming(sent_moment_name(request, "timeline.moment"), also=(OutOfRange,), reading=False):
            check_span(name, birth.jd_ut1)
    return bodies


def starting_point(request: Message) -> str:
    """Return the natal point a profections or releasing request starts from (its ``from``,
    trimmed and lowercased): the ascendant, the midheaven, a body among bodies or a lot whose
    bodies are all among them; any other is InvalidParameter naming from."""
    name = getattr(request, "from")  # "from" is a Python keyword
    key = name.strip().lower()
    if key in point_names(natal_bodies(request), place=True, lots=True):
        return key
    if key in {lot.id for lot in LOTS}:
        reason = f"{key} needs the Sun and the Moon (and its other bodies) among bodies"
    else:
        reason = f"{name!r} is not the ascendant, the midheaven, a Hermetic lot or a body among bodies"
    raise InvalidParameter(
        f"Cannot start from {name!r}: {reason}.",
        suggestion="Send ascendant, midheaven, a lot such as part_of_fortune, or a body listed in bodies.",
        param="from",
    )


def profection_boundaries(request: Message) -> str:
    """Return how a profections request bounds its years: ``solar`` (solar=true: at the Sun's
    returns, so the Sun must be among bodies, else InvalidParameter naming bodies) or
    ``mean`` (years of year_days)."""
    if not request.solar:
        return MEAN
    if SUN not in natal_bodies(request):
        raise InvalidParameter(
            "solar=true follows the Sun's returns, so the Sun must be among bodies.",
            suggestion="Add sun to bodies, or drop solar.",
            param="bodies",
        )
    return SOLAR


def firdaria_sect(request: Message) -> bool | None:
    """Return the sect a firdaria request sends: True (day_chart=true), False (false), or None
    for day_chart=auto, read from the chart's Sun, which must then be among bodies (else
    InvalidParameter naming bodies)."""
    if request.day_chart != AUTO:
        return request.day_chart == "true"
    if SUN not in natal_bodies(request):
        raise InvalidParameter(
            "day_chart=auto reads the sect from the Sun, which is not among bodies.",
            suggestion="Add sun to bodies, or send day_chart=true or false.",
            param="bodies",
        )
    return None


@dataclass(frozen=True)
class TimeLordInput:
    """A time-lord request read once: its natal chart's bodies, the instant or range it asks
    about, and the technique's own choices: the point profections and releasing start from,
    how profections bound their years, the sect firdaria are sent (None: read from the chart)."""

    bodies: tuple[str, ...]
    time_query: TimeQuery
    starting_point: str = ""
    boundaries: str = ""
    sect: bool | None = None


def profections_input(request: Message) -> TimeLordInput:
    """Return what a profections request asks for: its bodies, its range (at most
    profections.RANGE_CAP_YEARS), its starting point and its years' boundaries."""
    bodies = natal_bodies(request)
    query = life_range(request, profections.RANGE_CAP_YEARS)
    return TimeLordInput(bodies, query, starting_point(request), profection_boundaries(request))


def releasing_input(request: Message) -> TimeLordInput:
    """Return what a zodiacal releasing request asks for: its bodies, its range (capped by its
    max_level) and its starting point."""
    bodies = natal_bodies(request)
    query = life_range(request, releasing.RANGE_CAP_YEARS[request.max_level])
    return TimeLordInput(bodies, query, starting_point(request))


def firdaria_input(request: Message) -> TimeLordInput:
    """Return what a firdaria request asks for: its bodies, its range (at most
    firdaria.RANGE_CAP_YEARS) and the sect it sends."""
    bodies = natal_bodies(request)
    query = life_range(request, firdaria.RANGE_CAP_YEARS)
    return TimeLordInput(bodies, query, sect=firdaria_sect(request))
