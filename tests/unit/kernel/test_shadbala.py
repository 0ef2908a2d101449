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
- chesta: in test_the_chesta_of_j2000_is_the_hand_derived_cheshta_kendra_over_3.
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
    chesta_bala,
    compound_relation,
    dig_bala,
    drishti,
    hora_lord,
    kendradi_bala,
    kranti,
    mean_longitudes,
    natures,
    ojhayugma_bala,
    planetary_wars,
    shadbala,
    tribhaga_lord,
    uchcha_bala,
)
from kernel.timescale import Moment
from tests.unit.kernel.jyotish_births import LAHIRI, births, charts, pyjhora_shadbala
from tests.unit.kernel.skyfield_reference import DE421_TARGETS, de421, timescale

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


#: The seven grahas of one chart, for the rules read off a whole shadbala: the Sun at 280, Mars
#: and Mercury 0.5 degree apart, Jupiter and Saturn 3 apart; a day from 06:00 to 18:00.
CHART = {"sun": 280.0, "moon": 100.0, "mars": 200.0, "mercury": 200.5, "jupiter": 30.0, "venus": 250.0, "saturn": 33.0}
DAY = BirthDay(2451544.75, 2451545.25, 2451545.75, 2451546.25, 2451545)


def chart_strengths(**moved: float) -> dict:
    """Return the shadbala of CHART (with ``moved`` grahas' longitudes) at noon, by graha."""
    longitudes = {**CHART, **moved}
    found = shadbala(
        longitudes, 10.0, 280.0, dict.fromkeys(GRAHAS, 5.0), 2451545.5, DAY, mean_longitudes(2451545.0, 0.0)
    )
    return {s.graha: s for s in found}


def test_the_chesta_of_j2000_is_the_hand_derived_cheshta_kendra_over_3():
    """At J2000.0 (T = 0) the mean longitudes are table 31.A's constants: the Sun 100.466457 +
    180 = 280.466457, Mars 355.433, Mercury 252.250906, Jupiter 34.351519, Venus 181.979801,
    Saturn 50.077444 (ayanamsha 0). The true places, DE421's apparent ones rounded: Mars 327.96,
    Mercury 271.89, Jupiter 25.25, Venus 241.56, Saturn 40.40.

    - Mars: true - mean = -27.473, half -13.7365, the middle 341.6965; its seeghrocha the Sun's
      mean, 280.466457: the arc 61.230043, over 3 20.410014.
    - Mercury: its mean place the Sun's, 280.466457, its seeghrocha its own, 252.250906; true -
      mean = -8.576457, the middle 276.178229; the arc 23.927323, over 3 7.975774.
    - Jupiter: -9.101519, the middle 29.800760; from 280.466457 250.665697, the shorter arc
      109.334303, over 3 36.444768.
    - Venus: mean place 280.466457, seeghrocha 181.979801; -38.906457, the middle 261.013229; the
      arc 79.033428, over 3 26.344476.
    - Saturn: -9.677444, the middle 45.238722; the arc 124.772265, over 3 41.590755.
    """
    mean = mean_longitudes(2451545.0, 0.0)
    true = {"mars": 327.96, "mercury": 271.89, "jupiter": 25.25, "venus": 241.56, "saturn": 40.40}
    derived = {"mars": 20.410014, "mercury": 7.975774, "jupiter": 36.444768, "venus": 26.344476, "saturn": 41.590755}
    assert {g: chesta_bala(g, true[g], mean) for g in true} == pytest.approx(derived, abs=1e-6)


def test_the_ayanamsha_cancels_out_of_the_chesta():
    tropical, sidereal = mean_longitudes(2460000.0, 0.0), mean_longitudes(2460000.0, 24.1)
    for graha, longitude in (("mars", 100.0), ("venus", 5.0), ("saturn", 359.0)):
        assert chesta_bala(graha, longitude - 24.1, sidereal) == pytest.approx(chesta_bala(graha, longitude, tropical))


def test_the_middle_of_the_mean_and_true_places_is_taken_across_0_aries():
    """Mars's mean place at 359 and true at 3: their middle is 1 (not 181, their plain average);
    with the Sun's mean at 181 the kendra is 180, the chesta 60."""
    assert chesta_bala("mars", 3.0, {"mars": 359.0, "sun": 181.0}) == pytest.approx(60.0)


