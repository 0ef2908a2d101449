"""Essential dignities and dispositors (interface.md, Dignity record and Dispositors object).

The expected tables are written out here from William Lilly, Christian Astrology (1647),
"A Table of the Essential Dignities of the Planets according to Ptolomy" (p. 104): its
houses (domiciles), exaltations, faces and Egyptian terms; not read from our module.
"""

from __future__ import annotations

import pytest

from kernel.dignities import assess, dispositors, face_ruler, parse_rulership, term_ruler
from kernel.errors import UnreadableValue

TRADITIONAL = parse_rulership("traditional")
MODERN = parse_rulership("modern")
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

LILLY_DOMICILES = [
    "mars",
    "venus",
    "mercury",
    "moon",
    "sun",
    "mercury",
    "venus",
    "mars",
    "jupiter",
    "saturn",
    "saturn",
    "jupiter",
]
LILLY_FACES = [
    ("mars", "sun", "venus"),
    ("mercury", "moon", "saturn"),
    ("jupiter", "mars", "sun"),
    ("venus", "mercury", "moon"),
    ("saturn", "jupiter", "mars"),
    ("sun", "venus", "mercury"),
    ("moon", "saturn", "jupiter"),
    ("mars", "sun", "venus"),
    ("mercury", "moon", "saturn"),
    ("jupiter", "mars", "sun"),
    ("venus", "mercury", "moon"),
    ("saturn", "jupiter", "mars"),
]
# Egyptian terms: (ruler, first degree of the term) per sign.
LILLY_TERMS = [
    [("jupiter", 0), ("venus", 6), ("mercury", 12), ("mars", 20), ("saturn", 25)],
    [("venus", 0), ("mercury", 8), ("jupiter", 14), ("saturn", 22), ("mars", 27)],
    [("mercury", 0), ("jupiter", 6), ("venus", 12), ("mars", 17), ("saturn", 24)],
    [("mars", 0), ("venus", 7), ("mercury", 13), ("jupiter", 19), ("saturn", 26)],
    [("jupiter", 0), ("venus", 6), ("saturn", 11), ("mercury", 18), ("mars", 24)],
    [("mercury", 0), ("venus", 7), ("jupiter", 17), ("mars", 21), ("saturn", 28)],
    [("saturn", 0), ("mercury", 6), ("jupiter", 14), ("venus", 21), ("mars", 28)],
    [("mars", 0), ("venus", 7), ("mercury", 11), ("jupiter", 19), ("saturn", 24)],
    [("jupiter", 0), ("venus", 12), ("mercury", 17), ("saturn", 21), ("mars", 26)],
    [("mercury", 0), ("jupiter", 7), ("venus", 14), ("saturn", 22), ("mars", 26)],
    [("mercury", 0), ("venus", 7), ("jupiter", 13), ("mars", 20), ("saturn", 25)],
    [("venus", 0), ("jupiter", 12), ("mercury", 16), ("mars", 19), ("saturn", 28)],
]
LILLY_EXALTATIONS = {
    "aries": ("sun", 19),
    "taurus": ("moon", 3),
    "cancer": ("jupiter", 15),
    "virgo": ("mercury", 15),
    "libra": ("saturn", 21),
    "capricorn": ("mars", 28),
    "pisces": ("venus", 27),
}


def at(sign: str, degree: float) -> float:
    return SIGNS.index(sign) * 30 + degree


@pytest.mark.parametrize("index", range(12), ids=SIGNS)
def test_the_domicile_rulers_are_lilly_s(index):
    assert assess("sun", index * 30 + 5, TRADITIONAL, None).domicile_ruler == LILLY_DOMICILES[index]


def test_modern_rulership_gives_scorpio_aquarius_and_pisces_to_pluto_uranus_and_neptune():
    assert [assess("sun", at(s, 1), MODERN, None).domicile_ruler for s in ("scorpio", "aquarius", "pisces")] == [
        "pluto",
        "uranus",
        "neptune",
    ]
    assert [assess("sun", at(s, 1), MODERN, None).domicile_ruler for s in SIGNS[:7]] == LILLY_DOMICILES[:7]


@pytest.mark.parametrize("index", range(12), ids=SIGNS)
def test_the_faces_are_lilly_s_chaldean_decans(index):
    assert tuple(face_ruler(index, degree) for degree in (0.0, 10.0, 29.99)) == LILLY_FACES[index]
    assert face_ruler(index, 9.999) == LILLY_FACES[index][0]


@pytest.mark.parametrize("index", range(12), ids=SIGNS)
def test_the_egyptian_terms_are_lilly_s_with_each_term_from_its_first_degree(index):
    terms = LILLY_TERMS[index]
    for number, (ruler, start) in enumerate(terms):
        assert term_ruler(index, start) == ruler
        if number:
            assert term_ruler(index, start - 1e-9) == terms[number - 1][0]


@pytest.mark.parametrize("sign", SIGNS)
def test_the_exaltations_are_lilly_s_and_the_north_node_s_is_3_gemini(sign):
    record = assess("sun", at(sign, 2), TRADITIONAL, None)
    expected = LILLY_EXALTATIONS.get(sign, ("north_node", 3) if sign == "gemini" else (None, None))
    assert (record.exaltation_ruler, record.exaltation_degree) == expected


def test_the_nodes_are_exalted_in_gemini_and_fall_in_sagittarius():
    assert assess("mean_node", at("gemini", 10), TRADITIONAL, None).in_exaltation
    assert assess("true_node", at("sagittarius", 10), TRADITIONAL, None).in_fall
    assert not assess("true_node", at("sagittarius", 10), TRADITIONAL, None).peregrine


