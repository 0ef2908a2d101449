"""The body table: every body the service computes, with its engine number, its groups, the
uses it is eligible for, its search step and its ephemeris span; and the resolution of the
body names a request gives, with the eligibility and span errors every endpoint answers."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from kernel import stars
from kernel.errors import BodyNotEligible, BodyNotFound, OutOfRange, UnreadableValue
from kernel.timescale import JD_UT1_MAX, JD_UT1_MIN, Moment

# The uses a body may be eligible for.
#: Geocentric positions, and so charts and natal points (every body but earth).
POSITIONS = "positions"
#: Heliocentric positions (heliocentric=true).
HELIOCENTRIC = "heliocentric"
#: /v1/returns.
RETURNS = "returns"
#: A moving body of a /v1/transits scan.
MOVING = "moving"
#: /v1/ingresses.
INGRESSES = "ingresses"
#: /v1/heliacal.
HELIACAL = "heliacal"
#: /v1/stations: a body that turns retrograde as seen from the Earth (never the Sun and the
#: Moon; the mean node is always retrograde).
STATIONS = "stations"
#: /v1/calendar: a body with ingresses or stations to put in a calendar.
CALENDAR = "calendar"

_USE_TEXT = {
    POSITIONS: "positions and charts",
    HELIOCENTRIC: "heliocentric positions",
    RETURNS: "a return search",
    MOVING: "a transit scan's moving bodies",
    INGRESSES: "an ingress search",
    HELIACAL: "a heliacal search",
    STATIONS: "a search for stations",
    CALENDAR: "a calendar's ingresses and stations",
}
#: Every use a body may be eligible for.
USES: frozenset[str] = frozenset(_USE_TEXT)

# Span of the asteroids in the bundled files (data/ephe/seas_*.se1), found by bisection against
# them: they begin on 1200-01-08 (Chiron and Pholus included: the engine's own limit for Chiron,
# 675-4650 CE, lies outside the files) and end where the next file would begin, 3000-01-01 0h
# TT, 55 minutes (Delta T) before 3000-01-01 0h UT1. The first whole day and the last whole
# hour inside for all six: 1200-01-09 0h to 2999-12-31 23h UT1.
_ASTEROID_SPAN_JD_UT1 = (2159358.5, JD_UT1_MAX - 1.0 / 24.0)
# Planets, the Moon, nodes and apogees fall back to the Moshier ephemeris outside the files:
# the engine computes them over all the supported dates.
_SUPPORTED_SPAN_JD_UT1 = (JD_UT1_MIN, JD_UT1_MAX)

_PLANET_USES = frozenset({POSITIONS, HELIOCENTRIC, RETURNS, MOVING, INGRESSES, HELIACAL, STATIONS, CALENDAR})


@dataclass(frozen=True)
class Body:
    """One row of the body table.

    ``engine_number`` is the Swiss Ephemeris body number (swephexp.h, SE_SUN ... SE_VESTA);
    ``groups`` the request groups it belongs to; ``uses`` what it is eligible for;
    ``step_days`` the grid step of a search over its longitude (None: never searched): short
    enough that the longitude moves well under 180° per step (the Moon about 15°/day) and that
    no two stations share a step (Mercury's lie three weeks apart; the true node wobbles
    through stations within days); ``span_jd_ut1`` the UT1 Julian Days the engine computes it
    for (first, last).
    """

    name: str
    engine_number: int
    groups: tuple[str, ...]
    uses: frozenset[str]
    step_days: float | None
    span_jd_ut1: tuple[float, float] = _SUPPORTED_SPAN_JD_UT1


_P, _A, _ALL = "planets", "asteroids", "all"

# Sources: engine numbers, swephexp.h; names, groups and uses, decisions.md "Bodies" and
# interface.md (/v1/returns, /v1/transits `moving`, /v1/ingresses, /v1/heliacal); stations and
# the calendar (ingresses or stations), issue 29. The table's
# order is the order groups expand in.
BODY_TABLE: tuple[Body, ...] = (
    Body("sun", 0, (_P, _ALL), frozenset({POSITIONS, RETURNS, MOVING, INGRESSES, CALENDAR}), 5.0),
    Body("moon", 1, (_P, _ALL), frozenset({POSITIONS, HELIOCENTRIC, RETURNS, MOVING, INGRESSES, CALENDAR}), 1.0),
    Body("mercury", 2, (_P, _ALL), _PLANET_USES, 2.0),
    Body("venus", 3, (_P, _ALL), _PLANET_USES, 3.0),
    Body("mars", 4, (_P, _ALL), _PLANET_USES, 4.0),
    Body("jupiter", 5, (_P, _ALL), _PLANET_USES, 8.0),
    Body("saturn", 6, (_P, _ALL), _PLANET_USES, 8.0),
    Body("uranus", 7, (_P, _ALL), _PLANET_USES, 10.0),
    Body("neptune", 8, (_P, _ALL), _PLANET_USES, 10.0),
    Body("pluto", 9, (_P, _ALL), _PLANET_USES, 10.0),
    Body("mean_node", 10, (_P, _ALL), frozenset({POSITIONS, RETURNS, MOVING}), 10.0),
    Body("true_node", 11, (_ALL,), frozenset({POSITIONS, RETURNS, MOVING}), 0.5),
    Body(
        "chiron",
        15,
        (_A, _ALL),
        frozenset({POSITIONS, HELIOCENTRIC, RETURNS, MOVING, STATIONS, CALENDAR}),
        8.0,
        _ASTEROID_SPAN_JD_UT1,
    ),
    # interface.md leaves Pholus out of the moving bodies of a transit scan.
    Body(
        "pholus",
        16,
        (_A, _ALL),
        frozenset({POSITIONS, HELIOCENTRIC, RETURNS, STATIONS, CALENDAR}),
        8.0,
        _ASTEROID_SPAN_JD_UT1,
    ),
    Body(
        "ceres",
        17,
        (_A, _ALL),
        frozenset({POSITIONS, HELIOCENTRIC, RETURNS, MOVING, STATIONS, CALENDAR}),
        4.0,
        _ASTEROID_SPAN_JD_UT1,
    ),
    Body(
        "pallas",
        18,
        (_A, _ALL),
        frozenset({POSITIONS, HELIOCENTRIC, RETURNS, MOVING, STATIONS, CALENDAR}),
        4.0,
        _ASTEROID_SPAN_JD_UT1,
    ),
    Body(
        "juno",
        19,
        (_A, _ALL),
        frozenset({POSITIONS, HELIOCENTRIC, RETURNS, MOVING, STATIONS, CALENDAR}),
        4.0,
        _ASTEROID_SPAN_JD_UT1,
    ),
    Body(
        "vesta",
        20,
        (_A, _ALL),
        frozenset({POSITIONS, HELIOCENTRIC, RETURNS, MOVING, STATIONS, CALENDAR}),
        4.0,
        _ASTEROID_SPAN_JD_UT1,
    ),
    Body("mean_apogee", 12, (_ALL,), frozenset({POSITIONS}), None),
    Body("osc_apogee", 13, (_ALL,), frozenset({POSITIONS}), None),
    # Exists only in heliocentric mode, where it stands for the Sun (its heliocentric
    # longitude is the Sun's geocentric one reversed); a heliocentric return of it is the
    # solar return of that frame.
    Body("earth", 14, (), frozenset({HELIOCENTRIC, RETURNS}), 5.0),
)
TABLE: dict[str, Body] = {body.name: body for body in BODY_TABLE}

GROUP_NAMES: tuple[str, ...] = (_P, _A, _ALL)
GROUPS: dict[str, tuple[str, ...]] = {
    group: tuple(b.name for b in BODY_TABLE if group in b.groups) for group in GROUP_NAMES
}
PLANETS: tuple[str, ...] = GROUPS[_P]
ASTEROIDS: tuple[str, ...] = GROUPS[_A]
ALL: tuple[str, ...] = GROUPS[_ALL]

# Alias -> the body it names; the answer keeps the alias's spelling.
ALIASES: dict[str, str] = {"lilith": "mean_apogee"}
#: The Moon's north node, mean and true: the bodies a draconic chart turns by, drawn and
#: dignified as the one point they name.
NODE_BODIES: tuple[str, ...] = ("mean_node", "true_node")

EARTH = "earth"
SUN = "sun"

BODY_NAMES: tuple[str, ...] = ALL
ACCEPTED_NAMES: tuple[str, ...] = ALL + tuple(ALIASES) + (EARTH,)

# A numbered asteroid is named by its number in the Minor Planet Center's catalogue (433 is
# Eros): a known body, of which the service has no ephemeris.
_NUMBERED_ASTEROID = re.compile(r"[0-9]+")


def canonical_body(name: str) -> str:
    """Return the table's body behind a resolved name (``lilith`` -> ``mean_apogee``)."""
    return ALIASES.get(name, name)


