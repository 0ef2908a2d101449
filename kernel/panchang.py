"""The panchang (the five limbs of the Hindu day): vara, tithi, nakshatra, yoga and karana
at an instant, each with the instants it starts and ends, and the sunrise that opens the day."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from kernel import engine
from kernel.ayanamshas import Ayanamsha
from kernel.bodies import engine_number
from kernel.errors import OutOfRange, PolarDayOrNight
from kernel.nakshatras import NAKSHATRA_TABLE, SPAN_DEG, nakshatra_of
from kernel.positions import CalcFlags, ecliptic_longitude_flags, engine_state
from kernel.timescale import JD_UT1_MIN, SUPPORTED_SPAN_TEXT, require_day_within_span

# Source: Surya Siddhanta ch. II sl. 64-69 (Burgess tr., 1860): a tithi is the time the Moon
# takes to gain 12° on the Sun (30 in a synodic month); a yoga the time the sum of the Sun's
# and Moon's sidereal longitudes takes to grow by 13°20' (27 of them); a karana half a tithi
# (6° of elongation, 60 in a month): the first half of the first tithi is Kimstughna, then
# Bava, Balava, Kaulava, Taitila, Gara, Vanija and Vishti eight times over, then Shakuni,
# Chatushpada and Naga. Names as B. V. Raman spells them (A Manual of Hindu Astrology),
# lowercase. The tithis of the waxing fortnight (shukla paksha) end at the full Moon
# (purnima), those of the waning (krishna paksha) at the new Moon (amavasya).
TITHI_DEG = 12.0
KARANA_DEG = 6.0
TITHI_NAMES: tuple[str, ...] = (
    "pratipada",
    "dvitiya",
    "tritiya",
    "chaturthi",
    "panchami",
    "shashthi",
    "saptami",
    "ashtami",
    "navami",
    "dashami",
    "ekadashi",
    "dvadashi",
    "trayodashi",
    "chaturdashi",
)
SHUKLA, KRISHNA = "shukla", "krishna"
YOGA_NAMES: tuple[str, ...] = (
    "vishkambha",
    "priti",
    "ayushman",
    "saubhagya",
    "shobhana",
    "atiganda",
    "sukarma",
    "dhriti",
    "shula",
    "ganda",
    "vriddhi",
    "dhruva",
    "vyaghata",
    "harshana",
    "vajra",
    "siddhi",
    "vyatipata",
    "variyan",
    "parigha",
    "shiva",
    "siddha",
    "sadhya",
    "shubha",
    "shukla",
    "brahma",
    "indra",
    "vaidhriti",
)
MOVABLE_KARANAS: tuple[str, ...] = ("bava", "balava", "kaulava", "taitila", "gara", "vanija", "vishti")
FIXED_KARANAS: tuple[str, ...] = ("shakuni", "chatushpada", "naga", "kimstughna")
# The weekdays from Sunday, each its planet's day (Surya Siddhanta I.51-52).
VARA_NAMES: tuple[tuple[str, str], ...] = (
    ("ravivara", "sun"),
    ("somavara", "moon"),
    ("mangalavara", "mars"),
    ("budhavara", "mercury"),
    ("guruvara", "jupiter"),
    ("shukravara", "venus"),
    ("shanivara", "saturn"),
)
SUNRISES: tuple[str, ...] = tuple(engine.SUNRISE_BITS)
DEFAULT_SUNRISE = "upper_limb_refracted"
# A day lasts at most this long where the Sun still rises and sets every day.
_LONGEST_DAY_DAYS = 1.5
_SAME_INSTANT_DAYS = 1e-6


@dataclass(frozen=True)
class Limb:
    """One limb at an instant: its ``index`` (1-based), ``name``, the ``start_jd`` and
    ``end_jd`` (UT1 Julian Days) of its span, and for a tithi its ``paksha``, for a
    nakshatra its ``pada`` and ``lord``."""

    index: int
    name: str
    start_jd: float
    end_jd: float
    paksha: str | None = None
    pada: int | None = None
    lord: str | None = None


@dataclass(frozen=True)
class Panchang:
    """The panchang at ``jd`` (UT1): the ``sunrise_jd`` that opened its day (vara), that
    day's ``sunset_jd`` and ``next_sunrise_jd``, the ``vara`` (index 1 Sunday .. 7, name,
    lord) and the four limbs running at ``jd``."""

    jd: float
    sunrise_jd: float
    sunset_jd: float
    next_sunrise_jd: float
    vara: tuple[int, str, str]
    tithi: Limb
    nakshatra: Limb
    yoga: Limb
    karana: Limb


def tithi_name(index: int) -> tuple[str, str]:
    """Return the name and paksha of tithi ``index`` (1-30)."""
    if index == 15:
        return "purnima", SHUKLA
    if index == 30:
        return "amavasya", KRISHNA
    return TITHI_NAMES[(index - 1) % 15], SHUKLA if index < 15 else KRISHNA


def karana_name(index: int) -> str:
    """Return the name of karana ``index`` (1-60)."""
    if index == 1:
        return FIXED_KARANAS[3]
    if index >= 58:
        return FIXED_KARANAS[index - 58]
    return MOVABLE_KARANAS[(index - 2) % 7]


def _span(measure: Callable[[float], tuple[float, float]], width: float, jd: float) -> tuple[int, float, float]:
    """Return the part (0-based) of width ``width`` degrees that ``measure`` (t -> angle in
    [0, 360), its rate in degrees a day, always positive) stands in at ``jd``, and the instants
    it entered and will leave that part, each found by Newton's method to under a millisecond."""
    value, _ = measure(jd)
    part = int(value // width) % round(360 / width)
    return part, _reach(measure, part * width, jd), _reach(measure, (part + 1) * width, jd)


def _reach(measure: Callable[[float], tuple[float, float]], target: float, jd: float) -> float:
    """Return the instant nearest ``jd`` when ``measure`` equals ``target`` (mod 360)."""
    t = jd
    for _ in range(30):
        value, rate = measure(t)
        offset = (value - target + 180.0) % 360.0 - 180.0
        step = offset / rate
        t -= step
        if abs(step) < 1e-9:
            break
    return t


def panchang(
    jd: float,
    latitude_deg: float,
    longitude_deg: float,
    altitude_m: float,
    ayanamsha: Ayanamsha,
    *,
    sunrise: str = DEFAULT_SUNRISE,
    at_sunrise: bool = False,
    utc_offset_s: float | None = None,
) -> Panchang:
    """Return the panchang at ``jd`` (UT1) at a place: the four limbs from the apparent
    geocentric longitudes of the Sun and Moon (the nakshatra and yoga sidereal under
    ``ayanamsha``; a tithi and karana are the same in either zodiac), and the day that holds
    ``jd`` from the ``sunrise`` before it; with ``at_sunrise``, the limbs running at the
    sunrise of ``jd``'s civil date (:func:`day_sunrise`) and that day. Dates (the civil date,
    the vara's weekday) are read on the clock ``utc_offset_s`` seconds east of UTC (the
    request's zone), or in local mean time at the place when it is None. Raises
    PolarDayOrNight where the Sun does not rise and set, OutOfRange when that sunrise lies
    before the supported dates."""
    require_day_within_span(jd)
    clock_days = _clock_days(longitude_deg, utc_offset_s)
    if at_sunrise:
        jd = day_sunrise(jd, latitude_deg, longitude_deg, altitude_m, sunrise=sunrise, utc_offset_s=utc_offset_s)
    flags = CalcFlags(sidereal=ayanamsha)
    bits = ecliptic_longitude_flags(flags)
    sun = engine.longitude_and_speed(engine_number("sun"), bits)
    moon = engine.longitude_and_speed(engine_number("moon"), bits)

    def elongation(t: float) -> tuple[float, float]:
        (s, s_rate), (m, m_rate) = sun(t), moon(t)
        return (m - s) % 360.0, m_rate - s_rate

    def total(t: float) -> tuple[float, float]:
        (s, s_rate), (m, m_rate) = sun(t), moon(t)
        return (m + s) % 360.0, m_rate + s_rate

    with engine_state(flags, None):
        tithi, tithi_start, tithi_end = _span(elongation, TITHI_DEG, jd)
        karana, karana_start, karana_end = _span(elongation, KARANA_DEG, jd)
        mansion, mansion_start, mansion_end = _span(moon, SPAN_DEG, jd)
        yoga, yoga_start, yoga_end = _span(total, SPAN_DEG, jd)
        moon_longitude = moon(jd)[0]
    rise = (
        jd if at_sunrise else _sun_event(jd - _LONGEST_DAY_DAYS, latitude_deg, longitude_deg, altitude_m, True, sunrise)
    )
    following = _sun_event(rise + _SAME_INSTANT_DAYS, latitude_deg, longitude_deg, altitude_m, True, sunrise)
    # A moment at a sunrise (to a tenth of a second: another search's value of it) is in its day.
    while not at_sunrise and following <= jd + _SAME_INSTANT_DAYS:
        rise, following = (
            following,
            _sun_event(following + _SAME_INSTANT_DAYS, latitude_deg, longitude_deg, altitude_m, True, sunrise),
        )
    sunset = _sun_event(rise, latitude_deg, longitude_deg, altitude_m, False, sunrise)
    # The weekday of the sunrise's civil date; Julian Day numbers count Monday as 0.
    vara_index = (math.floor(rise + 0.5 + clock_days) + 1) % 7
    name, lord = VARA_NAMES[vara_index]
    tithi_label, paksha = tithi_name(tithi + 1)
    star = nakshatra_of(moon_longitude)
    return Panchang(
        jd,
        rise,
        sunset,
        following,
        (vara_index + 1, name, lord),
        Limb(tithi + 1, tithi_label, tithi_start, tithi_end, paksha=paksha),
        Limb(
            mansion + 1,
            NAKSHATRA_TABLE[mansion][0],
            mansion_start,
            mansion_end,
            pada=star.pada,
            lord=NAKSHATRA_TABLE[mansion][1],
        ),
        Limb(yoga + 1, YOGA_NAMES[yoga], yoga_start, yoga_end),
        Limb(karana + 1, karana_name(karana + 1), karana_start, karana_end),
    )


def day_sunrise(
    jd: float,
    latitude_deg: float,
    longitude_deg: float,
    altitude_m: float,
    *,
    sunrise: str = DEFAULT_SUNRISE,
    utc_offset_s: float | None = None,
) -> float:
    """Return the sunrise (UT1 Julian Day) of the civil date holding ``jd`` at a place: the
    first after that date's midnight on the clock ``utc_offset_s`` seconds east of UTC, or in
    local mean time (``longitude_deg`` east) when it is None."""
    clock_days = _clock_days(longitude_deg, utc_offset_s)
    midnight = math.floor(jd + 0.5 + clock_days) - 0.5 - clock_days
    return _sun_event(midnight, latitude_deg, longitude_deg, altitude_m, True, sunrise)


def _clock_days(longitude_deg: float, utc_offset_s: float | None) -> float:
    """Return how far (days) the clock that dates the day runs ahead of UT: the zone's offset,
    or local mean time's (the longitude's share of a day) when there is no zone."""
    return longitude_deg / 360.0 if utc_offset_s is None else utc_offset_s / 86400.0


def _sun_event(
    after_jd: float, latitude_deg: float, longitude_deg: float, altitude_m: float, rising: bool, sunrise: str
) -> float:
    """Return the Sun's next rising or setting after ``after_jd`` under the ``sunrise`` convention."""
    if after_jd < JD_UT1_MIN:
        raise OutOfRange(
            f"The day around this moment begins before the supported dates ({SUPPORTED_SPAN_TEXT}).",
            suggestion="Choose a moment at least two days after the start of the supported dates.",
            about="moment",
        )
    found = engine.next_sun_rise_or_set(
        after_jd, latitude_deg, longitude_deg, altitude_m, rising=rising, sunrise=sunrise
    ).jd_ut1
    if found is None or found - after_jd > _LONGEST_DAY_DAYS:
        raise PolarDayOrNight(
            f"At latitude {latitude_deg:g} the Sun does not both rise and set around this moment, so the day has no "
            "sunrise."
        )
    return found
