"""kernel/shadbala.py: the simple parts derived by hand from BPHS ch. 27's tables, and PyJHora
4.8.7's shadbala over the 300 random births of jyotish_births (Lahiri, mean node, the kala
bala on local mean time), part by part, each with its tolerance and every difference named
(docs/vedic.md, "Shadbala").

Hand derivations:
- naisargika: sevenths of a rupa, Sun 7/7 = 60, Moon 6/7 = 51.43, Venus 5/7 = 42.86, Jupiter
  4/7 = 34.29, Mercury 3/7 = 25.71, Mars 2/7 = 17.14, Saturn 1/7 = 8.57 virupas.
- uchcha: the Sun's deep exaltation is 10 Aries, its debilitation 10 Libra (190); a Sun at 100
  is 90 from it: 30 virupas; at 10, 60; at 190, 0; Saturn at 20 Aries (its debilitation) 0.
- dig: the Sun is powerless on the nadir; with the MC at 280 the nadir is 100; a Sun on the MC
  is 180 from it: 60; a Sun at 190 is 90 from it: 30.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from kernel import engine
from kernel.houses import compute_houses
from kernel.natal_points import ANGLES_ONLY_SYSTEM
from kernel.shadbala import (
    GRAHAS,
    NAISARGIKA_VIRUPAS,
    REQUIRED_RUPAS,
    BirthDay,
    birth_day,
    compound_relation,
    dig_bala,
    drishti,
    hora_lord,
    kendradi_bala,
    kranti,
    natures,
    ojhayugma_bala,
    shadbala,
    tribhaga_lord,
    uchcha_bala,
)
from kernel.timescale import Moment
from tests.unit.kernel.jyotish_births import LAHIRI, births, charts, pyjhora_shadbala

#: PyJHora rounds every part to 0.01 virupa.
ROUNDING = 0.011


def test_naisargika_is_sevenths_of_a_rupa_from_the_sun_down_to_saturn():
    assert [
        round(NAISARGIKA_VIRUPAS[g], 2) for g in ("sun", "moon", "venus", "jupiter", "mercury", "mars", "saturn")
    ] == [
        60.0,
        51.43,
        42.86,
        34.29,
        25.71,
        17.14,
        8.57,
    ]


def test_the_required_rupas_are_bphs_5_6_5_7_6_5_5_5_5():
    assert [REQUIRED_RUPAS[g] for g in GRAHAS] == [5, 6, 5, 7, 6.5, 5.5, 5]


def test_uchcha_is_the_arc_from_the_deep_debilitation_over_3():
    assert [uchcha_bala("sun", x) for x in (100.0, 10.0, 190.0, 280.0)] == pytest.approx([30.0, 60.0, 0.0, 30.0])
    assert uchcha_bala("saturn", 20.0) == 0.0


def test_dig_is_the_arc_from_the_powerless_angle_over_3():
    assert dig_bala("sun", 280.0, 0.0, 280.0) == pytest.approx(60.0)
    assert dig_bala("sun", 190.0, 0.0, 280.0) == pytest.approx(30.0)
    assert dig_bala("saturn", 180.0, 0.0, 280.0) == pytest.approx(60.0)  # strong on the descendant


def test_kendradi_counts_whole_signs_from_the_lagna():
    assert [kendradi_bala(lon, 5.0) for lon in (29.0, 35.0, 65.0, 95.0)] == [60.0, 30.0, 15.0, 60.0]


def test_ojhayugma_gives_15_for_each_of_rasi_and_navamsa_of_the_grahas_parity():
    """Aries 0-3°20' is the Aries navamsa: the Sun there is odd twice, the Moon even never;
    Taurus 0-3°20' is the Capricorn navamsa: the Moon even twice."""
    assert (ojhayugma_bala("sun", 1.0), ojhayugma_bala("moon", 1.0), ojhayugma_bala("moon", 31.0)) == (30.0, 0.0, 30.0)


def test_a_grahas_compound_relation_joins_the_natural_and_the_temporary():
    """Jupiter is the Sun's natural friend; in the 2nd sign from it a temporary friend too (great
    friend), in the 7th a temporary enemy (neutral). Saturn is its enemy: in the 7th, great enemy."""
    signs = {"sun": 0, "jupiter": 1, "saturn": 6}
    assert compound_relation("sun", "jupiter", signs) == "great_friend"
    assert compound_relation("sun", "jupiter", {**signs, "jupiter": 6}) == "neutral"
    assert compound_relation("sun", "saturn", signs) == "great_enemy"


