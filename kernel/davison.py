"""The Davison relationship chart's moment and place: midpoints in time and on the globe (decisions.md, Charts)."""

from __future__ import annotations

import math
from datetime import datetime

from kernel.timescale import Moment


def midpoint_moment(a: Moment, b: Moment) -> Moment:
    """Return the moment halfway between two moments' UT1 Julian Days."""
    return a.plus_days((b.jd_ut1 - a.jd_ut1) / 2.0)


def midpoint_utc(a: datetime, b: datetime) -> Moment:
    """Return the moment halfway between two aware date-times as UTC clocks count them
    (without leap seconds, as a client's date library halves the interval), so that casting
    a chart for that UTC instant gives the same positions."""
    return Moment.from_utc_datetime(a + (b - a) / 2)


def great_circle_midpoint(lat_a: float, lon_a: float, lat_b: float, lon_b: float) -> tuple[float, float]:
    """Return (latitude, longitude) in degrees of the point halfway along the shorter great
    circle between two places; longitude wrapped into [-180, 180].

    Exactly antipodal places have no single midpoint; the one chosen is on A's meridian a
    quarter turn from A towards the North Pole (over it when A is north of the equator).
    """
    xa, ya, za = _unit(lat_a, lon_a)
    xb, yb, zb = _unit(lat_b, lon_b)
    x, y, z = xa + xb, ya + yb, za + zb
    if math.hypot(x, y, z) < 1e-12:
        if lat_a <= 0:
            return lat_a + 90.0, _wrap(lon_a)
        return 90.0 - lat_a, _wrap(lon_a + 180.0)
    latitude = math.degrees(math.atan2(z, math.hypot(x, y)))
    longitude = math.degrees(math.atan2(y, x)) if math.hypot(x, y) > 1e-15 else _wrap(lon_a)
    return latitude, _wrap(longitude)


def _unit(lat: float, lon: float) -> tuple[float, float, float]:
    phi, lam = math.radians(lat), math.radians(lon)
    return math.cos(phi) * math.cos(lam), math.cos(phi) * math.sin(lam), math.sin(phi)


def _wrap(longitude: float) -> float:
    """Return a longitude in [-180, 180] (180 stays 180)."""
    wrapped = (longitude + 180.0) % 360.0 - 180.0
    return 180.0 if wrapped == -180.0 and longitude > 0 else wrapped
