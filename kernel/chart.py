"""The chart: positions placed in houses, with their aspects and parallels, for one moment and place.

One builder for every chart the service casts (natal, and the charts derived from it:
draconic, davison, progressed, returns; synastry casts two; and the placeless charts of the
endpoints that take the place as optional: midpoints, patterns, dignities). It takes typed
kernel values, never a request message, and returns the whole chart as plain values: with the
extras wanted (``kernel/chart_extras.py``: patterns, derived points, midpoint trees, dignities,
dispositors, the sect) cast too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from kernel import engine
from kernel.aspects import (
    DEFAULT_PARALLEL_ORB,
    MAJOR_SEVEN,
    AspectMatch,
    ParallelMatch,
    Point,
    find_aspects,
    find_parallels,
)
from kernel.ayanamshas import Ayanamsha
from kernel.bodies import SUN
from kernel.chart_extras import NO_EXTRAS, ChartExtras, PlacedPoint, known_operands, operand_bodies, with_extras
from kernel.conditions import Condition
from kernel.dignities import Dignity, Dispositors
from kernel.houses import HouseSet, HouseSystem, compute_houses
from kernel.lots import Lot, is_day_chart
from kernel.midpoints import Tree
from kernel.patterns import Pattern
from kernel.positions import CalcFlags, EclipticPosition, Observer, ayanamsha_value, compute_positions
from kernel.timescale import Moment
from kernel.zodiac import SIGN_KEY_OF, normalize_deg

#: House position modes (interface.md, natal chart `house_position_mode`).
ZODIACAL = "zodiacal"
MUNDANE = "mundane"
HOUSE_POSITION_MODES = (ZODIACAL, MUNDANE)

#: Gauquelin's 36 sectors are numbered with the diurnal motion, against the zodiac, so a
#: point's sector is read from its mundane position in every mode (decisions.md: every point,
#: body or not, by the sector it stands in, with the same method).
GAUQUELIN_LETTER = "G"


@dataclass(frozen=True)
class ChartSettings:
    """How to cast a chart: the chart options of a request, read once.

    ``bodies`` are resolved names in chart order; ``flags`` the calculation flags (interface.md:
    chart endpoints take every flag but ``speed``, which a chart always computes; with
    ``equatorial`` each position also carries its right ascension, its longitude staying
    ecliptic); ``aspect_types`` aspect type names; ``orb_deg`` replaces every aspect type's
    default orb when set; ``parallel_orb_deg`` is the declination orb of parallels and
    contraparallels (degrees). ``system`` casts the houses of a chart with a place (None only
    for a chart cast without one, which has no houses: ValueError with a place). Mundane house positions need geocentric
    longitudes of date: with ``j2000`` or ``heliocentric`` they are the caller's error (ValueError); a request reader
    refuses that pair.
    """

    bodies: tuple[str, ...]
    system: HouseSystem | None
    flags: CalcFlags = CalcFlags()
    aspect_types: tuple[str, ...] = MAJOR_SEVEN
    orb_deg: float | None = None
    applying: bool = True
    parallels: bool = True
    parallel_orb_deg: float = DEFAULT_PARALLEL_ORB
    house_position_mode: str = ZODIACAL

    @property
    def sidereal(self) -> Ayanamsha | None:
        """Return the chart's ayanamsha, or None for a tropical chart."""
        return self.flags.sidereal


@dataclass
class ChartPosition:
    """One body of a chart (interface.md, Chart object ``positions[]``).

    ``longitude`` [0, 360) and ``latitude`` in degrees on the ecliptic of date (reduced by the
    ayanamsha in sidereal mode), ``distance_au`` in AU, ``speed`` in degrees/day of longitude
    (negative when retrograde), ``sign`` lowercase, ``sign_degree`` [0, 30), ``house`` 1-12
    (1-36 Gauquelin), ``declination`` in degrees on the equator of date, ``out_of_bounds``
    = |declination| > true obliquity; ``house_position`` in [1, 13) in mundane mode only
    (``house`` is then its floor), else None; ``right_ascension`` in degrees [0, 360) on the
    equator of the chart's flags with ``equatorial`` only, else None.
    """

    body: str
    longitude: float
    latitude: float
    distance_au: float
    speed: float
    retrograde: bool
    sign: str
    sign_degree: float
    house: int | None
    declination: float
    out_of_bounds: bool
    house_position: float | None = None
    right_ascension: float | None = None


