"""Body positions for a moment: the spec's ecliptic and equatorial position records."""

from __future__ import annotations

import contextlib
from dataclasses import asdict, dataclass, field

from kernel import bodies as body_table
from kernel import engine
from kernel.ayanamshas import Ayanamsha
from kernel.conditions import EPHEMERIS_FALLBACK, Condition
from kernel.timescale import Moment
from kernel.zodiac import normalize_deg, sign_of


@dataclass(frozen=True)
class CalcFlags:
    """The spec's calculation flags for a position request.

    ``sidereal`` reduces ecliptic longitudes by that ayanamsha (never declinations or
    equatorial coordinates); ``equatorial`` selects the RA/declination record; ``speed=False``
    leaves speeds and retrograde as None; ``no_nutation`` uses the mean equinox of date;
    ``j2000`` the ecliptic/equator of J2000; ``topocentric`` needs an Observer;
    ``heliocentric`` centres on the Sun (body ``earth`` instead of ``sun``).
    """

    sidereal: Ayanamsha | None = None
    equatorial: bool = False
    speed: bool = True
    no_nutation: bool = False
    j2000: bool = False
    topocentric: bool = False
    heliocentric: bool = False


@dataclass(frozen=True)
class Observer:
    """A place on Earth: geodetic latitude (north +) and longitude (east +) in degrees, altitude in metres."""

    latitude_deg: float
    longitude_deg: float
    altitude_m: float = 0.0


@dataclass
class EclipticPosition:
    """The spec's ecliptic position record.

    ``longitude`` [0, 360) and ``latitude`` in degrees on the ecliptic of date (of J2000 with
    j2000; reduced by the ayanamsha in sidereal mode), ``distance`` in AU, ``speed`` in
    degrees/day of longitude (None without speed), ``sign`` capitalized, ``sign_degree``
    [0, 30), ``retrograde`` = speed < 0 (None without speed), ``declination`` in degrees on the
    equator of date (never sidereal), ``out_of_bounds`` = |declination| > true obliquity of date.
    """

    body: str
    longitude: float
    latitude: float
    distance: float
    speed: float | None
    sign: str
    sign_degree: float
    retrograde: bool | None
    declination: float
    out_of_bounds: bool

    def as_dict(self) -> dict:
        """Return the record as the wire's JSON object."""
        return asdict(self)


@dataclass
class EquatorialPosition:
    """The spec's equatorial position record (``equatorial=true``).

    ``right_ascension`` [0, 360) and ``declination`` in degrees on the true equator and
    equinox of date (mean with no_nutation, J2000 with j2000; never rotated by a sidereal
    mode), ``distance`` in AU, ``ra_speed`` and ``dec_speed`` in degrees/day (None without
    speed), ``out_of_bounds`` = |declination| > true obliquity of date.
    """

    body: str
    right_ascension: float
    declination: float
    distance: float
    ra_speed: float | None
    dec_speed: float | None
    out_of_bounds: bool

    def as_dict(self) -> dict:
        """Return the record as the wire's JSON object."""
        return asdict(self)


@dataclass
class PositionsResult:
    """The records, one per requested body in request order, and the conditions met on the way."""

    records: list[EclipticPosition | EquatorialPosition]
    conditions: list[Condition] = field(default_factory=list)


