"""The only door to the Swiss Ephemeris: every ``swisseph`` call of the service goes through here."""

from __future__ import annotations

import contextlib
import math
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import PurePath
from typing import NamedTuple

import swisseph as swe

from kernel.errors import DomainError, OutOfRange, UnreadableValue

#: The exception Swiss Ephemeris raises; callers catch it and turn it into
#: a domain error with :func:`engine_error` (or use :func:`map_engine_errors`).
EngineError = swe.Error

# Calculation flag bits (Swiss Ephemeris SEFLG_*), re-exported so no other module needs swisseph.
FLG_SWIEPH: int = swe.FLG_SWIEPH
FLG_MOSEPH: int = swe.FLG_MOSEPH
FLG_SPEED: int = swe.FLG_SPEED
FLG_EQUATORIAL: int = swe.FLG_EQUATORIAL
FLG_SIDEREAL: int = swe.FLG_SIDEREAL
FLG_NONUT: int = swe.FLG_NONUT
FLG_J2000: int = swe.FLG_J2000
FLG_TOPOCTR: int = swe.FLG_TOPOCTR
FLG_HELCTR: int = swe.FLG_HELCTR
FLG_XYZ: int = swe.FLG_XYZ
FLG_TRUEPOS: int = swe.FLG_TRUEPOS
FLG_NOABERR: int = swe.FLG_NOABERR
FLG_NOGDEFL: int = swe.FLG_NOGDEFL
FLG_ICRS: int = swe.FLG_ICRS


def body_number_constants() -> dict[str, int]:
    """Return swisseph's body-number constants (SUN ... VESTA, EARTH, MEAN_APOG, OSCU_APOG) as
    {lowercase constant name: number}, for checking the body table's engine numbers."""
    names = (
        "SUN",
        "MOON",
        "MERCURY",
        "VENUS",
        "MARS",
        "JUPITER",
        "SATURN",
        "URANUS",
        "NEPTUNE",
        "PLUTO",
        "MEAN_NODE",
        "TRUE_NODE",
        "MEAN_APOG",
        "OSCU_APOG",
        "EARTH",
        "CHIRON",
        "PHOLUS",
        "CERES",
        "PALLAS",
        "JUNO",
        "VESTA",
    )
    return {name.lower(): getattr(swe, name) for name in names}


# The sidereal mode Swiss Ephemeris starts with (Fagan/Bradley, SE_SIDM_FAGAN_BRADLEY = 0); the
# state every configured() block returns to.
DEFAULT_SIDEREAL_MODE = swe.SIDM_FAGAN_BRADLEY

#: The engine's release, as every answer's meta.version names it.
ENGINE_VERSION = f"Swiss Ephemeris {swe.version}"

# Span of the bundled .se1 files (data/ephe), found by bisection against them: outside it the
# planets and the Moon fall back to the Moshier ephemeris and the asteroids have no data.
EPHEMERIS_FILES_SPAN_TEXT = "1200-01-08 to 3000-01-10 CE"

# The folder of the .se1 files, set once per process by whoever runs the kernel
# (:func:`use_ephemeris_files`). Swiss Ephemeris keeps its settings per thread, so each thread
# applies it on its first call (a thread that never did would silently compute with the
# built-in Moshier ephemeris and find no asteroid).
_ephemeris_path: str | None = None
_thread = threading.local()
# Held while a configured() block has sidereal mode or observer set, so two threads never see
# each other's global Swiss Ephemeris state.
_state_lock = threading.RLock()


def use_ephemeris_files(path: str | PurePath) -> None:
    """Make every thread of the process compute from the Swiss Ephemeris files in ``path``.

    Call it once at start-up, before the first computation; later calls re-point every thread.
    """
    global _ephemeris_path
    _ephemeris_path = str(path)


def ephemeris_files_path() -> str | None:
    """Return the folder the engine computes from, or None before :func:`use_ephemeris_files`."""
    return _ephemeris_path


