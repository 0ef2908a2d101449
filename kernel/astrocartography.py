"""Astrocartography: where on Earth a body stands on a chart angle or on a house cusp, one
latitude row at a time, every row of a line computed at once with numpy.

Frames and conventions. A body is given by its apparent right ascension ``alpha`` and
declination ``delta`` of date (degrees). ``theta`` is Greenwich apparent sidereal time
(degrees). At east longitude ``L`` the local sidereal time is ``theta + L`` and the body's
hour angle ``H = theta + L - alpha`` (degrees, positive west of the meridian), so a line
that puts the body at hour angle ``H`` on a row runs through ``L = alpha + H - theta``.
The horizon is the geometric one (no refraction, no parallax), as astrocartography draws it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernel.errors import UnreadableValue
from kernel.house_position_roots import cusp_line_armcs
from kernel.houses import POLAR_UNDEFINED_LETTERS, SUN_DEPENDENT_LETTERS, parse_house_system

ANGLES: tuple[str, ...] = ("ascendant", "descendant", "midheaven", "imum_coeli")
ANGLE_ALIASES = {"asc": "ascendant", "dsc": "descendant", "mc": "midheaven", "ic": "imum_coeli"}
ZODIACAL, MUNDANE = "zodiacal", "mundane"

# Why a segment stops (interface.md, Astrocartography result).
LATITUDE_LIMIT = "latitude_limit"
CIRCUMPOLAR = "circumpolar"
HOUSE_SYSTEM_UNDEFINED = "house_system_undefined"
NO_SOLUTION = "no_solution"
ANTIMERIDIAN = "antimeridian"
DISCONTINUITY = "discontinuity"
# A longitude jump wider than this between two rows splits a line (the spec's table).
DISCONTINUITY_DEG = 90.0

# House systems whose cusp lines are solved in closed form here, by the kind of circle their cusps lie on:
# "semi_arc" (Placidus: a fraction of the body's own semi-arc), "horizon_circle" (a great
# circle through the north and south points of the horizon and a point dividing the equator,
# Regiomontanus, or the prime vertical, Campanus), "hour_circle" (Meridian: equal hour angles),
# "ascendant" and "midheaven" (the equal systems, counted in longitude from an angle).
CUSP_LINE_SOLVERS: dict[str, str] = {
    "placidus": "semi_arc",
    "regiomontanus": "horizon_circle",
    "campanus": "horizon_circle",
    "meridian": "hour_circle",
    "equal": "ascendant",
    "vehlow_equal": "ascendant",
    "equal_mc": "midheaven",
}
# Every other system's cusp lines are found numerically (kernel/house_position_roots.py),
# except these two, whose cusps are fixed on the zodiac: a body's place among them is the same
# everywhere on Earth, so it stands on a cusp either nowhere or everywhere and draws no line.
NO_CUSP_LINES: dict[str, str] = {
    "whole_sign": (
        "whole-sign cusps are the sign boundaries, so a body stands on one only at 0° of a sign and draws no line"
    ),
    "equal_aries": (
        "equal_aries cusps are the signs from 0° Aries, the same everywhere, so a body's place among them does not "
        "change across the map and draws no line"
    ),
}


@dataclass(frozen=True)
class Segment:
    """One unbroken piece of a line: ``latitudes`` and ``longitudes`` (degrees; longitudes in
    (-180, 180]) from south to north, and why it stops (``end``)."""

    latitudes: tuple[float, ...]
    longitudes: tuple[float, ...]
    end: str


def parse_angle(name: str) -> str:
    """Return the canonical angle name of ``name`` (full name or asc, dsc, mc, ic)."""
    key = name.strip().lower()
    key = ANGLE_ALIASES.get(key, key)
    if key not in ANGLES:
        raise UnreadableValue(
            f"Unknown angle {name!r}.",
            suggestion="Use ascendant, descendant, midheaven, imum_coeli (or asc, dsc, mc, ic).",
        )
    return key


def check_cusp_line_system(system: str) -> str:
    """Return ``system`` when its cusp lines can be drawn (every system but those of
    NO_CUSP_LINES), else raise UnreadableValue naming why."""
    if system in NO_CUSP_LINES:
        raise UnreadableValue(
            f"Cusp lines cannot be drawn in {system}: {NO_CUSP_LINES[system]}.",
            suggestion=(
                "Choose another house system for cusp lines, such as placidus or koch (angle lines are the same in "
                "every system)."
            ),
        )
    return system


def latitude_rows(step_deg: float, max_latitude_deg: float) -> np.ndarray:
    """Return the sampled latitudes from -max to +max (degrees), every ``step_deg``, south to north."""
    count = int(np.floor(2.0 * max_latitude_deg / step_deg + 1e-9)) + 1
    return -max_latitude_deg + step_deg * np.arange(count)


def equatorial(longitude_deg, latitude_deg, obliquity_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """Return (right ascension [0, 360), declination) in degrees of ecliptic points of date."""
    lam, beta, eps = np.radians(longitude_deg), np.radians(latitude_deg), np.radians(obliquity_deg)
    x = np.cos(beta) * np.cos(lam)
    y = np.cos(beta) * np.sin(lam) * np.cos(eps) - np.sin(beta) * np.sin(eps)
    z = np.cos(beta) * np.sin(lam) * np.sin(eps) + np.sin(beta) * np.cos(eps)
    return np.degrees(np.arctan2(y, x)) % 360.0, np.degrees(np.arcsin(np.clip(z, -1.0, 1.0)))


def wrap_longitude(longitude_deg: np.ndarray) -> np.ndarray:
    """Return longitudes wrapped into (-180, 180] degrees."""
    wrapped = (np.asarray(longitude_deg) + 180.0) % 360.0 - 180.0
    return np.where(wrapped <= -180.0, 180.0, wrapped)


def semi_arc(latitudes_deg: np.ndarray, declination_deg: float) -> np.ndarray:
    """Return the diurnal semi-arc (degrees of hour angle from the meridian to the horizon) at
    each latitude, NaN where the point never rises or never sets."""
    cos_h0 = -np.tan(np.radians(latitudes_deg)) * np.tan(np.radians(declination_deg))
    with np.errstate(invalid="ignore"):
        return np.where(np.abs(cos_h0) <= 1.0, np.degrees(np.arccos(np.clip(cos_h0, -1.0, 1.0))), np.nan)


def angle_hour_angles(angle: str, latitudes_deg: np.ndarray, declination_deg: float) -> np.ndarray:
    """Return the hour angle (degrees, west positive) that puts a point of ``declination_deg``
    on ``angle`` at each latitude; NaN where it is circumpolar (ascendant, descendant)."""
    if angle == "midheaven":
        return np.zeros_like(latitudes_deg)
    if angle == "imum_coeli":
        return np.full_like(latitudes_deg, 180.0)
    arc = semi_arc(latitudes_deg, declination_deg)
    return -arc if angle == "ascendant" else arc


def placidus_hour_angles(cusp: float, latitudes_deg: np.ndarray, declination_deg: float) -> np.ndarray:
    """Return the hour angle at which a point's Placidus house position is ``cusp``: the
    fraction of its own diurnal or nocturnal semi-arc the cusp stands for (10 at the upper
    meridian, 1 = 13 rising, 4 at the lower meridian, 7 setting). NaN where circumpolar."""
    day = semi_arc(latitudes_deg, declination_deg)
    night = 180.0 - day
    if cusp >= 10.0:
        return -(cusp - 10.0) / 3.0 * day
    if cusp < 4.0:
        return -(day + (cusp - 1.0) / 3.0 * night)
    if cusp < 7.0:
        return 180.0 - (cusp - 4.0) / 3.0 * night
    return day - (cusp - 7.0) / 3.0 * day


def _unit(hour_angle_deg, declination_deg) -> np.ndarray:
    """Return unit vectors, local equatorial frame: x the meridian's equator point, y east, z the pole."""
    h, d = np.radians(hour_angle_deg), np.radians(declination_deg)
    return np.stack(np.broadcast_arrays(np.cos(d) * np.cos(h), -np.cos(d) * np.sin(h), np.sin(d)), axis=-1)


