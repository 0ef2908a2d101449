"""kernel/releasing.py: zodiacal releasing against the periods Vettius Valens gives (Anthology
IV.4; interface.md, /v1/zodiacal-releasing): the minor years of the sign rulers, 360-day
years, each level a twelfth of the one above, the loosing of the bond, the angles from Fortune."""

from __future__ import annotations

import pytest

from kernel.releasing import CIRCUIT_UNITS, UNIT_DAYS, YEARS_PER_SIGN, place_from, releasing
from kernel.time_lord_periods import TimeQuery, flatten
from kernel.zodiac import SIGN_KEYS
from tests.unit.kernel.time_lord_births import (
    AQUARIUS,
    ARIES,
    BIRTH,
    CANCER,
    CAPRICORN,
    GEMINI,
    LEO,
    LIBRA,
    NEVER,
    PISCES,
    SAGITTARIUS,
    SCORPIO,
    TAURUS,
    VIRGO,
    at,
    everything,
)

YEARS = {
    ARIES: 15,
    TAURUS: 8,
    GEMINI: 20,
    CANCER: 25,
    LEO: 19,
    VIRGO: 20,
    LIBRA: 8,
    SCORPIO: 15,
    SAGITTARIUS: 12,
    CAPRICORN: 27,
    AQUARIUS: 30,
    PISCES: 12,
}


def test_chapters_walk_the_signs_from_the_lot_each_its_years_of_360_days_around_the_zodiac():
    chapters = [p for p in releasing(LEO, None, BIRTH, 1, everything(300), NEVER)]
    assert [p.members["sign"] for p in chapters[:13]] == [SIGN_KEYS[(LEO + i) % 12] for i in range(13)]
    elapsed = 0
    for chapter in chapters[:13]:
        sign = SIGN_KEYS.index(chapter.members["sign"])
        assert chapter.start_jd == pytest.approx(BIRTH + elapsed * 360.0)
        elapsed += YEARS[sign]
        assert chapter.end_jd == pytest.approx(BIRTH + elapsed * 360.0)
    assert not any(p.members["loosing_of_bond"] for p in chapters)


def test_a_leo_chapter_of_19_years_looses_the_bond_at_month_211_into_aquarius():
    # Leo lasts 19 years = 228 months. Its months run Leo (19), Virgo (20), Libra (8), Scorpio
    # (15), Sagittarius (12), Capricorn (27), Aquarius (30), Pisces (12), Aries (15), Taurus (8),
    # Gemini (20), Cancer (25): 211 months, one circuit. Month 211 begins the loosing of the
    # bond at the sign opposite Leo, Aquarius, which runs 30 months but is cut to the chapter's
    # end after 228 - 211 = 17.
    months = [
        p
        for p in releasing(LEO, None, BIRTH, 2, everything(20), NEVER)
        if p.level == 2 and p.start_jd < BIRTH + 19 * 360.0
    ]
    signs = [p.members["sign"] for p in months]
    assert signs == [
        "leo",
        "virgo",
        "libra",
        "scorpio",
        "sagittarius",
        "capricorn",
        "aquarius",
        "pisces",
        "aries",
        "taurus",
        "gemini",
        "cancer",
        "aquarius",
    ]
    loosing = months[12]
    assert loosing.members["loosing_of_bond"] is True and sum(p.members["loosing_of_bond"] for p in months) == 1
    assert loosing.start_jd == pytest.approx(BIRTH + 211 * 30.0)
    assert loosing.end_jd == pytest.approx(BIRTH + 19 * 360.0)  # cut to the parent's end: 17 months, not 30


def test_a_chapter_shorter_than_18_years_never_looses_the_bond_and_its_last_month_is_cut():
    months = [
        p
        for p in releasing(SCORPIO, None, BIRTH, 2, everything(16), NEVER)
        if p.level == 2 and p.start_jd < BIRTH + 15 * 360.0
    ]
    # Scorpio 15 years = 180 months: Scorpio 15, Sagittarius 12, Capricorn 27, Aquarius 30,
    # Pisces 12, Aries 15, Taurus 8, Gemini 20, Cancer 25 (164), Leo cut from 19 to 16.
    assert [p.members["sign"] for p in months] == [
        "scorpio",
        "sagittarius",
        "capricorn",
        "aquarius",
        "pisces",
        "aries",
        "taurus",
        "gemini",
        "cancer",
        "leo",
    ]
    assert months[-1].end_jd - months[-1].start_jd == pytest.approx(16 * 30.0)
    assert not any(p.members["loosing_of_bond"] for p in months)


def test_levels_3_and_4_divide_by_twelve_again():
    found = flatten(releasing(ARIES, None, BIRTH, 4, at(0.1), NEVER), at(0.1))
    assert [p.level for p in found] == [1, 2, 3, 4]
    assert [p.end_jd - p.start_jd for p in found] == pytest.approx([15 * 360.0, 15 * 30.0, 15 * 2.5, 15 * 5 / 24])
    assert UNIT_DAYS == pytest.approx(5 / 24)


def test_angular_signs_from_fortune_carry_their_place_counted_inclusively():
    chapters = [p for p in releasing(ARIES, CANCER, BIRTH, 1, everything(200), NEVER)][:12]
    places = {p.members["sign"]: p.members.get("angle_from_fortune") for p in chapters}
    assert places == {
        "cancer": 1,
        "libra": 4,
        "capricorn": 7,
        "aries": 10,
        **{s: None for s in SIGN_KEYS if s not in ("cancer", "libra", "capricorn", "aries")},
    }
    assert all("angle_from_fortune" not in p.members for p in releasing(ARIES, None, BIRTH, 1, everything(50), NEVER))


def test_the_minor_years_of_the_twelve_signs_are_valens_s_and_make_a_circuit_of_211():
    assert list(YEARS_PER_SIGN) == [YEARS[s] for s in range(12)]
    assert CIRCUIT_UNITS == 211 == sum(YEARS.values())


@pytest.mark.parametrize(
    ("sign", "fortune", "place"),
    [
        (CANCER, CANCER, 1),
        (LIBRA, CANCER, 4),
        (CAPRICORN, CANCER, 7),
        (ARIES, CANCER, 10),
        (LEO, CANCER, None),
        (PISCES, ARIES, None),
        (ARIES, PISCES, None),
        (SAGITTARIUS, PISCES, 10),
        (ARIES, None, None),
    ],
)
def test_the_place_from_fortune_is_counted_inclusively_and_given_only_when_angular(sign, fortune, place):
    assert place_from(sign, fortune) == place


def test_a_level_3_period_looses_the_bond_inside_a_long_level_2_period_too():
    # Capricorn at level 2 lasts 27 months = 27 * 12 level-3 units of 2.5 days = 324 units; after
    # one circuit (211 units) level 3 jumps to Cancer, opposite Capricorn, at 211 * 2.5 days.
    capricorn = next(p for p in releasing(CAPRICORN, None, BIRTH, 2, everything(1), NEVER) if p.level == 2)
    children = [
        p
        for p in releasing(
            CAPRICORN, None, BIRTH, 3, TimeQuery(start_jd=capricorn.start_jd, end_jd=capricorn.end_jd), NEVER
        )
        if p.level == 3
    ]
    loosing = [p for p in children if p.members["loosing_of_bond"]]
    assert len(loosing) == 1 and loosing[0].members["sign"] == "cancer"
    assert loosing[0].start_jd == pytest.approx(capricorn.start_jd + 211 * 2.5)
