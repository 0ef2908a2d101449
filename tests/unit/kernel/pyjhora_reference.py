"""PyJHora (pyjhora, a test-only dependency: requirements-dev.txt) as the independent reference
of the Jyotish kernel: nakshatras and padas, Vimshottari boundaries, varga signs, the
Ashtakoota's kootas, the manglik status and the ashtakavarga's bindus.

PyJHora keeps its conventions in module globals and sets Swiss Ephemeris's own (the sidereal
mode, the ephemeris path), so it runs in a child process (``python -m
tests.unit.kernel.pyjhora_reference``) and never shares the kernel's engine; a test that asks it
takes the ``processes`` fixture (it runs in ``make test-all``). The child reads one JSON request
on stdin and writes one JSON answer on stdout. Its conventions are set to
ours (docs/vedic.md, "PyJHora"): Lahiri (``drik.set_ayanamsa_mode("LAHIRI")``), the mean node
(``const.set_node_mode(False)``), apparent positions (``const.PLANET_POSITIONS_TRUE = False``;
PyJHora's default is true positions, without aberration) from our ephemeris files, and the
dasha year our request names (``vimsottari.year_duration``, the module global its period
functions read). Its Julian Day is a local one with the place's zone offset: we send UT with
a zero offset.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
EPHE = ROOT / "data" / "ephe"
# Parashara's rule of each varga among PyJHora's chart methods (horoscope/chart/charts.py):
# hora's "traditional Parasara (only Le & Cn)" is method 2, every other's is method 1.
CHART_METHODS = {2: 2}


def reference(request: dict) -> dict:
    """Return PyJHora's answer to ``request`` (see :func:`_answer`), computed in a child process."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.unit.kernel.pyjhora_reference"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def bhakoot_table() -> list[list[float]]:
    """Return PyJHora's bhakoot table (compatibility.raasi_array: rows the bride's sign, columns
    the groom's, Aries first), read in a child process."""
    return reference({"bhakoot_table": True})["bhakoot_table"]