def _ensure_initialised() -> None:
    """Apply the ephemeris folder and the default sidereal mode in the calling thread, once."""
    if _thread.__dict__.get("path") is _ephemeris_path and _ephemeris_path is not None:
        return
    if _ephemeris_path is None:
        raise RuntimeError("The engine has no ephemeris files: call engine.use_ephemeris_files(path) first.")
    swe.set_ephe_path(_ephemeris_path)
    swe.set_sid_mode(DEFAULT_SIDEREAL_MODE, 0.0, 0.0)
    _thread.path = _ephemeris_path


#: J2000.0: inside the files a request most often needs (sepl_18, semo_18, seas_18: 1800-2400).
_WARM_UP_JD_UT1 = 2451545.0


def warm_up() -> None:
    """Open what a first computation would open (the planets' and the Moon's files for this
    century, the asteroid file, the star catalogue's index), so a new process answers its
    first request as fast as its thousandth. Returns nothing; computes nothing kept."""
    _ensure_initialised()
    for body_number in range(swe.SUN, swe.PLUTO + 1):
        swe.calc_ut(_WARM_UP_JD_UT1, body_number, FLG_SWIEPH)
    swe.calc_ut(_WARM_UP_JD_UT1, swe.CHIRON, FLG_SWIEPH)
    swe.fixstar2_ut("Aldebaran", _WARM_UP_JD_UT1, FLG_SWIEPH)


@contextlib.contextmanager
def configured(
    *,
    sidereal_mode: int | None = None,
    observer_lon_lat_alt: tuple[float, float, float] | None = None,
) -> Iterator[None]:
    """Set the sidereal mode and/or topocentric observer for the block; reset both on exit.

    ``sidereal_mode`` is a Swiss Ephemeris ayanamsha id (0-46), used by calls that pass
    ``FLG_SIDEREAL``; ``observer_lon_lat_alt`` is (east longitude deg, latitude deg, altitude m),
    used by calls that pass ``FLG_TOPOCTR``. On exit, even after an exception, the mode goes
    back to :data:`DEFAULT_SIDEREAL_MODE` and the observer to the geocentre (0, 0, 0), so no
    request leaks state into the next. The block holds a process-wide lock.
    """
    _ensure_initialised()
    with _state_lock:
        try:
            if sidereal_mode is not None:
                swe.set_sid_mode(int(sidereal_mode), 0.0, 0.0)
            if observer_lon_lat_alt is not None:
                lon, lat, alt = observer_lon_lat_alt
                swe.set_topo(float(lon), float(lat), float(alt))
            yield
        finally:
            if sidereal_mode is not None:
                swe.set_sid_mode(DEFAULT_SIDEREAL_MODE, 0.0, 0.0)
            if observer_lon_lat_alt is not None:
                swe.set_topo(0.0, 0.0, 0.0)


_PATH_IN_MESSAGE = re.compile(r"\s*in PATH '[^']*'")
_NO_DATA_MARKERS = ("not found in path", "outside", "out of range", "beyond", "ephemeris range", "restricted to")


def is_no_data_error(exc: BaseException) -> bool:
    """Return True when a swisseph.Error says the ephemeris files do not cover the date."""
    text = str(exc).lower()
    return any(marker in text for marker in _NO_DATA_MARKERS)


@contextlib.contextmanager
def map_engine_errors(
    subject: str | Callable[[], str] = "the calculation", *, about: str | None = None
) -> Iterator[None]:
    """Turn ``swisseph.Error`` raised inside the block into the kernel's domain errors.

    A date the ephemeris files do not cover (asteroids have no analytic fallback) becomes
    :class:`OutOfRange`; anything else becomes :class:`UnreadableValue`. ``subject`` names what
    was being computed (e.g. ``"chiron at 1100-01-01T00:00:00.000Z"``), or is a function
    returning it (called only on error); ``about`` names the argument to blame, for the reader
    to name its parameter (``shared/runtime/kernel_errors.py``). File paths of the server
    never reach the message.
    """
    try:
        yield
    except swe.Error as exc:
        raise engine_error(exc, subject() if callable(subject) else subject, about) from None