@dataclass
class ChartMetadata:
    """How a chart was cast: ``jd_ut1`` (Julian Day UT1) and ``datetime_iso`` (UTC), the place
    (degrees, metres), the house system that produced the cusps (the Porphyrius fallback
    inside the polar circles), the ayanamsha name or None, the bodies computed, and
    ``source``, the typed record of how the chart was derived (decisions.md, Charts). A chart
    cast without a place has no place and no house system (None)."""

    jd_ut1: float
    datetime_iso: str
    latitude: float | None
    longitude: float | None
    altitude: float | None
    house_system: str | None
    sidereal: str | None
    bodies: list[str]
    source: dict


@dataclass(frozen=True)
class HousePlacement:
    """How a chart places a point in its houses, bodies and derived points alike.

    With ``by_position`` (mundane mode, and Gauquelin sectors in every mode) a point's house is
    the floor of its Swiss Ephemeris house position, found from the place (``armc_deg``,
    geographic ``latitude_deg``, true ``obliquity_deg``) and the ``letter`` of the system that
    produced the cusps. Without a place (a composite), Gauquelin cusps (``letter`` G) place a
    point by the sector span of ``cusps_deg`` holding its longitude, as :func:`gauquelin_sector`
    reads them, which is where the house position of a point on the ecliptic falls; any other
    cusps by their zodiacal span. ``tropical_offset_deg`` is what a longitude of the chart needs added to be the
    tropical longitude of date Swiss Ephemeris places (the ayanamsha of a sidereal chart, plus
    the turn of a draconic one); all in degrees.
    """

    cusps_deg: tuple[float, ...]
    by_position: bool = False
    letter: str = ""
    armc_deg: float = 0.0
    latitude_deg: float = 0.0
    obliquity_deg: float = 0.0
    tropical_offset_deg: float = 0.0

    def position(self, longitude_deg: float, latitude_deg: float = 0.0) -> float | None:
        """Return the house position in [1, 13) ([1, 37) for Gauquelin sectors) of the point at
        ``longitude_deg`` (on the chart's zodiac) and ecliptic ``latitude_deg``, or None when
        the chart places points by zodiacal spans."""
        if not self.by_position:
            return None
        tropical = normalize_deg(longitude_deg + self.tropical_offset_deg)
        return engine.house_position(
            self.armc_deg, self.latitude_deg, self.obliquity_deg, self.letter, tropical, latitude_deg
        )

    def house(self, longitude_deg: float, latitude_deg: float = 0.0) -> int:
        """Return the house (1-12; sector 1-36 for Gauquelin) of the point at ``longitude_deg``
        (on the chart's zodiac) and ecliptic ``latitude_deg`` (0 for a derived point)."""
        position = self.position(longitude_deg, latitude_deg)
        if position is not None:
            return int(position)
        if self.letter == GAUQUELIN_LETTER:
            return gauquelin_sector(longitude_deg, list(self.cusps_deg))
        return zodiacal_house(longitude_deg, list(self.cusps_deg))


def house_placement(
    moment: Moment,
    latitude_deg: float,
    houses: HouseSet,
    system: HouseSystem,
    *,
    sidereal: Ayanamsha | None = None,
    mundane: bool = False,
) -> HousePlacement:
    """Return how points are placed in ``houses`` (cast for ``system`` at ``moment`` and geographic
    ``latitude_deg``, sidereal by ``sidereal`` or tropical): by house position in ``mundane`` mode
    and for Gauquelin sectors (by the Porphyrius cusps' positions after a polar fallback), by
    zodiacal spans otherwise."""
    letter = system.letter if houses.system == system.name else "O"  # the polar fallback's cusps: Porphyrius
    by_position = mundane or system.letter == GAUQUELIN_LETTER
    return HousePlacement(
        cusps_deg=tuple(houses.cusps_deg),
        by_position=by_position,
        letter=letter,
        armc_deg=houses.armc_deg,
        latitude_deg=latitude_deg,
        obliquity_deg=engine.obliquity_deg(moment.jd_ut1)[0] if by_position else 0.0,
        tropical_offset_deg=ayanamsha_value(moment, sidereal) if by_position and sidereal is not None else 0.0,
    )