def horizon_circle_hour_angles(
    system: str, cusp: float, latitudes_deg: np.ndarray, declination_deg: float
) -> np.ndarray:
    """Return the hour angle at which a point of ``declination_deg`` lies on the house circle
    ``cusp`` of Regiomontanus or Campanus at each latitude: the half great circle from the
    north point of the horizon through the point dividing the equator (Regiomontanus) or the
    prime vertical (Campanus) at 30° per house, counted from cusp 10 at the meridian. NaN
    where the point's declination circle never meets it."""
    phi = np.radians(latitudes_deg)
    north = np.stack([-np.sin(phi), np.zeros_like(phi), np.cos(phi)], axis=-1)
    if system == "regiomontanus":
        divider = _unit(np.full_like(phi, -30.0 * (cusp - 10.0)), 0.0)
    else:
        t = np.radians(30.0 * (13.0 - cusp))
        zenith = np.stack([np.cos(phi), np.zeros_like(phi), np.sin(phi)], axis=-1)
        divider = np.cos(t) * np.array([0.0, 1.0, 0.0]) + np.sin(t) * zenith
    normal = np.cross(north, divider)
    delta = np.radians(declination_deg)
    a, b, c = np.cos(delta) * normal[:, 0], -np.cos(delta) * normal[:, 1], np.sin(delta) * normal[:, 2]
    radius = np.hypot(a, b)
    with np.errstate(invalid="ignore", divide="ignore"):
        spread = np.degrees(np.arccos(-c / radius))
    base = np.degrees(np.arctan2(b, a))
    # Of the two crossings, keep the one on the half circle through the divider, not its opposite.
    toward = divider - np.sum(divider * north, axis=-1, keepdims=True) * north
    answers = np.full_like(phi, np.nan)
    for sign in (1.0, -1.0):
        candidate = base + sign * spread
        on_half = np.sum(_unit(candidate, declination_deg) * toward, axis=-1) > 0.0
        answers = np.where(np.isnan(answers) & on_half & np.isfinite(candidate), candidate, answers)
    return answers


