"""Lunations: when the Moon's elongation from the Sun (the difference of their apparent
geocentric ecliptic longitudes of date) reaches each phase's angle, 0° (new Moon) to 315°
(balsamic) in steps of 45°."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kernel import bodies as body_table
from kernel import engine
from kernel.crossings import GEOCENTRIC, elongation_offset, longitude_and_speed
from kernel.deadline import Deadline
from kernel.positions import ecliptic_longitude_flags
from kernel.sampled_positions import NOTHING_SAMPLED, SampledPositions
from kernel.search import RatedFunction, find_offset_roots

#: The longest span of a range, in calendar years (issue 29).
RANGE_CAP_YEARS = 10
#: Each phase's elongation of the Moon from the Sun, degrees: the eight-phase cycle of the
#: astrological tradition (Rudhyar's names), whose quarters are the almanacs' four phases.
PHASE_ANGLES_DEG: dict[str, float] = {
    "new_moon": 0.0,
    "crescent": 45.0,
    "first_quarter": 90.0,
    "gibbous": 135.0,
    "full_moon": 180.0,
    "disseminating": 225.0,
    "last_quarter": 270.0,
    "balsamic": 315.0,
}
# The Moon gains 10-15° a day on the Sun and never falls back, so the offset from a phase's
# angle only rises: over a 7-day step it moves under 110°, and cannot both cross zero (a
# phase) and wrap at ±180° within one step.
STEP_DAYS = 7.0


@dataclass(frozen=True)
class Lunation:
    """The Moon reaches ``phase`` at ``jd`` (UT1), at ``moon_longitude_deg`` (apparent
    geocentric ecliptic longitude of date)."""

    phase: str
    jd: float
    moon_longitude_deg: float

    @property
    def elongation_deg(self) -> float:
        return PHASE_ANGLES_DEG[self.phase]


def moon_longitude_deg(jd_ut1: float) -> float:
    """Return the Moon's apparent geocentric ecliptic longitude of date at ``jd_ut1``, degrees."""
    return engine.calc_body(jd_ut1, body_table.engine_number("moon"), ecliptic_longitude_flags(GEOCENTRIC)).values[0]


def find_lunations(
    start_jd: float,
    end_jd: float,
    phases: Sequence[str],
    deadline: Deadline,
    *,
    sampled: SampledPositions = NOTHING_SAMPLED,
) -> list[Lunation]:
    """Return the lunations of ``phases`` in [start_jd, end_jd) (UT1 Julian Days), in time order,
    each refined to 1 ms of the instant its elongation reaches the phase's angle. The grid's
    samples of the Moon and the Sun are read from ``sampled`` where it holds them."""
    phases = list(phases)
    # One grid of the Moon's lead on the Sun for every phase: each phase's offset is the lead
    # minus its angle, wrapped, in the very arithmetic of its elongation_offset, so each root is
    # the instant a search for that phase alone finds (kernel.search.find_offset_roots).
    angles = [PHASE_ANGLES_DEG[phase] for phase in phases]
    offsets = [(_past(angle), elongation_offset("moon", "sun", angle)) for angle in angles]
    found = []
    for phase, roots in zip(
        phases, find_offset_roots(_lead_on_sun(sampled), offsets, start_jd, end_jd, STEP_DAYS, deadline)
    ):
        found += [Lunation(phase, root.jd, moon_longitude_deg(root.jd)) for root in roots if root.rising]
    return sorted(found, key=lambda lunation: lunation.jd)


def _lead_on_sun(sampled: SampledPositions) -> RatedFunction:
    """Return t -> (the Moon's apparent geocentric ecliptic longitude of date minus the Sun's,
    unwrapped, degrees; its rate, degrees per day), read from ``sampled`` where it holds them."""
    moon, sun = (longitude_and_speed(name, GEOCENTRIC, sampled) for name in ("moon", "sun"))

    def lead(jd: float) -> tuple[float, float]:
        (a, a_speed), (b, b_speed) = moon(jd), sun(jd)
        return a - b, a_speed - b_speed

    return lead


def _past(angle_deg: float) -> Callable[[float], float]:
    """Return the Moon's lead on the Sun -> its distance past ``angle_deg``, wrapped to [-180, 180)."""
    return lambda lead: (lead - angle_deg + 180.0) % 360.0 - 180.0