def body(name: str) -> Body:
    """Return the table row of a resolved name (an alias gives its body's row)."""
    return TABLE[canonical_body(name)]


def engine_number(name: str) -> int:
    """Return the Swiss Ephemeris body number of a resolved name."""
    return body(name).engine_number


def step_days(name: str) -> float:
    """Return the grid step in days of a search over the body's longitude."""
    step = body(name).step_days
    if step is None:
        raise ValueError(f"{name} is never searched over time")
    return step


def is_asteroid(name: str) -> bool:
    """Return True for the asteroids (no ephemeris outside the files' span, no fallback)."""
    return canonical_body(name) in ASTEROIDS


def eligible(use: str, *, heliocentric: bool = False) -> tuple[str, ...]:
    """Return the bodies eligible for ``use`` in the frame asked for, in table order."""
    frame = HELIOCENTRIC if heliocentric else POSITIONS
    return tuple(b.name for b in BODY_TABLE if use in b.uses and frame in b.uses)


def _span_text(row: Body) -> str:
    first, last = (Moment.from_jd_ut1(jd).iso_utc("minute") for jd in row.span_jd_ut1)
    return f"{first} to {last} (Julian Day UT1 {row.span_jd_ut1[0]} to {row.span_jd_ut1[1]})"


def check_span(name: str, first_jd_ut1: float, last_jd_ut1: float | None = None, *, about: str = "moment") -> None:
    """Raise OutOfRange unless the body's ephemeris covers [first_jd_ut1, last_jd_ut1] (UT1
    Julian Days; one instant without ``last_jd_ut1``). The error names the body and its span
    and is ``about`` the argument that gave the dates, for the caller to name its parameter;
    the engine's own text never reaches it."""
    row = body(name)
    last = first_jd_ut1 if last_jd_ut1 is None else last_jd_ut1
    low, high = row.span_jd_ut1
    if low <= first_jd_ut1 and last <= high:
        return
    outside = first_jd_ut1 if first_jd_ut1 < low else last
    raise OutOfRange(
        f"No ephemeris of {name} at {Moment.from_jd_ut1(outside).iso_utc()}: it covers {_span_text(row)} and has no "
        "fallback outside it.",
        suggestion=f"Choose moments within {_span_text(row)}, or leave {name} out.",
        about=about,
    )