def meridian_hour_angles(cusp: float, latitudes_deg: np.ndarray) -> np.ndarray:
    """Return the hour angle of Meridian (axial rotation) cusp ``cusp``: the equator divided
    in 30° of hour angle from the meridian, the same for any declination and latitude."""
    return np.full_like(latitudes_deg, -30.0 * (cusp - 10.0))


@dataclass(frozen=True)
class Sky:
    """The moment's Greenwich apparent sidereal time, true obliquity and the Sun's apparent
    declination of date, degrees (the Sunshine systems divide the Sun's diurnal arc; None when
    no Sunshine cusp line is drawn)."""

    gast_deg: float
    obliquity_deg: float
    sun_declination_deg: float | None = None


def line_longitudes(
    sky: Sky,
    latitudes_deg: np.ndarray,
    body_longitude_deg: float,
    body_latitude_deg: float,
    *,
    angle: str | None = None,
    cusp: float | None = None,
    system: str = "placidus",
    mode: str = ZODIACAL,
) -> tuple[np.ndarray, str]:
    """Return the east longitude of the line at each latitude row (NaN where it has none) and
    the reason a row has none (``circumpolar`` for angles, ``no_solution`` for cusps).

    The body is given by its apparent ecliptic longitude and latitude of date (degrees);
    ``zodiacal`` mode flattens it onto the ecliptic, ``mundane`` keeps its latitude. Give
    exactly one of ``angle`` and ``cusp``. Cusp lines of the systems of CUSP_LINE_SOLVERS are
    solved in closed form, every other system's numerically from Swiss Ephemeris's house
    positions (rows where the system has no cusps, :func:`undefined_rows`, are NaN).
    """
    beta = 0.0 if mode == ZODIACAL else body_latitude_deg
    if angle is not None:
        alpha, delta = equatorial(body_longitude_deg, beta, sky.obliquity_deg)
        hour_angles, missing = angle_hour_angles(angle, latitudes_deg, float(delta)), CIRCUMPOLAR
    elif system not in CUSP_LINE_SOLVERS:
        letter = parse_house_system(system).letter
        skip = undefined_rows(system, latitudes_deg, sky.obliquity_deg, sky.sun_declination_deg)
        armcs = cusp_line_armcs(
            letter,
            cusp,
            latitudes_deg,
            sky.obliquity_deg,
            body_longitude_deg,
            None if mode == ZODIACAL else body_latitude_deg,
            sun_declination_deg=sky.sun_declination_deg,
            skip=skip,
        )
        return wrap_longitude(armcs - sky.gast_deg), NO_SOLUTION
    else:
        solver = CUSP_LINE_SOLVERS[system]
        missing = NO_SOLUTION
        if solver in ("ascendant", "midheaven"):
            # An equal system's cusp is an angle's longitude plus whole signs: the body is on
            # cusp c where the ecliptic point the right number of degrees behind it is on the angle.
            offset = {
                "equal": 30.0 * (cusp - 1.0),
                "vehlow_equal": 30.0 * (cusp - 1.0) - 15.0,
                "equal_mc": 30.0 * (cusp - 10.0),
            }[system]
            alpha, delta = equatorial(body_longitude_deg - offset, 0.0, sky.obliquity_deg)
            hour_angles = angle_hour_angles(solver, latitudes_deg, float(delta))
        else:
            alpha, delta = equatorial(body_longitude_deg, beta, sky.obliquity_deg)
            if solver == "semi_arc":
                hour_angles = placidus_hour_angles(cusp, latitudes_deg, float(delta))
            elif solver == "hour_circle":
                hour_angles = meridian_hour_angles(cusp, latitudes_deg)
            else:
                hour_angles = horizon_circle_hour_angles(system, cusp, latitudes_deg, float(delta))
    return wrap_longitude(float(alpha) + hour_angles - sky.gast_deg), missing


