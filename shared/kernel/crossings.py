"""When a body's geocentric ecliptic longitude of date reaches a given longitude: the search
behind ingresses and planetary returns. Every crossing counts, direct or retrograde, so a
body looping back over the longitude crosses it three times."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import engine
from shared.kernel.ayanamshas import Ayanamsha
from shared.kernel.deadline import Deadline
from shared.kernel.errors import BodyNotEligible, OutOfRange
from shared.kernel.search import RatedFunction, find_roots
from shared.kernel.timescale import JD_UT1_MAX, JD_UT1_MIN

# Grid step per body, days: short enough that the longitude moves well under 180° per step
# (the Moon about 15°/day) and that no two stations share a step (Mercury's lie three weeks
# apart; the true node wobbles through stations within days).
SEARCH_STEP_DAYS: dict[str, float] = {
    "sun": 5.0, "moon": 1.0, "mercury": 2.0, "venus": 3.0, "mars": 4.0, "jupiter": 8.0, "saturn": 8.0,
    "uranus": 10.0, "neptune": 10.0, "pluto": 10.0, "mean_node": 10.0, "true_node": 0.5,
    "chiron": 8.0, "pholus": 8.0, "ceres": 4.0, "pallas": 4.0, "juno": 4.0, "vesta": 4.0,
}
# Searched in windows of this many days, so the first crossings come without scanning the
# whole time line.
WINDOW_DAYS = 400.0


@dataclass(frozen=True)
class Crossing:
    """The body reaches the longitude at ``jd`` (UT1), moving ``direct`` or retrograde."""

    jd: float
    direct: bool


def longitude_offset(body: str, target_deg: float, ayanamsha: Ayanamsha | None = None) -> RatedFunction:
    """Return t -> (the body's longitude minus ``target_deg``, wrapped to [-180, 180), its
    speed in degrees per day): geocentric, apparent, of date; sidereal with ``ayanamsha``
    (call it inside ``engine.configured(sidereal_mode=...)``)."""
    number = engine.BODY_NUMBERS[body]
    flags = engine.FLG_SPEED | (engine.FLG_SIDEREAL if ayanamsha else 0)

    def offset(jd: float) -> tuple[float, float]:
        values = engine.calc_body(jd, number, flags).values
        return (values[0] - target_deg + 180.0) % 360.0 - 180.0, values[3]

    return offset


def check_eligible(body: str, eligible: tuple[str, ...], *, param: str = "body") -> str:
    """Return ``body`` when it is among ``eligible``, else raise BodyNotEligible listing them."""
    if body not in eligible:
        raise BodyNotEligible(
            f"{body} cannot be searched here.", suggestion=f"Use one of: {', '.join(eligible)}.", param=param
        )
    return body


def crossings(
    body: str, target_deg: float, from_jd: float, count: int, deadline: Deadline, *, backward: bool = False, ayanamsha: Ayanamsha | None = None
) -> list[Crossing]:
    """Return the next ``count`` crossings of ``target_deg`` by ``body`` after ``from_jd`` (before
    it, latest first, with ``backward``), searched window by window up to the supported span."""
    found: list[Crossing] = []
    step = SEARCH_STEP_DAYS[body]
    start = from_jd
    with engine.configured(sidereal_mode=ayanamsha.id if ayanamsha else None):
        offset = longitude_offset(body, target_deg, ayanamsha)
        while len(found) < count:
            if backward:
                low, high = max(start - WINDOW_DAYS, JD_UT1_MIN), start
            else:
                low, high = start, min(start + WINDOW_DAYS, JD_UT1_MAX)
            if high <= low:
                raise OutOfRange(
                    f"Only {len(found)} of {count} crossings lie within the supported dates.",
                    suggestion="Ask for fewer, or search from another date.",
                    param="count",
                )
            roots = [r for r in find_roots(offset, low, high, step, deadline) if (r.jd < from_jd if backward else r.jd > from_jd)]
            ordered = sorted(roots, key=lambda r: r.jd, reverse=backward)
            found += [Crossing(r.jd, r.rising) for r in ordered]
            start = low if backward else high
    return found[:count]
