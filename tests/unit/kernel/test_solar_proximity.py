"""kernel/solar_proximity.py: cazimi, combust, under the beams and free by the thresholds of
decisions.md, /v1/solar-proximity (17', 8° and 17° of longitude from the Sun)."""

from __future__ import annotations

import pytest

from kernel.solar_proximity import solar_proximity, status_at


@pytest.mark.parametrize(
    ("separation_deg", "status"),
    [
        (0.0, "cazimi"),
        (0.28, "cazimi"),
        (17.0 / 60.0, "combust"),
        (7.99, "combust"),
        (8.0, "under_the_beams"),
        (16.99, "under_the_beams"),
        (17.0, "free"),
        (180.0, "free"),
    ],
)
def test_solar_proximity_status_follows_the_thresholds_of_decisions(separation_deg, status):
    assert status_at(separation_deg) == status


def test_solar_proximity_leaves_the_sun_out_and_measures_the_shorter_arc():
    records = solar_proximity(355.0, [("sun", 355.0), ("mercury", 3.0), ("mars", 175.0)])
    assert [(r.body, r.separation, r.status) for r in records] == [
        ("mercury", pytest.approx(8.0), "under_the_beams"),
        ("mars", pytest.approx(180.0), "free"),
    ]


@pytest.mark.parametrize("shift_deg", [24.1, 180.0, 359.9])
def test_the_separation_is_the_same_in_any_zodiac(shift_deg):
    # A sidereal zodiac moves every longitude back by the same ayanamsha; the arc to the Sun stays.
    bodies = [("mercury", 3.0), ("venus", 340.5), ("mars", 175.0)]
    tropical = solar_proximity(355.0, bodies)
    turned = solar_proximity((355.0 - shift_deg) % 360.0, [(name, (lon - shift_deg) % 360.0) for name, lon in bodies])
    assert [(r.separation, r.status) for r in turned] == [(pytest.approx(r.separation), r.status) for r in tropical]


@pytest.mark.parametrize(
    ("sun", "body", "arc"),
    [(0.0, 359.9, 0.1), (359.9, 0.0, 0.1), (10.0, 200.0, 170.0), (200.0, 10.0, 170.0), (90.0, 270.0, 180.0)],
)
def test_the_separation_is_the_shorter_arc_on_either_side_and_across_0_aries(sun, body, arc):
    (record,) = solar_proximity(sun, [("venus", body)])
    assert record.separation == pytest.approx(arc, abs=1e-9)
    assert record.status == ("cazimi" if arc < 17.0 / 60.0 else "free")