def engine_error(exc: Exception, subject: str, about: str | None) -> DomainError:
    """Return the domain error for a ``swisseph.Error`` raised while computing ``subject``,
    ``about`` the argument it concerns (None: none in particular).

    :class:`OutOfRange` for a date the ephemeris files do not cover (asteroids have no
    analytic fallback), :class:`UnreadableValue` (the catalogue's ``invalid_parameter``)
    otherwise; server file paths are removed.
    """
    if is_no_data_error(exc):
        return OutOfRange(
            f"No ephemeris data for {subject}: the asteroid ephemeris covers "
            f"{EPHEMERIS_FILES_SPAN_TEXT} and has no fallback outside it.",
            suggestion=f"Choose a moment within {EPHEMERIS_FILES_SPAN_TEXT}, or leave the "
            "asteroids out (the planets and the Moon are available beyond it).",
            about=about,
        )
    detail = _PATH_IN_MESSAGE.sub("", str(exc)).replace("swisseph.", "")
    return UnreadableValue(
        f"The ephemeris engine refused {subject}: {detail}",
        suggestion="Check the moment, place and flags of the request.",
        about=about,
    )


class BodyCalc(NamedTuple):
    """One body's six Swiss Ephemeris coordinates and how they were obtained.

    ``values`` is (longitude or RA deg, latitude or declination deg, distance AU, and their
    daily speeds, zero when not asked for); the frame is whatever the flags asked for.
    ``used_fallback`` is True when the built-in Moshier ephemeris was used because the files
    do not cover the date.
    """

    values: tuple[float, float, float, float, float, float]
    used_fallback: bool


def calc_body(jd_ut1: float, body_number: int, flags: int) -> BodyCalc:
    """Return ``swe.calc_ut(jd_ut1, body_number, flags | FLG_SWIEPH)`` with fallback detection.

    Raises ``swisseph.Error`` untouched; wrap the call in :func:`map_engine_errors`.
    """
    _ensure_initialised()
    values, retflags = swe.calc_ut(jd_ut1, body_number, flags | FLG_SWIEPH)
    return BodyCalc(values, not (retflags & FLG_SWIEPH))


def longitude_and_speed(body_number: int, flags: int) -> Callable[[float], tuple[float, float]]:
    """Return jd_ut1 -> (the body's first coordinate, degrees; its daily speed, degrees per day):
    ``calc_body(jd, body_number, flags).values[0]`` and ``[3]``, bit for bit, in the frame of
    ``flags`` (pass FLG_SPEED for a speed), without the fallback detection.

    For the searches, which make a hundred thousand calls in one request: each is one C call.
    Call it in the thread that uses it (it initialises that thread's engine once, here).
    """
    _ensure_initialised()
    calc, all_flags = swe.calc_ut, flags | FLG_SWIEPH

    def at(jd_ut1: float) -> tuple[float, float]:
        values = calc(jd_ut1, body_number, all_flags)[0]
        return values[0], values[3]

    return at


def longitudes_and_speeds_by_date(
    body_numbers: Sequence[int], flags: int, jds_ut1: Iterable[float]
) -> list[list[tuple[float, float]]]:
    """Return, for each of ``jds_ut1`` in turn, each body's (first coordinate, degrees; its daily
    speed, degrees per day) in the frame of ``flags`` (pass FLG_SPEED for a speed):
    ``calc_body(jd, number, flags).values[0]`` and ``[3]``, bit for bit, one row per date.

    Date by date, every body at one date in turn: Swiss Ephemeris keeps what positions of one
    date share (the Earth's, nutation, precession) until the date changes, so a body after the
    first at a date costs about a third of a body at a new date. Call it in the thread that uses
    it (it initialises that thread's engine once, here).
    """
    _ensure_initialised()
    calc, all_flags = swe.calc_ut, flags | FLG_SWIEPH
    rows = []
    for jd in jds_ut1:
        row = []
        for number in body_numbers:
            values = calc(jd, number, all_flags)[0]
            row.append((values[0], values[3]))
        rows.append(row)
    return rows