def _answer(request: dict) -> dict:
    """Answer ``{births: [{jd}], year_days, levels, points: [[[sign, degree], ...], ...], factors,
    days: [{jd, lat, lon}]}``:
    for each birth the sidereal longitude of Sun..Saturn, Rahu and Ketu (PyJHora's ids 0-8),
    their nakshatras and padas, the lagna's longitude, nakshatra and pada, and the Vimshottari periods as [level, lord
    id, start jd]; for each list of (sign, degree) points its signs in each varga factor; for each match [groom's
    nakshatra, pada, bride's nakshatra, pada] its Ashtakoota (North) scores; for each list of points its manglik status
    from the lagna, the Moon and Venus; for each day (the UT date of ``jd``) its sunrise (PyJHora's: the Hindu rising)
    and the tithi, nakshatra and yoga at that sunrise, each [index, end], as UT Julian Days; for each birth, from its
    own positions, its ashtakavarga as 0/1 flags [graha 0-6][contributor 0-7, the lagna 7][sign 0-11] (the prastara);
    for each of ``reductions`` ({bindus, after_trikona, after_ekadhipatya: seven rows of twelve, signs: the seven
    grahas' signs}) its trikona shodhana of bindus, its ekadhipatya shodhana of after_trikona (every pair of every row:
    see below), and its rasi, graha and shodhya pindas of after_ekadhipatya; and, given ``sarvashtakavarga`` and
    ``sarvashtakavarga_after_trikona`` (twelve each), its trikona shodhana of the one and ekadhipatya shodhana of the
    other, the same functions. Only the seven grahas occupy a sign."""
    import swisseph as swe
    from jhora import const, utils
    from jhora.horoscope.chart import ashtakavarga, charts
    from jhora.horoscope.dhasa.graha import vimsottari
    from jhora.panchanga import drik

    const.set_node_mode(False)
    const.PLANET_POSITIONS_TRUE = False
    drik.PLANET_FLAGS = utils.set_flags_for_planet_positions()
    swe.set_ephe_path(str(EPHE))
    drik.set_ayanamsa_mode("LAHIRI")
    vimsottari.year_duration = request.get("year_days", const.sidereal_year)
    ids = [
        const._SUN,
        const._MOON,
        const._MARS,
        const._MERCURY,
        const._JUPITER,
        const._VENUS,
        const._SATURN,
        const._RAHU,
        const._KETU,
    ]
    births = []
    for birth in request.get("births", []):
        jd = birth["jd"]
        place = drik.Place("birth", birth.get("lat", 0.0), birth.get("lon", 0.0), 0.0)
        longitudes = [drik.sidereal_longitude(jd, planet) for planet in ids]
        periods = []
        for lord, start in vimsottari.vimsottari_mahadasa(jd, place).items():
            periods.append([1, lord, start])
            if request.get("levels", 1) >= 2:
                for sub, sub_start in vimsottari._vimsottari_bhukti(lord, start).items():
                    periods.append([2, sub, sub_start])
                    if request.get("levels", 1) >= 3:
                        for inner, inner_start in vimsottari._vimsottari_antara(lord, sub, sub_start).items():
                            periods.append([3, inner, inner_start])
        sign, degree, *lagna_nakshatra = drik.ascendant(jd, place)
        chart = [""] * 12
        for planet, longitude in zip([*range(9), const._ascendant_symbol], [*longitudes, sign * 30 + degree]):
            house = int(longitude // 30) % 12
            chart[house] = "/".join(x for x in (chart[house], str(planet)) if x)
        prastara = ashtakavarga.get_ashtaka_varga(chart)[2]
        # The kala bala reads the clock as local time (noon near 12h): local mean time, its zone
        # the longitude's share of a day.
        zone = birth.get("lon", 0.0) / 15.0
        local = drik.Place("birth", birth.get("lat", 0.0), birth.get("lon", 0.0), zone)
        shadbala = strength_parts(jd + zone / 24.0, local) if request.get("shadbala") else None
        births.append(
            {
                "longitudes": longitudes,
                "nakshatras": [drik.nakshatra_pada(x)[:2] for x in longitudes],
                "periods": periods,
                "lagna": sign * 30 + degree,
                "lagna_nakshatra": lagna_nakshatra,
                "ashtakavarga": [[prastara[graha][contributor] for contributor in range(8)] for graha in range(7)],
                "shadbala": shadbala,
            }
        )
    const.use_planet_speed_for_panchangam_end_timings = False  # its inverse Lagrange, not the linear speed
    days = []
    for day in request.get("days", []):
        # Zone 0: PyJHora evaluates the Sun and Moon at its sunrise's local Julian Day as if it
        # were UT (drik._get_tithi and its peers), right only where the zone is 0 (docs/vedic.md).
        place = drik.Place("day", day["lat"], day["lon"], 0.0)
        jd = day["jd"]
        midnight = math.floor(jd - 0.5) + 0.5
        tithi, nakshatra, yoga = drik.tithi(jd, place), drik.nakshatra(jd, place), drik.yogam(jd, place)
        days.append(
            {
                "sunrise": drik.sunrise(jd, place)[2],
                "tithi": [tithi[0], midnight + tithi[2] / 24.0],
                "nakshatra": [nakshatra[0], midnight + nakshatra[3] / 24.0],
                "yoga": [yoga[0], midnight + yoga[2] / 24.0],
            }
        )
    vargas = []
    for points in request.get("points", []):
        rasi = [[i, [sign, degree]] for i, (sign, degree) in enumerate(points)]
        vargas.append(
            {
                str(factor): [
                    r
                    for _, (r, _) in charts.divisional_positions_from_rasi_positions(
                        rasi, factor, CHART_METHODS.get(factor, 1)
                    )
                ]
                for factor in request.get("factors", [])
            }
        )
    from jhora.horoscope.chart import dosha
    from jhora.horoscope.match.compatibility import Ashtakoota

    matches = []
    for boy_star, boy_pada, girl_star, girl_pada in request.get("matches", []):
        # compatibility_score's order: varna, vashya, gana, tara, yoni, maitri, bhakoot, nadi, total.
        scores = Ashtakoota(boy_star, boy_pada, girl_star, girl_pada, method="North").compatibility_score()
        matches.append([float(x) for x in scores[:9]])
    mangliks = []
    for points in request.get("manglik", []):
        # points: [sign, degree] of Sun..Ketu (its ids 0-8), then the lagna; the lagna's and the
        # 2nd house counted with Mars's 4th, 7th, 8th and 12th (our MANGLIK_HOUSES), no exception.
        positions = [["L", tuple(points[9])]] + [[i, tuple(p)] for i, p in enumerate(points[:9])]
        mangliks.append(
            [
                bool(
                    dosha.manglik(
                        positions, reference, include_lagna_house=True, include_2nd_house=True, apply_exceptions=False
                    )[0]
                )
                for reference in ("L", 1, 5)
            ]
        )
    reductions = []
    for asked in request.get("reductions", []):
        # asked: our bhinnashtakavargas Sun..Saturn (bindus Aries first), each reduced by our
        # trikona and then ekadhipatya shodhana, and the signs of the seven grahas.
        chart = [""] * 12
        for planet, sign in enumerate(asked["signs"]):
            chart[sign] = "/".join(x for x in (chart[sign], str(planet)) if x)
        trikona = ashtakavarga._trikona_sodhana([list(row) for row in asked["bindus"]])
        ekadhipatya = [_ekadhipatya_of(row, chart) for row in asked["after_trikona"]]
        pindas = ashtakavarga._sodhya_pindas([list(row) for row in asked["after_ekadhipatya"]], chart)
        # The sarvashtakavarga given as every row of its _trikona_sodhana (which reduces rows
        # Sun to Saturn), and our trikona of it to its ekadhipatya, each pair read as above.
        sarvashtakavarga = {}
        if "sarvashtakavarga" in asked:
            sarvashtakavarga = {
                "trikona": ashtakavarga._trikona_sodhana([list(asked["sarvashtakavarga"]) for _ in range(7)])[0],
                "ekadhipatya": _ekadhipatya_of(asked["sarvashtakavarga_after_trikona"], chart),
            }
        reductions.append(
            {
                "trikona": trikona,
                "ekadhipatya": ekadhipatya,
                "pindas": [[int(x) for x in pinda] for pinda in pindas],
                "sarvashtakavarga": sarvashtakavarga,
            }
        )
    from jhora.horoscope.match.compatibility import raasi_array

    table = raasi_array if request.get("bhakoot_table") else None
    return {
        "births": births,
        "vargas": vargas,
        "days": days,
        "matches": matches,
        "mangliks": mangliks,
        "bhakoot_table": table,
        "reductions": reductions,
    }


def _ekadhipatya_of(row: list[int], chart: list[str]) -> list[int]:
    """Return PyJHora's ekadhipatya shodhana of one row of twelve bindus in ``chart`` (its
    strings of occupants per sign). Its _ekadhipatya_sodhana reduces in row p only the signs
    of planet p (Mars to Saturn): the row is given as every row, and each pair read from its
    lord's."""
    from jhora import const
    from jhora.horoscope.chart import ashtakavarga

    rows = ashtakavarga._ekadhipatya_sodhana([list(row) for _ in range(7)], chart)
    reduced = list(row)
    for lord in range(2, 7):
        for sign in const.ashtakavarga_rasi_owners[lord]:
            reduced[sign] = rows[lord][sign]
    return reduced


def strength_parts(jd: float, place) -> dict:
    """Return PyJHora's shadbala of a birth (strength.shad_bala, its parts as its
    strength module computes them), each a list Sun..Saturn, virupas; ``total`` its sum;
    ``mean`` and ``true`` the sidereal mean and true longitudes its chesta bala reads."""
    from jhora.horoscope.chart import strength

    names = ("sthana", "kala", "dig", "chesta", "naisargika", "drik", "total", "rupas", "ratio")
    parts = dict(zip(names, strength.shad_bala(jd, place), strict=True))
    parts["uchcha"] = strength._uchcha_bala(strength.charts.rasi_chart(jd, place)[:10])
    parts["saptavargaja"] = strength._sapthavargaja_bala1(jd, place)
    for name, function in (
        ("nathonnatha", strength._nathonnath_bala),
        ("paksha", strength._paksha_bala),
        ("tribhaga", strength._tribhaga_bala),
        ("abda", strength._abdadhipathi),
        ("masa", strength._masadhipathi),
        ("vara", strength._vaaradhipathi),
        ("hora", strength._hora_bala),
        ("ayana", strength._ayana_bala),
        ("yuddha", strength._yuddha_bala),
    ):
        parts[name] = [float(x) for x in function(jd, place)]
    # The mean places its chesta bala (_cheshta_bala_new, from shad_bala) reads: the Sun's by
    # its mean motion, Mars to Saturn's from its epoch tables; and the true places beside them.
    parts["mean"] = [strength.get_planet_mean_longitude(jd, place, 0), 0.0] + [
        strength.get_planet_mean_longitude_using_epoch_table(jd, place, p) for p in range(2, 7)
    ]
    positions = strength.drik.dhasavarga(jd, place, divisional_chart_factor=1)[:7]
    parts["true"] = [sign * 30 + degree for _, (sign, degree) in positions]
    return {k: [float(x) for x in v] for k, v in parts.items()}


if __name__ == "__main__":
    print(json.dumps(_answer(json.loads(sys.stdin.read()))))
