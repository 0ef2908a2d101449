"""/v1/places: towns by name, from the gazetteer (kernel/places.py)."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.places import find_towns


def compute(request: pb.FindPlacesRequest, deadline: Deadline) -> pb.FindPlacesResponse:
    """Return the towns named by the request's q, best match first (at most its limit)."""
    query = request.query
    towns = find_towns(query.name, country=query.country, limit=query.limit)
    return pb.FindPlacesResponse(data=pb.PlacesData(places=[pb.PlaceMatch(**town.as_dict()) for town in towns]))
