"""Parans (Bernadette Brady's method): pairs of points (bodies, fixed stars) that stand on the
angles at the same time as seen from one latitude, and the latitudes at which a given pair
does.

Frames and conventions. A point is given by its apparent right ascension and declination of
date (degrees). The local sidereal time at east longitude ``L`` is ``theta + L`` (``theta``
Greenwich apparent sidereal time, degrees); a point is on an angle when its hour angle
``LST - alpha`` is the angle's (kernel/astrocartography.py, :func:`angle_hour_angles`): 0 on
the midheaven (culminating), 180 on the imum coeli (anti-culminating), minus and plus its
semi-arc on the ascendant (rising) and descendant (setting). The horizon is the geometric
one through the Earth's centre (no refraction, no parallax, the point's centre), as the
astrocartography lines draw it. A point that never rises or never sets at the latitude has
no rising or setting.

The day scanned is one turn of the Earth (one sidereal day, 0.99726957 days of UT) from the
moment on. Each point's positions over it are sampled (:data:`SAMPLES`) and interpolated, so
the Moon's motion during the day is followed. Two events are in paran when they are of two
different points and at most the orb apart. Which pairs are in paran does not depend on the
longitude (the same events happen at every longitude of the latitude, shifted together);
their clock times do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.polynomial import polynomial as P

from kernel.astrocartography import ANGLES, angle_hour_angles, semi_arc
from kernel.conditions import Condition
from kernel.earth_rotation import sidereal_time
from kernel.engine import FixedStar
from kernel.positions import CalcFlags, compute_positions
from kernel.stars import star_positions
from kernel.timescale import Moment

#: One turn of the Earth relative to the equinox, days of UT (IERS: 86164.0905 s).
SIDEREAL_DAY_DAYS = 86164.0905 / 86400.0
#: How fast hour angles grow for a fixed point, degrees per day of UT.
SIDEREAL_RATE_DEG_PER_DAY = 360.0 / SIDEREAL_DAY_DAYS
#: Positions sampled over the day (evenly, both ends included) and fitted with a polynomial of
#: one degree less: the Moon's place over a day is matched to well under an arcsecond.
SAMPLES = 7
#: Brady's orb read as one degree of the Earth's turn: 4 minutes of time.
DEFAULT_ORB_MINUTES = 4.0
NEWTON_STEPS = 6
#: The latitudes a paran latitude is searched over, degrees (the astrocartography rows' span).
MAX_LATITUDE_DEG = 89.0
LATITUDE_SCAN_STEP_DEG = 0.05


@dataclass(frozen=True)
class AngleEvent:
    """A point on an angle: the point's name, the angle (ascendant = rising, midheaven =
    culminating, descendant = setting, imum_coeli = anti-culminating), the moment (Julian Day,
    UT1) and the local apparent sidereal time then (degrees, [0, 360))."""

    point: str
    angle: str
    jd_ut: float
    local_sidereal_deg: float


@dataclass(frozen=True)
class Paran:
    """Two points on angles at most the orb apart: the earlier event first, and the time
    between them (seconds, >= 0)."""

    first: AngleEvent
    second: AngleEvent
    separation_s: float


@dataclass(frozen=True)
class DaySky:
    """The points' apparent places over the day: ``times`` (Julian Days, UT1, the first the
    moment), ``right_ascensions`` and ``declinations`` (degrees, one row per point, one column
    per time) and Greenwich apparent sidereal time at each time (degrees)."""

    points: tuple[str, ...]
    times: np.ndarray
    right_ascensions: np.ndarray
    declinations: np.ndarray
    gast_deg: np.ndarray


def sample_times(start_jd: float) -> np.ndarray:
    """Return the Julian Days (UT1) at which a day's places are sampled, from ``start_jd``."""
    return start_jd + np.linspace(0.0, SIDEREAL_DAY_DAYS, SAMPLES)