def span_end(name: str, *, backward: bool = False) -> float:
    """Return the last (first, with ``backward``) UT1 Julian Day of the body's ephemeris."""
    return body(name).span_jd_ut1[0 if backward else 1]


def _not_found(name: str) -> BodyNotFound:
    close = difflib.get_close_matches(name, ACCEPTED_NAMES + tuple(GROUPS), n=1)
    hint = f"Did you mean {close[0]!r}? " if close else ""
    return BodyNotFound(
        wording=lambda param: (
            f"Unknown body {name!r} in {param}. Valid names: {', '.join(BODY_NAMES)}, lilith "
            f"(alias of mean_apogee), earth (heliocentric only); groups: {', '.join(GROUPS)}."
        ),
        suggestion=f"{hint}Use a body name such as sun, moon, mean_node, chiron, or a group: planets, asteroids, all.",
    )


def _unlisted_kind(name: str) -> str | None:
    """Return what a known body outside the table is (a fixed star, a numbered asteroid), or None."""
    if _NUMBERED_ASTEROID.fullmatch(name):
        return "a numbered asteroid, of which the service has no ephemeris"
    if stars.is_star(name):
        return "a fixed star (see /v1/stars)"
    return None


def _not_eligible(name: str, use: str, heliocentric: bool) -> BodyNotEligible:
    return BodyNotEligible(
        wording=lambda param: f"The body {name!r} in {param} is not eligible for {_USE_TEXT[use]}.",
        suggestion=f"Use one of: {', '.join(eligible(use, heliocentric=heliocentric))}.",
    )


def _no_heliocentric_position(name: str) -> BodyNotEligible:
    """Return the refusal of ``name``, a point of the Moon's geocentric orbit, in a heliocentric request."""
    return BodyNotEligible(
        wording=lambda param: (
            f"The body {name!r} in {param} is a point of the Moon's geocentric orbit and has no heliocentric position."
        ),
        suggestion="Leave the nodes and apogees out of a heliocentric request, or drop heliocentric=true.",
    )


def _refuse_unlisted(name: str, use: str, heliocentric: bool) -> None:
    kind = _unlisted_kind(name)
    if kind is None:
        raise _not_found(name)
    raise BodyNotEligible(
        wording=lambda param: (
            f"The body {name!r} in {param} is {kind}, not one of the bodies the service computes for {_USE_TEXT[use]}."
        ),
        suggestion=f"Use one of: {', '.join(eligible(use, heliocentric=heliocentric))}.",
    )