def test_the_score_sums_the_weights_of_every_dignity_and_debility():
    # Mars at 25 Aries: domicile (+5), term of Saturn 25-30 no, face 20-30 Venus no;
    # day chart fire triplicity Sun: no. Total 5.
    mars = assess("mars", at("aries", 25.5), TRADITIONAL, True)
    assert (mars.in_domicile, mars.in_term, mars.in_face, mars.score) == (True, False, False, 5)
    # The Sun at 19 Aries, by day: exaltation +4, triplicity (Sun by day) +3, face 10-20 Sun +1.
    sun = assess("sun", at("aries", 19), TRADITIONAL, True)
    assert (sun.in_exaltation, sun.in_triplicity, sun.in_face, sun.score) == (True, True, True, 8)
    # Venus at 5 Aries: detriment (rules Libra) -5; term of Jupiter, face of Mars. Total -5.
    venus = assess("venus", at("aries", 5), TRADITIONAL, None)
    assert (venus.in_detriment, venus.peregrine, venus.score) == (True, False, -5)
    # Saturn at 10 Aries: fall (exalted in Libra, opposite Aries) -4; no detriment (it rules
    # Capricorn and Aquarius, opposite Cancer and Leo).
    saturn = assess("saturn", at("aries", 10), TRADITIONAL, None)
    assert (saturn.in_fall, saturn.in_detriment, saturn.score) == (True, False, -4)


def test_a_planet_without_dignity_or_debility_is_peregrine_and_scores_minus_5():
    # Jupiter at 10 Taurus: domicile Venus, exaltation Moon, term Mercury 8-14, face Moon 10-20:
    # nothing of Jupiter's, and no detriment (Gemini, Virgo) or fall (Capricorn).
    jupiter = assess("jupiter", at("taurus", 10), TRADITIONAL, None)
    assert (jupiter.peregrine, jupiter.score) == (True, -5)
    assert not assess("jupiter", at("taurus", 15), TRADITIONAL, None).peregrine  # its own term


def test_a_body_that_rules_no_sign_under_the_rulership_is_never_peregrine():
    assert not assess("chiron", at("taurus", 10), TRADITIONAL, None).peregrine
    assert not assess("pluto", at("taurus", 10), TRADITIONAL, None).peregrine
    assert assess("pluto", at("gemini", 10), MODERN, None).peregrine  # Mercury's sign, Jupiter's term, Mars's face
    assert assess("pluto", at("taurus", 10), MODERN, None).in_detriment  # opposite its Scorpio


def test_the_triplicity_is_assessed_only_with_day_chart_and_by_sect():
    assert (
        assess("jupiter", at("leo", 2), TRADITIONAL, None).triplicity_ruler,
        assess("jupiter", at("leo", 2), TRADITIONAL, None).in_triplicity,
    ) == (None, False)
    assert assess("jupiter", at("leo", 2), TRADITIONAL, False).in_triplicity
    assert assess("sun", at("leo", 2), TRADITIONAL, True).triplicity_ruler == "sun"
    assert [assess("sun", at(s, 1), TRADITIONAL, True).triplicity_ruler for s in ("taurus", "gemini", "cancer")] == [
        "venus",
        "saturn",
        "mars",
    ]
    assert [assess("sun", at(s, 1), TRADITIONAL, False).triplicity_ruler for s in ("taurus", "gemini", "cancer")] == [
        "moon",
        "mercury",
        "mars",
    ]


def test_an_unknown_rulership_is_invalid_parameter():
    with pytest.raises(UnreadableValue):
        parse_rulership("hellenistic")


def test_a_chain_ends_at_a_body_in_its_own_sign():
    # Moon in Aries -> Mars in Scorpio (own sign).
    result = dispositors([("moon", at("aries", 3)), ("mars", at("scorpio", 3))], TRADITIONAL)
    moon = result.chains[0]
    assert [(link.body, link.sign, link.dispositor) for link in moon.links] == [
        ("moon", "aries", "mars"),
        ("mars", "scorpio", "mars"),
    ]
    assert moon.end == "final_dispositor" and result.final_dispositors == ["mars"]


def test_a_chain_ends_in_a_cycle_on_the_link_that_repeats_its_first_body():
    # Venus in Aries (Mars), Mars in Taurus (Venus): a mutual reception.
    result = dispositors([("venus", at("aries", 3)), ("mars", at("taurus", 3))], TRADITIONAL)
    venus = result.chains[0]
    assert [(link.body, link.dispositor) for link in venus.links] == [("venus", "mars"), ("mars", "venus")]
    assert venus.end == "cycle"
    assert [(r.body_a, r.sign_a, r.body_b, r.sign_b) for r in result.mutual_receptions] == [
        ("venus", "aries", "mars", "taurus")
    ]
    assert result.final_dispositors == []


def test_a_chain_ends_when_the_ruler_is_not_among_the_bodies():
    result = dispositors([("sun", at("capricorn", 3))], TRADITIONAL)
    assert [(link.body, link.dispositor) for link in result.chains[0].links] == [("sun", "saturn")]
    assert result.chains[0].end == "ruler_absent"


def test_modern_rulership_changes_the_dispositors():
    placements = [("moon", at("scorpio", 3)), ("pluto", at("scorpio", 20)), ("mars", at("aries", 1))]
    assert dispositors(placements, MODERN).chains[0].links[0].dispositor == "pluto"
    assert dispositors(placements, TRADITIONAL).chains[0].links[0].dispositor == "mars"
    assert dispositors(placements, MODERN).final_dispositors == ["pluto", "mars"]