@dataclass
class Chart:
    """A cast chart: ``chart_type`` (natal, davison, progressed, draconic, return), positions
    in chart order, houses (None, as ``placement``, for a chart cast without a place), aspects (pairs in chart order),
    parallels (empty when not asked for), metadata, the engine conditions met (``warnings``), the settings it was cast
    with, how it places a point in its houses (``placement``; derived points use it too), ``turn_deg``, the degrees
    every longitude was turned back by (a draconic chart's node; 0 otherwise), and its extras when asked for
    (:mod:`kernel.chart_extras`): the ``patterns`` of its aspects, its ``derived_points`` (the ``lots`` among them also
    as Lot values, with their formulas), the midpoint ``trees`` of its bodies, each body's ``dignities``, the
    ``dispositors`` of its bodies, and ``notes``, the prose warnings of its extras. ``day_chart`` is its sect (None when
    it has no Sun and nothing needed one, or no place), or the sect its extras were asked to assess by."""

    chart_type: str
    positions: list[ChartPosition]
    houses: HouseSet | None
    aspects: list[AspectMatch]
    parallels: list[ParallelMatch]
    metadata: ChartMetadata
    warnings: list[Condition] = field(default_factory=list)
    settings: ChartSettings | None = None
    placement: HousePlacement | None = None
    turn_deg: float = 0.0
    patterns: list[Pattern] = field(default_factory=list)
    derived_points: list[PlacedPoint] = field(default_factory=list)
    lots: list[Lot] = field(default_factory=list)
    trees: list[Tree] = field(default_factory=list)
    dignities: list[Dignity] = field(default_factory=list)
    dispositors: Dispositors | None = None
    day_chart: bool | None = None
    notes: list[str] = field(default_factory=list)


def zodiacal_house(longitude_deg: float, cusps_deg: list[float]) -> int:
    """Return the house (1-12) whose span, from its cusp forward along the zodiac to the next
    cusp, holds ``longitude_deg``; a point exactly on a cusp is in the house that cusp opens."""
    count = len(cusps_deg)
    for index in range(count):
        start = cusps_deg[index]
        width = (cusps_deg[(index + 1) % count] - start) % 360.0
        if (longitude_deg - start) % 360.0 < width:
            return index + 1
    return count  # only reached when rounding puts the point on a vanishing span's edge


def gauquelin_sector(longitude_deg: float, cusps_deg: list[float]) -> int:
    """Return the Gauquelin sector (1-36) whose span holds ``longitude_deg``: the sectors run
    with the diurnal motion, against the zodiac, so sector k spans from the next sector's cusp
    forward along the zodiac to its own cusp k; a point exactly on cusp k is in sector k, as
    its house position k.0 says."""
    count = len(cusps_deg)
    for index in range(count):
        start = cusps_deg[(index + 1) % count]
        width = (cusps_deg[index] - start) % 360.0
        if 0.0 < (longitude_deg - start) % 360.0 <= width:
            return index + 1
    return 1  # only reached when rounding puts the point on a vanishing span's edge


