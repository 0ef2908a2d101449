"""The readers of requests about bodies at one moment (shared/runtime/body_queries.py):
/v1/aspects, /v1/dignities and /v1/solar-proximity, run through validation as the gateway
runs them. References: the proto's defaults and comments (angles do not depend on the
zodiac; dignities are assessed in the zodiac asked for) and interface.md's rulership tables."""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Moment
from kernel.ayanamshas import parse_ayanamsha
from shared.errors import CelestialError
from shared.runtime.validation import validate

MOMENT = Moment(datetime="2024-03-20T12:00:00Z")
SEVEN_PLANETS = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn")


def test_aspects_are_read_tropical_with_speeds_whatever_sidereal_says():
    query = validate(pb.ComputeAspectsRequest(moment=MOMENT, sidereal="lahiri")).query
    assert query.flags.sidereal is None
    assert query.flags.speed is True


def test_aspects_default_to_the_seven_types_and_each_types_own_orb():
    query = validate(pb.ComputeAspectsRequest(moment=MOMENT)).query
    assert query.types == ["conjunction", "opposition", "trine", "square", "sextile", "quincunx", "semi_sextile"]
    assert query.orb_deg is None
    assert (query.applying, query.parallels, query.contraparallel, query.parallel_orb_deg) == (True, True, True, 1.0)


def test_one_orb_sent_holds_for_every_type():
    assert validate(pb.ComputeAspectsRequest(moment=MOMENT, orb=3.5)).query.orb_deg == 3.5


def test_dignities_are_read_in_the_zodiac_asked_for():
    query = validate(pb.ComputeDignitiesRequest(moment=MOMENT, sidereal="lahiri")).query
    assert query.settings.flags.sidereal == parse_ayanamsha("lahiri")


def test_dignities_rulers_follow_the_scheme_named():
    traditional = validate(pb.ComputeDignitiesRequest(moment=MOMENT)).query.extras.rulers
    modern = validate(pb.ComputeDignitiesRequest(moment=MOMENT, rulership="modern")).query.extras.rulers
    # The traditional scheme gives Scorpio (index 7) to Mars; the modern one to Pluto.
    assert (traditional[7], modern[7]) == ("mars", "pluto")


def test_the_sect_of_a_dignities_request_is_none_unless_sent():
    assert validate(pb.ComputeDignitiesRequest(moment=MOMENT)).query.extras.day_chart is None
    assert validate(pb.ComputeDignitiesRequest(moment=MOMENT, day_chart=False)).query.extras.day_chart is False


def test_a_dignities_request_casts_a_chart_without_a_place():
    assert validate(pb.ComputeDignitiesRequest(moment=MOMENT)).query.place is None


def test_solar_proximity_reads_the_bodies_resolved():
    query = validate(pb.ComputeSolarProximityRequest(moment=MOMENT, bodies=["planets"])).query
    assert set(SEVEN_PLANETS) <= set(query.bodies)


def test_an_unknown_ayanamsha_is_refused_even_where_the_zodiac_changes_nothing():
    with pytest.raises(CelestialError) as refused:
        validate(pb.ComputeSolarProximityRequest(moment=MOMENT, sidereal="no_such_ayanamsha"))
    assert refused.value.param == "sidereal"
