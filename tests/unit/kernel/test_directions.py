"""Solar-arc directions (kernel/directions.py): one arc, every point moved forward by it."""

from __future__ import annotations

import pytest

from kernel.directions import (
    ANGLE,
    BODY,
    NAIBOD,
    NAIBOD_DEG_PER_YEAR,
    PTOLEMY,
    TRUE_SOLAR_ARC,
    NatalPoint,
    angle_points,
    cusp_points,
    direct,
    solar_arc,
    years_lived,
)
from kernel.timescale import Moment

NATAL = Moment.from_iso("1970-05-10T06:00:00Z")


def test_years_lived_are_the_days_elapsed_over_the_year_days():
    assert years_lived(NATAL, NATAL.plus_days(3652.422)) == pytest.approx(10.0, abs=1e-12)
    assert years_lived(NATAL, NATAL.plus_days(3652.5), 365.25) == pytest.approx(10.0, abs=1e-12)


def test_the_true_solar_arc_is_the_progressed_sun_minus_the_natal_sun_across_aries():
    assert solar_arc(TRUE_SOLAR_ARC, 30.0, 350.0, 20.5) == pytest.approx(30.5)


def test_naibod_moves_0_59_08_33_a_year():
    assert NAIBOD_DEG_PER_YEAR == pytest.approx(0.98564722, abs=1e-8)
    assert solar_arc(NAIBOD, 10.0, 0.0, 0.0) == pytest.approx(9.8564722, abs=1e-7)


def test_ptolemy_moves_one_degree_a_year():
    assert solar_arc(PTOLEMY, 42.5, 100.0, 200.0) == pytest.approx(42.5)


def test_an_unknown_key_is_the_callers_error():
    with pytest.raises(ValueError):
        solar_arc("placidus", 1.0, 0.0, 1.0)


def test_every_point_moves_forward_by_the_arc_mod_360():
    points = [NatalPoint("sun", BODY, 10.0), NatalPoint("moon", BODY, 350.0)]
    assert [(p.name, p.natal_longitude, p.directed_longitude) for p in direct(points, 15.0)] == [
        ("sun", 10.0, 25.0),
        ("moon", 350.0, 5.0),
    ]


def test_the_angles_are_the_ascendant_midheaven_their_opposites_and_the_vertex():
    assert [(p.name, p.kind, p.longitude) for p in angle_points(200.0, 110.0, 20.0)] == [
        ("ascendant", ANGLE, 200.0),
        ("midheaven", ANGLE, 110.0),
        ("descendant", ANGLE, 20.0),
        ("imum_coeli", ANGLE, 290.0),
        ("vertex", ANGLE, 20.0),
    ]


def test_the_cusps_are_named_by_their_house_number():
    assert [p.name for p in cusp_points([0.0] * 12)] == [f"cusp_{n}" for n in range(1, 13)]
