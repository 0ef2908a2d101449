"""The causes that make another program's chart differ from ours, as data: each kind of cause,
the candidate values it is tried with, and how one candidate changes the reading of a birth.

A reading (:class:`Reading`) is everything a chart's numbers depend on: the UT instant, the
place, the house system, the zodiac, the lunar node's kind, three conventions of position
(topocentric, true rather than apparent positions, Delta T taken as zero) and the length of a
Vimshottari dasha year. A cause is one
misreading or convention (:class:`Cause`, a kind of :data:`CAUSE_KINDS` and a value); applying
it to a reading gives the reading the other program used. Pure: no engine call.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from kernel.houses import HOUSE_SYSTEMS
from kernel.vimshottari import DEFAULT_YEAR_LENGTH, YEAR_LENGTHS

# The vocabulary of cause kinds (issue 52), in the order explanations prefer them when two
# causes give the same reading: the specific misreading (DST forgotten, AM for PM, a day off)
# before the general one (an offset an hour off) that happens to coincide with it.
CAUSE_KINDS: tuple[str, ...] = (
    "dst",
    "am_pm",
    "date",
    "local_mean_time",
    "time_offset",
    "longitude_sign",
    "latitude_sign",
    "coordinates_swapped",
    "house_system",
    "zodiac",
    "node",
    "topocentric",
    "true_positions",
    "delta_t",
    "year_length",
)

#: The kinds that move the instant; two of them together add their shifts.
TIME_KINDS: frozenset[str] = frozenset({"dst", "am_pm", "date", "local_mean_time", "time_offset"})
#: The kinds that move the place.
PLACE_KINDS: frozenset[str] = frozenset({"longitude_sign", "latitude_sign", "coordinates_swapped"})

# Offsets misread by an hour or by half an hour (the half-hour zones: India, Newfoundland,
# South Australia), seconds added to the UTC offset the clock time was read with.
OFFSET_ERRORS_S: tuple[int, ...] = (3600, -3600, 1800, -1800)

# The ayanamshas other programs use by default or offer first (astro.com and Solar Fire:
# fagan_bradley; JHora, PyJHora and most Indian software: lahiri; KP software: krishnamurti;
# B. V. Raman's books: raman; the rest are the common menu entries of Kala, Parashara's Light
# and Astrodienst's list), by our names (kernel/ayanamshas.py). Variants of one definition
# that differ by less than the tolerance (lahiri_1940, lahiri_icrc, true_citra) are left out:
# no program's numbers could tell them apart.
COMMON_AYANAMSHAS: tuple[str, ...] = (
    "lahiri",
    "fagan_bradley",
    "krishnamurti",
    "raman",
    "yukteshwar",
    "djwhal_khul",
    "jn_bhasin",
    "true_pushya",
    "galcent_0sag",
    "sassanian",
)

# House systems tried: every system with twelve cusps (Gauquelin's 36 sectors are no cusp list).
CUSP_SYSTEMS: tuple[str, ...] = tuple(s.name for s in HOUSE_SYSTEMS if s.letter != "G")

SECONDS_PER_DAY = 86400
#: Seconds of local mean time per degree of east longitude (the Sun crosses 360° in 24 hours).
MEAN_TIME_S_PER_DEGREE = 240


@dataclass(frozen=True)
class Reading:
    """What a chart's numbers depend on.

    ``utc`` the instant (aware, UTC); ``offset_s`` the UTC offset (seconds east) the clock time
    was read with and ``dst_s`` its daylight-saving part (both 0 for a time sent in UTC);
    ``lat``/``lon`` degrees (north, east); ``alt`` metres; ``house_system`` our name;
    ``ayanamsha`` our name or None (tropical); ``node`` which node a position named
    ``mean_node``/``true_node`` is cast as (``"as_named"``, or ``"swapped"``: the other one);
    ``topocentric``, ``true_positions`` (no light-time or aberration) and ``delta_t_zero``
    (positions at TT = UT) the position conventions; ``year_length`` the dasha year, a name
    of kernel/vimshottari.py's YEAR_LENGTHS.
    """

    utc: datetime
    offset_s: int
    dst_s: int
    lat: float
    lon: float
    alt: float
    house_system: str
    ayanamsha: str | None
    node: str = "as_named"
    topocentric: bool = False
    true_positions: bool = False
    delta_t_zero: bool = False
    year_length: str = DEFAULT_YEAR_LENGTH


@dataclass(frozen=True)
class Cause:
    """One cause: its ``kind`` (of :data:`CAUSE_KINDS`) and ``value`` (as the answer shows it),
    and ``shift_s``, the seconds it adds to the UT instant (time kinds; 0 otherwise)."""

    kind: str
    value: str | int | bool
    shift_s: int = 0


def _offset_text(seconds: int) -> str:
    sign = "-" if seconds < 0 else "+"
    hours, rest = divmod(abs(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours:02d}:{minutes:02d}" + (f":{secs:02d}" if secs else "")


def candidate_causes(reading: Reading, local_hour: int) -> list[Cause]:
    """Return every single cause worth trying for ``reading`` whose clock time showed hour
    ``local_hour`` (0-23): the time misreadings, the place's sign and order, and each other
    convention than the reading's own."""
    causes: list[Cause] = []
    if reading.dst_s:
        # They read the clock as standard time: the offset was smaller, the instant later.
        causes.append(Cause("dst", "not_applied", reading.dst_s))
    else:
        causes.append(Cause("dst", "applied", -3600))
    # A morning hour read as the evening's (8 as 20) is twelve hours later, and the reverse.
    causes.append(Cause("am_pm", "pm" if local_hour < 12 else "am", 43200 if local_hour < 12 else -43200))
    causes.extend(Cause("date", f"{days:+d}", days * SECONDS_PER_DAY) for days in (1, -1))
    lmt_offset_s = round(reading.lon * MEAN_TIME_S_PER_DEGREE)
    if abs(lmt_offset_s - reading.offset_s) >= 1:
        causes.append(Cause("local_mean_time", _offset_text(lmt_offset_s), reading.offset_s - lmt_offset_s))
    # A larger offset means an earlier instant for the same clock time.
    # A time_offset's value is the UTC offset they read the clock with, as local_mean_time's is.
    causes.extend(Cause("time_offset", _offset_text(reading.offset_s + error), -error) for error in OFFSET_ERRORS_S)
    if reading.offset_s:
        causes.append(Cause("time_offset", _offset_text(-reading.offset_s), 2 * reading.offset_s))
    if reading.lon:
        causes.append(Cause("longitude_sign", round(-reading.lon, 6)))
    if reading.lat:
        causes.append(Cause("latitude_sign", round(-reading.lat, 6)))
    if abs(reading.lon) <= 90 and reading.lat != reading.lon:
        causes.append(Cause("coordinates_swapped", True))
    causes.extend(Cause("house_system", name) for name in CUSP_SYSTEMS if name != reading.house_system)
    zodiacs = ("tropical", *COMMON_AYANAMSHAS)
    causes.extend(Cause("zodiac", z) for z in zodiacs if z != (reading.ayanamsha or "tropical"))
    causes.append(Cause("node", "swapped"))
    causes.append(Cause("topocentric", not reading.topocentric))
    causes.append(Cause("true_positions", not reading.true_positions))
    causes.append(Cause("delta_t", 0))
    causes.extend(Cause("year_length", name) for name in YEAR_LENGTHS if name != reading.year_length)
    return causes


