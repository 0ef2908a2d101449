"""The Earth's rotation at a moment: Delta T (TT - UT1) and apparent sidereal time."""

from __future__ import annotations

from dataclasses import dataclass

from kernel import engine
from kernel.timescale import SECONDS_PER_DAY, Moment
from kernel.zodiac import normalize_deg

HOURS_PER_CIRCLE = 24.0
DEGREES_PER_HOUR = 360.0 / HOURS_PER_CIRCLE


@dataclass(frozen=True)
class DeltaT:
    """TT - UT1 at a moment, in ``seconds`` and ``days``, and the moment's Julian Day in TT."""

    seconds: float
    days: float
    jd_tt: float


def delta_t(moment: Moment) -> DeltaT:
    """Return Delta T at ``moment`` (the value every position of the service is computed with)."""
    days = moment.delta_t_s / SECONDS_PER_DAY
    return DeltaT(moment.delta_t_s, days, moment.jd_ut1 + days)


@dataclass(frozen=True)
class SiderealTime:
    """Apparent sidereal time in degrees [0, 360) and hours [0, 24): at Greenwich, and
    locally (None when no longitude was given)."""

    gast_degrees: float
    gast_hours: float
    lst_degrees: float | None
    lst_hours: float | None


def sidereal_time(moment: Moment, longitude_deg: float | None = None) -> SiderealTime:
    """Return Greenwich apparent sidereal time at ``moment`` and, with ``longitude_deg``
    (degrees east), the local apparent sidereal time there."""
    gast_degrees = normalize_deg(engine.apparent_sidereal_time_hours(moment.jd_ut1) * DEGREES_PER_HOUR)
    if longitude_deg is None:
        return SiderealTime(gast_degrees, gast_degrees / DEGREES_PER_HOUR, None, None)
    lst_degrees = normalize_deg(gast_degrees + longitude_deg)
    return SiderealTime(gast_degrees, gast_degrees / DEGREES_PER_HOUR, lst_degrees, lst_degrees / DEGREES_PER_HOUR)
