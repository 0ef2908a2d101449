"""kernel/vargas.py: Parashara's sixteen divisional charts (BPHS ch. 6) against the rules as
the text states them, and PyJHora's "traditional Parasara" charts over random births."""

from __future__ import annotations

import pytest

from kernel.errors import UnreadableValue
from kernel.vargas import VARGA_CODES, VARGAS, parse_varga, varga_sign
from tests.unit.kernel.jyotish_births import FACTORS, charts, pyjhora

ARIES, TAURUS, GEMINI, CANCER, LEO, VIRGO, LIBRA, SCORPIO, SAGITTARIUS, CAPRICORN, AQUARIUS, PISCES = range(12)


def sign_in(code: str, sign: int, degree: float) -> int:
    return varga_sign(parse_varga(code), sign * 30 + degree)


def test_the_sixteen_are_parasharas_shodashavarga():
    assert VARGA_CODES == (
        "D1",
        "D2",
        "D3",
        "D4",
        "D7",
        "D9",
        "D10",
        "D12",
        "D16",
        "D20",
        "D24",
        "D27",
        "D30",
        "D40",
        "D45",
        "D60",
    )
    assert [v.parts for v in VARGAS] == [1, 2, 3, 4, 7, 9, 10, 12, 16, 20, 24, 27, 30, 40, 45, 60]


@pytest.mark.parametrize(
    ("code", "sign", "degree", "expected", "rule"),
    [
        ("D2", ARIES, 10, LEO, "sl. 5-6: in an odd sign the first hora is the Sun's"),
        ("D2", TAURUS, 10, CANCER, "in an even sign the first hora is the Moon's"),
        ("D3", ARIES, 15, LEO, "sl. 7-8: the second drekkana is the 5th from the sign"),
        ("D3", ARIES, 25, SAGITTARIUS, "the third is the 9th"),
        ("D4", CANCER, 20, CAPRICORN, "sl. 9: the sign, the 4th, 7th and 10th"),
        ("D7", TAURUS, 1, SCORPIO, "sl. 10: an even sign starts from the 7th"),
        ("D9", ARIES, 1, ARIES, "sl. 11: a movable sign starts from itself"),
        ("D9", TAURUS, 1, CAPRICORN, "a fixed sign from the 9th"),
        ("D9", GEMINI, 1, LIBRA, "a dual sign from the 5th"),
        ("D9", PISCES, 29.9, PISCES, "the last navamsa of the zodiac is Pisces"),
        ("D10", TAURUS, 1, CAPRICORN, "sl. 12: an even sign starts from the 9th"),
        ("D12", LEO, 29, CANCER, "sl. 13: from the sign, the 12th last"),
        ("D16", TAURUS, 1, LEO, "sl. 14: fixed signs from Leo"),
        ("D20", GEMINI, 1, LEO, "sl. 15: dual signs from Leo"),
        ("D20", TAURUS, 1, SAGITTARIUS, "fixed signs from Sagittarius"),
        ("D24", ARIES, 1, LEO, "sl. 16: odd signs from Leo"),
        ("D24", TAURUS, 1, CANCER, "even signs from Cancer"),
        ("D27", TAURUS, 1, CANCER, "sl. 17: earthy signs from Cancer"),
        ("D27", CANCER, 1, CAPRICORN, "watery signs from Capricorn"),
        ("D30", ARIES, 3, ARIES, "sl. 18: odd signs, the first 5° Mars's"),
        ("D30", ARIES, 7, AQUARIUS, "then 5° Saturn's"),
        ("D30", ARIES, 12, SAGITTARIUS, "then 8° Jupiter's"),
        ("D30", ARIES, 20, GEMINI, "then 7° Mercury's"),
        ("D30", ARIES, 27, LIBRA, "then 5° Venus's"),
        ("D30", TAURUS, 3, TAURUS, "sl. 19: even signs, the first 5° Venus's"),
        ("D30", TAURUS, 10, VIRGO, "then 7° Mercury's"),
        ("D30", TAURUS, 15, PISCES, "then 8° Jupiter's"),
        ("D30", TAURUS, 22, CAPRICORN, "then 5° Saturn's"),
        ("D30", TAURUS, 28, SCORPIO, "then 5° Mars's"),
        ("D40", TAURUS, 0.5, LIBRA, "sl. 20: even signs from Libra"),
        ("D45", GEMINI, 0.5, SAGITTARIUS, "sl. 21: dual signs from Sagittarius"),
        ("D60", LEO, 0.6, VIRGO, "sl. 22-23: twice the degrees, counted from the sign"),
    ],
)
def test_each_rule_is_bphs_chapter_6(code, sign, degree, expected, rule):
    assert sign_in(code, sign, degree) == expected, rule


def test_a_code_outside_the_sixteen_is_unreadable():
    with pytest.raises(UnreadableValue):
        parse_varga("D5")
    assert parse_varga(" d9 ").code == "D9"


def test_every_points_sign_in_every_varga_is_pyjhoras_over_300_random_births(processes):
    """PyJHora's traditional Parasara method of each varga, fed our rasi positions (sign and
    degree), so the rule alone is compared: identical."""
    for chart, theirs in zip(charts(), pyjhora()["vargas"]):
        points = sorted(
            chart.points,
            key=lambda p: (
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
            ).index(p.name),
        )
        for factor in FACTORS:
            varga = parse_varga(f"D{factor}")
            assert [varga_sign(varga, p.longitude) for p in points] == theirs[str(factor)], factor