def compute_positions(
    moment: Moment,
    bodies: list[str],
    flags: CalcFlags,
    observer: Observer | None = None,
) -> PositionsResult:
    """Return the position records of ``bodies`` at ``moment`` under ``flags``.

    ``bodies`` are names as :func:`~kernel.bodies.resolve_bodies` returns them (groups
    expanded, duplicates gone; an alias such as ``lilith`` is answered under its own name).

    Apparent positions (light time, aberration, light deflection, nutation) as Swiss
    Ephemeris computes them; geocentric unless topocentric/heliocentric.

    Declination (both record shapes) is the position rotated onto the equator with the
    obliquity of the requested date: it comes from the same flags with the equatorial bit and
    WITHOUT the sidereal bit, so a sidereal mode reduces longitude and never declination. With
    ``no_nutation`` the equator is the mean equator of date, with ``j2000`` the J2000 equator.
    ``out_of_bounds`` compares |declination| with the true obliquity of date in every case
    (the Sun's declination extremes).

    Planets and the Moon outside the files' span (1200-01-08 to 3000-01-10) come from the
    Moshier ephemeris and add an ``ephemeris_fallback`` Condition; asteroids there raise
    OutOfRange about the ``moment`` (the engine's other refusals, UnreadableValue about it),
    which the caller names with the moment's parameter. ``topocentric`` without an ``observer``, or with
    ``heliocentric``, is the caller's error (ValueError): the request reader refuses both.
    """
    if flags.topocentric and (observer is None or flags.heliocentric):
        raise ValueError("topocentric positions need an observer and a geocentric view")
    names = list(bodies)

    base = _frame_flags(flags) | (engine.FLG_SPEED if flags.speed else 0)
    equatorial_flags = base | engine.FLG_EQUATORIAL
    ecliptic_flags = base | (engine.FLG_SIDEREAL if flags.sidereal is not None else 0)
    jd_ut1 = moment.jd_ut1
    true_obliquity_deg = engine.obliquity_deg(jd_ut1)[0]
    state = engine_state(flags, observer)

    records: list[EclipticPosition | EquatorialPosition] = []
    fallback_bodies: list[str] = []
    numbers = [body_table.engine_number(name) for name in names]
    speed = flags.speed
    calc_body = engine.calc_body
    name = ""
    try:
        with state:
            for name, number in zip(names, numbers):
                body_table.check_span(name, jd_ut1)
                if flags.equatorial:
                    equ = calc_body(jd_ut1, number, equatorial_flags)
                    if equ.used_fallback:
                        fallback_bodies.append(name)
                    ra, dec, dist, ra_speed, dec_speed = equ.values[:5]
                    records.append(
                        EquatorialPosition(
                            body=name,
                            right_ascension=normalize_deg(ra),
                            declination=dec,
                            distance=dist,
                            ra_speed=ra_speed if speed else None,
                            dec_speed=dec_speed if speed else None,
                            out_of_bounds=abs(dec) > true_obliquity_deg,
                        )
                    )
                    continue
                # Ecliptic first: without a sidereal mode the equatorial call that follows
                # differs only in the coordinate bit and Swiss Ephemeris answers it from cache.
                ecl = calc_body(jd_ut1, number, ecliptic_flags)
                dec = calc_body(jd_ut1, number, equatorial_flags).values[1]
                if ecl.used_fallback:
                    fallback_bodies.append(name)
                lon, lat, distance, lon_speed = ecl.values[:4]
                lon = normalize_deg(lon)
                sign, sign_degree = sign_of(lon)
                records.append(
                    EclipticPosition(
                        body=name,
                        longitude=lon,
                        latitude=lat,
                        distance=distance,
                        speed=lon_speed if speed else None,
                        sign=sign,
                        sign_degree=sign_degree,
                        retrograde=(lon_speed < 0.0) if speed else None,
                        declination=dec,
                        out_of_bounds=abs(dec) > true_obliquity_deg,
                    )
                )
    except engine.EngineError as exc:
        raise engine.engine_error(exc, f"{name or 'the positions'} at {moment.iso_utc()}", "moment") from None

    conditions: list[Condition] = []
    if fallback_bodies:
        conditions.append(
            Condition(
                EPHEMERIS_FALLBACK,
                f"The ephemeris files cover {engine.EPHEMERIS_FILES_SPAN_TEXT}; positions of "
                f"{', '.join(fallback_bodies)} at {moment.iso_utc()} come from the built-in Moshier "
                "ephemeris instead (precision of arcseconds rather than milliarcseconds).",
            )
        )
    return PositionsResult(records, conditions)


def _frame_flags(flags: CalcFlags) -> int:
    """Return the Swiss Ephemeris flags of the frame ``flags`` ask for (no speed, no sidereal bit)."""
    return (
        (engine.FLG_NONUT if flags.no_nutation else 0)
        | (engine.FLG_J2000 if flags.j2000 else 0)
        | (engine.FLG_TOPOCTR if flags.topocentric else 0)
        | (engine.FLG_HELCTR if flags.heliocentric else 0)
    )


def ecliptic_longitude_flags(flags: CalcFlags) -> int:
    """Return the Swiss Ephemeris flags that give the ecliptic longitude (degrees) and its speed
    (degrees/day) of :func:`compute_positions` under ``flags``: the same frame and zodiac; call
    the engine with them inside :func:`engine_state`."""
    return _frame_flags(flags) | engine.FLG_SPEED | (engine.FLG_SIDEREAL if flags.sidereal is not None else 0)


def engine_state(flags: CalcFlags, observer: Observer | None) -> contextlib.AbstractContextManager:
    """Return the engine state ``flags`` need: the sidereal mode and, with ``topocentric``,
    the ``observer``; a context doing nothing when they need neither."""
    if flags.sidereal is None and not flags.topocentric:
        return contextlib.nullcontext()
    return engine.configured(
        sidereal_mode=flags.sidereal.id if flags.sidereal is not None else None,
        observer_lon_lat_alt=(observer.longitude_deg, observer.latitude_deg, observer.altitude_m)
        if flags.topocentric
        else None,
    )


def ayanamsha_value(moment: Moment, ayanamsha: Ayanamsha, *, no_nutation: bool = False) -> float:
    """Return the ayanamsha at ``moment`` in degrees.

    By default the true value (with nutation in longitude), the amount a sidereal longitude of
    :func:`compute_positions` lies below the tropical one; with ``no_nutation`` the mean value.
    """
    return engine.ayanamsha_deg(moment.jd_ut1, ayanamsha.id, no_nutation=no_nutation)


def obliquity_deg(moment: Moment) -> float:
    """Return the true obliquity of the ecliptic of date (mean obliquity + nutation) in degrees."""
    return engine.obliquity_deg(moment.jd_ut1)[0]