def cast_chart(
    moment: Moment,
    place: Observer | None,
    settings: ChartSettings,
    *,
    chart_type: str = "natal",
    source: dict | None = None,
    extras: ChartExtras = NO_EXTRAS,
    turn: Callable[[Chart], Chart] | None = None,
) -> Chart:
    """Return the chart of ``settings.bodies`` at ``moment`` and ``place``, with the ``extras``
    wanted; ``turn`` makes another chart of it first (a draconic chart's rotation, whose
    patterns stay those of the chart it turned).

    Positions are apparent, under the settings' flags (topocentric at ``place``), with speeds
    always computed (they decide retrograde and applying); in sidereal mode longitudes, cusps
    and angles are reduced by the ayanamsha, and with ``no_nutation`` the cusps too are of
    the mean equinox. Each body's house is zodiacal (the cusp span holding its longitude) or,
    in mundane mode and for Gauquelin sectors, the floor of its Swiss Ephemeris house position,
    which also uses its ecliptic latitude; ``placement`` places any other point the same way.
    Without a ``place`` (None) the chart has no houses, no angles and no sect of its own: its
    positions and derived points have no house, and only the sect its extras are told assesses
    its dignities (``topocentric`` then is the caller's error, ValueError). The bodies its
    extras need that it lacks (a lot's, the Sun of its sect) are computed with it, and their
    conditions are its warnings too, after its bodies' and before its houses'. Raises the
    kernel's errors for a body the ephemeris cannot place.
    """
    flags = settings.flags
    mundane = settings.house_position_mode == MUNDANE
    if place is None and flags.topocentric:
        raise ValueError("topocentric positions need a place")
    if place is not None and settings.system is None:
        raise ValueError("a chart with a place needs a house system")
    if (
        place is not None
        and (mundane or settings.system.letter == GAUQUELIN_LETTER)
        and (flags.j2000 or flags.heliocentric)
    ):  # type: ignore[union-attr]
        raise ValueError("mundane house positions need geocentric longitudes of date")
    observer = place if flags.topocentric else None
    ecliptic = replace(flags, speed=True, equatorial=False)
    result = compute_positions(moment, list(settings.bodies), ecliptic, observer)
    needed = operand_bodies(extras, settings.bodies, placed=place is not None)
    # One call for all the bodies the extras need, so their conditions make one warning as the
    # chart's own bodies' do.
    operands = compute_positions(moment, list(needed), replace(flags, equatorial=False), observer) if needed else None
    houses: HouseSet | None = None
    placement: HousePlacement | None = None
    if place is not None and settings.system is not None:
        houses = compute_houses(
            moment,
            place.latitude_deg,
            place.longitude_deg,
            settings.system,
            sidereal=flags.sidereal,
            no_nutation=flags.no_nutation,
        )
        placement = house_placement(
            moment, place.latitude_deg, houses, settings.system, sidereal=flags.sidereal, mundane=mundane
        )
    records: list[EclipticPosition] = result.records  # type: ignore[assignment]
    right_ascensions = (
        [
            r.right_ascension
            for r in compute_positions(
                moment, list(settings.bodies), replace(ecliptic, equatorial=True), observer
            ).records
        ]  # type: ignore[union-attr]
        if flags.equatorial
        else [None] * len(records)
    )
    positions = [_placed(record, placement, mundane, ra) for record, ra in zip(records, right_ascensions)]
    points = [Point(p.body, p.longitude, p.speed, p.declination) for p in positions]
    aspects = find_aspects(points, settings.aspect_types, orb_deg=settings.orb_deg, with_applying=settings.applying)
    parallels = find_parallels(points, orb_deg=settings.parallel_orb_deg) if settings.parallels else []
    metadata = ChartMetadata(
        jd_ut1=moment.jd_ut1,
        datetime_iso=moment.iso_utc(),
        latitude=place.latitude_deg if place is not None else None,
        longitude=place.longitude_deg if place is not None else None,
        altitude=place.altitude_m if place is not None else None,
        house_system=houses.system if houses is not None else None,
        sidereal=settings.sidereal.name if settings.sidereal is not None else None,
        bodies=list(settings.bodies),
        source=source if source is not None else {"type": "natal"},
    )
    warnings = [
        *result.conditions,
        *(operands.conditions if operands is not None else []),
        *(houses.warnings if houses is not None else []),
    ]
    cast = Chart(
        chart_type,
        positions,
        houses,
        aspects,
        parallels,
        metadata,
        warnings,
        settings,
        placement,
        day_chart=chart_sect(positions, houses),
    )
    if turn is None and extras == NO_EXTRAS:
        return cast
    chart = turn(cast) if turn is not None else cast
    operand_records: list[EclipticPosition] = operands.records if operands is not None else []  # type: ignore[assignment]
    return with_extras(
        chart, extras, known_operands({r.body: r.longitude for r in operand_records}, chart.turn_deg), patterns_of=cast
    )


def chart_sect(positions: list[ChartPosition], houses: HouseSet | None) -> bool | None:
    """Return whether a chart is a day chart (its Sun on or above the horizon along the
    ecliptic from its Ascendant), or None when the Sun is not among its ``positions`` or it
    has no ``houses`` (no place, so no horizon)."""
    sun = next((p for p in positions if p.body == SUN), None)
    return is_day_chart(sun.longitude, houses.ascendant_deg) if sun is not None and houses is not None else None


def _placed(
    record: EclipticPosition, placement: HousePlacement | None, report_position: bool, right_ascension: float | None
) -> ChartPosition:
    """Return one body's chart position, placed in its house by its longitude and latitude
    (in none without a ``placement``)."""
    house_position = placement.position(record.longitude, record.latitude) if placement is not None else None
    if house_position is not None:
        house: int | None = int(house_position)
    else:
        house = placement.house(record.longitude, record.latitude) if placement is not None else None
    return ChartPosition(
        body=record.body,
        longitude=record.longitude,
        latitude=record.latitude,
        distance_au=record.distance,
        speed=record.speed,  # type: ignore[arg-type]  # speeds are always computed here
        retrograde=bool(record.retrograde),
        sign=SIGN_KEY_OF[record.sign],
        sign_degree=record.sign_degree,
        house=house,
        declination=record.declination,
        out_of_bounds=record.out_of_bounds,
        house_position=house_position if report_position else None,
        right_ascension=right_ascension,
    )
