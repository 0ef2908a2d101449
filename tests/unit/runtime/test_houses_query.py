"""The readers of requests that cast houses (shared/runtime/houses_query.py): /v1/houses,
/v1/chart and /v1/lots, run through validation as the gateway runs them. References: the
proto's defaults (Placidus) and interface.md's lots (each lot's formula names its bodies)."""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Location, Moment, Place
from kernel.ayanamshas import parse_ayanamsha
from shared.errors import MissingParameter
from shared.runtime.validation import validate

MOMENT = Moment(datetime="2024-03-20T12:00:00Z")
PARIS = Location(lat=48.85, lon=2.35)


def test_houses_need_a_place_naming_lat_without_one():
    with pytest.raises(MissingParameter) as refused:
        validate(pb.ComputeHousesRequest(moment=MOMENT))
    assert refused.value.param == "lat"


def test_houses_default_to_placidus_at_the_place_sent():
    query = validate(pb.ComputeHousesRequest(moment=MOMENT, location=PARIS)).query
    assert (query.system.name, query.system.letter) == ("placidus", "P")
    assert (query.latitude_deg, query.longitude_deg) == (48.85, 2.35)
    assert query.sidereal is None and query.no_nutation is False


def test_a_chart_casts_its_houses_at_its_positions_moment_and_zodiac():
    request = pb.ComputeChartRequest(
        moment=MOMENT, place=Place(lat=-33.87, lon=151.21), sidereal="lahiri", system="whole_sign"
    )
    query = validate(request).query
    assert query.houses.moment is query.positions.moment
    assert query.houses.sidereal == query.positions.flags.sidereal == parse_ayanamsha("lahiri")
    assert (query.houses.latitude_deg, query.houses.longitude_deg, query.houses.system.name) == (
        -33.87,
        151.21,
        "whole_sign",
    )


def test_lots_default_to_all_seven_in_the_tables_order():
    query = validate(pb.ComputeLotsRequest(moment=MOMENT, location=PARIS)).query
    assert query.extras.lots == (
        "part_of_fortune",
        "part_of_spirit",
        "part_of_eros",
        "part_of_necessity",
        "part_of_courage",
        "part_of_victory",
        "part_of_nemesis",
    )


def test_a_lots_chart_casts_the_lots_own_bodies_whatever_bodies_holds():
    query = validate(pb.ComputeLotsRequest(moment=MOMENT, location=PARIS, bodies=["pluto"], lots=["courage"])).query
    # Courage is Fortune (Moon, Sun) to Mars.
    assert set(query.settings.bodies) == {"sun", "moon", "mars"}
    assert query.settings.aspect_types == ()
