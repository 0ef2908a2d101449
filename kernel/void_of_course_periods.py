"""Void-of-course periods over a range: from the Moon's last exact aspect in a sign to its
ingress into the next, every body moving (the rule of :mod:`kernel.void_of_course`)."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kernel import bodies as body_table
from kernel import engine
from kernel.aspects import AspectMatch
from kernel.crossings import GEOCENTRIC, elongation_offset, longitude_offset
from kernel.deadline import Deadline
from kernel.positions import ecliptic_longitude_flags
from kernel.sampled_positions import SampledPositions
from kernel.search import RatedFunction, refine_root
from kernel.timescale import JD_UT1_MAX, JD_UT1_MIN
from kernel.void_of_course import MOON, contact_angles, perfection
from kernel.zodiac import SIGN_KEYS, SIGN_WIDTH_DEG, SIGNS

#: The longest span of a range, in days (issue 29).
RANGE_CAP_DAYS = 366.0
# The Moon outruns every other body (11.8-15.4°/day against at most 6.3°/day, the osculating
# apogee's fastest; the planets' under 2.2), so its elongation from each only grows: over this
# step by under 11°, so a sample brackets at most one contact of each angle and one ingress.
STEP_DAYS = 0.5
# The Moon crosses a sign in at most 2.6 days: searched this far beyond each end of the range,
# the period running at either end is found whole.
MARGIN_DAYS = 3.0
# Farther than a refined instant can lie from the contact's true one (refinement stops within
# 1 ms, 1.2e-8 day): an offset's sign this far before or after a refined instant says on which
# side of it another contact's refined instant lies (8.6 s: the Moon moves 0.03' in it).
SETTLED_DAYS = 1e-4
# Samples between two looks at the deadline: a month's dates, a few milliseconds of engine calls.
_DATES_PER_CHECK = 60


@dataclass(frozen=True)
class VoidPeriod:
    """The Moon is void of course from ``start_jd`` to ``end_jd`` (UT1), in ``sign`` (an index,
    0 Aries) until it enters the next. ``last_aspect`` is the contact that began the period, at
    perfection; None when the Moon perfected none in the sign (the period then begins at its
    ingress into the sign)."""

    start_jd: float
    end_jd: float
    sign: int
    last_aspect: AspectMatch | None

    @property
    def sign_name(self) -> str:
        """Return the sign's display name ("Aries"), for prose."""
        return SIGNS[self.sign]

    @property
    def next_sign_name(self) -> str:
        """Return the next sign's display name, for prose."""
        return SIGNS[(self.sign + 1) % len(SIGNS)]

    @property
    def sign_key(self) -> str:
        """Return the sign as answers name it ("aries")."""
        return SIGN_KEYS[self.sign]

    @property
    def next_sign_key(self) -> str:
        """Return the next sign as answers name it."""
        return SIGN_KEYS[(self.sign + 1) % len(SIGN_KEYS)]


def searched_span(start_jd: float, end_jd: float) -> tuple[float, float]:
    """Return the UT1 Julian Days a search for the periods overlapping [start_jd, end_jd] reads
    the bodies over: MARGIN_DAYS beyond each end, within the supported dates."""
    return max(start_jd - MARGIN_DAYS, JD_UT1_MIN), min(end_jd + MARGIN_DAYS, JD_UT1_MAX)


@dataclass(frozen=True)
class MoonSamples:
    """The Moon and ``others`` sampled every STEP_DAYS over the span searched for the periods of
    [``start_jd``, ``end_jd``] (:func:`searched_span`): the UT1 Julian Days ``jds``, and at each
    the apparent geocentric ecliptic longitude of date of the Moon (``moon``, degrees) and of
    each of ``others`` (``positions``, one row per body, in their order), and every body's speed
    (``speeds``, degrees per day, one row per body, the Moon first)."""

    start_jd: float
    end_jd: float
    others: tuple[str, ...]
    jds: np.ndarray
    moon: np.ndarray
    positions: list[np.ndarray]
    speeds: np.ndarray

    def sampled_positions(self) -> SampledPositions:
        """Return the samples, speeds included (degrees per day), as a search over the same dates
        reads them (:class:`kernel.sampled_positions.SampledPositions`)."""
        dates = self.jds.tolist()
        rows = [self.moon, *self.positions]
        return SampledPositions(
            ecliptic_longitude_flags(GEOCENTRIC),
            {
                body: dict(zip(dates, zip(longitudes.tolist(), speeds.tolist())))
                for body, longitudes, speeds in zip((MOON, *self.others), rows, self.speeds)
            },
        )


