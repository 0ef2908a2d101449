"""kernel/vedic_chart.py: the sidereal chart's points, houses, nodes, combustion and vargas."""

from __future__ import annotations

import pytest

from kernel.ayanamshas import parse_ayanamsha
from kernel.houses import compute_houses, parse_house_system
from kernel.positions import CalcFlags, Observer, compute_positions
from kernel.timescale import Moment
from kernel.vargas import parse_varga
from kernel.vedic_chart import COMBUSTION_ORBS, cast_vedic_chart, is_combust

LAHIRI = parse_ayanamsha("lahiri")
BIRTH = Moment.from_iso("1990-06-15T14:30:00Z")
LONDON = Observer(51.5, -0.13)


def points(chart) -> dict:
    return {p.name: p for p in chart.points}


def test_the_chart_holds_sun_to_saturn_rahu_ketu_then_the_lagna_and_uranus_to_pluto_when_asked():
    assert [p.name for p in cast_vedic_chart(BIRTH, LONDON, LAHIRI).points] == [
        "sun",
        "moon",
        "mars",
        "mercury",
        "jupiter",
        "venus",
        "saturn",
        "rahu",
        "ketu",
        "lagna",
    ]
    assert [p.name for p in cast_vedic_chart(BIRTH, LONDON, LAHIRI, outer=True).points][-4:] == [
        "uranus",
        "neptune",
        "pluto",
        "lagna",
    ]


def test_longitudes_are_the_tropical_ones_less_the_ayanamsha():
    chart = cast_vedic_chart(BIRTH, LONDON, LAHIRI)
    tropical = compute_positions(BIRTH, ["sun"], CalcFlags()).records[0].longitude
    assert points(chart)["sun"].longitude == pytest.approx((tropical - chart.ayanamsha_deg) % 360, abs=1e-6)
    assert 23.6 < chart.ayanamsha_deg < 23.8  # Lahiri in 1990


def test_rahu_is_the_mean_or_true_node_and_ketu_stands_opposite():
    for node, body in (("mean", "mean_node"), ("true", "true_node")):
        chart = points(cast_vedic_chart(BIRTH, LONDON, LAHIRI, node=node))
        expected = compute_positions(BIRTH, [body], CalcFlags(sidereal=LAHIRI)).records[0].longitude
        assert chart["rahu"].longitude == pytest.approx(expected)
        assert chart["ketu"].longitude == pytest.approx((expected + 180) % 360)
    assert points(cast_vedic_chart(BIRTH, LONDON, LAHIRI))["rahu"].retrograde  # the mean node always is


def test_whole_sign_houses_count_signs_from_the_lagnas():
    chart = points(cast_vedic_chart(BIRTH, LONDON, LAHIRI))
    lagna_sign = int(chart["lagna"].longitude // 30)
    assert chart["lagna"].house == 1
    for point in chart.values():
        assert point.house == (int(point.longitude // 30) - lagna_sign) % 12 + 1


def test_bhava_houses_are_the_spans_between_the_systems_cusps():
    sripati = parse_house_system("sripati")
    bhava = cast_vedic_chart(BIRTH, LONDON, LAHIRI, house_mode="bhava", system=sripati)
    cusps = compute_houses(BIRTH, LONDON.latitude_deg, LONDON.longitude_deg, sripati, sidereal=LAHIRI).cusps_deg
    assert bhava.house_system == "sripati"
    for point in bhava.points:
        start, end = cusps[point.house - 1], cusps[point.house % 12]
        assert (point.longitude - start) % 360 < (end - start) % 360, point.name


def test_combustion_is_within_each_planets_orb_the_tighter_one_when_retrograde():
    assert dict((p, o) for p, o, _ in COMBUSTION_ORBS) == {
        "moon": 12,
        "mars": 17,
        "mercury": 14,
        "jupiter": 11,
        "venus": 10,
        "saturn": 15,
    }
    assert is_combust("mercury", 113.0, 100.0, retrograde=False) and not is_combust(
        "mercury", 113.0, 100.0, retrograde=True
    )
    assert is_combust("venus", 355.0, 3.0, retrograde=False)  # across 0°
    assert (
        is_combust("sun", 100.0, 100.0, retrograde=False) is None
        and is_combust("rahu", 100.0, 100.0, retrograde=True) is None
    )


def test_each_varga_asked_gives_every_points_sign():
    chart = cast_vedic_chart(BIRTH, LONDON, LAHIRI, vargas=(parse_varga("D9"), parse_varga("D60")))
    assert set(chart.vargas) == {"D9", "D60"}
    assert set(chart.vargas["D9"]) == {p.name for p in chart.points}
    assert chart.vargas["D9"]["sun"] == "libra"  # 0°30' Gemini: a dual sign's first navamsa is the 5th from it
