"""The natal points a time-lord request relies on (shared/runtime/time_lord_points.py).

References: timelords_service.proto: ComputeProfectionsRequest (``from`` the ascendant, the
midheaven, a body in bodies or a Hermetic lot; solar=true follows the Sun's returns),
ComputeZodiacalReleasingRequest (max_level; the Sun and the Moon needed for Spirit and
Fortune), ComputeFirdariaRequest (day_chart true, false or auto, the Sun needed to decide);
the caps of kernel/releasing.py (120 years to level 2, 1 year at level 4); the lots' formulas
(Fortune and Spirit from the Sun and the Moon).
"""

from __future__ import annotations

import pytest

from celestial.v1 import timelords_service_pb2 as pb
from celestial.v1.common_pb2 import Location, Moment, NatalTimeline
from kernel.errors import OutOfRange, RangeTooLong
from shared.errors import InvalidParameter
from shared.runtime.time_lord_points import (
    MEAN,
    SOLAR,
    firdaria_input,
    firdaria_sect,
    profection_boundaries,
    profections_input,
    releasing_input,
    starting_point,
)

J2000 = 2451545.0
BEFORE_THE_ASTEROID_FILES = 2100000.0  # 1037 CE


def timeline(birth_jd: float = J2000, **moments) -> NatalTimeline:
    moments.setdefault("at", Moment(jd=birth_jd + 1000))
    return NatalTimeline(moment=Moment(jd=birth_jd), location=Location(lat=45.0, lon=7.0), **moments)


def profections(
    start: str = "ascendant", bodies=("sun", "moon", "mars"), solar: bool = False, **fields
) -> pb.ComputeProfectionsRequest:
    request = pb.ComputeProfectionsRequest(
        timeline=fields.pop("timeline", timeline()), bodies=list(bodies), solar=solar, **fields
    )
    setattr(request, "from", start)
    return request


@pytest.mark.parametrize(
    ("start", "point"),
    [
        (" Ascendant ", "ascendant"),
        ("MIDHEAVEN", "midheaven"),
        ("Mars", "mars"),
        ("part_of_fortune", "part_of_fortune"),
    ],
)
def test_a_starting_point_is_an_angle_a_body_among_bodies_or_a_lot_they_allow(start, point):
    assert starting_point(profections(start)) == point


@pytest.mark.parametrize("start", ["venus", "vertex"])
def test_a_point_the_natal_chart_lacks_is_invalid_naming_from(start):
    with pytest.raises(InvalidParameter) as caught:
        starting_point(profections(start))
    assert caught.value.param == "from"


def test_a_lot_without_the_sun_and_the_moon_among_bodies_is_invalid_naming_from():
    with pytest.raises(InvalidParameter) as caught:
        starting_point(profections("part_of_spirit", bodies=("sun", "mars")))
    assert caught.value.param == "from"
    assert "Sun and the Moon" in str(caught.value)


def test_profection_years_are_mean_years_unless_solar():
    assert profection_boundaries(profections()) == MEAN
    assert profection_boundaries(profections(solar=True)) == SOLAR


def test_solar_profections_without_the_sun_are_invalid_naming_bodies():
    with pytest.raises(InvalidParameter) as caught:
        profection_boundaries(profections(bodies=("moon",), solar=True))
    assert caught.value.param == "bodies"


def test_profections_input_reads_bodies_range_point_and_boundaries():
    found = profections_input(profections("moon", solar=True))
    assert (found.bodies, found.time_query.at_jd, found.starting_point, found.boundaries) == (
        ("sun", "moon", "mars"),
        J2000 + 1000,
        "moon",
        SOLAR,
    )


def test_a_natal_asteroid_without_an_ephemeris_at_birth_is_out_of_range_naming_the_birth():
    with pytest.raises(OutOfRange) as caught:
        profections_input(profections(bodies=("sun", "chiron"), timeline=timeline(BEFORE_THE_ASTEROID_FILES)))
    assert caught.value.param == "jd"


def releasing(max_level: int, years: float) -> pb.ComputeZodiacalReleasingRequest:
    request = pb.ComputeZodiacalReleasingRequest(
        timeline=timeline(at=None, start=Moment(jd=J2000), end=Moment(jd=J2000 + years * 365.2)),
        max_level=max_level,
        bodies=["sun", "moon"],
    )
    setattr(request, "from", "part_of_spirit")
    return request


def test_releasing_to_level_2_covers_a_long_range():
    assert releasing_input(releasing(2, 100)).starting_point == "part_of_spirit"


def test_releasing_to_level_4_covers_at_most_a_year():
    with pytest.raises(RangeTooLong) as caught:
        releasing_input(releasing(4, 2))
    assert caught.value.param == "end_jd"


@pytest.mark.parametrize(("day_chart", "sect"), [("true", True), ("false", False), ("auto", None)])
def test_the_firdaria_sect_is_sent_or_read_from_the_chart(day_chart, sect):
    assert firdaria_sect(pb.ComputeFirdariaRequest(timeline=timeline(), day_chart=day_chart, bodies=["sun"])) is sect


def test_an_automatic_sect_without_the_sun_is_invalid_naming_bodies():
    with pytest.raises(InvalidParameter) as caught:
        firdaria_input(pb.ComputeFirdariaRequest(timeline=timeline(), day_chart="auto", bodies=["moon"]))
    assert caught.value.param == "bodies"


def test_a_sent_sect_needs_no_sun():
    assert (
        firdaria_input(pb.ComputeFirdariaRequest(timeline=timeline(), day_chart="false", bodies=["moon"])).sect is False
    )
