"""Heliacal events: a planet's first or last visibility at dawn or dusk, by Schaefer's model of
the sky's brightness as Swiss Ephemeris implements it."""

from __future__ import annotations

from dataclasses import dataclass, fields

from kernel import engine
from kernel.bodies import HELIACAL, require_use
from kernel.errors import BodyNotEligible, InvalidHeliacalEvent, OutOfRange, UnreadableValue
from kernel.positions import Observer
from kernel.timescale import JD_UT1_MAX, JD_UT1_MIN, SUPPORTED_SPAN_TEXT

# The evening first and morning last visibility happen only for the inferior planets, which
# pass between the Earth and the Sun.
INFERIOR_ONLY_EVENTS = ("evening_first", "morning_last")
INFERIOR_PLANETS = ("mercury", "venus")
ACRONYCHAL_EVENTS = ("acronychal_rising", "acronychal_setting")
#: The latitudes (degrees either side of the equator) within which Swiss Ephemeris documents its
#: heliacal search (``swe_heliacal_ut``: "It works between geographic latitudes 60s - 60n",
#: Swiss Ephemeris programmer's documentation, "Heliacal risings, settings, etc."). Within them,
#: with the naked eye, a search ends in milliseconds (50 ms at most measured, every planet and
#: event); beyond them it may search five synodic periods for an event that never comes.
ENGINE_LATITUDE_LIMIT_DEG = 60.0


@dataclass(frozen=True)
class Atmosphere:
    """Pressure (hPa), temperature (°C), relative humidity (%), meteorological range (km, 0: from the others)."""

    pressure_mbar: float = 1013.25
    temp_celsius: float = 15.0
    humidity_pct: float = 40.0
    visibility_range_km: float = 0.0


@dataclass(frozen=True)
class Eyes:
    """The observer: age (years), Snellen ratio, binocular vision, and optics (aperture in cm,
    0 for the naked eye; magnification)."""

    age_years: float = 36.0
    snellen_ratio: float = 1.0
    binoculars: bool = True
    telescope_aperture_cm: float = 0.0
    telescope_magnification: float = 1.0


@dataclass(frozen=True)
class HeliacalEvent:
    """The event's UT1 JD, the arcus visionis then (degrees) and the Sun's and the body's altitudes (degrees)."""

    jd: float
    visibility_arc_deg: float
    sun_altitude: float
    object_altitude: float


def check_event(body: str, event: str) -> None:
    """Refuse the acronychal events (InvalidHeliacalEvent), bodies the body table does not make
    eligible for heliacal searches and an inferior-only event for a superior planet
    (BodyNotEligible). ``body`` is a name as :func:`kernel.bodies.resolve_body` returns it (the
    reader resolved it once): its row is looked up, not read again."""
    if event in ACRONYCHAL_EVENTS:
        raise InvalidHeliacalEvent(
            f"{event} is not computed: the acronychal events are refused.",
            suggestion="Ask for morning_first, evening_last, evening_first or morning_last.",
        )
    require_use((body,), HELIACAL)
    if event in INFERIOR_ONLY_EVENTS and body not in INFERIOR_PLANETS:
        raise BodyNotEligible(
            f"{event} happens only for Mercury and Venus, which pass between the Earth and the Sun; {body} does not.",
            suggestion="Ask for morning_first or evening_last, or choose mercury or venus.",
        )


def next_heliacal_event(
    jd_ut1: float, body: str, event: str, place: Observer, atmosphere: Atmosphere, eyes: Eyes
) -> HeliacalEvent:
    """Return the next ``event`` of ``body`` after ``jd_ut1`` seen from ``place``.

    An event past the supported dates (or past the ephemeris while searching for it) is
    OutOfRange: no result outside them is returned."""
    check_event(body, event)
    optical = eyes.telescope_aperture_cm > 0.0
    observer = (
        eyes.age_years,
        eyes.snellen_ratio,
        1.0 if eyes.binoculars else 0.0,
        eyes.telescope_magnification if optical else 0.0,
        eyes.telescope_aperture_cm * 10.0,
        0.0,
    )
    try:
        found = engine.heliacal_event(
            jd_ut1,
            body,
            event,
            (place.longitude_deg, place.latitude_deg, place.altitude_m),
            (
                atmosphere.pressure_mbar,
                atmosphere.temp_celsius,
                atmosphere.humidity_pct,
                atmosphere.visibility_range_km,
            ),
            observer,
            optical,
        )
    except engine.EngineError as exc:
        if engine.is_no_data_error(exc):
            raise _after_supported_dates(body, event) from None
        raise UnreadableValue(
            f"No {event} of {body} is found within five synodic periods for this place and observer.",
            suggestion="With optical aid or from high latitudes a planet may never be lost in the Sun's glare: try the "
            "naked eye (telescope_aperture_cm=0), another place or another date.",
        ) from None
    if not JD_UT1_MIN <= found[0] <= JD_UT1_MAX:
        raise _after_supported_dates(body, event)
    return HeliacalEvent(*found)


