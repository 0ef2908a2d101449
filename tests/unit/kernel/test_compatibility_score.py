"""The Discepolo compatibility score (kernel/compatibility_score.py), rule by rule, and against
kerykeion 5.12's own RelationshipScoreFactory on 100 pairs of births.

kerykeion sets Swiss Ephemeris's globals (its bundled files), so it runs in a child process.
Its positions differ from ours by at most 2" (bodies) and 25" (the Ascendant: it reads UTC as
UT1), see tests/preset_agreement.py; only a separation within that of an orb's bound could
score otherwise, and none of the 100 pairs has one: the scores are identical.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kernel.chart import ChartSettings, cast_chart
from kernel.compatibility_score import aspect_between, chart_points, compatibility_score
from kernel.houses import parse_house_system
from kernel.positions import Observer
from kernel.timescale import Moment

ROOT = Path(__file__).resolve().parents[3]
PLANETS = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto")


def test_both_suns_in_signs_of_one_quality_is_the_destiny_sign_worth_5():
    # Aries and Cancer (both cardinal), 105 degrees apart: no aspect, only the quality.
    score = compatibility_score({"sun": 10.0}, {"sun": 115.0})
    assert [(p.rule, p.points, p.aspect) for p in score.parts] == [("destiny_sign", 5, None)]
    assert compatibility_score({"sun": 10.0}, {"sun": 145.0}).parts == ()  # Aries and Leo, 135 apart


@pytest.mark.parametrize(("orb", "points"), [(2.0, 11), (2.001, 8), (10.0, 8)])
def test_a_hard_sun_sun_aspect_is_worth_8_or_11_within_2_degrees(orb, points):
    # A conjunction, the Suns in one sign or in the two signs either side of a cusp.
    score = compatibility_score({"sun": 100.0}, {"sun": 100.0 + orb})
    aspect = [p for p in score.parts if p.rule == "sun_sun_major"]
    assert [p.points for p in aspect] == [points]


def test_the_separation_bounds_are_inclusive_and_other_angles_make_no_aspect():
    assert aspect_between(0.0, 10.0) == ("conjunction", 10.0)
    assert aspect_between(0.0, 10.001) is None
    assert aspect_between(355.0, 5.0) == ("conjunction", 10.0)  # across 0 Aries
    assert aspect_between(0.0, 95.0) == ("square", 5.0)
    assert aspect_between(0.0, 72.0) is None  # the quintile is not a major aspect


def test_each_part_names_its_points_of_a_and_b_and_the_parts_sum_to_the_score():
    a = {"sun": 0.0, "moon": 120.0, "venus": 200.0, "mars": 30.0, "ascendant": 180.0}
    b = {"sun": 1.0, "moon": 300.0, "venus": 91.0, "mars": 260.0, "ascendant": 61.0}
    score = compatibility_score(a, b)
    assert sum(p.points for p in score.parts) == score.score
    rows = {(p.rule, p.body_a, p.body_b, p.aspect) for p in score.parts}
    assert ("sun_sun_major", "sun", "sun", "conjunction") in rows
    assert ("venus_mars", "venus", "mars", "sextile") in rows  # 200 and 260
    assert ("venus_mars", "mars", "venus", "sextile") in rows  # 30 and 91
    assert ("sun_ascendant", "sun", "ascendant", "sextile") in rows  # 0 and 61
    assert ("moon_ascendant", "moon", "ascendant", "sextile") in rows  # 120 and 61
    assert ("sun_ascendant", "ascendant", "sun", "opposition") in rows  # 180 and 1


@pytest.mark.parametrize(
    ("total", "category"), [(0, "minimal"), (5, "medium"), (19, "very_important"), (30, "rare_exceptional")]
)
def test_the_total_falls_in_the_band_below_whose_bound_it_is(total, category):
    # Suns in Aries and Taurus 1.5 degrees apart (11), Venus-Mars trine and sextile (4 each).
    links = ({"sun": 29.5, "venus": 100.0, "mars": 300.0}, {"sun": 31.0, "mars": 221.0, "venus": 240.0})
    cases = {
        0: ({"sun": 45.0}, {"sun": 150.0}),  # Taurus (fixed) and Virgo (mutable), 105 apart
        5: ({"sun": 0.0}, {"sun": 105.0}),  # Aries and Cancer, cardinal both
        19: links,
        30: ({**links[0], "moon": 30.5}, links[1]),  # and A's Moon on B's Sun (11)
    }
    score = compatibility_score(*cases[total])
    assert (score.score, score.category) == (total, category)


def _births(count: int) -> list[dict]:
    """``count`` pairs from a fixed seed: 1900-2050 UTC at whole minutes, latitudes 55 S to 65 N
    (Placidus has cusps there), every longitude."""
    rng = random.Random(53)
    start = datetime(1900, 1, 1, tzinfo=UTC)
    return [
        {
            "iso": (start + timedelta(minutes=rng.randrange(150 * 365 * 1440))).isoformat(),
            "lat": round(rng.uniform(-55, 65), 4),
            "lon": round(rng.uniform(-180, 180), 4),
        }
        for _ in range(2 * count)
    ]


KERYKEION = """
import json, sys
from datetime import datetime
from kerykeion import AstrologicalSubjectFactory
from kerykeion.relationship_score_factory import RelationshipScoreFactory
births = json.load(sys.stdin)
def subject(b):
    w = datetime.fromisoformat(b["iso"])
    return AstrologicalSubjectFactory.from_birth_data(
        "x", w.year, w.month, w.day, w.hour, w.minute, lng=b["lon"], lat=b["lat"], tz_str="Etc/UTC", online=False
    )
names = {"Sun": "sun", "Moon": "moon", "Venus": "venus", "Mars": "mars", "Ascendant": "ascendant"}
out = []
for a, b in zip(births[0::2], births[1::2]):
    s = RelationshipScoreFactory(subject(a), subject(b)).get_relationship_score()
    out.append({"score": s.score_value, "category": s.score_description,
                "parts": sorted([[i.rule, i.points] for i in s.score_breakdown])})
print(json.dumps(out))
"""


def test_the_score_is_kerykeions_on_100_pairs(processes):
    births = _births(100)
    done = subprocess.run(
        [sys.executable, "-c", KERYKEION],
        input=json.dumps(births),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    theirs = json.loads(done.stdout.strip().splitlines()[-1])
    settings = ChartSettings(bodies=PLANETS, system=parse_house_system("placidus"))
    charts = [cast_chart(Moment.from_iso(b["iso"]), Observer(b["lat"], b["lon"]), settings) for b in births]
    ours = [compatibility_score(chart_points(a), chart_points(b)) for a, b in zip(charts[0::2], charts[1::2])]
    assert [(s.score, s.category, sorted([p.rule, p.points] for p in s.parts)) for s in ours] == [
        (t["score"], t["category"].lower().replace(" ", "_"), t["parts"]) for t in theirs
    ]
    assert len({s.score for s in ours}) >= 5  # the sample spans several totals
