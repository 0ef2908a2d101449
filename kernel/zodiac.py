"""The twelve tropical/sidereal signs and the split of a longitude into sign and degree."""

from __future__ import annotations

import math

SIGNS: tuple[str, ...] = (
    "Aries",
    "Taurus",
    "Gemini",
    "Cancer",
    "Leo",
    "Virgo",
    "Libra",
    "Scorpio",
    "Sagittarius",
    "Capricorn",
    "Aquarius",
    "Pisces",
)
#: The signs as the API names them, in requests and answers alike (lower case: "aries"), in
#: the order of SIGNS; every lower-case sign name is read from here.
SIGN_KEYS: tuple[str, ...] = tuple(name.lower() for name in SIGNS)
#: Each sign's API name by its display name ("Aries" -> "aries").
SIGN_KEY_OF: dict[str, str] = dict(zip(SIGNS, SIGN_KEYS))
SIGN_WIDTH_DEG = 30.0


def normalize_deg(angle_deg: float) -> float:
    """Return ``angle_deg`` wrapped into [0, 360) degrees (never exactly 360.0)."""
    wrapped = math.fmod(angle_deg, 360.0)
    if wrapped < 0.0:
        wrapped += 360.0
        # A tiny negative angle (-1e-17) rounds to 360.0 when 360 is added.
        if wrapped >= 360.0:
            wrapped = 0.0
    return wrapped


def sign_index(longitude_deg: float) -> int:
    """Return the sign number 0 (Aries) .. 11 (Pisces) of an ecliptic longitude in degrees."""
    return sign_of_index(longitude_deg)[0]


def sign_of_index(longitude_deg: float) -> tuple[int, float]:
    """Return (sign number 0-11, degree within the sign in [0, 30)) of a longitude in degrees."""
    longitude = normalize_deg(longitude_deg)
    # fmod is exact, so the remainder is strictly below 30 and the quotient consistent with it;
    # 359.99999999 stays Pisces 29.99999999, never "30".
    degree = math.fmod(longitude, SIGN_WIDTH_DEG)
    index = int(round((longitude - degree) / SIGN_WIDTH_DEG))
    return index, degree


def sign_key_of(longitude_deg: float) -> tuple[str, float]:
    """Return (lower-case sign name, degree within the sign in [0, 30)) of a longitude in degrees.

    >>> sign_key_of(45.5)
    ('taurus', 15.5)
    """
    index, degree = sign_of_index(longitude_deg)
    return SIGN_KEYS[index], degree


def sign_of(longitude_deg: float) -> tuple[str, float]:
    """Return (capitalized sign name, degree within the sign in [0, 30)) of a longitude in degrees."""
    index, degree = sign_of_index(longitude_deg)
    return SIGNS[index], degree
