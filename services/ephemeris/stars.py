"""/v1/stars: fixed-star positions from the Swiss Ephemeris star file."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.errors import BodyNotFound
from kernel.stars import find_star, named_stars, star_positions
from kernel.zodiac import sign_key_of
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import flags_from, moment_from


def compute(request: pb.ComputeStarsRequest, deadline: Deadline) -> pb.ComputeStarsResponse:
    """Return the apparent place of date of the star asked for, or of every named star of the
    file with ``star=all``; longitudes sidereal with ``sidereal``."""
    moment = moment_from(request)
    ayanamsha = flags_from(request).sidereal
    star = request.query
    with naming("star", also=(BodyNotFound,)):
        stars = named_stars() if star is None else (find_star(star),)
    deadline.check()
    places = star_positions(stars, moment, ayanamsha)
    signs = [sign_key_of(place.longitude) for place in places]
    data = pb.StarPositions(
        name=[s.name for s in stars],
        nomenclature=[s.nomenclature for s in stars],
        longitude=[p.longitude for p in places],
        latitude=[p.latitude for p in places],
        sign=[sign for sign, _ in signs],
        sign_degree=[degree for _, degree in signs],
        right_ascension=[p.right_ascension for p in places],
        declination=[p.declination for p in places],
        magnitude=[p.magnitude for p in places],
    )
    return pb.ComputeStarsResponse(data=data)