def obliquity_deg(jd_ut1: float) -> tuple[float, float]:
    """Return (true obliquity, mean obliquity) of the ecliptic of date in degrees (SE_ECL_NUT)."""
    _ensure_initialised()
    values, _ = swe.calc_ut(jd_ut1, swe.ECL_NUT, 0)
    return values[0], values[1]


def ayanamsha_deg(jd_ut1: float, sidereal_mode: int, *, no_nutation: bool = False) -> float:
    """Return the ayanamsha of ``sidereal_mode`` at ``jd_ut1`` in degrees.

    With nutation (the default) it is the "true" value that Swiss Ephemeris subtracts from a
    tropical longitude of date; with ``no_nutation`` the mean value.
    """
    flags = FLG_SWIEPH | (FLG_NONUT if no_nutation else 0)
    with configured(sidereal_mode=sidereal_mode):
        _, value = swe.get_ayanamsa_ex_ut(jd_ut1, flags)
    return value


def ayanamsha_engine_name(sidereal_mode: int) -> str:
    """Return Swiss Ephemeris's own display name of an ayanamsha id (swe_get_ayanamsa_name)."""
    return swe.get_ayanamsa_name(sidereal_mode)


def sidereal_mode_constants() -> dict[str, int]:
    """Return swisseph's SIDM_* constants as {constant name: id}, for checking our table."""
    return {name: getattr(swe, name) for name in dir(swe) if name.startswith("SIDM_")}


def delta_t_days(jd_ut1: float) -> float:
    """Return Delta T = TT - UT1 in days at ``jd_ut1``, the value swe.calc_ut uses internally.

    Swiss Ephemeris's model: Stephenson, Morrison & Hohenkerk (2016) before 1955, the
    Astronomical Almanac / IERS tables after, extrapolated beyond the last tabulated year;
    tidal acceleration of the bundled (DE431-based) files.
    """
    _ensure_initialised()
    return swe.deltat_ex(jd_ut1, FLG_SWIEPH)


@dataclass(frozen=True)
class HouseCalc:
    """Raw house result: cusps (12, or 36 for Gauquelin) and the ascmc points, all degrees.

    ``ascmc`` is Swiss Ephemeris's order: ascendant, MC, ARMC, vertex, equatorial ascendant,
    co-ascendant (Koch), co-ascendant (Munkasey), polar ascendant. ``letter`` is the system that
    produced the cusps, ``"O"`` (Porphyrius) when ``polar_fallback`` is True.
    """

    cusps: tuple[float, ...]
    ascmc: tuple[float, ...]
    letter: str
    polar_fallback: bool


def houses(jd_ut1: float, latitude_deg: float, longitude_deg: float, letter: str, flags: int = 0) -> HouseCalc:
    """Return the houses of system ``letter`` at a place (swe.houses_ex2), with polar detection.

    ``flags`` may hold FLG_SIDEREAL (inside :func:`configured`) and FLG_NONUT. When Swiss
    Ephemeris reports that the system has no cusps inside the polar circle, the houses are
    computed again as Porphyrius and ``polar_fallback`` is set.
    """
    _ensure_initialised()
    try:
        cusps, ascmc, _, _ = swe.houses_ex2(jd_ut1, latitude_deg, longitude_deg, letter.encode("ascii"), flags)
        return HouseCalc(tuple(cusps), tuple(ascmc), letter, False)
    except swe.Error as exc:
        if "polar circle" not in str(exc).lower():
            raise
    cusps, ascmc, _, _ = swe.houses_ex2(jd_ut1, latitude_deg, longitude_deg, b"O", flags)
    return HouseCalc(tuple(cusps), tuple(ascmc), "O", True)