def test_drishti_is_bphs_26s_measure_with_the_special_aspects():
    assert [drishti("sun", a) for a in (20.0, 45.0, 75.0, 105.0, 135.0, 165.0, 180.0, 240.0, 310.0)] == [
        0.0,
        7.5,
        30.0,
        37.5,
        15.0,
        30.0,
        60.0,
        30.0,
        0.0,
    ]
    assert (drishti("saturn", 75.0), drishti("mars", 225.0), drishti("jupiter", 255.0)) == (75.0, 52.5, 52.5)


def test_the_moon_is_benefic_waxing_and_mercury_takes_its_companys_nature():
    longitudes = {
        "sun": 0.0,
        "moon": 100.0,
        "mars": 200.0,
        "mercury": 205.0,
        "jupiter": 300.0,
        "venus": 10.0,
        "saturn": 50.0,
    }
    assert natures(longitudes)["moon"] and not natures({**longitudes, "moon": 250.0})["moon"]
    assert not natures(longitudes)["mercury"]  # with Mars alone
    assert natures({**longitudes, "mars": 100.0})["mercury"]  # alone


def test_the_hora_lords_follow_the_day_lord_in_the_chaldean_order():
    """A Sunday (JDN 2451546, 2 January 2000): the 1st hour the Sun's, the 2nd Venus's, the 8th the Sun's again."""
    day = BirthDay(2451545.2, 2451545.75, 2451546.25, 2451546.75, 2451546)
    assert [hora_lord(day.sunrise + (h + 0.5) / 24.0, day) for h in (0, 1, 2, 7)] == ["sun", "venus", "mercury", "sun"]


def test_tribhaga_names_the_third_of_the_day_or_night():
    day = BirthDay(0.0, 0.25, 0.75, 1.25, 0)
    assert [tribhaga_lord(t, day) for t in (0.3, 0.45, 0.7, 0.8, 1.0, 1.2)] == [
        "mercury",
        "sun",
        "saturn",
        "moon",
        "venus",
        "mars",
    ]


@lru_cache(maxsize=1)
def ours() -> list[list]:
    """Return our shadbala of each birth (its GrahaStrength list) and the sayana longitudes."""
    found = []
    for (jd, lat, lon), chart in zip(births(), charts(), strict=True):
        longitudes = {p.name: p.longitude for p in chart.points}
        midheaven = compute_houses(Moment.from_jd_ut1(jd), lat, lon, ANGLES_ONLY_SYSTEM, sidereal=LAHIRI).midheaven_deg
        obliquity = engine.obliquity_deg(jd)[0]
        sayana = {g: longitudes[g] + chart.ayanamsha_deg for g in GRAHAS}
        declinations = {g: kranti(sayana[g], obliquity) for g in GRAHAS}
        strengths = shadbala(longitudes, longitudes["lagna"], midheaven, declinations, jd, birth_day(jd, lat, lon))
        found.append([strengths, sayana])
    return found


def pairs(part: str):
    """Yield (graha index, ours, PyJHora's, our strength, sayana longitudes) of one part, every birth."""
    for (strengths, sayana), theirs in zip(ours(), pyjhora_shadbala(), strict=True):
        for i, s in enumerate(strengths):
            value = {
                **s.sthana,
                **s.kala,
                "sthana": s.sthana_total,
                "dig": s.dig,
                "naisargika": s.naisargika,
                "drik": s.drik,
            }[part]
            yield i, value, theirs[part][i], s, sayana


@pytest.mark.parametrize("part", ["uchcha", "saptavargaja", "sthana", "naisargika"])
def test_the_sthana_bala_and_naisargika_are_pyjhoras_over_300_births(processes, part):
    assert all(abs(o - t) < ROUNDING for _, o, t, _, _ in pairs(part))


