"""The random births the Jyotish kernel tests compare with PyJHora (seeded, so every run checks
the same ones), our chart of each, and PyJHora's answer for them, computed once per test run
(``tests/unit/kernel/pyjhora_reference.py``)."""

from __future__ import annotations

import random
from functools import lru_cache

from kernel.ashtakavarga import GRAHAS, ashtakavarga
from kernel.ayanamshas import parse_ayanamsha
from kernel.positions import Observer
from kernel.timescale import Moment
from kernel.vedic_chart import VedicChart, cast_vedic_chart
from kernel.vimshottari import YEAR_LENGTHS
from tests.unit.kernel.pyjhora_reference import reference

COUNT = 300
LAHIRI = parse_ayanamsha("lahiri")
YEAR_DAYS = YEAR_LENGTHS["sidereal"]
#: Our point names in PyJHora's order of ids (0 Sun ... 6 Saturn, 7 Rahu, 8 Ketu), then the lagna.
PYJHORA_ORDER = ("sun", "moon", "mars", "mercury", "jupiter", "venus", "saturn", "rahu", "ketu", "lagna")
#: The varga factors PyJHora is asked for: Parashara's sixteen but the rasi itself.
FACTORS = (2, 3, 4, 7, 9, 10, 12, 16, 20, 24, 27, 30, 40, 45, 60)
DASHA_LEVELS = 3


@lru_cache(maxsize=1)
def births() -> tuple[tuple[float, float, float], ...]:
    """Return the births (UT1 Julian Day, latitude, longitude): 1900 to 2050, latitudes within
    the polar circles (where the lagna is defined every day)."""
    rng = random.Random(41)
    return tuple(
        (rng.uniform(2415020.5, 2469807.5), rng.uniform(-60.0, 60.0), rng.uniform(-180.0, 180.0)) for _ in range(COUNT)
    )


@lru_cache(maxsize=1)
def charts() -> tuple[VedicChart, ...]:
    """Return our Lahiri, mean-node chart of each birth."""
    return tuple(
        cast_vedic_chart(Moment.from_jd_ut1(jd), Observer(lat, lon), LAHIRI, node="mean") for jd, lat, lon in births()
    )


@lru_cache(maxsize=1)
def pyjhora() -> dict:
    """Return PyJHora's positions, nakshatras and Vimshottari periods of each birth (three
    levels, our year), its varga signs and manglik status of each chart's points from our rasi
    positions, its Ashtakoota of each of match_pairs() from our Moons' nakshatras and padas, and
    its ashtakavarga reductions of our bindus."""
    points = [
        [
            [int(p.longitude // 30) % 12, p.longitude % 30]
            for p in sorted(chart.points, key=lambda p: PYJHORA_ORDER.index(p.name))
        ]
        for chart in charts()
    ]
    request = {
        "births": [{"jd": jd, "lat": lat, "lon": lon} for jd, lat, lon in births()],
        "year_days": YEAR_DAYS,
        "levels": DASHA_LEVELS,
        "points": points,
        "factors": list(FACTORS),
        "matches": [[*_star(groom), *_star(bride)] for groom, bride in match_pairs()],
        "manglik": points,
        "reductions": [_reductions(chart) for chart in charts()],
    }
    return reference(request)


def _reductions(chart: VedicChart) -> dict:
    """Return what PyJHora's ashtakavarga reductions are asked for one chart: our bindus and
    their reductions, our sarvashtakavarga and its trikona shodhana, and the seven grahas'
    signs."""
    signs = {p.name: int(p.longitude // 30) % 12 for p in chart.points}
    found = ashtakavarga(signs)
    return {
        "bindus": [list(b.bindus) for b in found.bhinnashtakavargas],
        "after_trikona": [list(r.after_trikona) for r in found.reductions],
        "after_ekadhipatya": [list(r.after_ekadhipatya) for r in found.reductions],
        "sarvashtakavarga": list(found.sarvashtakavarga),
        "sarvashtakavarga_after_trikona": list(found.sarvashtakavarga_reduction.after_trikona),
        "signs": [signs[graha] for graha in GRAHAS],
    }


def match_pairs() -> list[tuple[VedicChart, VedicChart]]:
    """Return the matches compared: each chart the groom of the next one's bride, round the
    list (COUNT pairs)."""
    every = charts()
    return [(every[i], every[(i + 1) % COUNT]) for i in range(COUNT)]


def _star(chart: VedicChart) -> tuple[int, int]:
    moon = next(p for p in chart.points if p.name == "moon")
    return moon.nakshatra.index, moon.nakshatra.pada


@lru_cache(maxsize=1)
def pyjhora_shadbala() -> list[dict]:
    """Return PyJHora's shadbala of each birth and its parts (Sun..Saturn, virupas), computed
    on local mean time (tests/unit/kernel/pyjhora_reference.py)."""
    request = {"births": [{"jd": jd, "lat": lat, "lon": lon} for jd, lat, lon in births()], "shadbala": True}
    return [birth["shadbala"] for birth in reference(request)["births"]]