def test_the_mean_longitudes_are_de421s_heliocentric_longitudes_averaged_over_an_orbit():
    """Over one orbit the equation of centre averages to nothing, so DE421's heliocentric
    longitude (the Sun's geocentric) of the ecliptic of date less our mean longitude averages
    to the error of our mean longitude, but for the periodic perturbations one orbit does not
    average out: within 0.05 degree for the Sun, Mercury, Venus and Mars (measured 0.032), and
    for Jupiter and Saturn within their great inequality (amplitudes about 0.33 and 0.81
    degree: 0.35 and 0.85; measured 0.24 and 0.57, in 1920). 0.85 degree is 0.28 virupa at most."""
    from skyfield.framelib import ecliptic_frame

    eph, ts = de421(), timescale()
    periods = {
        "sun": 365.256,
        "mercury": 87.969,
        "venus": 224.701,
        "mars": 686.980,
        "jupiter": 4332.59,
        "saturn": 10759.22,
    }
    tolerance = {"jupiter": 0.35, "saturn": 0.85}
    for middle in (2421000.0, 2451545.0, 2463000.0):
        for body, period in periods.items():
            times = [middle - period / 2 + period * k / 360 for k in range(360)]
            target, centre = eph[DE421_TARGETS[body]], eph["earth barycenter" if body == "sun" else "sun"]
            longitudes = (target - centre).at(ts.tt_jd(times)).frame_latlon(ecliptic_frame)[1].degrees
            errors = [(x - mean_longitudes(t, 0.0)[body] + 180.0) % 360.0 - 180.0 for x, t in zip(longitudes, times)]
            assert abs(sum(errors) / len(errors)) <= tolerance.get(body, 0.05), (body, middle)


def test_the_suns_chesta_is_its_ayana_bala_and_the_moons_its_paksha_bala():
    found = chart_strengths()
    assert (found["sun"].chesta, found["moon"].chesta) == (found["sun"].kala["ayana"], found["moon"].kala["paksha"])


def test_the_chesta_and_the_yuddha_are_in_the_totals():
    for s in chart_strengths().values():
        assert s.total == pytest.approx(s.sthana_total + s.dig + s.kala_total + s.chesta + s.naisargika + s.drik)
        assert s.kala_total == pytest.approx(sum(s.kala.values()))


def test_grahas_within_1_degree_are_at_war_and_the_stronger_gains_the_difference_over_the_discs():
    """Mars and Mercury 0.5 apart are at war; Jupiter and Saturn 3 apart are not. The victor is
    the one of the greater sthana + dig + kala up to hora; it gains, and the other loses, the
    difference over 9.4 - 6.6 = 2.8 seconds of arc."""
    found = chart_strengths()
    [war] = found["mars"].wars
    assert found["mercury"].wars == (war,) and not found["jupiter"].wars and not found["saturn"].wars
    parts = ("nathonnatha", "paksha", "tribhaga", "abda", "masa", "vara", "hora")
    sums = {g: found[g].sthana_total + found[g].dig + sum(found[g].kala[p] for p in parts) for g in ("mars", "mercury")}
    assert war.winner == max(sums, key=sums.get) and war.separation_deg == pytest.approx(0.5)
    assert war.virupas == pytest.approx(abs(sums["mars"] - sums["mercury"]) / 2.8)
    assert found[war.winner].kala["yuddha"] == war.virupas and found[war.loser].kala["yuddha"] == -war.virupas


def test_the_sun_and_the_moon_never_war_and_the_orb_is_1_degree():
    assert not chart_strengths(moon=200.2)["moon"].wars
    assert planetary_wars({**CHART, "mercury": 201.0}, dict.fromkeys(GRAHAS, 1.0))
    assert not planetary_wars({**CHART, "mercury": 201.01}, dict.fromkeys(GRAHAS, 1.0))


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
        mean = mean_longitudes(Moment.from_jd_ut1(jd).jd_tt, chart.ayanamsha_deg)
        day = birth_day(jd, lat, lon)
        strengths = shadbala(longitudes, longitudes["lagna"], midheaven, declinations, jd, day, mean)
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


def test_the_chesta_is_pyjhoras_from_its_mean_and_true_places(processes):
    """Our cheshta kendra given PyJHora's own mean places (its epoch tables) and true places is
    its chesta bala, to its rounding, where its plain average of the two does not cross 0 Aries
    (measured: 1,442 of the 1,500 grahas); its arc is not reduced past 180 (333 of its values
    exceed 60), so its value is folded, 120 less it."""
    compared = 0
    for theirs in pyjhora_shadbala():
        mean = dict(zip(GRAHAS, theirs["mean"], strict=True))
        for i, graha in enumerate(GRAHAS[2:], 2):
            mean_place = mean["sun"] if graha in ("mercury", "venus") else mean[graha]
            if abs(theirs["true"][i] - mean_place) >= 180.0:
                continue
            value = theirs["chesta"][i]
            assert (
                abs(chesta_bala(graha, theirs["true"][i], mean) - (value if value <= 60.0 else 120.0 - value))
                < ROUNDING
            )
            compared += 1
    assert compared > 1400