def apply_causes(reading: Reading, causes: tuple[Cause, ...]) -> Reading:
    """Return the reading the other program used: ``reading`` with each of ``causes`` applied
    (time shifts added; the place's sign flips and swap applied in order)."""
    changes: dict = {}
    shift = sum(c.shift_s for c in causes)
    if shift:
        changes["utc"] = reading.utc + timedelta(seconds=shift)
    lat, lon = reading.lat, reading.lon
    for cause in causes:
        kind = cause.kind
        if kind == "longitude_sign":
            lon = -lon
        elif kind == "latitude_sign":
            lat = -lat
        elif kind == "coordinates_swapped":
            lat, lon = lon, lat
        elif kind == "house_system":
            changes["house_system"] = str(cause.value)
        elif kind == "zodiac":
            changes["ayanamsha"] = None if cause.value == "tropical" else str(cause.value)
        elif kind == "node":
            changes["node"] = "swapped"
        elif kind in ("topocentric", "true_positions"):
            changes[kind] = bool(cause.value)
        elif kind == "delta_t":
            changes["delta_t_zero"] = True
        elif kind == "year_length":
            changes["year_length"] = str(cause.value)
    if (lat, lon) != (reading.lat, reading.lon):
        changes["lat"], changes["lon"] = lat, lon
    return replace(reading, **changes) if changes else reading


def compatible(first: Cause, second: Cause) -> bool:
    """Return True when two causes can be a pair: different kinds, except two time misreadings
    of different kinds (a day off and an hour off add up), never two of one kind."""
    return first.kind != second.kind
