"""The search a places request asks for (shared/runtime/place_query.py).

References: FindPlacesRequest (ephemeris_service.proto: ``q`` a town's name, ``country`` an
ISO 3166-1 alpha-2 code in any case, ``limit`` how many towns); the gazetteer of
data/places (France is FR; ZZ is the code ISO 3166 leaves unassigned).
"""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from shared.errors import InvalidParameter
from shared.runtime.place_query import PlaceQuery, place_query


@pytest.mark.parametrize("q", ["Zürich", "東京", "4 Corners"])
def test_a_name_with_a_letter_or_digit_of_any_script_is_searched(q):
    assert place_query(pb.FindPlacesRequest(q=q, limit=5)).name == q


def test_the_name_is_kept_as_sent_and_the_country_upper_cased():
    assert place_query(pb.FindPlacesRequest(q="saint etienne", country=" fr ", limit=3)) == PlaceQuery(
        "saint etienne", "FR", 3
    )


def test_without_a_country_every_country_is_searched():
    assert place_query(pb.FindPlacesRequest(q="Paris", limit=5)).country is None


@pytest.mark.parametrize("q", ["", "  ", "-- ,", "!?", "***"])
def test_a_name_without_a_letter_or_digit_is_invalid_naming_q(q):
    with pytest.raises(InvalidParameter) as caught:
        place_query(pb.FindPlacesRequest(q=q, limit=5))
    assert caught.value.param == "q"


@pytest.mark.parametrize("country", ["ZZ", "FRA", ""])
def test_a_country_no_town_has_is_invalid_naming_country(country):
    with pytest.raises(InvalidParameter) as caught:
        place_query(pb.FindPlacesRequest(q="Paris", country=country, limit=5))
    assert caught.value.param == "country"
