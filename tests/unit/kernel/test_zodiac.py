"""Signs of the zodiac: the split of a longitude into sign and degree, and the 360° wrap."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from kernel.zodiac import SIGN_KEY_OF, SIGN_KEYS, SIGNS, normalize_deg, sign_index, sign_key_of, sign_of

ROOT = Path(__file__).resolve().parents[3]
#: A sign's name made lower case in place (``sign.lower()``, ``SIGNS[i].lower()``, ``record.next_sign.lower()``).
LOWERED_SIGN = re.compile(r"sign\w*(\[[^\]]*\])?\.lower\(\)", re.IGNORECASE)


def test_there_are_twelve_signs_from_aries_to_pisces():
    assert len(SIGNS) == 12
    assert SIGNS[0] == "Aries" and SIGNS[3] == "Cancer" and SIGNS[11] == "Pisces"


def test_the_api_names_each_sign_in_lower_case_in_the_order_of_the_signs():
    assert SIGN_KEYS[0] == "aries" and SIGN_KEYS[11] == "pisces"
    assert [SIGN_KEY_OF[name] for name in SIGNS] == list(SIGN_KEYS) == [name.lower() for name in SIGNS]
    assert sign_key_of(95.25) == ("cancer", 5.25) and sign_key_of(-0.5) == ("pisces", 29.5)


def test_lower_case_sign_names_are_made_in_one_place():
    made = [
        f"{path.relative_to(ROOT)}:{number}"
        for package in ("kernel", "shared", "services", "gateway", "webhooks")
        for path in sorted((ROOT / package).rglob("*.py"))
        if path != ROOT / "kernel" / "zodiac.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if LOWERED_SIGN.search(line)
    ]
    assert made == []


@pytest.mark.parametrize(
    ("longitude_deg", "sign", "degree"),
    [
        (0.0, "Aries", 0.0),
        (29.5, "Aries", 29.5),
        (30.0, "Taurus", 0.0),
        (95.25, "Cancer", 5.25),
        (180.0, "Libra", 0.0),
        (359.0, "Pisces", 29.0),
    ],
)
def test_sign_of_gives_sign_name_and_degree_within_sign(longitude_deg, sign, degree):
    name, within = sign_of(longitude_deg)
    assert name == sign
    assert within == pytest.approx(degree, abs=1e-12)


def test_a_longitude_just_below_360_stays_pisces_below_30_degrees():
    name, within = sign_of(359.99999999)
    assert name == "Pisces"
    assert 29.9999 < within < 30.0


def test_the_float_just_below_each_sign_boundary_stays_in_the_earlier_sign():
    for index in range(12):
        boundary = 30.0 * (index + 1)
        below = math.nextafter(boundary, 0.0)
        name, within = sign_of(below)
        assert name == SIGNS[index]
        assert 0.0 <= within < 30.0


def test_negative_and_large_longitudes_wrap_into_0_360():
    assert sign_of(-30.0) == ("Pisces", 0.0)
    assert sign_of(390.0)[0] == "Taurus"
    assert sign_of(-1e-17) == ("Aries", 0.0)  # -1e-17 + 360 rounds to 360.0; must not become "Aries 30"


def test_normalize_deg_never_returns_360():
    for value in (-1e-17, -1e-300, 360.0, 720.0, -360.0, math.nextafter(360.0, 0.0)):
        wrapped = normalize_deg(value)
        assert 0.0 <= wrapped < 360.0


def test_sign_index_counts_from_aries_as_zero():
    assert sign_index(0.1) == 0
    assert sign_index(359.9) == 11