def house_position(
    armc_deg: float,
    latitude_deg: float,
    obliquity_deg: float,
    letter: str,
    longitude_deg: float,
    ecliptic_latitude_deg: float,
) -> float:
    """Return the mundane house position of a point (swe.house_pos): a number in [1, 13)
    ([1, 37) for Gauquelin) whose integer part is the house and fraction the way through it.

    The point is given by its tropical ecliptic longitude and latitude of date (degrees); the
    place by the ARMC and geographic latitude; ``obliquity_deg`` is the true obliquity.
    """
    _ensure_initialised()
    return swe.house_pos(
        armc_deg, latitude_deg, obliquity_deg, (longitude_deg, ecliptic_latitude_deg), letter.encode("ascii")
    )


# Sunshine houses divide the Sun's diurnal arc, but swe.house_pos takes no Sun declination: it
# reuses the one of the last houses computation in the thread (swehouse.c, "dirty hack").
SUNSHINE_LETTERS = frozenset({"I", "i"})


def house_positions(
    armcs_deg: Sequence[float],
    latitudes_deg: Sequence[float],
    obliquity_deg: float,
    letter: str,
    longitude_deg: float,
    ecliptic_latitude_deg: float,
    sun_declination_deg: float | None = None,
) -> list[float]:
    """Return the house position (swe.house_pos, see :func:`house_position`) of one point at
    each pair of ARMC and geographic latitude (degrees); NaN where Swiss Ephemeris gives none
    (it raises, or answers 0 as Koch does for points it cannot place).

    Sunshine systems (``I``, ``i``) need ``sun_declination_deg``: the houses are first cast
    once with it, at the equator where the Sun always rises, so that house_pos uses it.
    """
    _ensure_initialised()
    hsys = letter.encode("ascii")
    if letter in SUNSHINE_LETTERS:
        if sun_declination_deg is None:
            raise ValueError("Sunshine house positions need the Sun's declination")
        swe.houses_armc(0.0, 0.0, obliquity_deg, hsys, sun_declination_deg)
    point = (longitude_deg, ecliptic_latitude_deg)
    out: list[float] = []
    for armc, latitude in zip(armcs_deg, latitudes_deg):
        try:
            value = swe.house_pos(float(armc), float(latitude), obliquity_deg, point, hsys)
        except swe.Error:
            value = math.nan
        out.append(value if value >= 1.0 else math.nan)
    return out


def cusps_at(
    armcs_deg: Sequence[float],
    latitudes_deg: Sequence[float],
    obliquity_deg: float,
    letter: str,
    sun_declination_deg: float | None = None,
) -> list[tuple[float, ...] | None]:
    """Return the cusps (swe.houses_armc: 12, or 36 for Gauquelin; ecliptic longitudes of
    date, degrees) of system ``letter`` at each pair of ARMC and geographic latitude, None
    where the system has none. Sunshine systems (``I``, ``i``) need ``sun_declination_deg``."""
    _ensure_initialised()
    if letter in SUNSHINE_LETTERS and sun_declination_deg is None:
        raise ValueError("Sunshine cusps need the Sun's declination")
    hsys = letter.encode("ascii")
    extra = (sun_declination_deg,) if letter in SUNSHINE_LETTERS else ()
    out: list[tuple[float, ...] | None] = []
    for armc, latitude in zip(armcs_deg, latitudes_deg):
        try:
            cusps, _ = swe.houses_armc(float(armc), float(latitude), obliquity_deg, hsys, *extra)
        except swe.Error:
            out.append(None)
            continue
        out.append(tuple(cusps))
    return out


# The three conversions between UTC and UT1 below need no ephemeris files, so that the
# gateway reads moments without them: swe.utc_to_jd and swe.jdut1_to_utc take the leap seconds
# from Swiss Ephemeris's built-in table (data/ephe has no seleapsec.txt to extend it) and their
# Delta T always with the default tidal acceleration (swe_deltat_ex(jd, -1)), never the files'.
# tests/unit/kernel/test_timescale.py checks that a process without the files reads the same days.


