"""The void-of-course Moon: the last aspect the Moon perfects before it leaves its sign.

One rule, two readings. The spec's snapshot (interface.md, Void-of-course result): the other
bodies stay where they are at the moment asked for while the Moon runs on through the rest of
its sign, so each aspect the Moon can still perfect sits at a fixed longitude ahead of it. The
periods over a range (issue 29): the bodies move, and a period runs from the Moon's last exact
aspect in a sign to its ingress into the next. Both count the same contacts (each aspect type
on both sides of each body, :func:`contact_angles`), a contact exact at the Moon's entry into a
sign belonging to that sign and one exact at its exit not, and report the last one alike
(:func:`perfection`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kernel.aspects import ASPECT_TYPES, AspectMatch, canonical_aspect_types
from kernel.zodiac import SIGN_WIDTH_DEG, normalize_deg, sign_index

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
        for aspect, angle in contact_angles(aspect_types):
            arc = normalize_deg(longitude + angle - moon)
            if arc > 360.0 - EXACT_NOW_DEG:
                arc = 0.0
            if arc >= boundary_arc or (best is not None and arc <= best[0]):
                continue
            best = (arc, perfection(name, aspect, orb_deg))
    return VoidOfCourse(
        moon_longitude=moon,
        next_sign_boundary=normalize_deg(moon + boundary_arc),
        degrees_until_sign_change=boundary_arc,
        last_aspect=None if best is None else best[1],
    )


def contact_angles(aspect_types: Sequence[str]) -> list[tuple[str, float]]:
    """Return (aspect type, angle in degrees) of every contact the Moon can perfect with a body
    for ``aspect_types``: the Moon's longitude minus the body's, [0, 360), each type on both
    sides (the conjunction and the opposition once), in the order of the types."""
    contacts: list[tuple[str, float]] = []
    for aspect in canonical_aspect_types(aspect_types):
        angle = ASPECT_TYPES[aspect].angle_deg
        for side in dict.fromkeys((normalize_deg(angle), normalize_deg(-angle))):
            contacts.append((aspect, side))
    return contacts


def perfection(body: str, aspect: str, orb_deg: float | None) -> AspectMatch:
    """Return the Moon's ``aspect`` to ``body`` at perfection (orb 0, applying), ``max_orb_deg``
    the ``orb_deg`` asked for or the type's default orb."""
    kind = ASPECT_TYPES[aspect]
    max_orb = kind.default_orb_deg if orb_deg is None else orb_deg
    return AspectMatch(MOON, body, aspect, kind.angle_deg, kind.angle_deg, 0.0, max_orb, True)
