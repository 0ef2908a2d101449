"""Planetary hours: the day from sunrise to the next sunrise cut into twelve unequal day hours
and twelve night hours, each ruled in turn by the planets in Chaldean order."""

from __future__ import annotations

import math
from dataclasses import dataclass

from kernel import engine
from kernel.errors import OutOfRange, PolarDayOrNight
from kernel.timescale import JD_UT1_MIN, SUPPORTED_SPAN_TEXT, Moment, require_day_within_span

# Source: the Chaldean order (slowest to fastest, Ptolemy, Tetrabiblos I.4), which the hours
# follow in turn, and the rulers of the weekdays it gives (Vettius Valens, Anthology I.10),
# Monday first to match the Julian Day count (JD 0 began on a Monday).
CHALDEAN_ORDER: tuple[str, ...] = ("saturn", "jupiter", "mars", "sun", "venus", "mercury", "moon")
WEEKDAY_RULERS: tuple[str, ...] = ("moon", "mars", "mercury", "jupiter", "venus", "saturn", "sun")

# Risings are a day apart (within minutes, or a few hours near the polar circles); stepping
# a minute past one finds the next, and a planetary day longer than this means the Sun missed
# a rising or setting in between: polar day or night.
_PAST_EVENT_DAYS = 1.0 / 1440.0
_LONGEST_DAY_DAYS = 1.5


@dataclass(frozen=True)
class PlanetaryHour:
    """Hour ``number`` 1-24 (1-12 from sunrise, 13-24 from sunset), its ruler and its UT1 Julian Days."""

    number: int
    ruler: str
    start_jd: float
    end_jd: float
    is_day: bool


@dataclass(frozen=True)
class PlanetaryDay:
    """The planetary day containing a moment: sunrise, sunset and next sunrise (UT1 Julian
    Days), the day's ruler, its 24 hours and the number of the hour holding the moment."""

    day_ruler: str
    sunrise_jd: float
    sunset_jd: float
    next_sunrise_jd: float
    hours: tuple[PlanetaryHour, ...]
    current_hour: int


def _polar(latitude_deg: float, when: str) -> PolarDayOrNight:
    return PolarDayOrNight(
        f"At latitude {latitude_deg:g} the Sun does not both rise and set {when}, so there are no planetary hours.",
    )


def _rise(jd_ut1: float, latitude_deg: float, longitude_deg: float, altitude_m: float) -> float:
    if jd_ut1 < JD_UT1_MIN:
        # The sunrise that opens the day lies before the span the engine computes.
        raise OutOfRange(
            f"The planetary day around this moment begins before the supported dates ({SUPPORTED_SPAN_TEXT}).",
            suggestion="Choose a moment at least two days after the start of the supported dates.",
            about="moment",
        )
    found = engine.next_sun_rise_or_set(jd_ut1, latitude_deg, longitude_deg, altitude_m, rising=True).jd_ut1
    if found is None or found - jd_ut1 > _LONGEST_DAY_DAYS:
        raise _polar(latitude_deg, "around this moment")
    return found


def day_ruler(sunrise_jd: float, longitude_deg: float) -> str:
    """Return the ruler of the weekday on which the sunrise falls in local mean time at ``longitude_deg``."""
    day_number = math.floor(sunrise_jd + 0.5 + longitude_deg / 360.0)
    return WEEKDAY_RULERS[day_number % 7]


def planetary_day(moment: Moment, latitude_deg: float, longitude_deg: float, altitude_m: float = 0.0) -> PlanetaryDay:
    """Return the planetary day at a place (degrees north and east, metres) that contains
    ``moment``: from the last sunrise at or before it to the next sunrise after it.

    Raises PolarDayOrNight when the Sun does not rise, then set, then rise again within a
    day and a half there, and OutOfRange when the day's sunrise would lie before JD_UT1_MIN.
    """
    jd = moment.jd_ut1
    require_day_within_span(jd, "planetary day")
    sunrise = _rise(jd - 1.0, latitude_deg, longitude_deg, altitude_m)
    while sunrise > jd:  # the rising a day before the moment came after it: step back
        sunrise = _rise(sunrise - 1.5, latitude_deg, longitude_deg, altitude_m)
    next_sunrise = _rise(sunrise + _PAST_EVENT_DAYS, latitude_deg, longitude_deg, altitude_m)
    while next_sunrise <= jd:
        sunrise, next_sunrise = (
            next_sunrise,
            _rise(next_sunrise + _PAST_EVENT_DAYS, latitude_deg, longitude_deg, altitude_m),
        )
    sunset = engine.next_sun_rise_or_set(sunrise, latitude_deg, longitude_deg, altitude_m, rising=False).jd_ut1
    if sunset is None or sunset >= next_sunrise or next_sunrise - sunrise > _LONGEST_DAY_DAYS:
        raise _polar(latitude_deg, "on this day")
    ruler = day_ruler(sunrise, longitude_deg)
    first = CHALDEAN_ORDER.index(ruler)
    bounds = [sunrise + (sunset - sunrise) * i / 12.0 for i in range(12)] + [
        sunset + (next_sunrise - sunset) * i / 12.0 for i in range(12)
    ]
    bounds.append(next_sunrise)
    hours = tuple(
        PlanetaryHour(i + 1, CHALDEAN_ORDER[(first + i) % 7], bounds[i], bounds[i + 1], i < 12) for i in range(24)
    )
    current = next(h.number for h in hours if h.start_jd <= jd < h.end_jd)
    return PlanetaryDay(ruler, sunrise, sunset, next_sunrise, hours, current)