def _after_supported_dates(body: str, event: str) -> OutOfRange:
    return OutOfRange(
        f"The next {event} of {body} falls after the supported dates ({SUPPORTED_SPAN_TEXT}; Julian Day UT1 "
        f"{JD_UT1_MIN} to {JD_UT1_MAX}): 0 of the 1 asked for lies inside.",
        suggestion="Search from an earlier date.",
    )


def search_stopped(
    body: str, event: str, place: Observer, eyes: Eyes, searched_s: float, atmosphere: Atmosphere = Atmosphere()
) -> UnreadableValue | None:
    """Return the refusal (UnreadableValue, about ``place`` or ``eyes``: the reader names the
    parameter) of a search stopped after ``searched_s`` seconds without an answer, when the request lies
    outside the conditions the engine's search is made for; None inside them.

    Outside: beyond :data:`ENGINE_LATITUDE_LIMIT_DEG`, with optical aid, or under a sky or with
    eyes other than the model's defaults (``about`` then names the first such field of
    :class:`Atmosphere` or :class:`Eyes`): a meteorological range of 1 km, a humidity of 100%,
    a temperature of 100 °C or a Snellen ratio of 0.001 hide Venus for good, and the engine
    searches 10 s or more before it says so (measured, Venus from 625000.5). There the event may
    not come for years, or at all: near the poles the planet may never clear the twilight (its
    altitude at the Sun's depression stays below the arcus visionis), and through a telescope
    it may never be lost in the Sun's glare, so it has no first or last visibility. The engine
    then searches five synodic periods before it says so (22 s for Mercury at 80°), and no
    rule from latitude, body and optics alone says in advance which searches end that way
    (Mercury's morning_first is found at 80°S from March 2026 and not at 80°N; Venus' and Mars'
    at 85°N), so such a search is stopped at its deadline and its stop is the answer, as the
    engine's own "not found" is. Inside the documented conditions a search ends in
    milliseconds, so a stop there is the service's failure, not the request's: None (504).
    """
    optical = eyes.telescope_aperture_cm > 0.0
    if abs(place.latitude_deg) > ENGINE_LATITUDE_LIMIT_DEG:
        return UnreadableValue(
            f"No {event} of {body} was found within {searched_s:g} s of search at latitude {place.latitude_deg:g}°: "
            f"beyond {ENGINE_LATITUDE_LIMIT_DEG:g}° from the equator a planet may not clear the twilight for years, "
            "and the search is stopped.",
            suggestion=f"Ask for a place within {ENGINE_LATITUDE_LIMIT_DEG:g}° of the equator, or another body or "
            "event (Venus and the outer planets are found far closer to the poles than Mercury).",
            about="place",
        )
    if optical:
        return UnreadableValue(
            f"No {event} of {body} was found within {searched_s:g} s of search with optical aid: through a telescope "
            "a planet may never be lost in the Sun's glare, so it may have no first or last visibility, and the "
            "search is stopped.",
            suggestion="Ask for the naked eye (telescope_aperture_cm=0).",
            about="eyes",
        )
    for given, default in ((atmosphere, Atmosphere()), (eyes, Eyes())):
        # The magnification counts only with an aperture (optical aid, above).
        changed = next(
            (
                f.name
                for f in fields(given)
                if f.name != "telescope_magnification" and getattr(given, f.name) != getattr(default, f.name)
            ),
            None,
        )
        if changed is not None:
            return UnreadableValue(
                f"No {event} of {body} was found within {searched_s:g} s of search with {changed}="
                f"{getattr(given, changed)!r}: under such a sky or with such eyes the planet may never be seen, and "
                "the search is stopped.",
                suggestion=f"Leave {changed} out (its default), or ask for a clearer sky or keener eyes.",
                about=changed,
            )
    return None