def utc_to_jd_ut1(year: int, month: int, day: int, hour: int, minute: int, second: float) -> float:
    """Return the UT1 Julian Day of a proleptic-Gregorian UTC clock reading (swe.utc_to_jd).

    Leap-second aware from 1972 (second 60 is valid only in a real leap second; otherwise
    ValueError); before 1972 the reading is taken as UT1. Needs no ephemeris files.
    """
    try:
        _, jd_ut1 = swe.utc_to_jd(year, month, day, hour, minute, second, swe.GREG_CAL)
    except swe.Error as error:
        raise ValueError(str(error)) from None
    return jd_ut1


def is_leap_second_minute(year: int, month: int, day: int, hour: int, minute: int) -> bool:
    """Return True when the given UTC minute has a 61st second (a leap second follows it).
    Needs no ephemeris files."""
    if hour != 23 or minute != 59:
        return False
    try:
        swe.utc_to_jd(year, month, day, hour, minute, 60.0, swe.GREG_CAL)
    except swe.Error:
        return False
    return True


def jd_ut1_to_utc(jd_ut1: float) -> tuple[int, int, int, int, int, float]:
    """Return the proleptic-Gregorian UTC clock reading (y, m, d, h, min, s) of a UT1 Julian Day.

    Goes through the leap-second table (swe.jdut1_to_utc); seconds may reach 60.x inside a
    leap second. Needs no ephemeris files.
    """
    return swe.jdut1_to_utc(jd_ut1, swe.GREG_CAL)


def apparent_sidereal_time_hours(jd_ut1: float) -> float:
    """Return Greenwich apparent sidereal time at ``jd_ut1`` in hours, [0, 24) (swe.sidtime:
    mean sidereal time plus the equation of the equinoxes, with Swiss Ephemeris's nutation)."""
    _ensure_initialised()
    return swe.sidtime(jd_ut1)


class RiseSet(NamedTuple):
    """The next rising or setting of the Sun after a moment: ``jd_ut1``, or None when the Sun
    stays above or below the horizon (``circumpolar``) at that place."""

    jd_ut1: float | None


# Standard atmosphere for rising and setting: 1013.25 hPa and 10 °C give Swiss Ephemeris's
# horizontal refraction of 34.6' (swe.refrac_extended of an apparent altitude of 0: 0.5763°).
# The almanacs (the Astronomical Almanac, USNO) take 34'; the 0.6' moves a sunrise by 2 to 4 s
# below latitude 50°.
_STANDARD_PRESSURE_HPA = 1013.25
_STANDARD_TEMPERATURE_C = 10.0


#: How the Sun rises, as Swiss Ephemeris's rise_trans flags: the upper limb with standard
#: refraction (its default, 34.6' at the horizon), the disc's centre with refraction, or the Hindu
#: rising (SE_BIT_HINDU_RISING: the centre, no refraction, the Sun's ecliptic latitude ignored).
SUNRISE_BITS: dict[str, int] = {
    "upper_limb_refracted": 0,
    "centre_refracted": swe.BIT_DISC_CENTER,
    "hindu": swe.BIT_HINDU_RISING,
}


def next_sun_rise_or_set(
    jd_ut1: float,
    latitude_deg: float,
    longitude_deg: float,
    altitude_m: float,
    *,
    rising: bool,
    sunrise: str = "upper_limb_refracted",
) -> RiseSet:
    """Return the Sun's next rising (``rising``) or setting after ``jd_ut1`` at a place (swe.rise_trans).

    By default the event is the upper limb of the disc touching the sea-level horizon with
    standard refraction (Swiss Ephemeris's default, 34.6' at the horizon), so it agrees with
    the almanacs' -0.8333° altitude of the centre (34' of refraction) to a few seconds;
    ``sunrise`` names another of SUNRISE_BITS. None when Swiss Ephemeris finds the Sun
    circumpolar.
    """
    _ensure_initialised()
    event = (swe.CALC_RISE if rising else swe.CALC_SET) | SUNRISE_BITS[sunrise]
    status, times = swe.rise_trans(
        jd_ut1,
        swe.SUN,
        event,
        (longitude_deg, latitude_deg, altitude_m),
        _STANDARD_PRESSURE_HPA,
        _STANDARD_TEMPERATURE_C,
        FLG_SWIEPH,
    )
    return RiseSet(None if status == -2 else times[0])