def sample_span(start_jd: float, end_jd: float, others: Sequence[str], deadline: Deadline) -> MoonSamples:
    """Return the Moon and ``others`` sampled over the span searched for the void-of-course
    periods overlapping [start_jd, end_jd] (UT1 Julian Days)."""
    low, high = searched_span(start_jd, end_jd)
    jds = np.append(np.arange(low, high, STEP_DAYS), high)
    bodies = [MOON, *others]
    numbers, flags = [body_table.engine_number(body) for body in bodies], ecliptic_longitude_flags(GEOCENTRIC)
    rows = []
    # Date by date (every body at one date, then the next date): a third of the engine's time of
    # body by body, the same bits.
    for block in range(0, len(jds), _DATES_PER_CHECK):
        deadline.check()
        rows += engine.longitudes_and_speeds_by_date(numbers, flags, jds[block : block + _DATES_PER_CHECK].tolist())
    values = np.array(rows, dtype=float).reshape(len(jds), len(bodies), 2)
    longitudes = values[:, :, 0].T
    return MoonSamples(start_jd, end_jd, tuple(others), jds, longitudes[0], list(longitudes[1:]), values[:, :, 1].T)


def _rising_roots(offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return, for rows of rising offsets (wrapped to [-180, 180)), the (row, i) of each step [i,
    i+1] over which a row passes zero: negative, then at or above zero, with no wrap between;
    by row, then step."""
    before, after = offsets[:, :-1], offsets[:, 1:]
    return np.nonzero((before < 0.0) & (after >= 0.0) & (after - before < 180.0))


def void_periods(
    start_jd: float,
    end_jd: float,
    others: Sequence[str],
    aspect_types: Sequence[str],
    deadline: Deadline,
    *,
    orb_deg: float | None = None,
) -> list[VoidPeriod]:
    """Return the void-of-course periods overlapping [start_jd, end_jd] (UT1 Julian Days), whole,
    in time order: for each sign the Moon crosses, from its last exact aspect to a body of
    ``others`` (each of ``aspect_types`` on both sides, the bodies moving) to its ingress into the
    next sign. A contact exact as the Moon enters a sign belongs to that sign. Each instant is
    refined to 1 ms. ``orb_deg`` only fills the aspects' ``max_orb_deg``, as in the snapshot.
    """
    return periods_sampled(sample_span(start_jd, end_jd, others, deadline), aspect_types, deadline, orb_deg=orb_deg)


def periods_sampled(
    samples: MoonSamples, aspect_types: Sequence[str], deadline: Deadline, *, orb_deg: float | None = None
) -> list[VoidPeriod]:
    """Return :func:`void_periods` of the range and bodies ``samples`` were taken for (:func:`sample_span`)."""
    start_jd, end_jd, others, jds, moon = samples.start_jd, samples.end_jd, samples.others, samples.jds, samples.moon
    positions = samples.positions
    ingresses = _ingresses(moon, jds)
    contacts = _contact_brackets(moon, positions, jds, others, contact_angles(aspect_types), deadline)
    brackets = [contact.step for contact in contacts]
    periods = []
    for (entered, sign), (left, _) in zip(ingresses, ingresses[1:]):
        # The contacts whose step [jds[i], jds[i + 1]] reaches into the passage, latest step
        # first: only those of the latest steps need refining to know which one is last.
        first = bisect.bisect_left(brackets, bisect.bisect_left(jds, entered) - 1)
        after = bisect.bisect_left(brackets, bisect.bisect_left(jds, left))
        last = _last_contact(contacts[first:after], entered, left, jds)
        aspect = None if last is None else perfection(last.body, last.aspect, orb_deg)
        period = VoidPeriod(entered if last is None else last.instant(jds), left, sign, aspect)
        if period.start_jd <= end_jd and period.end_jd >= start_jd:
            periods.append(period)
    return periods


def _last_contact(contacts: Sequence[_Contact], entered: float, left: float, jds: np.ndarray) -> _Contact | None:
    """Return the contact of ``contacts`` (ordered by step) the Moon perfects last in [entered,
    left) (UT1 Julian Days), refined; of contacts exact at one instant, the first body's, then
    the first type's. None when none lies in the passage.

    Only the latest steps matter, and in a step only a contact that may come after the latest
    one refined so far is refined itself: the Moon's offset from a contact only grows, so its
    sign at an instant SETTLED_DAYS before or after a refined one says on which side the
    contact's own refined instant lies: one evaluation at an instant the step's other contacts
    share, instead of a refinement's two or three at instants of its own.
    """
    last: tuple[tuple[float, int, int], _Contact] | None = None
    for step, in_step in itertools.groupby(reversed(contacts), key=lambda contact: contact.step):
        if last is not None and step < last[1].step:
            break  # an earlier step: every contact in it comes before the last one found
        # Latest first by the linear estimate, so that the first refined is most often the last.
        for contact in sorted(in_step, key=lambda contact: contact.estimate(jds), reverse=True):
            if contact.jd is None and jds[step + 1] > left and not contact.perfected_by(left + SETTLED_DAYS):
                continue  # the Moon perfects it after leaving the sign
            if contact.jd is None and last is not None and contact.perfected_by(last[0][0] - SETTLED_DAYS):
                continue  # perfected before the last one found
            jd = contact.instant(jds)
            key = (jd, -contact.body_index, -contact.angle_index)
            if entered <= jd < left and (last is None or key > last[0]):
                last = (key, contact)
    return None if last is None else last[1]


@dataclass
class _Contact:
    """A contact of the Moon with ``body`` at ``angle_deg`` bracketed by grid step ``step``
    (offsets ``before`` < 0 <= ``after`` at its ends), refined on demand, once; ``offset`` is the
    Moon's :func:`kernel.crossings.elongation_offset` from the contact."""

    step: int
    body_index: int
    angle_index: int
    body: str
    aspect: str
    angle_deg: float
    before: float
    after: float
    offset: RatedFunction
    jd: float | None = None

    def estimate(self, jds: np.ndarray) -> float:
        """Return the contact's instant interpolated linearly in its step (UT1 Julian Day): the
        refinement's first guess."""
        a, b = float(jds[self.step]), float(jds[self.step + 1])
        return a + (b - a) * self.before / (self.before - self.after)

    def perfected_by(self, jd: float) -> bool:
        """Return whether the Moon's offset from the contact has reached zero at ``jd`` (UT1
        Julian Day, within a step of the contact's own, where the offset only grows)."""
        return self.offset(jd)[0] >= 0.0

    def instant(self, jds: np.ndarray) -> float:
        """Return the contact's instant (UT1 Julian Day) refined to 1 ms."""
        if self.jd is None:
            a, b = float(jds[self.step]), float(jds[self.step + 1])
            self.jd = refine_root(self.offset, a, b, self.before, self.after) if self.after > 0.0 else b
        return self.jd


def _contact_brackets(
    moon: np.ndarray,
    positions: Sequence[np.ndarray],
    jds: np.ndarray,
    others: Sequence[str],
    angles,
    deadline: Deadline,
) -> list[_Contact]:
    """Return every contact of the Moon with ``others`` (sampled at ``positions``, one row each)
    at ``angles`` ((aspect, degrees)) the samples bracket, ordered by step, unrefined."""
    contacts = []
    degrees = np.array([angle for _, angle in angles], dtype=float)[:, None]
    for body_index, (body, longitudes) in enumerate(zip(others, positions)):
        deadline.check()
        # Every angle's offsets in one array, element by element the arithmetic of elongation_offset.
        offsets = (moon - longitudes - degrees + 180.0) % 360.0 - 180.0
        at_angle, at_step = _rising_roots(offsets)
        # One offset function per angle of the body, shared by its contacts' evaluations.
        functions: dict[int, RatedFunction] = {}
        for angle_index, i, before, after in zip(
            at_angle.tolist(),
            at_step.tolist(),
            offsets[at_angle, at_step].tolist(),
            offsets[at_angle, at_step + 1].tolist(),
        ):
            aspect, angle = angles[angle_index]
            offset = functions.get(angle_index)
            if offset is None:
                offset = functions[angle_index] = elongation_offset(MOON, body, angle)
            contacts.append(_Contact(i, body_index, angle_index, body, aspect, angle, before, after, offset))
    # By step, then body, then angle: the order of the contacts found body by body, angle by angle.
    return sorted(contacts, key=lambda contact: contact.step)


def _past(longitude_deg: float, boundary_deg: float) -> float:
    """Return ``longitude_deg`` minus ``boundary_deg``, wrapped to [-180, 180) degrees: the
    arithmetic of :func:`kernel.crossings.longitude_offset`."""
    return (longitude_deg - boundary_deg + 180.0) % 360.0 - 180.0


def _ingresses(moon: np.ndarray, jds: np.ndarray) -> list[tuple[float, int]]:
    """Return the Moon's ingresses among the samples (UT1 Julian Day, the sign entered), each
    refined to 1 ms."""
    signs = (moon // SIGN_WIDTH_DEG).astype(int) % len(SIGNS)
    found = []
    for i in np.flatnonzero(signs[1:] != signs[:-1]):
        sign = int(signs[i + 1])
        boundary = sign * SIGN_WIDTH_DEG
        offset = longitude_offset(MOON, boundary)
        # The offsets at the step's ends from the samples: the engine's values at those dates,
        # in the arithmetic of longitude_offset.
        before, after = (_past(float(moon[k]), boundary) for k in (i, i + 1))
        found.append(
            (refine_root(offset, jds[i], jds[i + 1], before, after) if after > 0.0 else float(jds[i + 1]), sign)
        )
    return found
