"""Reader of a places search (/v1/places): the name, the country and the count. Validation runs
it in the gateway before the request is counted as served (the reader of FindPlacesRequest,
`shared/runtime/request_readers.py`); the ephemeris service calls it to read the request."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from kernel.places import countries, fold_name
from shared.errors import InvalidParameter


@dataclass(frozen=True)
class PlaceQuery:
    """A search: the name as sent, the country's ISO 3166-1 alpha-2 code (upper case) or
    None, and how many towns at most."""

    name: str
    country: str | None
    limit: int


def place_query(request: Message) -> PlaceQuery:
    """Return the search a FindPlacesRequest asks for. InvalidParameter naming q when the name
    holds no letter or digit, naming country when no town of the gazetteer has that code."""
    if not any(character.isalnum() for character in fold_name(request.q)):
        raise InvalidParameter(
            f"q={request.q!r} holds no letter to search for.",
            suggestion="Send a town's name, e.g. q=Paris or q=sao paulo.",
            param="q",
        )
    country = request.country.strip().upper() if request.HasField("country") else None
    if country is not None and country not in countries():
        raise InvalidParameter(
            f"country={request.country!r} is no ISO 3166-1 alpha-2 code of a country with towns in the gazetteer.",
            suggestion="Send the country's ISO 3166-1 alpha-2 code (FR, US, IN), or leave country out.",
            param="country",
        )
    return PlaceQuery(request.q, country, request.limit)
