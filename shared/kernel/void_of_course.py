"""The void-of-course Moon: the last aspect the Moon perfects before it leaves its sign.

The spec's snapshot (interface.md, Void-of-course result): the other bodies stay where they
are at the moment asked for while the Moon runs on through the rest of its sign, so each
aspect the Moon can still perfect sits at a fixed longitude ahead of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shared.kernel.aspects import ASPECT_TYPES, AspectMatch, parse_aspect_types
from shared.kernel.zodiac import SIGN_WIDTH_DEG, normalize_deg, sign_index

MOON = "moon"
# A contact this close behind the Moon (1e-9 deg, about 4 micro-arcseconds) is exact now,
# not a whole circle ahead: the gap is floating-point rounding of the two longitudes.
EXACT_NOW_DEG = 1e-9


@dataclass(frozen=True)
class VoidOfCourse:
    """The snapshot's answer; longitudes and arcs in degrees of the tropical zodiac.

    ``last_aspect`` is the contact the Moon perfects last before ``next_sign_boundary``, as
    an aspect at perfection (orb 0, applying), or None when the Moon is void.
    """

    moon_longitude: float
    next_sign_boundary: float
    degrees_until_sign_change: float
    last_aspect: AspectMatch | None

    @property
    def is_void(self) -> bool:
        return self.last_aspect is None


def void_of_course(
    moon_longitude_deg: float,
    others: Sequence[tuple[str, float]],
    aspect_types: Sequence[str],
    *,
    orb_deg: float | None = None,
) -> VoidOfCourse:
    """Return the void-of-course snapshot of a Moon at ``moon_longitude_deg`` among ``others``
    ((name, ecliptic longitude deg), the Moon left out), for the aspect types named.

    A contact perfects where the Moon's longitude is a body's longitude plus or minus the
    aspect's angle; it counts when it lies on the arc from the Moon (included: a contact
    exact now still perfects) to the sign boundary (excluded: there the Moon has left).
    The last such contact wins; equal arcs go to the earlier body, then the earlier type.
    ``orb_deg`` (or each type's default orb) is reported as the aspect's ``max_orb_deg``;
    perfection itself needs no orb.
    """
    moon = normalize_deg(moon_longitude_deg)
    boundary_arc = (sign_index(moon) + 1) * SIGN_WIDTH_DEG - moon
    best: tuple[float, AspectMatch] | None = None
    for name, longitude in others:
        for aspect in parse_aspect_types(list(aspect_types)):
            kind = ASPECT_TYPES[aspect]
            for target in {normalize_deg(longitude + kind.angle_deg), normalize_deg(longitude - kind.angle_deg)}:
                arc = normalize_deg(target - moon)
                if arc > 360.0 - EXACT_NOW_DEG:
                    arc = 0.0
                if arc >= boundary_arc or (best is not None and arc <= best[0]):
                    continue
                max_orb = kind.default_orb_deg if orb_deg is None else orb_deg
                best = (arc, AspectMatch(MOON, name, aspect, kind.angle_deg, kind.angle_deg, 0.0, max_orb, True))
    return VoidOfCourse(
        moon_longitude=moon,
        next_sign_boundary=normalize_deg(moon + boundary_arc),
        degrees_until_sign_change=boundary_arc,
        last_aspect=None if best is None else best[1],
    )
