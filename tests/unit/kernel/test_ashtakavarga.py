"""kernel/ashtakavarga.py: the table's totals as BPHS ch. 66 gives them, one bhinnashtakavarga
counted by hand from the table, the invariant 337, and PyJHora 4.8.7's bindus over 300 random
births: identical contributor by contributor, sign by sign, but in the four cells where its
table is not BPHS's (docs/vedic.md, "Differences from PyJHora")."""

from __future__ import annotations

from kernel.ashtakavarga import (
    BENEFIC_PLACES,
    CONTRIBUTORS,
    GRAHAS,
    SARVASHTAKAVARGA_TOTAL,
    TOTALS,
    ashtakavarga,
    bhinnashtakavarga,
)
from tests.unit.kernel.jyotish_births import charts, pyjhora

#: The cells where PyJHora's table (const.ashtaka_varga_dict) differs from BPHS ch. 66:
#: (graha, contributor, place counted from the contributor) -> (ours, PyJHora's) bindu.
PYJHORA_TABLE_DIFFERENCES = {
    ("moon", "moon", 9): (0, 1),
    ("moon", "mars", 9): (1, 0),
    ("moon", "jupiter", 2): (0, 1),
    ("moon", "jupiter", 12): (1, 0),
    ("venus", "mars", 4): (0, 1),
    ("venus", "mars", 5): (1, 0),
}


def signs_of(chart) -> dict[str, int]:
    """Return the sign (0 Aries) of each of a Vedic chart's contributors."""
    return {p.name: int(p.longitude // 30.0) % 12 for p in chart.points if p.name in CONTRIBUTORS}


def test_each_grahas_bindus_in_all_are_bphs_48_49_39_54_56_52_39_and_337():
    assert TOTALS == {"sun": 48, "moon": 49, "mars": 39, "mercury": 54, "jupiter": 56, "venus": 52, "saturn": 39}
    assert SARVASHTAKAVARGA_TOTAL == 337


def test_the_table_names_eight_contributors_for_each_of_the_seven_grahas_places_1_to_12():
    assert set(BENEFIC_PLACES) == set(GRAHAS)
    for rows in BENEFIC_PLACES.values():
        assert len(rows) == len(CONTRIBUTORS) == 8
        for places in rows:
            assert list(places) == sorted(set(places)) and set(places) <= set(range(1, 13))


def test_the_suns_bhinnashtakavarga_counted_by_hand_from_the_table():
    """Sun and Mercury in Aries, Moon in Taurus, Mars in Gemini, Jupiter in Cancer, Venus in
    Pisces, Saturn in Capricorn, the lagna in Leo. The Sun's places from each, as signs:
    from the Sun (Aries) 1,2,4,7,8,9,10,11: Ar Ta Cn Li Sc Sg Cp Aq; from the Moon (Taurus)
    3,6,10,11: Cn Li Aq Pi; from Mars (Gemini) 1,2,4,7,8,9,10,11: Ge Cn Vi Sg Cp Aq Pi Ar; from
    Mercury (Aries) 3,5,6,9,10,11,12: Ge Le Vi Sg Cp Aq Pi; from Jupiter (Cancer) 5,6,9,11: Sc Sg
    Pi Ta; from Venus (Pisces) 6,7,12: Le Vi Aq; from Saturn (Capricorn) 1,2,4,7,8,9,10,11: Cp
    Aq Ar Cn Le Vi Li Sc; from the lagna (Leo) 3,4,6,10,11,12: Li Sc Cp Ta Ge Cn. Counted per
    sign, Aries to Pisces: 3 3 3 5 3 4 4 4 4 5 6 4, 48 in all; Aquarius's six from the Sun,
    Moon, Mars, Mercury, Venus and Saturn."""
    signs = {"sun": 0, "moon": 1, "mars": 2, "mercury": 0, "jupiter": 3, "venus": 11, "saturn": 9, "lagna": 4}
    sun = bhinnashtakavarga("sun", signs)
    assert sun.bindus == (3, 3, 3, 5, 3, 4, 4, 4, 4, 5, 6, 4)
    assert sun.contributors[10] == ("sun", "moon", "mars", "mercury", "venus", "saturn")
    assert sun.contributors[0] == ("sun", "mars", "saturn")


def test_every_chart_has_each_grahas_total_and_337_in_the_sarvashtakavarga():
    for chart in charts():
        result = ashtakavarga(signs_of(chart))
        assert {b.graha: sum(b.bindus) for b in result.bhinnashtakavargas} == TOTALS
        assert sum(result.sarvashtakavarga) == 337
        assert result.sarvashtakavarga == tuple(
            sum(b.bindus[sign] for b in result.bhinnashtakavargas) for sign in range(12)
        )


def test_the_bindus_are_pyjhoras_over_300_random_births_but_where_its_table_differs(processes):
    """PyJHora casts each birth itself (Lahiri, the mean node, our ephemeris files); its
    prastara gives each contributor's bindu in each sign. Every cell is ours but the six of
    PYJHORA_TABLE_DIFFERENCES, each found in every chart: its Moon takes the 9th from the Moon
    and not from Mars, the 2nd from Jupiter and not the 12th; its Venus the 4th from Mars and
    not the 5th."""
    births = pyjhora()["births"]
    assert len(births) == 300
    for chart, theirs in zip(charts(), births, strict=True):
        signs = signs_of(chart)
        ours = ashtakavarga(signs)
        differences = {}
        for g, graha in enumerate(GRAHAS):
            bav = ours.bhinnashtakavargas[g]
            for c, contributor in enumerate(CONTRIBUTORS):
                for sign in range(12):
                    mine = int(contributor in bav.contributors[sign])
                    if mine != theirs["ashtakavarga"][g][c][sign]:
                        place = (sign - signs[contributor]) % 12 + 1
                        differences[(graha, contributor, place)] = (mine, theirs["ashtakavarga"][g][c][sign])
        assert differences == PYJHORA_TABLE_DIFFERENCES
