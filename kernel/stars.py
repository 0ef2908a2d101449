"""Fixed stars of the Swiss Ephemeris star file: finding one by name and placing it at a moment."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from kernel import engine
from kernel.ayanamshas import Ayanamsha
from kernel.engine import FixedStar
from kernel.errors import BodyNotFound
from kernel.star_names import STAR_NAMES
from kernel.timescale import Moment
from kernel.zodiac import normalize_deg

ALL = "all"


@dataclass(frozen=True)
class StarPosition:
    """A star's apparent place of date: ecliptic ``longitude`` and ``latitude`` (sidereal
    longitude when an ayanamsha was given), equatorial ``right_ascension`` and
    ``declination``, all degrees, and its visual ``magnitude``."""

    star: FixedStar
    longitude: float
    latitude: float
    right_ascension: float
    declination: float
    magnitude: float


@lru_cache(maxsize=1)
def _index() -> tuple[tuple[FixedStar, ...], dict[str, FixedStar]]:
    """Return the named stars and every lookup key (lowercase name or nomenclature) with its
    star: the first line of the file that carries the key, a name winning over a
    nomenclature spelled the same."""
    catalogue = engine.fixed_star_catalogue()
    by_nomenclature: dict[str, FixedStar] = {}
    by_name: dict[str, FixedStar] = {}
    for star in catalogue:
        by_nomenclature.setdefault(star.nomenclature.lower(), star)
        if star.name:
            by_name.setdefault(star.name.lower(), star)
    return tuple(s for s in catalogue if s.name), {**by_nomenclature, **by_name}


def named_stars() -> tuple[FixedStar, ...]:
    """Return every star of the file that has a traditional name, in file order (an
    alternative name of a star is a record of its own, as the file lists it)."""
    return _index()[0]


def _lookup_key(text: str) -> str:
    """Return the key a star is looked up by: ``text`` lowercase, without blanks around it or
    the leading comma of a nomenclature (``,alTau``)."""
    return text.strip().lstrip(",").strip().lower()


def is_star(text: str) -> bool:
    """Return True when ``text`` names a star of the file (as :func:`find_star` reads it).

    Reads the names without the file (:mod:`kernel.star_names`), so the body
    vocabulary works where the ephemeris files are absent."""
    return _lookup_key(text) in STAR_NAMES


def star_key(text: str) -> str:
    """Return the key the star named ``text`` is looked up by (as :func:`find_star` reads
    it), read without the file (:mod:`kernel.star_names`, so the gateway refuses an
    unknown star where the ephemeris files are absent). Unknown names raise BodyNotFound."""
    key = _lookup_key(text)
    if key not in STAR_NAMES:
        raise BodyNotFound(
            f"No star named {text!r} in the Swiss Ephemeris star file.",
            suggesting=lambda param: (
                "Send a traditional name such as Aldebaran, Regulus or Spica, a designation such as alTau, or "
                f"{param}=all."
            ),
        )
    return key


def find_star(text: str) -> FixedStar:
    """Return the star named ``text``: a traditional name (``Aldebaran``) or a nomenclature
    (``alTau``, also written ``,alTau``), any case. Unknown names raise BodyNotFound
    (:func:`star_key`); tests/unit/kernel/test_star_names.py keeps the names and the file as one."""
    return _index()[1][star_key(text)]


def star_position(star: FixedStar, moment: Moment, ayanamsha: Ayanamsha | None = None) -> StarPosition:
    """Return ``star``'s apparent place of date at ``moment`` (sidereal longitude with ``ayanamsha``)."""
    return star_positions((star,), moment, ayanamsha)[0]


def star_positions(
    stars: Sequence[FixedStar], moment: Moment, ayanamsha: Ayanamsha | None = None
) -> list[StarPosition]:
    """Return each of ``stars``' apparent place of date at ``moment`` (sidereal longitudes
    with ``ayanamsha``), in order."""
    if ayanamsha is None:
        ecliptic = engine.fixed_stars(stars, moment.jd_ut1, 0)
    else:
        with engine.configured(sidereal_mode=ayanamsha.id):
            ecliptic = engine.fixed_stars(stars, moment.jd_ut1, engine.FLG_SIDEREAL)
    equatorial = engine.fixed_stars(stars, moment.jd_ut1, engine.FLG_EQUATORIAL)
    return [
        StarPosition(
            star,
            normalize_deg(longitude),
            latitude,
            normalize_deg(right_ascension),
            declination,
            engine.fixed_star_magnitude(star),
        )
        for star, (longitude, latitude), (right_ascension, declination) in zip(stars, ecliptic, equatorial)
    ]