def test_the_chesta_differs_from_pyjhoras_by_its_mean_places_alone(processes):
    """Its epoch tables (B. V. Raman's 1900 epoch, with its yearly corrections) put the mean
    places off ours, which DE421 confirms above within 0.85 degree: Mercury's 12.4 to 13.8
    degrees ahead, Venus's 2.7 to 3.7, Jupiter's 0.4 to 1.2, Mars's 1.2 to 6.7 behind,
    Saturn's 2.3 to 3.4, the Sun's up to 0.6 (measured over the 300 births). Our chesta then
    differs from its (folded, where its average does not cross 0 Aries) by no more than a
    third of the seeghrocha's offset and half the mean place's: measured at most 0.96 virupa
    for Mars, 4.60 Mercury, 0.26 Jupiter, 1.29 Venus, 0.38 Saturn."""
    ranges = {
        "sun": (-0.6, 0.0),
        "mars": (-6.7, -1.2),
        "mercury": (12.4, 13.8),
        "jupiter": (0.4, 1.2),
        "venus": (2.7, 3.7),
        "saturn": (-3.4, -2.3),
    }
    for (jd, _, _), chart, theirs in zip(births(), charts(), pyjhora_shadbala(), strict=True):
        mean = mean_longitudes(Moment.from_jd_ut1(jd).jd_tt, chart.ayanamsha_deg)
        their_mean = dict(zip(GRAHAS, theirs["mean"], strict=True))
        offset = {g: (their_mean[g] - mean[g] + 180.0) % 360.0 - 180.0 for g in ranges}
        for graha, (low, high) in ranges.items():
            assert low <= offset[graha] <= high, graha
        longitudes = {p.name: p.longitude for p in chart.points}
        for i, graha in enumerate(GRAHAS[2:], 2):
            place, seeghrocha = ("sun", graha) if graha in ("mercury", "venus") else (graha, "sun")
            if abs(theirs["true"][i] - their_mean[place]) >= 180.0:
                continue
            value = theirs["chesta"][i]
            bound = (abs(offset[seeghrocha]) + abs(offset[place]) / 2.0) / 3.0 + ROUNDING
            assert (
                abs(chesta_bala(graha, longitudes[graha], mean) - (value if value <= 60.0 else 120.0 - value)) <= bound
            )


def test_the_yuddha_is_pyjhoras_pair_and_gain_with_its_victor_at_the_lower_longitude(processes):
    """Measured: our 28 wars (within 1 degree) in 27 of the 300 births. PyJHora names a war in
    every birth, between the two grahas closest in longitude however far apart, none when the
    Sun or the Moon is one of them: of ours, it names the same pair in 25, none in 2 (the Sun or
    the Moon closer), the other pair in the birth with two wars. Given its own sums (sthana,
    dig, nathonnatha, paksha, tribhaga and hora: without abda, masa and vara) our gain is its,
    and it gives the gain to the graha at the lower longitude, not to the stronger: so its
    victor is ours in 9 of the 25 wars, where the stronger is the one behind."""
    wars = same = agree = 0
    for (strengths, _), theirs in zip(ours(), pyjhora_shadbala(), strict=True):
        for war in {w for s in strengths for w in s.wars}:
            wars += 1
            war_pair = (war.winner, war.loser)
            pair = (GRAHAS.index(war.winner), GRAHAS.index(war.loser))
            if not all(theirs["yuddha"][i] for i in pair):
                continue
            same += 1
            parts = ("sthana", "dig", "nathonnatha", "paksha", "tribhaga", "hora")
            sums = {g: sum(theirs[p][i] for p in parts) for i, g in enumerate(GRAHAS)}
            their_places = {g: theirs["true"][i] for i, g in enumerate(GRAHAS)}
            [their_war] = [w for w in planetary_wars(their_places, sums) if {w.winner, w.loser} == set(war_pair)]
            behind = min(pair, key=lambda i: theirs["true"][i])
            assert abs(theirs["yuddha"][behind] - their_war.virupas) < ROUNDING
            agree += theirs["yuddha"][GRAHAS.index(war.winner)] > 0
    assert (wars, same, agree) == (28, 25, 9)
