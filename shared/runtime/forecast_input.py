"""The reader of a forecast (/v1/forecast): the birth (read as /v1/transits reads its natal
moment and place, place= and tz included), the range under its cap (read in range_tz as a
transit scan's), the kinds, the bodies that filter the events and those that must move in
them, whether it is answered as iCalendar, the order, and the page of the JSON answer; and
the settings every kind runs with, each its own endpoint's declared defaults.

Validation runs it in the gateway before any charge (the reader of FindForecastRequest,
`shared/runtime/request_readers.py`); the search service reads the request through it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from google.protobuf.message import Message

from celestial.v1 import search_service_pb2 as search_pb
from celestial.v1 import timelords_service_pb2 as timelords_pb
from kernel.bodies import GROUPS, canonical_body, check_span, resolve_bodies
from kernel.errors import BodyNotEligible, OutOfRange
from kernel.forecast import KINDS, ForecastSettings, chart_key, movers
from kernel.houses import parse_house_system
from kernel.positions import Observer
from kernel.timescale import Moment
from kernel.transits import MOON
from shared.errors import ConflictingParameters, InvalidParameter
from shared.runtime.closed_sets import bound_to_choices
from shared.runtime.forecast_pages import page_position, request_key
from shared.runtime.kernel_errors import BODY_ERRORS, naming
from shared.runtime.parameter_text import declared_default
from shared.runtime.ranges import event_range
from shared.runtime.sky_event_inputs import FIRST_ICS_MOMENT
from shared.runtime.wire import chart_place, moment_from, required_place, sent_moment_name, sent_or_default

# A forecast's kinds are the kernel's.
bound_to_choices(KINDS, "kernel.forecast.KINDS", (search_pb.FindForecastRequest, "kinds"))

#: The orders of a forecast's events: by instant, or by significance (kernel/forecast_significance.py).
TIME, SIGNIFICANCE = "time", "significance"
RANKS = bound_to_choices(
    (TIME, SIGNIFICANCE), "shared.runtime.forecast_input.RANKS", (search_pb.FindForecastRequest, "rank")
)

#: The longest range of a forecast, calendar years (issue 40: ranges up to 10 years).
RANGE_CAP_YEARS = 10
#: The house system the natal house of a lunation or an eclipse is counted in: the natal chart's default.
HOUSE_SYSTEM = "placidus"


@cache
def forecast_settings() -> ForecastSettings:
    """Return what each kind of a forecast runs with: the defaults its own endpoint's request
    declares (/v1/transits without the Moon moving, /v1/stations, /v1/calendar's ingresses
    without the Moon, /v1/lunations, /v1/void-of-course/periods, /v1/profections,
    /v1/zodiacal-releasing, /v1/firdaria)."""
    transits, stations = search_pb.FindTransitsRequest.DESCRIPTOR, search_pb.FindStationsRequest.DESCRIPTOR
    calendar, void = search_pb.FindCalendarEventsRequest.DESCRIPTOR, search_pb.FindVoidOfCoursePeriodsRequest.DESCRIPTOR
    profections = timelords_pb.ComputeProfectionsRequest.DESCRIPTOR
    releasing, firdaria = (
        timelords_pb.ComputeZodiacalReleasingRequest.DESCRIPTOR,
        timelords_pb.ComputeFirdariaRequest.DESCRIPTOR,
    )
    return ForecastSettings(
        moving=tuple(body for body in resolve_bodies(declared_default(transits, "moving")) if body != MOON),
        natal_bodies=tuple(resolve_bodies(declared_default(transits, "bodies"))),
        aspects=tuple(declared_default(transits, "aspects")),
        orb=declared_default(transits, "orb"),
        station_bodies=tuple(resolve_bodies(declared_default(stations, "bodies"))),
        ingress_bodies=tuple(body for body in resolve_bodies(declared_default(calendar, "bodies")) if body != MOON),
        phases=tuple(declared_default(search_pb.FindLunationsRequest.DESCRIPTOR, "phases")),
        void_bodies=tuple(resolve_bodies(declared_default(void, "bodies"))),
        void_aspects=tuple(declared_default(void, "aspects")),
        profection_from=declared_default(profections, "from"),
        profection_months=declared_default(profections, "months"),
        year_days=declared_default(profections, "year_days"),
        releasing_from=declared_default(releasing, "from"),
        releasing_levels=declared_default(releasing, "max_level"),
        firdaria_order=declared_default(firdaria, "night_order"),
        house_system=parse_house_system(HOUSE_SYSTEM),
    )


@dataclass(frozen=True)
class ForecastInput:
    """A forecast: the birth and its place, the range, the kinds (in the order asked), the
    bodies that filter its events and those that must move in them (empty: none filters),
    whether it is answered as iCalendar, the order (``rank``: time or significance), and the
    page of the JSON answer: ``page_size`` events from ``position`` on, in the list named by
    ``page_key`` (:mod:`shared.runtime.forecast_pages`)."""

    birth: Moment
    place: Observer
    start: Moment
    end: Moment
    kinds: tuple[str, ...]
    bodies: tuple[str, ...]
    ics: bool
    moving: tuple[str, ...]
    rank: str
    page_size: int
    position: int
    page_key: str


def forecast_input(request: Message) -> ForecastInput:
    """Return the inputs of a /v1/forecast request: the birth (its moment, and its place,
    required: the houses, angles, lots and sect; or the place the request relocates it to),
    the range (at most RANGE_CAP_YEARS calendar
    years; each moving body with an ephemeris over it, OutOfRange naming end), the kinds, the
    filtering bodies (groups expanded), the bodies that must move (:func:`moving_bodies`),
    format=ics only from year 1 (InvalidParameter naming format) and whole (page_size or
    page_token with it ConflictingParameters), the rank, the page size (the declared default
    when not sent) and the position the page_token names (InvalidParameter naming page_token
    when it is no token of this request's list)."""
    birth = moment_from(request, "moment")
    place = chart_place(request, required_place(request, "location"))
    start, end = event_range(request, cap_years=RANGE_CAP_YEARS)
    settings = forecast_settings()
    for body in dict.fromkeys((*settings.moving, *settings.station_bodies)):
        with naming(sent_moment_name(request, "end"), also=(OutOfRange,), reading=False):
            check_span(body, start.jd_ut1, end.jd_ut1)
    with naming("bodies", also=BODY_ERRORS):
        bodies = tuple(resolve_bodies(list(request.bodies))) if request.bodies else ()
    moving = moving_bodies(request)
    ics = request.format == "ics"
    if ics and start.jd_ut1 < Moment.from_iso(FIRST_ICS_MOMENT).jd_ut1:
        raise InvalidParameter(
            f"An iCalendar file writes years with four digits; the range starts at {start.iso_utc()}.",
            suggestion="Ask for format=json, or a range from 0001-01-01 on.",
            param="format",
        )
    kinds = tuple(dict.fromkeys(request.kinds))
    rank, _ = sent_or_default(request, "rank")
    page_size, sent = sent_or_default(request, "page_size")
    if ics and (sent or request.page_token):
        raise ConflictingParameters(
            "format=ics answers the whole calendar at once; page_size and page_token page the JSON answer.",
            suggestion="Leave out page_size and page_token with format=ics, or ask for format=json.",
            param="page_size" if sent else "page_token",
        )
    key = request_key(
        chart_key(birth, place, settings),
        f"{start.jd_ut1:.9f}",
        f"{end.jd_ut1:.9f}",
        kinds,
        bodies,
        moving,
        rank,
    )
    position = page_position(request.page_token, key) if request.page_token else 0
    return ForecastInput(birth, place, start, end, kinds, bodies, ics, moving, rank, page_size, position, key)


def moving_bodies(request: Message) -> tuple[str, ...]:
    """Return the bodies of ``moving`` (empty when not sent): each body named must move in a
    forecast's events (:func:`kernel.forecast.movers`), else BodyNotEligible naming moving and
    listing those that do; a group gives those of its bodies that do (planets: the Sun to Pluto,
    not the mean node)."""
    if not request.moving:
        return ()
    eligible = movers(forecast_settings())
    moving: list[str] = []
    with naming("moving", also=BODY_ERRORS):
        for name in request.moving:
            found = resolve_bodies([name])
            if name.strip().lower() in GROUPS:
                moving += [body for body in found if body in eligible]
                continue
            (body,) = found
            if canonical_body(body) not in eligible:
                raise BodyNotEligible(
                    wording=lambda param, body=body: f"The body {body!r} in {param} moves in no forecast event.",
                    suggestion=f"Use one of: {', '.join(eligible)}.",
                )
            moving.append(body)
    return tuple(dict.fromkeys(moving))
