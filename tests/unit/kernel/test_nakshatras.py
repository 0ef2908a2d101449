"""kernel/nakshatras.py: the 27 nakshatras, their padas and lords (BPHS ch. 46), against the
spans the standard texts state and against PyJHora over random births."""

from __future__ import annotations

import pytest

from kernel.nakshatras import COUNT, NAKSHATRA_TABLE, PADA_DEG, SPAN_DEG, nakshatra_of
from kernel.positions import Observer
from kernel.timescale import Moment
from kernel.vedic_chart import cast_vedic_chart
from tests.unit.kernel.jyotish_births import LAHIRI, PYJHORA_ORDER, charts, pyjhora


def dms(sign: int, degrees: int, minutes: int, seconds: float = 0.0) -> float:
    """Return the longitude of a sign (0 Aries) and degrees, minutes, seconds in it."""
    return sign * 30 + degrees + minutes / 60 + seconds / 3600


def test_each_nakshatra_spans_13_degrees_20_minutes_of_four_padas_from_ashwini_at_0_aries():
    assert COUNT == 27 and SPAN_DEG * 60 == pytest.approx(800) and PADA_DEG * 60 == pytest.approx(200)
    assert (nakshatra_of(0.0).name, nakshatra_of(0.0).pada) == ("ashwini", 1)
    assert (nakshatra_of(359.999).name, nakshatra_of(359.999).pada) == ("revati", 4)


def test_the_lords_run_ketu_to_mercury_three_times_round_as_bphs_counts_them_from_krittika():
    lords = [lord for _, lord in NAKSHATRA_TABLE]
    assert lords[:9] * 3 == lords
    assert lords[2:] + lords[:2] == ["sun", "moon", "mars", "rahu", "jupiter", "saturn", "mercury", "ketu", "venus"] * 3


@pytest.mark.parametrize(
    ("start", "end", "name", "lord", "source"),
    [
        # Krishnamurti Paddhati reader (futuresamachar.com, "Krishnamurti Paddhati", step 7):
        # "Poorvabhadrapad star which extends from 20 deg. Aquarius to 3 deg. 20 mts. Pisces".
        (dms(10, 20, 0), dms(11, 3, 20), "purva_bhadrapada", "jupiter", "KP reader"),
        # horosoft.net, "Calculation of Major Periods": "Swati Nakshatra is from 6° 40' to 20° 0'" of Libra, lord Rahu.
        (dms(6, 6, 40), dms(6, 20, 0), "swati", "rahu", "horosoft"),
        # B. V. Raman, A Manual of Hindu Astrology, table of constellations: Krittika from 26°40' Aries to 10° Taurus,
        # the Sun's.
        (dms(0, 26, 40), dms(1, 10, 0), "krittika", "sun", "Raman"),
    ],
)
def test_a_nakshatra_spans_what_the_texts_say(start, end, name, lord, source):
    inside = [nakshatra_of(x) for x in (start + 1e-9, (start + end) / 2, end - 1e-9)]
    assert {(n.name, n.lord) for n in inside} == {(name, lord)}, source
    assert nakshatra_of(end + 1e-9).name != name


def test_the_moon_of_saravalis_worked_example_stands_in_purva_phalguni_third_pada():
    # saravali.de, "Dasa Balance": born 1935-07-06 5:38:16 UT, 91°41' E 29°43' N; "Moon's
    # position is 20 37'00" leo (Lahiri Ayanamsa). Birth Nakshatra is Purva Phalguni 3rd Pada."
    chart = cast_vedic_chart(Moment.from_iso("1935-07-06T05:38:16Z"), Observer(29 + 43 / 60, 91 + 41 / 60), LAHIRI)
    moon = next(p for p in chart.points if p.name == "moon")
    assert moon.longitude == pytest.approx(dms(4, 20, 37), abs=1 / 60)  # the text's whole minute
    assert (moon.nakshatra.name, moon.nakshatra.pada, moon.nakshatra.lord) == ("purva_phalguni", 3, "venus")


def test_every_grahas_nakshatra_and_pada_are_pyjhoras_over_300_random_births(processes):
    """Same ayanamsha (Lahiri), node (mean) and positions (apparent): identical, and the
    longitudes themselves within a thousandth of an arcsecond."""
    reference = pyjhora()["births"]
    for chart, theirs in zip(charts(), reference):
        ours = {p.name: p for p in chart.points}
        for index, name in enumerate(PYJHORA_ORDER[:9]):
            point = ours[name]
            assert point.longitude == pytest.approx(theirs["longitudes"][index], abs=3e-7), name
            assert [point.nakshatra.index, point.nakshatra.pada] == theirs["nakshatras"][index], name


def test_the_lagnas_nakshatra_and_pada_are_pyjhoras_over_300_random_births(processes):
    """PyJHora's lagna is Swiss Ephemeris's sidereal Ascendant as ours is: the same to a
    millionth of a degree, and its nakshatra and pada identical."""
    for chart, theirs in zip(charts(), pyjhora()["births"]):
        lagna = next(p for p in chart.points if p.name == "lagna")
        assert lagna.longitude == pytest.approx(theirs["lagna"], abs=1e-6)
        assert [lagna.nakshatra.index, lagna.nakshatra.pada] == theirs["lagna_nakshatra"]
