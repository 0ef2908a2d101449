"""kernel/dignity_tables.py: the tables of essential dignity checked by their structure, which
each source states independently of any one row: the Thema Mundi's mirror of the domiciles
about Cancer and Leo (Porphyry, Introduction 39; Firmicus Maternus, Mathesis III.1), the Egyptian
terms' sums to the planets' greater years (Vettius Valens, Anthology I.1; Ptolemy, Tetrabiblos
I.21: Saturn 57, Jupiter 79, Mars 66, Venus 82, Mercury 76), the faces' unbroken Chaldean order
from Mars (Lilly, Christian Astrology, 1647, p. 104), Lilly's triplicities (p. 104) and his table
of fortitudes and debilities (p. 115). Row-by-row agreement with Lilly's table is
tests/unit/kernel/test_dignities.py's."""

from __future__ import annotations

from collections import Counter

import pytest

from kernel import dignity_tables as tables
from kernel.bodies import NODE_BODIES

SIGNS = [
    "aries",
    "taurus",
    "gemini",
    "cancer",
    "leo",
    "virgo",
    "libra",
    "scorpio",
    "sagittarius",
    "capricorn",
    "aquarius",
    "pisces",
]
CANCER, LEO = 3, 4
# The five planets by their periods, slowest last: outward from the luminaries' signs.
PLANETS_OUTWARD = ["mercury", "venus", "mars", "jupiter", "saturn"]
GREATER_YEARS = {"saturn": 57, "jupiter": 79, "mars": 66, "venus": 82, "mercury": 76}


def test_the_moon_rules_cancer_the_sun_leo_and_the_planets_the_signs_outward_from_them_in_order_of_period():
    rulers = tables.TRADITIONAL_RULERS
    assert (rulers[CANCER], rulers[LEO]) == ("moon", "sun")
    for step, planet in enumerate(PLANETS_OUTWARD, start=1):
        # Leo + n and Cancer - n: the mirror about the Cancer/Leo axis.
        assert rulers[(LEO + step) % 12] == rulers[(CANCER - step) % 12] == planet, planet


def test_each_planet_rules_two_signs_and_each_luminary_one():
    assert Counter(tables.TRADITIONAL_RULERS) == {"sun": 1, "moon": 1, **{p: 2 for p in PLANETS_OUTWARD}}


def test_the_modern_rulers_differ_from_the_traditional_only_in_scorpio_aquarius_and_pisces():
    changed = {
        SIGNS[i]: modern
        for i, (modern, old) in enumerate(zip(tables.MODERN_RULERS, tables.TRADITIONAL_RULERS))
        if modern != old
    }
    assert changed == {"scorpio": "pluto", "aquarius": "uranus", "pisces": "neptune"}
    assert tables.RULERSHIPS == {"traditional": tables.TRADITIONAL_RULERS, "modern": tables.MODERN_RULERS}


@pytest.mark.parametrize("index", range(12), ids=SIGNS)
def test_each_signs_five_terms_go_to_the_five_planets_once_and_fill_its_thirty_degrees(index):
    terms = tables.EGYPTIAN_TERMS[index]
    assert sorted(ruler for ruler, _ in terms) == sorted(PLANETS_OUTWARD)
    ends = [end for _, end in terms]
    assert ends == sorted(ends) and ends[-1] == 30 and ends[0] > 0


def test_the_egyptian_terms_of_each_planet_add_up_to_its_greater_years():
    degrees = Counter()
    for terms in tables.EGYPTIAN_TERMS:
        start = 0.0
        for ruler, end in terms:
            degrees[ruler] += end - start
            start = end
    assert dict(degrees) == GREATER_YEARS and sum(degrees.values()) == 360


def test_the_thirty_six_faces_follow_the_chaldean_order_unbroken_from_mars_in_the_first_of_aries():
    # The order by hand, slowest to fastest; 36 faces wrap it five times and one face more, so
    # the last face of Pisces is Mars again, as Lilly's table ends (p. 104).
    assert tables.CHALDEAN_ORDER == ("saturn", "jupiter", "mars", "sun", "venus", "mercury", "moon")
    assert tables.FIRST_FACE_RULER == "mars" and tables.FACE_WIDTH_DEG * 36 == 360.0
    first = tables.CHALDEAN_ORDER.index(tables.FIRST_FACE_RULER)
    faces = [tables.CHALDEAN_ORDER[(first + i) % 7] for i in range(36)]
    assert faces[:3] == ["mars", "sun", "venus"] and faces[-3:] == ["saturn", "jupiter", "mars"]


def test_the_triplicities_are_lillys_and_the_elements_run_fire_earth_air_water_from_aries():
    assert tables.TRIPLICITY_BY_ELEMENT == {
        "fire": ("sun", "jupiter"),
        "earth": ("venus", "moon"),
        "air": ("saturn", "mercury"),
        "water": ("mars", "mars"),
    }
    by_element = {
        element: [SIGNS[i] for i, e in enumerate(tables.ELEMENTS) if e == element]
        for element in tables.TRIPLICITY_BY_ELEMENT
    }
    assert by_element == {
        "fire": ["aries", "leo", "sagittarius"],
        "earth": ["taurus", "virgo", "capricorn"],
        "air": ["gemini", "libra", "aquarius"],
        "water": ["cancer", "scorpio", "pisces"],
    }


def test_each_body_is_exalted_in_one_sign_of_its_own_at_a_degree_within_it():
    bodies = [body for body, _, _ in tables.EXALTATIONS]
    signs = [sign for _, sign, _ in tables.EXALTATIONS]
    assert len(set(bodies)) == len(bodies) and len(set(signs)) == len(signs)
    assert all(0.0 <= degree < 30.0 for _, _, degree in tables.EXALTATIONS)
    # The Sun and Saturn, light and dark, are exalted in opposite signs (Aries and Libra).
    exalted = {body: sign for body, sign, _ in tables.EXALTATIONS}
    assert (exalted["saturn"] - exalted["sun"]) % 12 == 6
    assert tables.NORTH_NODE in bodies and set(NODE_BODIES) == {"mean_node", "true_node"}


def test_the_score_weights_are_lillys_table_of_fortitudes_and_debilities():
    assert (
        tables.SCORE_DOMICILE,
        tables.SCORE_EXALTATION,
        tables.SCORE_TRIPLICITY,
        tables.SCORE_TERM,
        tables.SCORE_FACE,
    ) == (5, 4, 3, 2, 1)
    assert (tables.SCORE_DETRIMENT, tables.SCORE_FALL, tables.SCORE_PEREGRINE) == (-5, -4, -5)
