"""Secondary progressions: a day after birth for each year lived (decisions.md, /v1/progressed)."""

from __future__ import annotations

from kernel.errors import InvalidProgression
from kernel.timescale import Moment

#: Days in the year each progressed day stands for: the tropical year (decisions.md default).
TROPICAL_YEAR_DAYS = 365.2422


def progressed_moment(natal: Moment, target: Moment, year_days: float = TROPICAL_YEAR_DAYS) -> Moment:
    """Return the moment of the progressed chart: the natal moment plus one day (UT1) for each
    ``year_days`` days from birth to ``target``. A target before birth raises InvalidProgression."""
    if target.jd_ut1 < natal.jd_ut1:
        raise InvalidProgression(
            f"The progression target {target.iso_utc()} is before the natal moment {natal.iso_utc()}.",
        )
    return natal.plus_days((target.jd_ut1 - natal.jd_ut1) / year_days)