def test_dig_is_pyjhoras_where_its_arc_is_under_180_and_folded_where_not(processes):
    """PyJHora takes |angle - longitude| unreduced: over 180 degrees its dig exceeds 60
    (d/3 for d in 180-360), ours the shorter arc's, 120 less it."""
    for _, o, t, _, _ in pairs("dig"):
        assert abs(o - (t if t <= 60.0 else 120.0 - t)) < ROUNDING


def test_paksha_is_pyjhoras_where_its_elongation_is_under_180(processes):
    """PyJHora's |Sun - Moon| is unreduced too: past 180 its benefic paksha exceeds 60 (the
    Moon's 120) and its malefic falls below 0. Where it is within, one graha of 2100 differs:
    Mercury, benefic to us and malefic to PyJHora (its rule of Mercury's company)."""
    compared = [(o, t) for i, o, t, _, _ in pairs("paksha") if 0.0 <= t <= (120.0 if i == 1 else 60.0)]
    differing = [(o, t) for o, t in compared if abs(o - t) >= ROUNDING]
    assert len(compared) > 1000 and len(differing) <= 1


def test_drik_is_pyjhoras_but_in_three_grahas_of_2100(processes):
    """Measured: the Moon and Saturn of the birth whose Mercury PyJHora reads as a malefic
    (the paksha test's), and one Mercury."""
    differing = [(i, o, t) for i, o, t, _, _ in pairs("drik") if abs(o - t) >= ROUNDING]
    assert len(differing) <= 3


def test_ayana_is_pyjhoras_within_1_4_virupas_where_the_sayana_longitude_is_under_360(processes):
    """PyJHora tabulates the kranti from BPHS's 24 degrees (ours the obliquity of date, 23.44):
    (24 - 23.44) * 60 / 48, doubled for the Sun, is 1.4 virupas. It does not reduce sidereal +
    ayanamsha past 360, so there it reads Aries as the south."""
    for i, o, t, _, sayana in pairs("ayana"):
        if sayana[GRAHAS[i]] < 360.0:
            assert abs(o - t) <= 1.41


def test_nathonnatha_is_pyjhoras_within_3_virupas(processes):
    """Measured at most 2.8 virupas (34 minutes of the clock): PyJHora measures from its own
    midnight (the middle of its sunset and sunrise in clock hours)."""
    assert max(abs(o - t) for _, o, t, _, _ in pairs("nathonnatha")) <= 3.0


@pytest.mark.parametrize("part", ["tribhaga", "vara"])
def test_the_third_and_the_weekday_are_pyjhoras_but_near_sunrise_or_sunset(processes, part):
    """Measured: tribhaga differs in 3 births (6 grahas), vara in 1 (2 grahas): two born within
    2 minutes of a sunrise or sunset, where PyJHora's sunrise falls on the other side, one at
    the boundary of the day's second and third thirds."""
    assert sum(abs(o - t) >= ROUNDING for _, o, t, _, _ in pairs(part)) <= 6


def test_each_total_over_the_parts_read_alike_is_within_1_percent_of_pyjhoras(processes):
    """The parts both read alike: sthana, dig, naisargika, drik and, of the kala bala, paksha,
    tribhaga, vara and ayana (nathonnatha has its own bound; abda, masa and hora are other
    readings, chesta and yuddha not computed). Where PyJHora's unreduced arcs apply (dig,
    paksha, ayana past 360) the grahas are left out. Measured: of 1126 compared, all within
    0.56% but 6, the birth cases of the tests above (a sunrise, a third's boundary, Mercury's
    nature)."""
    parts = ("sthana", "dig", "naisargika", "drik", "paksha", "tribhaga", "vara", "ayana")
    over, compared = 0, 0
    for (strengths, sayana), theirs in zip(ours(), pyjhora_shadbala(), strict=True):
        for i, s in enumerate(strengths):
            quirk = theirs["dig"][i] > 60.0 or not 0.0 <= theirs["paksha"][i] <= (120.0 if i == 1 else 60.0)
            if quirk or sayana[s.graha] >= 360.0:
                continue
            mine = {**s.kala, "sthana": s.sthana_total, "dig": s.dig, "naisargika": s.naisargika, "drik": s.drik}
            ours_total, their_total = sum(mine[p] for p in parts), sum(theirs[p][i] for p in parts)
            compared += 1
            over += abs(ours_total - their_total) > 0.01 * their_total
    assert compared > 1000 and over <= 6