def undefined_rows(
    system: str, latitudes_deg: np.ndarray, obliquity_deg: float, sun_declination_deg: float | None = None
) -> np.ndarray:
    """Return where ``system`` has no cusps at all (kernel/houses.py): Placidus, Koch and
    Gauquelin inside the polar circles (|latitude| at or beyond 90° minus the obliquity), where
    part of the ecliptic never rises; Sunshine (Makransky) where the Sun neither rises nor sets
    (|latitude| at or beyond 90° minus |the Sun's declination|)."""
    letter = parse_house_system(system).letter
    if letter in SUN_DEPENDENT_LETTERS:
        if sun_declination_deg is None:
            raise ValueError(f"{system} cusps need the Sun's declination")
        return np.abs(latitudes_deg) >= 90.0 - abs(sun_declination_deg)
    if letter in POLAR_UNDEFINED_LETTERS:
        return np.abs(latitudes_deg) >= 90.0 - obliquity_deg
    return np.zeros_like(latitudes_deg, dtype=bool)


def segments(
    latitudes_deg: np.ndarray, longitudes_deg: np.ndarray, missing: str, undefined: np.ndarray | None = None
) -> list[Segment]:
    """Return a line's segments, south to north: unbroken runs of rows that have a longitude,
    split where the line crosses the antimeridian or jumps more than 90°, each with the reason
    it stops (``missing`` where the next row has no longitude, ``house_system_undefined``
    where the system has no cusps there, ``latitude_limit`` at the last row)."""
    found = np.isfinite(longitudes_deg)
    if undefined is not None:
        found &= ~undefined
    rows = np.flatnonzero(found)
    if rows.size == 0:
        return []
    lats, lons = latitudes_deg[rows], longitudes_deg[rows]
    jumps = np.abs(np.diff(lons))
    last_rows = np.flatnonzero((np.diff(rows) != 1) | (jumps > DISCONTINUITY_DEG))
    firsts, lasts = np.r_[0, last_rows + 1], np.r_[last_rows, rows.size - 1]
    out = []
    for first, last in zip(firsts.tolist(), lasts.tolist()):
        row = int(rows[last])
        if row + 1 == len(latitudes_deg):
            end = LATITUDE_LIMIT
        elif not found[row + 1]:
            end = HOUSE_SYSTEM_UNDEFINED if undefined is not None and undefined[row + 1] else missing
        else:
            # A short step across ±180° is the antimeridian; anything else is a real jump.
            end = ANTIMERIDIAN if jumps[last] >= 360.0 - DISCONTINUITY_DEG else DISCONTINUITY
        out.append(Segment(tuple(lats[first : last + 1].tolist()), tuple(lons[first : last + 1].tolist()), end))
    return out


def line_segments(
    sky: Sky,
    latitudes_deg: np.ndarray,
    body_longitude_deg: float,
    body_latitude_deg: float,
    *,
    angle: str | None = None,
    cusp: float | None = None,
    system: str = "placidus",
    mode: str = ZODIACAL,
) -> list[Segment]:
    """Return the segments of one line (see :func:`line_longitudes` and :func:`segments`)."""
    longitudes, missing = line_longitudes(
        sky, latitudes_deg, body_longitude_deg, body_latitude_deg, angle=angle, cusp=cusp, system=system, mode=mode
    )
    undefined = (
        undefined_rows(system, latitudes_deg, sky.obliquity_deg, sky.sun_declination_deg) if cusp is not None else None
    )
    return segments(latitudes_deg, longitudes, missing, undefined)
