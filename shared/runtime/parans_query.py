"""Reader of a parans request: the place, the points (bodies and fixed stars), the orb and,
for the latitude view, the pair. Validation runs it in the gateway before any charge (the
reader of ComputeParansRequest, ``shared/runtime/request_readers.py``), reading the star
names without the star file; the astrocartography service calls it to read the request."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from kernel.astrocartography import parse_angle
from kernel.bodies import resolve_bodies
from kernel.errors import BodyNotFound
from kernel.positions import Observer
from kernel.stars import is_star, star_key
from shared.errors import InvalidParameter
from shared.runtime.kernel_errors import BODY_ERRORS, naming
from shared.runtime.wire import listed_bodies, place_from, required_place

GEOJSON = "geojson"
DEFAULT_BODIES = ["planets"]
#: Brady's handful (Brady's Book of Fixed Stars, 1998): the four royal stars and the brightest
#: of the stars she reads most.
DEFAULT_STARS = (
    "Aldebaran",
    "Regulus",
    "Antares",
    "Fomalhaut",
    "Sirius",
    "Spica",
    "Arcturus",
    "Algol",
    "Vega",
    "Betelgeuse",
    "Procyon",
    "Capella",
)
NO_STARS = "none"
#: At a pole the meridian, and so the midheaven and imum coeli, is undefined: refused.
POLE_DEG = 90.0


@dataclass(frozen=True)
class PairSide:
    """One side of a pair: a body (``star`` False) or a star's name as sent, and its angle."""

    point: str
    star: bool
    angle: str


@dataclass(frozen=True)
class ParansQuery:
    """What a parans request computes: the place (None for the latitude view), the bodies,
    the stars (names as sent), the orb (minutes of time) and the pair of the latitude view
    (None for the day's parans)."""

    place: Observer | None
    bodies: tuple[str, ...]
    stars: tuple[str, ...]
    orb_minutes: float
    pair: tuple[PairSide, PairSide] | None


def parans_query(request: Message) -> ParansQuery:
    """Return the request's query. format=json needs the place (lat and lon, or place), not at
    a pole, and refuses pair; format=geojson needs pair (two point:angle items). Unknown stars are
    body_not_found naming stars; unknown points or angles of the pair name pair."""
    geojson = request.format == GEOJSON
    if geojson:
        if len(request.pair) != 2:
            raise InvalidParameter(
                f"format=geojson draws the latitudes of one pair; pair gave {len(request.pair)} item(s).",
                suggestion="Send pair with two point:angle items, e.g. pair=venus:ascendant,regulus:midheaven.",
                param="pair",
            )
        first, second = (_side(item) for item in request.pair)
        return ParansQuery(place_from(request, "location"), (), (), request.orb_minutes, (first, second))
    if request.pair:
        raise InvalidParameter(
            "pair is read only with format=geojson (the latitudes of one pair's paran).",
            suggestion="Add format=geojson, or leave pair out for the day's parans.",
            param="pair",
        )
    place = required_place(request, "location")
    if abs(place.latitude_deg) == POLE_DEG:
        raise InvalidParameter(
            f"lat={place.latitude_deg:g} is a pole: every meridian meets there, so no point culminates or"
            " anti-culminates, and none rises or sets by the turn of the Earth (its altitude is its declination).",
            suggestion="Send a latitude between -90 and 90, the poles excluded (89.9 answers).",
            param="lat",
        )
    bodies = listed_bodies(request, "bodies") if request.bodies else tuple(resolve_bodies(list(DEFAULT_BODIES)))
    return ParansQuery(place, bodies, _stars(list(request.stars)), request.orb_minutes, None)


def _stars(sent: list[str]) -> tuple[str, ...]:
    if not sent:
        return DEFAULT_STARS
    if [s.strip().lower() for s in sent] == [NO_STARS]:
        return ()
    with naming("stars", also=(BodyNotFound,)):
        for name in sent:
            star_key(name)
    return tuple(dict.fromkeys(s.strip() for s in sent))


def _side(item: str) -> PairSide:
    point, colon, angle = item.partition(":")
    if not colon or not point.strip():
        raise InvalidParameter(
            f"Pair item {item!r} is not point:angle.",
            suggestion="Write each item as point:angle, e.g. venus:ascendant or regulus:mc.",
            param="pair",
        )
    with naming("pair"):
        angle_name = parse_angle(angle)
    if is_star(point):
        return PairSide(point.strip(), True, angle_name)
    with naming("pair", also=BODY_ERRORS):
        try:
            bodies = resolve_bodies([point])
        except BodyNotFound as error:
            raise BodyNotFound(
                f"{point.strip()!r} is neither a body nor a star of the star file.",
                suggesting=lambda param: f"Name a body (venus) or a star (Regulus) in {param}.",
            ) from error
    if len(bodies) != 1:
        raise InvalidParameter(
            f"A pair item names one point; {point.strip()!r} names {len(bodies)}.",
            suggestion="Name one body or one star on each side of the pair.",
            param="pair",
        )
    return PairSide(bodies[0], False, angle_name)