class FixedStar(NamedTuple):
    """A star of the Swiss Ephemeris star file: its traditional ``name`` (empty when the file
    gives none) and its ``nomenclature`` (Bayer or Flamsteed designation, e.g. "alTau")."""

    name: str
    nomenclature: str


STAR_FILE = "sefstars.txt"


def fixed_star_catalogue() -> tuple[FixedStar, ...]:
    """Return the stars of the star file in file order, each (name, nomenclature) pair once
    (the file lists some pairs several times, and alternative names of one star on lines of
    their own)."""
    _ensure_initialised()
    stars: dict[FixedStar, None] = {}
    with open(PurePath(_ephemeris_path) / STAR_FILE, encoding="latin-1") as lines:
        for line in lines:
            if line.startswith("#") or "," not in line:
                continue
            name, nomenclature = (part.strip() for part in line.split(",")[:2])
            if nomenclature:
                stars.setdefault(FixedStar(name, nomenclature), None)
    return tuple(stars)


def fixed_star(star: FixedStar, jd_ut1: float, flags: int) -> tuple[float, float]:
    """Return a star's (longitude or RA deg, latitude or declination deg) at ``jd_ut1`` in the
    frame ``flags`` ask for (swe.fixstar2_ut, proper motion and parallax of the star file
    applied, apparent place of date by default)."""
    _ensure_initialised()
    key = star.name if star.name else f",{star.nomenclature}"
    values, _, _ = swe.fixstar2_ut(key, jd_ut1, flags | FLG_SWIEPH)
    return values[0], values[1]


def fixed_stars(stars: Sequence[FixedStar], jd_ut1: float, flags: int) -> list[tuple[float, float]]:
    """Return each star's (longitude or RA deg, latitude or declination deg) at ``jd_ut1``, as
    :func:`fixed_star` gives it, in one loop (a whole catalogue: a call per star costs more
    in Python than in Swiss Ephemeris)."""
    _ensure_initialised()
    compute, flags = swe.fixstar2_ut, flags | FLG_SWIEPH
    places = []
    for star in stars:
        values, _, _ = compute(star.name if star.name else f",{star.nomenclature}", jd_ut1, flags)
        places.append((values[0], values[1]))
    return places


@cache
def fixed_star_magnitude(star: FixedStar) -> float:
    """Return a star's visual magnitude from the star file (swe.fixstar2_mag; remembered: the
    file's magnitudes do not change with the date)."""
    _ensure_initialised()
    magnitude, _ = swe.fixstar2_mag(star.name if star.name else f",{star.nomenclature}")
    return magnitude


# Eclipse type bits (swephexp.h SE_ECL_*), re-exported for the eclipse searches.
ECL_TOTAL: int = swe.ECL_TOTAL
ECL_ANNULAR: int = swe.ECL_ANNULAR
ECL_PARTIAL: int = swe.ECL_PARTIAL
ECL_ANNULAR_TOTAL: int = swe.ECL_ANNULAR_TOTAL
ECL_PENUMBRAL: int = swe.ECL_PENUMBRAL
ECL_VISIBLE: int = swe.ECL_VISIBLE