def _fit(times: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Return the polynomial coefficients (lowest first; one column per row of ``values``) of
    the samples against days from the first time."""
    return P.polyfit(times - times[0], values.T, SAMPLES - 1)


def _at(coefficients: np.ndarray, days: np.ndarray) -> np.ndarray:
    """Return each point's polynomial (a column of ``coefficients``) at its rows of ``days``."""
    value = np.zeros_like(days)
    for c in coefficients[::-1]:
        value = value * days + c[:, None]
    return value


#: Where each angle of ANGLES is in hour angle: the semi-arc times a sign, or a fixed value.
_SEMI_ARC_SIGNS = np.array([-1.0, 1.0, 0.0, 0.0])
_MERIDIAN = np.array([False, False, True, True])
_MERIDIAN_HOUR_ANGLES = np.array([0.0, 0.0, 0.0, 180.0])


def _target_hour_angles(latitude_deg: float, declinations_deg: np.ndarray) -> np.ndarray:
    """Return the hour angle of each angle of ANGLES (columns) at each declination (degrees),
    NaN for a rising or setting that does not happen."""
    arc = semi_arc(np.full_like(declinations_deg, latitude_deg), declinations_deg)
    return np.where(_MERIDIAN, _MERIDIAN_HOUR_ANGLES, _SEMI_ARC_SIGNS * arc)


def angle_events(sky: DaySky, latitude_deg: float, longitude_deg: float) -> list[AngleEvent]:
    """Return every point's risings, culminations, settings and anti-culminations in the day
    from ``sky.times[0]`` (one sidereal day), at the latitude and east longitude (degrees),
    in time order. Each is solved by Newton's method on the hour angle, the point's place
    interpolated at each step, to far below a second (every point and angle at once)."""
    start = float(sky.times[0])
    if not sky.points:
        return []
    gast = P.polyfit(sky.times - start, np.unwrap(sky.gast_deg, period=360.0), SAMPLES - 1)
    ra = _fit(sky.times, np.unwrap(sky.right_ascensions, period=360.0, axis=1))
    dec = _fit(sky.times, sky.declinations)
    ra_rate = P.polyder(ra, axis=0)
    count = len(sky.points)
    t = np.zeros((count, len(ANGLES)))
    local = P.polyval(t, gast) + longitude_deg
    t = ((_target_hour_angles(latitude_deg, _at(dec, t)) - (local - _at(ra, t))) % 360.0) / SIDEREAL_RATE_DEG_PER_DAY
    for _ in range(NEWTON_STEPS):
        local = P.polyval(t, gast) + longitude_deg
        miss = (_target_hour_angles(latitude_deg, _at(dec, t)) - (local - _at(ra, t)) + 180.0) % 360.0 - 180.0
        t = t + miss / (SIDEREAL_RATE_DEG_PER_DAY - _at(ra_rate, t))
    sidereal = (P.polyval(t, gast) + longitude_deg) % 360.0
    found = np.isfinite(t) & (t >= 0.0) & (t < SIDEREAL_DAY_DAYS)
    events = [
        AngleEvent(sky.points[i], ANGLES[k], float(start + t[i, k]), float(sidereal[i, k]))
        for i, k in zip(*np.nonzero(found))
    ]
    return sorted(events, key=lambda e: e.jd_ut)


def parans(events: Sequence[AngleEvent], orb_minutes: float = DEFAULT_ORB_MINUTES) -> list[Paran]:
    """Return every pair of events of two different points at most ``orb_minutes`` apart, by
    the time of the earlier event (events in time order, as :func:`angle_events` gives them)."""
    orb_days = orb_minutes / 1440.0
    found = []
    for i, first in enumerate(events):
        for second in events[i + 1 :]:
            if second.jd_ut - first.jd_ut > orb_days:
                break
            if second.point != first.point:
                found.append(Paran(first, second, (second.jd_ut - first.jd_ut) * 86400.0))
    return found


def _sidereal_times(
    angle: str, latitudes_deg: np.ndarray, right_ascension_deg: float, declination_deg: float
) -> np.ndarray:
    """Return the local sidereal time (degrees) at which the point is on ``angle`` at each latitude."""
    return right_ascension_deg + angle_hour_angles(angle, latitudes_deg, declination_deg)


def paran_latitudes(
    first: tuple[float, float, str], second: tuple[float, float, str], max_latitude_deg: float = MAX_LATITUDE_DEG
) -> list[float]:
    """Return the latitudes (degrees, south to north) at which two points, each given as
    (right ascension, declination, angle) of one moment, are on their angles at the same
    local sidereal time: where the pair is in paran. Found by scanning every
    :data:`LATITUDE_SCAN_STEP_DEG` and bisecting each crossing to 1e-9 degree. Two meridian
    angles (midheaven, imum coeli) do not depend on latitude, so they give no latitude."""
    if first[2] in ("midheaven", "imum_coeli") and second[2] in ("midheaven", "imum_coeli"):
        return []

    def gap(latitudes: np.ndarray) -> np.ndarray:
        a = _sidereal_times(first[2], latitudes, first[0], first[1])
        b = _sidereal_times(second[2], latitudes, second[0], second[1])
        return (a - b + 180.0) % 360.0 - 180.0

    count = int(round(2.0 * max_latitude_deg / LATITUDE_SCAN_STEP_DEG)) + 1
    rows = np.linspace(-max_latitude_deg, max_latitude_deg, count)
    values = gap(rows)
    found = []
    for k in range(count - 1):
        low, high, f_low, f_high = rows[k], rows[k + 1], values[k], values[k + 1]
        if not (np.isfinite(f_low) and np.isfinite(f_high)):
            continue
        if f_low == 0.0:
            found.append(float(low))
            continue
        # A sign change across +-180 is the wrap of the difference, not a crossing.
        if f_low * f_high > 0.0 or abs(f_high - f_low) > 180.0:
            continue
        for _ in range(60):
            middle = 0.5 * (low + high)
            f_middle = gap(np.array([middle]))[0]
            if f_middle * f_low > 0.0:
                low, f_low = middle, f_middle
            else:
                high = middle
        found.append(float(0.5 * (low + high)))
    if values.size and values[-1] == 0.0:
        found.append(float(rows[-1]))
    return found


def day_sky(moment: Moment, bodies: Sequence[str], stars: Sequence[FixedStar]) -> tuple[DaySky, list[Condition]]:
    """Return the apparent geocentric places of ``bodies`` and ``stars`` (Swiss Ephemeris,
    true equator and equinox of date) over the day from ``moment``, and the engine's
    conditions met on the way. Points are named by body name and by the star's name as
    /v1/stars gives it."""
    times = sample_times(moment.jd_ut1)
    points = (*bodies, *(star.name or star.nomenclature for star in stars))
    ra = np.empty((len(points), SAMPLES))
    dec = np.empty((len(points), SAMPLES))
    gast = np.empty(SAMPLES)
    conditions: list[Condition] = []
    for column, jd in enumerate(times.tolist()):
        at = Moment.from_jd_ut1(jd)
        records = []
        if bodies:
            result = compute_positions(at, list(bodies), CalcFlags(equatorial=True, speed=False))
            conditions.extend(c for c in result.conditions if c not in conditions)
            records = [(r.right_ascension, r.declination) for r in result.records]
        records += [(s.right_ascension, s.declination) for s in star_positions(stars, at)] if stars else []
        ra[:, column] = [r[0] for r in records]
        dec[:, column] = [r[1] for r in records]
        gast[column] = sidereal_time(at).gast_degrees
    return DaySky(points, times, ra, dec, gast), conditions
