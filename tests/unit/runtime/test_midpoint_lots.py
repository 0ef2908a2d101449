"""The lots a midpoints request adds (shared/runtime/midpoint_lots.py).

References: ComputeMidpointsRequest.lots (ephemeris_service.proto: keywords, lot ids or
``default``, the seven Hermetic lots; requires lat and lon, missing_parameter); the lots'
formulas (each lot brings the lots it is built on: Eros is built on Spirit, Necessity on
Fortune).
"""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Location
from shared.errors import InvalidParameter, MissingParameter
from shared.runtime.midpoint_lots import midpoint_lots

PLACE = Location(lat=48.85, lon=2.35)
HERMETIC = (
    "part_of_fortune",
    "part_of_spirit",
    "part_of_eros",
    "part_of_necessity",
    "part_of_courage",
    "part_of_victory",
    "part_of_nemesis",
)


def test_no_lots_asked_is_none_and_needs_no_place():
    assert midpoint_lots(pb.ComputeMidpointsRequest()) == ()


def test_a_keyword_names_its_lot():
    assert midpoint_lots(pb.ComputeMidpointsRequest(lots=["fortune"], location=PLACE)) == ("part_of_fortune",)


def test_a_lot_brings_the_lot_it_is_built_on():
    # Eros = Venus - Spirit (by day): Spirit comes first.
    assert midpoint_lots(pb.ComputeMidpointsRequest(lots=["eros"], location=PLACE)) == (
        "part_of_spirit",
        "part_of_eros",
    )


def test_default_is_the_seven_hermetic_lots():
    assert midpoint_lots(pb.ComputeMidpointsRequest(lots=["default"], location=PLACE)) == HERMETIC


def test_lots_without_a_place_are_missing_lat():
    with pytest.raises(MissingParameter) as caught:
        midpoint_lots(pb.ComputeMidpointsRequest(lots=["fortune"]))
    assert caught.value.param == "lat"


def test_an_unknown_lot_is_invalid_naming_lots():
    with pytest.raises(InvalidParameter) as caught:
        midpoint_lots(pb.ComputeMidpointsRequest(lots=["part_of_luck"], location=PLACE))
    assert caught.value.param == "lots"