def solar_eclipse_global(jd_ut1: float, type_mask: int, backward: bool) -> tuple[int, tuple[float, ...]]:
    """Return (type bits, times) of the next solar eclipse anywhere on Earth after (before)
    ``jd_ut1`` of a type in ``type_mask`` (swe.sol_eclipse_when_glob): times[0] maximum,
    [2] first and [3] last contact, [4] and [5] the central phase's begin and end (0 if none)."""
    _ensure_initialised()
    # A total, annular or hybrid eclipse is also central or not; without either bit in the
    # mask Swiss Ephemeris finds none of them and searches on past the end of its files.
    flags, times = swe.sol_eclipse_when_glob(
        jd_ut1, FLG_SWIEPH, type_mask | swe.ECL_CENTRAL | swe.ECL_NONCENTRAL, backward
    )
    return flags, tuple(times)


def solar_eclipse_local(
    jd_ut1: float, longitude_deg: float, latitude_deg: float, altitude_m: float, backward: bool
) -> tuple[int, tuple[float, ...], tuple[float, ...]]:
    """Return (type bits, times, attributes) of the next solar eclipse seen from a place
    (swe.sol_eclipse_when_loc): times[0] maximum, [1]-[4] the four contacts (0 if none);
    attributes[0] magnitude (fraction of the Sun's diameter covered), [2] obscuration."""
    _ensure_initialised()
    flags, times, attributes = swe.sol_eclipse_when_loc(
        jd_ut1, (longitude_deg, latitude_deg, altitude_m), FLG_SWIEPH, backward
    )
    return flags, tuple(times), tuple(attributes)


def lunar_eclipse_global(jd_ut1: float, type_mask: int, backward: bool) -> tuple[int, tuple[float, ...]]:
    """Return (type bits, times) of the next lunar eclipse (swe.lun_eclipse_when): times[0]
    maximum, [2]/[3] partial phase, [4]/[5] total phase, [6]/[7] penumbral phase (0 if none)."""
    _ensure_initialised()
    flags, times = swe.lun_eclipse_when(jd_ut1, FLG_SWIEPH, type_mask, backward)
    return flags, tuple(times)


def lunar_eclipse_local(
    jd_ut1: float, longitude_deg: float, latitude_deg: float, altitude_m: float, backward: bool
) -> tuple[int, tuple[float, ...]]:
    """Return (type and visibility bits, times) of the next lunar eclipse visible from a place
    (swe.lun_eclipse_when_loc), times as :func:`lunar_eclipse_global`'s."""
    _ensure_initialised()
    flags, times, _ = swe.lun_eclipse_when_loc(jd_ut1, (longitude_deg, latitude_deg, altitude_m), FLG_SWIEPH, backward)
    return flags, tuple(times)


HELIACAL_EVENT_TYPES: dict[str, int] = {
    "morning_first": swe.HELIACAL_RISING,
    "evening_last": swe.HELIACAL_SETTING,
    "evening_first": swe.EVENING_FIRST,
    "morning_last": swe.MORNING_LAST,
}


def heliacal_event(
    jd_ut1: float,
    body: str,
    event: str,
    place: tuple[float, float, float],
    atmosphere: tuple[float, float, float, float],
    observer: tuple[float, ...],
    optical: bool,
) -> tuple[float, float, float, float]:
    """Return (event jd, arcus visionis deg, Sun altitude deg, body altitude deg) of the next
    heliacal ``event`` of ``body`` after ``jd_ut1`` (swe.heliacal_ut, Schaefer's model of sky
    brightness, then swe.heliacal_pheno_ut at the event). ``place`` is (east longitude, latitude,
    metres), ``atmosphere`` (hPa, °C, % humidity, meteorological range km or 0), ``observer``
    (age, Snellen ratio, binocular 1/0, magnification, aperture mm, transmission)."""
    _ensure_initialised()
    name = body.capitalize()
    flags = FLG_SWIEPH | (swe.HELFLAG_OPTICAL_PARAMS if optical else 0)
    kind = HELIACAL_EVENT_TYPES[event]
    times = swe.heliacal_ut(jd_ut1, place, atmosphere, observer, name, kind, flags)
    found = times[0]
    phenomena = swe.heliacal_pheno_ut(found, place, atmosphere, observer, name, kind, flags)
    return found, phenomena[7], phenomena[4], phenomena[0]
