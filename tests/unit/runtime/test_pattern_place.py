"""The place a patterns request casts its houses for (shared/runtime/pattern_place.py).

References: FindPatternsRequest (ephemeris_service.proto): ``location`` only for
stellium_scope=house, which needs it whatever the patterns (missing_parameter without it);
``patterns`` among the seven types.
"""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Location
from kernel.positions import Observer
from shared.errors import InvalidParameter, MissingParameter
from shared.runtime.pattern_place import pattern_place


def test_without_lat_and_lon_there_is_no_place():
    assert pattern_place(pb.FindPatternsRequest(patterns=["stellium"], stellium_scope="sign")) is None


def test_the_place_is_lat_and_lon_at_sea_level():
    request = pb.FindPatternsRequest(
        patterns=["t_square"], stellium_scope="sign", location=Location(lat=-33.9, lon=18.4)
    )
    assert pattern_place(request) == Observer(-33.9, 18.4, 0.0)


def test_stelliums_by_house_without_a_place_are_missing_lat():
    with pytest.raises(MissingParameter) as caught:
        pattern_place(pb.FindPatternsRequest(patterns=["grand_trine", "stellium"], stellium_scope="house"))
    assert caught.value.param == "lat"


def test_house_scope_needs_a_place_whichever_patterns_are_asked_for():
    # The document's rule ((field).required_when "stellium_scope=house"), which a schema can
    # say: the place is required by the scope, not by the patterns' list.
    with pytest.raises(MissingParameter) as caught:
        pattern_place(pb.FindPatternsRequest(patterns=["grand_trine"], stellium_scope="house"))
    assert caught.value.param == "lat"


def test_an_unknown_pattern_is_invalid_naming_patterns():
    with pytest.raises(InvalidParameter) as caught:
        pattern_place(pb.FindPatternsRequest(patterns=["hexagram"], stellium_scope="sign"))
    assert caught.value.param == "patterns"
