"""/v1/stars: fixed-star positions from the Swiss Ephemeris star file."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from shared.kernel.deadline import Deadline
from shared.kernel.stars import find_star, named_stars, star_position
from shared.kernel.zodiac import sign_of
from shared.runtime.star_selection import star_selection
from shared.runtime.wire import flags_from, moment_from


def compute(request: pb.ComputeStarsRequest, deadline: Deadline) -> pb.ComputeStarsResponse:
    """Return the apparent place of date of the star asked for, or of every named star of the
    file with ``star=all``; longitudes sidereal with ``sidereal``."""
    moment = moment_from(request)
    ayanamsha = flags_from(request).sidereal
    star = star_selection(request)
    stars = named_stars() if star is None else (find_star(star),)
    records = []
    for star in stars:
        deadline.check()
        place = star_position(star, moment, ayanamsha)
        sign, degree = sign_of(place.longitude)
        records.append(
            pb.StarPosition(
                name=star.name, nomenclature=star.nomenclature, longitude=place.longitude, latitude=place.latitude,
                sign=sign, sign_degree=degree, right_ascension=place.right_ascension, declination=place.declination,
                magnitude=place.magnitude,
            )
        )
    return pb.ComputeStarsResponse(data=records)