def resolve_body(name: str, use: str, *, heliocentric: bool = False) -> str:
    """Return the one body a search parameter names, when it is eligible for ``use``.

    Input is case-insensitive; the output is lowercase and keeps an alias's spelling. Unknown
    names raise BodyNotFound; a known body the use cannot take (a fixed star, a numbered
    asteroid, a body whose row lacks ``use``, ``earth`` geocentric, ``sun`` or a node
    heliocentric) raises BodyNotEligible whose suggestion lists the eligible bodies.
    """
    key = str(name).strip().lower()
    refuse_group(key, use, heliocentric=heliocentric)
    (resolved,) = resolve_bodies([key], heliocentric=heliocentric, use=use)
    return resolved


def refuse_group(name: str, use: str, *, heliocentric: bool = False) -> None:
    """Return None when ``name`` (any case) is no group; UnreadableValue suggesting the bodies
    eligible for ``use`` when it is one, where one body is asked for."""
    key = str(name).strip().lower()
    if key in GROUPS:
        raise UnreadableValue(
            wording=lambda param: f"{param} names one body; {key!r} is a group.",
            suggestion=f"Use one of: {', '.join(eligible(use, heliocentric=heliocentric))}.",
        )


def resolve_bodies(names: list[str], *, heliocentric: bool = False, use: str | None = None) -> list[str]:
    """Return the body names a request asks for, groups expanded, in the order given.

    Input is case-insensitive (surrounding blanks ignored); output is lowercase and keeps the
    requested spelling of an alias (``lilith``). Groups expand in place in the order of
    decisions.md; a body named twice (also through a group, or as ``lilith`` beside
    ``mean_apogee``) appears once, at its first place. An empty list gives an empty list (the
    default group is the caller's business).

    Geocentric: ``earth`` raises BodyNotEligible (suggesting heliocentric=true).
    Heliocentric: ``sun``, nodes and apogees named explicitly raise BodyNotEligible (``sun``
    suggesting ``earth``); groups put ``earth`` in place of ``sun`` and leave the nodes and
    apogees out. Fixed stars and numbered asteroids raise BodyNotEligible (known bodies no
    position request can use); other unknown names raise BodyNotFound. The errors' texts say
    ``value`` until the reader names the parameter (``shared/runtime/kernel_errors.py``).
    With ``use``, every body (also from a group) must be eligible for it, else BodyNotEligible
    listing those that are.
    """
    resolved = _resolve(names, heliocentric, use)
    if use is not None:
        require_use(resolved, use, heliocentric=heliocentric)
    return resolved


def require_use(resolved: Sequence[str], use: str, *, heliocentric: bool = False, named: Sequence[str] = ()) -> None:
    """Return None when every body of ``resolved`` (names as :func:`resolve_bodies` returns
    them) is eligible for ``use``; BodyNotEligible listing those that are otherwise, naming
    the first body ``named`` explicitly (the names as the request wrote them, which
    resolve_bodies refuses as it meets them) that is not, else the first of ``resolved``.
    Bodies read once for another use are checked for this one without being read again."""
    for raw in named:
        key = str(raw).strip().lower()
        if key not in GROUPS and use not in body(key).uses:
            raise _not_eligible(key, use, heliocentric)
    for name in resolved:
        if use not in body(name).uses:
            raise _not_eligible(name, use, heliocentric)


def _resolve(names, heliocentric: bool, use: str | None) -> list[str]:
    resolved: list[str] = []
    seen: set[str] = set()
    frame = HELIOCENTRIC if heliocentric else POSITIONS

    def add(name: str) -> None:
        key = canonical_body(name)
        if key not in seen:
            seen.add(key)
            resolved.append(name)

    for raw in names:
        name = str(raw).strip().lower()
        if name in GROUPS:
            for member in GROUPS[name]:
                if heliocentric and member == SUN:
                    add(EARTH)
                elif frame in TABLE[member].uses:
                    add(member)
            continue
        row = TABLE.get(canonical_body(name))
        if row is None:
            _refuse_unlisted(name, use or frame, heliocentric)
        if use is not None and use not in row.uses:
            raise _not_eligible(name, use, heliocentric)
        if frame in row.uses:
            add(name)
        elif name == EARTH:
            raise BodyNotEligible(
                wording=lambda param: f"The body 'earth' in {param} exists only in heliocentric mode.",
                suggestion="Add heliocentric=true, or ask for the sun for the geocentric view.",
            )
        elif name == SUN:
            raise BodyNotEligible(
                wording=lambda param: (
                    f"The body 'sun' in {param} is the centre of a heliocentric view and has no position in it."
                ),
                suggestion="Ask for earth instead: its heliocentric position is the Sun's geocentric one reversed.",
            )
        else:
            raise _no_heliocentric_position(name)
    return resolved
