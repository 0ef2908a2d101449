"""When a body's ecliptic longitude reaches a given longitude: the search behind ingresses,
planetary returns and solar profections. Every crossing counts, direct or retrograde, so a
body looping back over the longitude crosses it three times; each is refined to 1 ms."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from kernel import bodies as body_table
from kernel.deadline import Deadline
from kernel.errors import OutOfRange
from kernel.positions import CalcFlags, Observer, ecliptic_longitude_flags, engine_state
from kernel.sampled_positions import NOTHING_SAMPLED, SampledPositions
from kernel.search import RatedFunction, Root, find_offset_roots
from kernel.timescale import Moment
from kernel.zodiac import SIGN_WIDTH_DEG, SIGNS, normalize_deg

SIGN_COUNT = len(SIGNS)

# Searched in windows of this many days, so the first crossings come without scanning the
# whole time line.
WINDOW_DAYS = 400.0
GEOCENTRIC = CalcFlags()


@dataclass(frozen=True)
class Crossing:
    """The body reaches ``target_deg`` at ``jd`` (UT1), moving ``direct`` or retrograde."""

    jd: float
    direct: bool
    target_deg: float


def longitude_offset(body: str, target_deg: float, flags: CalcFlags = GEOCENTRIC) -> RatedFunction:
    """Return t -> (the body's ecliptic longitude minus ``target_deg``, wrapped to [-180, 180),
    its speed in degrees per day), in the frame and zodiac of ``flags`` as
    :func:`~kernel.positions.compute_positions` gives them (call it inside
    :func:`~kernel.positions.engine_state`)."""
    longitude = longitude_and_speed(body, flags)
    to_target = _offset_from(target_deg)

    def offset(jd: float) -> tuple[float, float]:
        value, speed = longitude(jd)
        return to_target(value), speed

    return offset


def longitude_and_speed(body: str, flags: CalcFlags, sampled: SampledPositions = NOTHING_SAMPLED) -> RatedFunction:
    """Return t -> (the body's ecliptic longitude, its speed in degrees per day) under ``flags``,
    read from ``sampled`` at a date it holds (the engine's same values) and computed otherwise."""
    return sampled.longitude_and_speed(body, ecliptic_longitude_flags(flags))


def _offset_from(target_deg: float):
    """Return longitude -> its distance past ``target_deg``, wrapped to [-180, 180) degrees."""
    return lambda longitude_deg: (longitude_deg - target_deg + 180.0) % 360.0 - 180.0


def elongation_offset(body: str, other: str, angle_deg: float) -> RatedFunction:
    """Return t -> (``body``'s apparent geocentric ecliptic longitude of date minus ``other``'s
    minus ``angle_deg``, wrapped to [-180, 180), its rate in degrees per day): zero where
    ``body`` leads ``other`` by ``angle_deg`` (the Moon's phases, its aspects)."""
    first, second = (longitude_and_speed(name, GEOCENTRIC) for name in (body, other))

    def offset(jd: float) -> tuple[float, float]:
        (a, a_speed), (b, b_speed) = first(jd), second(jd)
        return (a - b - angle_deg + 180.0) % 360.0 - 180.0, a_speed - b_speed

    return offset


def crossings(
    body: str,
    target_deg: float,
    from_jd: float,
    count: int,
    deadline: Deadline,
    *,
    backward: bool = False,
    flags: CalcFlags = GEOCENTRIC,
    observer: Observer | None = None,
) -> list[Crossing]:
    """Return the next ``count`` crossings of ``target_deg`` by ``body`` after ``from_jd`` (UT1
    JD; before it, latest first, with ``backward``), in the frame of ``flags`` (topocentric
    for ``observer``), searched window by window up to the end of the body's ephemeris.

    Raises OutOfRange about ``count`` when fewer than ``count`` lie within it, saying how many
    do, and about ``from_jd`` when ``from_jd`` itself lies outside it (the caller names the
    parameter of each).
    """
    return _search(
        body, [(normalize_deg(target_deg), None)], from_jd, count, deadline, backward, flags, observer, "count"
    )


def crossings_until(
    body: str,
    target_deg: float,
    from_jd: float,
    until_jd: float,
    deadline: Deadline,
    *,
    flags: CalcFlags = GEOCENTRIC,
    sampled: SampledPositions = NOTHING_SAMPLED,
) -> list[Crossing]:
    """Return every crossing of ``target_deg`` by ``body`` after ``from_jd`` and before
    ``until_jd`` (UT1 Julian Days), in time order, in the frame of ``flags`` (geocentric): each
    the very instant :func:`crossings` gives from ``from_jd`` (the same windows and grid), without
    searching past ``until_jd`` for a count. The grid's samples are read from ``sampled`` where
    it holds them."""
    target = [(normalize_deg(target_deg), None)]
    return _search(
        body, target, from_jd, math.inf, deadline, False, flags, None, "until_jd", until_jd=until_jd, sampled=sampled
    )


def first_crossings(
    body: str, targets_deg: Sequence[float], from_jd: float, deadline: Deadline, *, flags: CalcFlags = GEOCENTRIC
) -> list[Crossing]:
    """Return the first crossing of each of ``targets_deg`` by ``body`` after ``from_jd`` (UT1
    JD), in the order of the targets: each the very instant :func:`crossings` gives for its
    target alone with ``count`` 1, found in one search on one grid for them all (the samples
    are shared, not repeated per target). Raises OutOfRange as :func:`crossings` does."""
    targets = list(dict.fromkeys(normalize_deg(target) for target in targets_deg))
    found = _search(
        body,
        [(target, None) for target in targets],
        from_jd,
        len(targets),
        deadline,
        False,
        flags,
        None,
        "count",
        each=True,
    )
    first: dict[float, Crossing] = {}
    for crossing in found:
        first.setdefault(crossing.target_deg, crossing)
    return [first[normalize_deg(target)] for target in targets_deg]


def sign_entries(
    body: str,
    sign_start_deg: float,
    from_jd: float,
    count: int,
    deadline: Deadline,
    *,
    backward: bool = False,
    flags: CalcFlags = GEOCENTRIC,
) -> list[Crossing]:
    """Return the next ``count`` entries of ``body`` into the sign beginning at
    ``sign_start_deg``, as :func:`crossings`: a direct crossing of its first degree, or a
    retrograde crossing of its end (the next sign's first degree) back into it. A retrograde
    exit over its first degree and a direct exit over its end are not entries."""
    start = normalize_deg(sign_start_deg)
    targets = [(start, True), (normalize_deg(start + SIGN_WIDTH_DEG), False)]
    return _search(body, targets, from_jd, count, deadline, backward, flags, None, "count")


def sign_ingresses_until(
    body: str, from_jd: float, until_jd: float, deadline: Deadline, *, sampled: SampledPositions = NOTHING_SAMPLED
) -> list[tuple[Crossing, int]]:
    """Return every entry of ``body`` into any sign after ``from_jd`` and before ``until_jd`` (UT1
    Julian Days), with the sign entered (0 Aries), in time order, geocentric in the zodiac of
    date. The search runs in the windows :func:`sign_entries` searches from ``from_jd``, on one
    grid for all twelve signs, so each entry is the very instant :func:`sign_entries` (and so
    /v1/ingresses) gives for its sign from ``from_jd``. The grid's samples are read from
    ``sampled`` where it holds them."""
    entered: dict[tuple[float, bool], int] = {}
    for index in range(SIGN_COUNT):
        first = index * SIGN_WIDTH_DEG
        entered[(first, True)] = index
        entered[(normalize_deg(first + SIGN_WIDTH_DEG), False)] = index
    found = _search(
        body,
        list(entered),
        from_jd,
        math.inf,
        deadline,
        False,
        GEOCENTRIC,
        None,
        "until_jd",
        until_jd=until_jd,
        sampled=sampled,
    )
    return [(c, entered[(c.target_deg, c.direct)]) for c in found]


def _search(
    body: str,
    targets: list[tuple[float, bool | None]],
    from_jd: float,
    count: float,
    deadline: Deadline,
    backward: bool,
    flags: CalcFlags,
    observer: Observer | None,
    short_about: str,
    *,
    until_jd: float | None = None,
    each: bool = False,
    sampled: SampledPositions = NOTHING_SAMPLED,
) -> list[Crossing]:
    """Return the next ``count`` crossings of any of ``targets`` (longitude, required direction:
    True direct, False retrograde, None either) in search order; with ``until_jd`` (forward
    only), every one before it; with ``each``, every one in the windows searched until each
    target has one (``count`` then being the number of targets). Fewer than asked for within
    the body's dates raise OutOfRange about ``short_about``, the argument that asked for them.
    The grid's samples are read from ``sampled`` where it holds them (the same values)."""
    body_table.check_span(body, from_jd, about="from_jd")
    limit = body_table.span_end(body, backward=backward)
    step = body_table.step_days(body)
    found: list[Crossing] = []
    start = from_jd

    # A longitude asked for in both directions (a sign's first degree: entered direct, and the
    # previous sign's end, re-entered retrograde) is searched once.
    longitudes = list(dict.fromkeys(target for target, _ in targets))

    def accepted(found_roots: list[list[Root]]) -> Iterator[Crossing]:
        roots_at = dict(zip(longitudes, found_roots))
        for target, direction in targets:
            for root in roots_at[target]:
                after = root.jd < from_jd if backward else root.jd > from_jd
                if after and (direction is None or root.rising == direction):
                    yield Crossing(root.jd, root.rising, target)

    def tally(so_far: list[Crossing]) -> int:
        """Return how far ``so_far`` goes toward ``count``: its crossings, or with ``each`` the targets they reach."""
        return len({c.target_deg for c in so_far}) if each else len(so_far)

    def enough(found_roots: list[list[Root]]) -> bool:
        return tally([*found, *accepted(found_roots)]) >= count

    # A forward search for a number of crossings may stop at the step that holds the last one it
    # needs: a later step holds only later crossings. A backward one wants a window's latest,
    # and a search until a date all of them.
    stop_early = None if backward or until_jd is not None else enough
    with engine_state(flags, observer):
        longitude = longitude_and_speed(body, flags, sampled)
        offsets = [(_offset_from(target), longitude_offset(body, target, flags)) for target in longitudes]
        while (have := tally(found)) < count:
            if until_jd is not None and start >= until_jd:
                return [c for c in found if c.jd < until_jd]
            if backward:
                low, high = max(start - WINDOW_DAYS, limit), start
            else:
                low, high = start, min(start + WINDOW_DAYS, limit)
                if until_jd is not None:
                    # One whole step past until_jd: every step holding a crossing before it is
                    # the step the count-bound search samples, so the two find the same instants.
                    high = min(high, until_jd + step)
            if high <= low:
                first, last = body_table.body(body).span_jd_ut1
                raise OutOfRange(
                    f"Only {have} of the {count} crossings asked for lie within the dates {body} is computed for: "
                    f"{Moment.from_jd_ut1(first).iso_utc('minute')} to {Moment.from_jd_ut1(last).iso_utc('minute')} "
                    f"(Julian Day UT1 {first} to {last}).",
                    suggestion=f"Ask for {have or 'fewer'}{' or fewer' if have else ''}, or search from another date.",
                    about=short_about,
                )
            # One grid for every target: each root is the instant a search for its target alone finds.
            window = list(accepted(find_offset_roots(longitude, offsets, low, high, step, deadline, stop_early)))
            found += sorted(window, key=lambda c: c.jd, reverse=backward)
            start = low if backward else high
    return found if each else found[:count]
